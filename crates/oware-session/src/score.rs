//! What an engine score means, as a typed value with words.

use oware_core::{Outcome, Side};
use oware_engine::Score;

use crate::Lang;

/// The kind of an engine [`Score`], for the side it is given for.
///
/// The engine gives three sorts of value: a heuristic estimate of the final
/// margin, a win or loss it has proven with the number of plies to the end,
/// and a win or loss proven by the endgame tables, which have no distance.
/// Reading the distance out of a tablebase value would print nonsense such
/// as "win in 450"; this type keeps the sorts apart.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ScoreKind {
    /// An estimate of the final margin, in seeds (positive: ahead).
    Value {
        /// Seeds ahead (negative: behind).
        seeds: f64,
    },
    /// A proven win in this many plies.
    Win {
        /// Plies to the end.
        plies: u32,
    },
    /// A proven loss in this many plies.
    Loss {
        /// Plies to the end.
        plies: u32,
    },
    /// A win proven by the endgame tables (no distance known).
    TablebaseWin,
    /// A loss proven by the endgame tables (no distance known).
    TablebaseLoss,
    /// A draw proven by the endgame tables. The engine scores it 0, like
    /// an even estimate; only a probe of the tables tells them apart (see
    /// [`crate::analysis`]).
    TablebaseDraw,
    /// A finished game that is drawn. (The engine scores a proven draw 0,
    /// like an even estimate; [`of`](Self::of) reads that as an even value.)
    Draw,
}

impl ScoreKind {
    /// True for a loss proven by the search or by the tables.
    pub fn is_proven_loss(self) -> bool {
        matches!(self, ScoreKind::Loss { .. } | ScoreKind::TablebaseLoss)
    }

    /// True for a result (proven by the search or the tables, or a
    /// finished game) rather than an estimate: a deeper search keeps it.
    pub fn is_decided(self) -> bool {
        !matches!(self, ScoreKind::Value { .. })
    }
}

/// Estimates closer to 0 than this many seeds read "about even".
const EVEN: f64 = 0.25;

impl ScoreKind {
    /// The kind of `score`.
    pub fn of(score: Score) -> ScoreKind {
        if score.is_tablebase() {
            if score.is_win() {
                ScoreKind::TablebaseWin
            } else {
                ScoreKind::TablebaseLoss
            }
        } else if let Some(p) = score.plies_to_end() {
            if p >= 0 {
                ScoreKind::Win { plies: p as u32 }
            } else {
                ScoreKind::Loss {
                    plies: p.unsigned_abs(),
                }
            }
        } else {
            ScoreKind::Value {
                seeds: score.centiseeds() as f64 / 100.0,
            }
        }
    }

    /// The kind of a finished game's result for `side`.
    pub fn of_outcome(outcome: &Outcome, side: Side) -> ScoreKind {
        match outcome.winner {
            None => ScoreKind::Draw,
            Some(w) if w == side => ScoreKind::Win { plies: 0 },
            Some(_) => ScoreKind::Loss { plies: 0 },
        }
    }

    /// The same value for the other player.
    pub fn flipped(self) -> ScoreKind {
        match self {
            ScoreKind::Value { seeds } => ScoreKind::Value { seeds: -seeds },
            ScoreKind::Win { plies } => ScoreKind::Loss { plies },
            ScoreKind::Loss { plies } => ScoreKind::Win { plies },
            ScoreKind::TablebaseWin => ScoreKind::TablebaseLoss,
            ScoreKind::TablebaseLoss => ScoreKind::TablebaseWin,
            ScoreKind::TablebaseDraw => ScoreKind::TablebaseDraw,
            ScoreKind::Draw => ScoreKind::Draw,
        }
    }

