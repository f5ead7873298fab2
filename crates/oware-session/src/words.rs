//! Sentences shared by every front end: moves played, move lists, the end of
//! a game.

use oware_core::{EndReason, Game, Move, MoveTrace, Side};

use crate::player::{side_name, Player};
use crate::Lang;

/// Moves as a list for people: "B", "B and a", "B, a and C" ("B et a").
pub fn move_list(moves: &[Move], lang: Lang) -> String {
    let letters: Vec<String> = moves.iter().map(|m| m.letter().to_string()).collect();
    match letters.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {} {last}", rest.join(", "), lang.pick("and", "et")),
    }
}

/// What a move did: "You played F and captured 4 (ab)." / "Vous avez joué
/// F et pris 4 (ab)."
pub fn played(who: Player, trace: &MoveTrace, lang: Lang) -> String {
    let mv = trace.mv.letter();
    let n = trace.captured_seeds();
    let houses: String = trace
        .captured
        .iter()
        .rev()
        .map(|(h, _)| h.letter())
        .collect();
    match lang {
        Lang::En => {
            let name = who.name(lang);
            if n > 0 {
                format!("{name} played {mv} and captured {n} ({houses}).")
            } else if trace.grand_slam {
                format!(
                    "{name} played {mv}: that capture would have emptied the whole row, so nothing is taken."
                )
            } else {
                format!("{name} played {mv}.")
            }
        }
        Lang::Fr => {
            let start = format!("{} {} joué {mv}", who.name(lang), who.fr("avez", "a"));
            if n > 0 {
                format!("{start} et pris {n} ({houses}).")
            } else if trace.grand_slam {
                format!("{start}\u{a0}: prise totale, donc annulée, rien n'est pris.")
            } else {
                format!("{start}.")
            }
        }
    }
}

/// "You sow F…" while the animation runs.
pub fn sowing(who: Player, mv: Move, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} sows {}…", who.name(lang), mv.letter()),
        Lang::Fr => format!(
            "{} {} {}…",
            who.name(lang),
            who.fr("semez", "sème"),
            mv.letter()
        ),
    }
}

/// "You capture 4 (ab)…" while the animation shows a capture.
pub fn capturing(who: Player, trace: &MoveTrace, lang: Lang) -> String {
    let houses: String = trace
        .captured
        .iter()
        .rev()
        .map(|(h, _)| h.letter())
        .collect();
    let n = trace.captured_seeds();
    match lang {
        Lang::En => format!("{} captures {n} ({houses})…", who.name(lang)),
        Lang::Fr => format!(
            "{} {} {n} ({houses})…",
            who.name(lang),
            who.fr("prenez", "prend")
        ),
    }
}

/// "Hint: play B (you stand 1.5 seeds better, depth 12)."; a move from
/// the opening book (searched to depth 0 now) says so instead of a depth.
pub fn hint(mv: Move, score: crate::ScoreKind, depth: u32, lang: Lang) -> String {
    let source = match (depth, lang) {
        (0, Lang::En) => "from the opening book".to_string(),
        (0, Lang::Fr) => "d'après le livre d'ouvertures".to_string(),
        (d, Lang::En) => format!("depth {d}"),
        (d, Lang::Fr) => format!("profondeur {d}"),
    };
    match lang {
        Lang::En => format!(
            "Hint: play {} ({}, {source}).",
            mv.letter(),
            score.text(lang)
        ),
        Lang::Fr => format!(
            "Conseil\u{a0}: jouez {} ({}, {source}).",
            mv.letter(),
            score.text(lang)
        ),
    }
}

/// Where the endgame tables stand, for a status line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TablesState {
    /// Being opened or built in the background.
    Loading,
    /// Ready: positions of up to `seeds` seeds on the board are solved.
    Ready {
        /// The most seeds on the board the tables cover.
        seeds: usize,
    },
    /// They could not be opened or built.
    Failed,
}

/// "Endgame tables: being prepared…", "Endgame tables ready (up to 14
/// seeds on the board): hints are exact from there."
pub fn tables(state: TablesState, lang: Lang) -> String {
    match (state, lang) {
        (TablesState::Loading, Lang::En) => "Endgame tables: being prepared…".to_string(),
        (TablesState::Loading, Lang::Fr) => "Tables de finales\u{a0}: en préparation…".to_string(),
        (TablesState::Ready { seeds }, Lang::En) => {
            format!("Endgame tables ready (up to {seeds} seeds on the board).")
        }
        (TablesState::Ready { seeds }, Lang::Fr) => {
            format!("Tables de finales prêtes (jusqu'à {seeds} graines sur le plateau).")
        }
        (TablesState::Failed, Lang::En) => {
            "Endgame tables unavailable: the computer plays without them.".to_string()
        }
        (TablesState::Failed, Lang::Fr) => {
            "Tables de finales indisponibles\u{a0}: l'ordinateur joue sans elles.".to_string()
        }
    }
}

