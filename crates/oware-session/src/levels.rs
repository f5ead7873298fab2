//! The computer's levels as people read them: the name, the number and the
//! measured strength, in English and French.

use oware_engine::Level;

use crate::Lang;

/// Elo above level 1, rounded to tens: the sums of the measured steps of
/// docs/ENGINE.md, "Strength" (each level against the one below, 200
/// games a step at 100 ms a move, commit 0798b39). Remeasure and update
/// both together.
const ELO_ABOVE_BEGINNER: [u32; 10] = [0, 120, 200, 400, 600, 860, 1330, 1540, 1760, 1930];

/// The level's name with a capital: "Beginner" … "Master", "Débutant" …
/// "Maître".
pub fn name(level: Level, lang: Lang) -> String {
    let name = match lang {
        Lang::En => level.name(),
        Lang::Fr => level.name_fr(),
    };
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "level 3, Learner" / "niveau 3, Apprenti".
pub fn label(level: Level, lang: Lang) -> String {
    format!(
        "{} {}, {}",
        lang.pick("level", "niveau"),
        level.get(),
        name(level, lang)
    )
}

/// The level's measured strength: "the weakest level", "about 400 Elo
/// above Beginner" / "environ 400 points Elo de plus que Débutant".
pub fn strength(level: Level, lang: Lang) -> String {
    let elo = elo_above_beginner(level);
    if elo == 0 {
        return lang
            .pick("the weakest level", "le niveau le plus faible")
            .to_string();
    }
    let beginner = name(Level::MIN, lang);
    match lang {
        Lang::En => format!("about {} Elo above {beginner}", thousands(elo, ',')),
        Lang::Fr => format!(
            "environ {} points Elo de plus que {beginner}",
            thousands(elo, '\u{a0}')
        ),
    }
}

/// The measured Elo of `level` above level 1 (0 for level 1).
pub fn elo_above_beginner(level: Level) -> u32 {
    ELO_ABOVE_BEGINNER[usize::from(level.get()) - 1]
}

/// How to write a level on the command line or in UCI, for error messages:
/// "1 to 10, or a name: beginner, novice, …, master".
pub fn accepted() -> String {
    let names: Vec<&str> = Level::all().map(Level::name).collect();
    format!("1 to 10, or a name: {}", names.join(", "))
}

fn thousands(n: u32, sep: char) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{}{sep}{:03}", n / 1000, n % 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_labels_and_strengths() {
        assert_eq!(name(Level::MIN, Lang::En), "Beginner");
        assert_eq!(name(Level::new(5), Lang::Fr), "Club");
        assert_eq!(name(Level::new(7), Lang::Fr), "Avancé");
        assert_eq!(label(Level::new(3), Lang::En), "level 3, Learner");
        assert_eq!(label(Level::MAX, Lang::Fr), "niveau 10, Maître");
        assert_eq!(strength(Level::MIN, Lang::En), "the weakest level");
        assert_eq!(
            strength(Level::MAX, Lang::En),
            "about 1,930 Elo above Beginner"
        );
        assert_eq!(
            strength(Level::new(4), Lang::Fr),
            "environ 400 points Elo de plus que Débutant"
        );
        assert!(accepted().ends_with("expert, master"));
    }

    #[test]
    fn strength_grows_with_the_level() {
        let elo: Vec<u32> = Level::all().map(elo_above_beginner).collect();
        assert!(elo.windows(2).all(|w| w[0] < w[1]), "{elo:?}");
    }
}