    /// A stable identifier: `value`, `win`, `loss`, `tablebase_win`,
    /// `tablebase_loss`, `tablebase_draw` or `draw`.
    pub fn code(self) -> &'static str {
        match self {
            ScoreKind::Value { .. } => "value",
            ScoreKind::Win { .. } => "win",
            ScoreKind::Loss { .. } => "loss",
            ScoreKind::TablebaseWin => "tablebase_win",
            ScoreKind::TablebaseLoss => "tablebase_loss",
            ScoreKind::TablebaseDraw => "tablebase_draw",
            ScoreKind::Draw => "draw",
        }
    }

    /// The moves of the player to move until the proven end (a win in 3
    /// plies is a win in 2 moves), for a win or loss with a distance.
    pub fn moves(self) -> Option<u32> {
        match self {
            ScoreKind::Win { plies } | ScoreKind::Loss { plies } => Some(plies.div_ceil(2)),
            _ => None,
        }
    }

    /// The value in words, for the player it is given for, addressed as
    /// "you": "you stand 1.5 seeds better", "a forced win in 2 moves", "a
    /// win proven by the endgame tables".
    pub fn text(self, lang: Lang) -> String {
        match (self, lang) {
            (ScoreKind::Value { seeds }, _) if seeds.abs() < EVEN => lang
                .pick("the game is about even", "la partie est à peu près égale")
                .to_string(),
            (ScoreKind::Value { seeds }, Lang::En) => {
                let side = if seeds > 0.0 { "better" } else { "worse" };
                format!("you stand {:.1} seeds {side}", seeds.abs())
            }
            (ScoreKind::Value { seeds }, Lang::Fr) => {
                let n = seeds.abs();
                let word = french_seeds(n);
                let side = if seeds > 0.0 { "d'avance" } else { "de retard" };
                format!("vous avez {} {word} {side}", french_decimal(n))
            }
            (ScoreKind::Win { .. } | ScoreKind::Loss { .. }, _) => {
                let moves = self.moves().unwrap_or(0);
                let win = matches!(self, ScoreKind::Win { .. });
                match lang {
                    Lang::En => format!(
                        "a forced {} in {moves} move{}",
                        if win { "win" } else { "loss" },
                        if moves == 1 { "" } else { "s" }
                    ),
                    Lang::Fr => format!(
                        "{} forcée en {moves} coup{}",
                        if win { "une victoire" } else { "une défaite" },
                        if moves > 1 { "s" } else { "" }
                    ),
                }
            }
            (ScoreKind::TablebaseWin, _) => lang
                .pick(
                    "a win proven by the endgame tables",
                    "une victoire prouvée par les tables de finales",
                )
                .to_string(),
            (ScoreKind::TablebaseLoss, _) => lang
                .pick(
                    "a loss proven by the endgame tables",
                    "une défaite prouvée par les tables de finales",
                )
                .to_string(),
            (ScoreKind::TablebaseDraw, _) => lang
                .pick(
                    "a draw proven by the endgame tables",
                    "une nulle prouvée par les tables de finales",
                )
                .to_string(),
            (ScoreKind::Draw, _) => lang.pick("a draw", "une partie nulle").to_string(),
        }
    }

    /// The value in a few words, as analysis lists show it: "+1.5 seeds",
    /// "win in 2 moves", "won (endgame tables)", "drawn (endgame tables)".
    pub fn short(self, lang: Lang) -> String {
        match (self, lang) {
            // The minus sign of text for people is U+2212 in both
            // languages (docs/TUI.md, "Numbers"); JSON and UCI keep '-'.
            (ScoreKind::Value { seeds }, Lang::En) => {
                format!("{seeds:+.1} seeds").replace('-', "\u{2212}")
            }
            (ScoreKind::Value { seeds }, Lang::Fr) => {
                let sign = if seeds >= 0.0 { "+" } else { "−" };
                let n = seeds.abs();
                format!("{sign}{} {}", french_decimal(n), french_seeds(n))
            }
            (ScoreKind::Win { .. } | ScoreKind::Loss { .. }, _) => {
                let n = self.moves().unwrap_or(0);
                let win = matches!(self, ScoreKind::Win { .. });
                match (win, lang) {
                    (true, Lang::En) => format!("win in {n}"),
                    (false, Lang::En) => format!("loss in {n}"),
                    (true, Lang::Fr) => format!("gain en {n}"),
                    (false, Lang::Fr) => format!("perte en {n}"),
                }
            }
            (ScoreKind::TablebaseWin, _) => lang
                .pick("won (endgame tables)", "gagné (tables de finales)")
                .to_string(),
            (ScoreKind::TablebaseLoss, _) => lang
                .pick("lost (endgame tables)", "perdu (tables de finales)")
                .to_string(),
            (ScoreKind::TablebaseDraw, _) => lang
                .pick("drawn (endgame tables)", "nulle (tables de finales)")
                .to_string(),
            (ScoreKind::Draw, _) => lang.pick("drawn", "nulle").to_string(),
        }
    }
}