/// Why the game ended, as a phrase for the middle of a sentence, with no
/// rule id: "each player captured 24 seeds", "vous avez capturé 25 graines
/// ou plus". The web says the same (its `why.*` words, checked by
/// `tests/web_words.rs`). `computer` is the computer's side, `None`
/// between two people (who are named by their side). Empty while the game
/// is running.
pub fn end_reason(game: &Game, computer: Option<Side>, lang: Lang) -> String {
    let Some(o) = game.outcome() else {
        return String::new();
    };
    let to_move = game.position().to_move();
    let loser = o.winner.map(|w| w.opponent()).unwrap_or(to_move);
    // The subject: "you", "the computer", or a side's name.
    let subject = |s: Side| match Player::of(s, computer) {
        Player::You => None,
        Player::Computer => Some(lang.pick("the computer", "l’ordinateur").to_string()),
        _ => Some(side_name(s, lang).to_string()),
    };
    let fr = lang == Lang::Fr;
    match o.reason {
        EndReason::Majority => match (subject(o.winner.unwrap_or(Side::South)), fr) {
            (None, false) => "you captured 25 seeds or more".to_string(),
            (None, true) => "vous avez capturé 25 graines ou plus".to_string(),
            (Some(w), false) => format!("{w} captured 25 seeds or more"),
            (Some(w), true) => format!("{w} a capturé 25 graines ou plus"),
        },
        EndReason::Resignation => match (subject(loser), fr) {
            (None, false) => "you resigned".to_string(),
            (None, true) => "vous avez abandonné".to_string(),
            (Some(p), false) => format!("{p} resigned"),
            (Some(p), true) => format!("{p} a abandonné"),
        },
        EndReason::Time => match (subject(loser), fr) {
            (None, false) => "your clock ran out".to_string(),
            (None, true) => "votre pendule est tombée".to_string(),
            (Some(p), false) => format!("{p}’s clock ran out"),
            (Some(p), true) => format!("la pendule de {p} est tombée"),
        },
        EndReason::EvenSplit => lang
            .pick("each player captured 24 seeds", "chacun a capturé 24 graines")
            .to_string(),
        EndReason::NoMoves => lang
            .pick(
                "the empty row could not be fed, so each player took the seeds on their side",
                "la rangée vide ne pouvait plus être nourrie, chacun a donc pris les graines de son côté",
            )
            .to_string(),
        EndReason::Repetition => lang
            .pick(
                "the same position occurred for the third time, so each player took the seeds on their side",
                "la même position s’est présentée pour la troisième fois, chacun a donc pris les graines de son côté",
            )
            .to_string(),
        EndReason::Agreement => lang
            .pick(
                "the players agreed to stop, and each took the seeds on their side",
                "les joueurs ont convenu d’arrêter, et chacun a pris les graines de son côté",
            )
            .to_string(),
    }
}

