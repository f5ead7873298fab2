//! The languages of the game and the rules screen's text.
//!
//! The rules are summarised in the project's own words from the source texts
//! in docs/RULES.md (rule ids as there).

/// The language of the rules screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
}

impl Lang {
    /// Parses `en` or `fr` (any case; `en_GB.UTF-8` style locales too).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("fr") {
            Some(Lang::Fr)
        } else if s.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The language named by the locale variables (`LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG`), English when none names a language we have.
    pub fn from_env() -> Lang {
        Lang::from_locale_vars(|name| std::env::var(name).ok())
    }

    /// [`from_env`](Self::from_env) with the variables given by `get`.
    pub fn from_locale_vars(get: impl Fn(&str) -> Option<String>) -> Lang {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Some(v) = get(name) {
                if v.is_empty() {
                    continue;
                }
                return Lang::parse(&v).unwrap_or(Lang::En);
            }
        }
        Lang::En
    }

    /// The other language.
    pub fn toggled(self) -> Lang {
        match self {
            Lang::En => Lang::Fr,
            Lang::Fr => Lang::En,
        }
    }

    /// The rules screen's title.
    pub fn rules_title(self) -> &'static str {
        match self {
            Lang::En => "How to play Oware Abapa",
            Lang::Fr => "Comment jouer à l'Awalé (Abapa)",
        }
    }

    /// The rules, one paragraph per entry (headings start with `#`).
    pub fn rules(self) -> &'static [&'static str] {
        match self {
            Lang::En => RULES_EN,
            Lang::Fr => RULES_FR,
        }
    }

    /// The key line under the rules screen.
    pub fn rules_keys(self) -> &'static str {
        match self {
            Lang::En => "↑↓ PgUp PgDn scroll · g Français · Esc back",
            Lang::Fr => "↑↓ PgUp PgDn défiler · g English · Échap retour",
        }
    }
}

const RULES_EN: &[&str] = &[
    "# The board",
    "Two rows of six houses face each other; your row is the one at the bottom, \
     lettered A to F from your left. The opponent's houses are a to f, seen from \
     their own side. Each player also has a store for the seeds they win. The game \
     starts with four seeds in every house (48 seeds) and empty stores. Who moves \
     first is chosen or drawn by lot; then turns alternate (R1, R2).",
    "# A move",
    "Pick one of your own houses that holds seeds, lift them all and drop them one \
     at a time into the following houses, going counter-clockwise: rightwards along \
     your row, then leftwards along the opponent's. Stores never receive seeds. With \
     twelve seeds or more you go all the way round, and the house you emptied is \
     passed over each time (R3, R4).",
    "# Capturing",
    "Only the house that got the last seed matters. If it is on the opponent's side \
     and now holds two or three seeds, you take them. Then look at the house just \
     before it: if it is also the opponent's and holds two or three, take those too, \
     and keep going backwards until a house breaks the pattern or you reach the end \
     of their row. Houses that reached two or three earlier in the sowing are not \
     taken on their own account. A capture never earns an extra turn (R5, R6).",
    "# Leave the opponent something",
    "If a capture would take every seed left in the opponent's row, it is called off \
     entirely: the seeds stay where they were sown and play passes on (R7). When the \
     opponent's row is empty at the start of your turn, you must choose a move that \
     sends at least one seed there, if you have one (R8).",
    "# The end",
    "You win as soon as your store reaches 25 seeds; 24 each is a draw (R10). If the \
     opponent's row is empty and no move can reach it, the game stops and you keep \
     the seeds on your own side (R9). When the same position comes back a third time \
     with no capture in between, or when both players agree that play is going round \
     in circles, each side keeps the seeds in its own row and the totals decide \
     (R11, R12). A player may also resign.",
    "# Tips",
    "Before you move, count where your last seed will fall (the game marks it for \
     you). Then ask what your opponent could take in reply (the game can warn you). \
     A house that builds up a big pile is a resource: later it can reach the far side \
     and feed or capture.",
];

const RULES_FR: &[&str] = &[
    "# Le plateau",
    "Deux rangées de six cases se font face\u{a0}; la vôtre est en bas, lettrée de A à F \
     en partant de votre gauche. Les cases adverses portent les lettres a à f, vues \
     de l'autre côté. Chaque joueur a aussi un grenier pour les graines gagnées. Au \
     départ, chaque case contient quatre graines (48 en tout) et les greniers sont \
     vides. Le premier joueur est choisi ou tiré au sort, puis chacun joue à son tour \
     (R1, R2).",
    "# Jouer un coup",
    "Prenez toutes les graines d'une de vos cases non vides et posez-les une par une \
     dans les cases suivantes, dans le sens inverse des aiguilles d'une montre\u{a0}: vers \
     la droite sur votre rangée, puis vers la gauche chez l'adversaire. Les greniers \
     ne reçoivent jamais de graine. À partir de douze graines, on fait le tour complet \
     en passant à chaque fois par-dessus la case vidée (R3, R4).",
    "# Prendre des graines",
    "Seule compte la case où tombe la dernière graine. Si elle est dans le camp adverse \
     et contient maintenant deux ou trois graines, vous les gagnez. Examinez alors la \
     case précédente\u{a0}: si elle est aussi chez l'adversaire avec deux ou trois graines, \
     prenez-les également, et continuez ainsi à reculer jusqu'à une case qui ne convient \
     pas ou jusqu'au bout de sa rangée. Une case passée à deux ou trois plus tôt dans \
     le semis ne compte pas pour elle-même. Une prise ne donne jamais de tour en plus \
     (R5, R6).",
    "# Laisser jouer l'adversaire",
    "Si une prise devait vider toute la rangée adverse, elle est annulée en entier\u{a0}: \
     les graines restent où elles ont été semées et la main passe (R7). Si la rangée \
     adverse est vide au début de votre tour, vous devez jouer un coup qui y dépose au \
     moins une graine, s'il en existe un (R8).",
    "# La fin de la partie",
    "Vous gagnez dès que votre grenier atteint 25 graines\u{a0}; à 24 partout, c'est match \
     nul (R10). Si la rangée adverse est vide et qu'aucun coup ne peut l'atteindre, la \
     partie s'arrête et vous gardez les graines de votre côté (R9). Quand une même \
     position revient pour la troisième fois sans prise entre-temps, ou quand les deux \
     joueurs constatent que la partie tourne en rond et décident d'arrêter, chacun \
     garde les graines de sa rangée et on compare les totaux (R11, R12). Un joueur peut \
     aussi abandonner.",
    "# Conseils",
    "Avant de jouer, comptez où tombera votre dernière graine (le jeu la signale). \
     Demandez-vous ensuite ce que l'adversaire pourra prendre en réponse (le jeu peut \
     vous prévenir). Une case qui accumule beaucoup de graines est une réserve\u{a0}: plus \
     tard, elle pourra atteindre l'autre camp pour le nourrir ou pour prendre.",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_picks_french_and_falls_back_to_english() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_locale_vars(env(&[("LANG", "fr_FR.UTF-8")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "fr_FR")])),
            Lang::En
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LC_ALL", ""), ("LANG", "fr_CA")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LANG", "de_DE.UTF-8")])),
            Lang::En
        );
        assert_eq!(Lang::from_locale_vars(env(&[])), Lang::En);
        assert_eq!(Lang::parse("FR"), Some(Lang::Fr));
        assert_eq!(Lang::parse("xx"), None);
    }
}