/// "graine" or "graines" for `n` seeds written with one decimal: French
/// puts the singular below 2 ("1,5 graine", "0,0 graine", "2,0 graines"),
/// one rule for every value the session words.
pub fn french_seeds(n: f64) -> &'static str {
    // The number as shown, rounded to one decimal.
    if (n * 10.0).round() < 20.0 {
        "graine"
    } else {
        "graines"
    }
}

/// `1.5` written the French way, `1,5`.
fn french_decimal(x: f64) -> String {
    format!("{x:.1}").replace('.', ",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(s: Score) -> String {
        ScoreKind::of(s).text(Lang::En)
    }
    fn fr(s: Score) -> String {
        ScoreKind::of(s).text(Lang::Fr)
    }

    #[test]
    fn estimates_read_in_seeds() {
        assert_eq!(en(Score::heuristic(10)), "the game is about even");
        assert_eq!(en(Score::heuristic(150)), "you stand 1.5 seeds better");
        assert_eq!(en(Score::heuristic(-300)), "you stand 3.0 seeds worse");
        assert_eq!(fr(Score::heuristic(150)), "vous avez 1,5 graine d'avance");
        assert_eq!(
            fr(Score::heuristic(-300)),
            "vous avez 3,0 graines de retard"
        );
        assert_eq!(fr(Score::ZERO), "la partie est à peu près égale");
        assert_eq!(ScoreKind::of(Score::heuristic(150)).code(), "value");
    }

    #[test]
    fn french_plural_below_two_is_singular_everywhere() {
        let short = |cs| ScoreKind::of(Score::heuristic(cs)).short(Lang::Fr);
        assert_eq!(short(130), "+1,3 graine");
        assert_eq!(short(-10), "−0,1 graine");
        assert_eq!(short(199), "+2,0 graines");
        assert_eq!(short(250), "+2,5 graines");
        let en = ScoreKind::of(Score::heuristic(-10)).short(Lang::En);
        assert_eq!(en, "\u{2212}0.1 seeds");
        assert_eq!(fr(Score::heuristic(-130)), "vous avez 1,3 graine de retard");
        assert_eq!(fr(Score::heuristic(196)), "vous avez 2,0 graines d'avance");
    }

    #[test]
    fn proven_results_count_the_movers_moves() {
        assert_eq!(ScoreKind::of(Score::win_in(3)), ScoreKind::Win { plies: 3 });
        assert_eq!(en(Score::win_in(3)), "a forced win in 2 moves");
        assert_eq!(en(Score::loss_in(2)), "a forced loss in 1 move");
        assert_eq!(fr(Score::win_in(1)), "une victoire forcée en 1 coup");
        assert_eq!(fr(Score::loss_in(4)), "une défaite forcée en 2 coups");
        assert_eq!(
            ScoreKind::of(-Score::win_in(3)),
            ScoreKind::Loss { plies: 3 }
        );
    }

    #[test]
    fn tablebase_results_have_no_distance() {
        // Regression: a tablebase win used to read "win in ~450".
        for s in [Score::tablebase(true), Score::tablebase(false)] {
            let k = ScoreKind::of(s);
            assert_eq!(k.moves(), None, "{k:?}");
            assert!(!en(s).contains(char::is_numeric), "{}", en(s));
            assert!(!fr(s).contains(char::is_numeric), "{}", fr(s));
        }
        assert_eq!(
            ScoreKind::of(Score::tablebase(true)),
            ScoreKind::TablebaseWin
        );
        assert_eq!(
            ScoreKind::of(-Score::tablebase(true)),
            ScoreKind::TablebaseLoss
        );
        assert_eq!(ScoreKind::TablebaseWin.code(), "tablebase_win");
        assert_eq!(
            en(Score::tablebase(true)),
            "a win proven by the endgame tables"
        );
    }

    #[test]
    fn outcomes_and_flips() {
        let o = Outcome {
            reason: oware_core::EndReason::EvenSplit,
            totals: [24, 24],
            winner: None,
        };
        assert_eq!(ScoreKind::of_outcome(&o, Side::South), ScoreKind::Draw);
        assert_eq!(ScoreKind::Draw.text(Lang::Fr), "une partie nulle");
        assert_eq!(
            ScoreKind::Win { plies: 2 }.flipped(),
            ScoreKind::Loss { plies: 2 }
        );
        assert_eq!(ScoreKind::TablebaseWin.flipped(), ScoreKind::TablebaseLoss);
    }
}