/// The game-over text: why ([`end_reason`] as a sentence), the final
/// totals, who won. `computer` is the computer's side, `None` between two
/// people.
pub fn outcome_lines(game: &Game, computer: Option<Side>, lang: Lang) -> Vec<String> {
    let Some(o) = game.outcome() else {
        return Vec::new();
    };
    let who = |s: Side| Player::of(s, computer);
    let reason = end_reason(game, computer, lang);
    let mut chars = reason.chars();
    let why = match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    };
    let label = |s: Side| {
        let side = side_name(s, lang);
        if computer.is_some() {
            format!("{side} ({})", who(s).inner(lang))
        } else {
            side.to_string()
        }
    };
    let totals = match lang {
        Lang::En => format!(
            "Final totals: {} {}, {} {}.",
            label(Side::South),
            o.totals[0],
            label(Side::North),
            o.totals[1]
        ),
        Lang::Fr => format!(
            "Totaux finaux\u{a0}: {} {}, {} {}.",
            label(Side::South),
            o.totals[0],
            label(Side::North),
            o.totals[1]
        ),
    };
    let result = match (o.winner, computer) {
        (None, _) => lang
            .pick("The game is a draw.", "La partie est nulle.")
            .to_string(),
        (Some(w), Some(c)) if c == w => lang
            .pick("The computer wins.", "L'ordinateur gagne.")
            .to_string(),
        (Some(_), Some(_)) => lang.pick("You win!", "Vous gagnez\u{a0}!").to_string(),
        (Some(w), None) => match lang {
            Lang::En => format!("{} wins.", side_name(w, lang)),
            Lang::Fr => format!("{} gagne.", side_name(w, lang)),
        },
    };
    vec![why, totals, result]
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::{parse_moves, Position};

    #[test]
    fn lists_read_as_words() {
        let l = |s: &str, lang| move_list(&parse_moves(s).unwrap(), lang);
        assert_eq!(l("B", Lang::En), "B");
        assert_eq!(l("Ba", Lang::En), "B and a");
        assert_eq!(l("BaC", Lang::En), "B, a and C");
        assert_eq!(l("Ba", Lang::Fr), "B et a");
    }

    #[test]
    fn book_hints_name_the_book_not_a_depth() {
        let mv = Move::from_letter('F').unwrap();
        let score = crate::ScoreKind::Value { seeds: -0.1 };
        assert_eq!(
            hint(mv, score, 0, Lang::En),
            "Hint: play F (the game is about even, from the opening book)."
        );
        assert_eq!(
            hint(mv, score, 0, Lang::Fr),
            "Conseil\u{a0}: jouez F (la partie est à peu près égale, d'après le livre d'ouvertures)."
        );
        assert!(hint(mv, score, 9, Lang::En).contains("depth 9"));
    }

    #[test]
    fn moves_played() {
        let pos: Position = "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S".parse().unwrap();
        let t = pos.trace(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(
            played(Player::You, &t, Lang::En),
            "You played F and captured 4 (ab)."
        );
        assert_eq!(
            played(Player::You, &t, Lang::Fr),
            "Vous avez joué F et pris 4 (ab)."
        );
        assert_eq!(
            played(Player::Computer, &t, Lang::Fr),
            "L'ordinateur a joué F et pris 4 (ab)."
        );
        let pos: Position = "1-0-0-0-0-2-1-1-0-0-0-0-21-22-S".parse().unwrap();
        let t = pos.trace(Move::from_letter('F').unwrap()).unwrap();
        assert!(played(Player::South, &t, Lang::Fr).contains("prise totale"));
    }

    #[test]
    fn game_over_in_both_languages() {
        // E10: North is empty and cannot be fed (R9).
        let g = Game::new("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S".parse().unwrap());
        let en = outcome_lines(&g, None, Lang::En);
        assert_eq!(
            en[0],
            "The empty row could not be fed, so each player took the seeds on their side."
        );
        assert_eq!(en[1], "Final totals: South 25, North 23.");
        assert_eq!(en[2], "South wins.");
        let fr = outcome_lines(&g, Some(Side::North), Lang::Fr);
        assert_eq!(
            fr[1],
            "Totaux finaux\u{a0}: Sud (vous) 25, Nord (l'ordinateur) 23."
        );
        assert_eq!(fr[2], "Vous gagnez\u{a0}!");
        // E11: the third occurrence ends it (R11).
        let start: Position = "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N".parse().unwrap();
        let g =
            Game::from_moves(start, &parse_moves("fAaBbCcDdEeFfAaBbCcDdEeFf").unwrap()).unwrap();
        let en = outcome_lines(&g, None, Lang::En);
        assert!(en[0].contains("for the third time"), "{en:?}");
        assert_eq!(en[2], "The game is a draw.");
        // No rule id in a sentence for people, whoever plays.
        for computer in [None, Some(Side::South), Some(Side::North)] {
            for lang in [Lang::En, Lang::Fr] {
                let text = outcome_lines(&g, computer, lang).join(" ");
                assert!(!text.contains("(R"), "{text}");
            }
        }
        // E8: North captures 3+2 and reaches 26.
        let g = Game::from_moves(
            "1-2-0-1-0-0-0-0-0-0-0-2-21-21-N".parse().unwrap(),
            &parse_moves("f").unwrap(),
        )
        .unwrap();
        {
            assert_eq!(
                end_reason(&g, Some(Side::North), Lang::Fr),
                "l’ordinateur a capturé 25 graines ou plus"
            );
            assert_eq!(
                end_reason(&g, Some(Side::South), Lang::Fr),
                "vous avez capturé 25 graines ou plus"
            );
            assert_eq!(
                outcome_lines(&g, None, Lang::En)[0],
                "North captured 25 seeds or more."
            );
        }
    }
}
