//! `POST /api/v1/rules/state`: the core's view of a position, with a
//! preview of every house of the side to move (where its last seed lands,
//! what it takes: facts from the core's trace, not advice; the advice is
//! the engine coach's, `POST /api/v1/coach`), and what the last move did
//! in words (the lessons' feedback, `oware_session::lessons::explain`).

use oware_core::{Game, IllegalMove, Move, Position, Side};
use serde::Serialize;

use crate::model::GameStatus;
use crate::protocol::views::{stores, trace_of, ResultView, Totals, TraceView};

/// Why a move is refused.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Refusal {
    /// The core's code (`empty_house`, `not_your_house`, `must_feed`,
    /// `game_over`), which clients translate.
    pub code: &'static str,
    /// In words (English).
    pub reason: String,
    /// Rule id.
    pub rule: &'static str,
}

/// What one house of the side to move would do.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Preview {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Legal here.
    pub legal: bool,
    /// Why not, when illegal.
    pub refusal: Option<Refusal>,
    /// Where the last seed lands (legal moves).
    pub last_house: Option<oware_core::House>,
    /// Seeds it captures.
    pub captures: u8,
}

/// A text in English and French.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Texts {
    /// English.
    pub en: String,
    /// French.
    pub fr: String,
}

/// The response.
#[derive(Clone, Debug, Serialize)]
pub struct RulesState {
    /// Current position.
    pub position: Position,
    /// Side to move.
    pub to_move: Side,
    /// Plies played.
    pub ply: u32,
    /// Legal moves.
    pub legal: Vec<Move>,
    /// `playing` or `over`.
    pub status: GameStatus,
    /// Result once over.
    pub result: Option<ResultView>,
    /// Stores.
    pub score: Totals,
    /// Moves played, concatenated.
    pub moves: String,
    /// Trace of the last move.
    pub last: Option<TraceView>,
    /// What the last move did and why, from its trace ("F: the last seed
    /// lands in d and makes 5 there; only two or three are taken.").
    pub explained: Option<Texts>,
    /// One entry per house of the side to move.
    pub previews: Vec<Preview>,
}

fn captured(before: &Position, after: &Position) -> u8 {
    after.store(before.to_move()) - before.store(before.to_move())
}

/// The core's view of `game`, with a preview of every house.
pub fn state(game: &Game) -> RulesState {
    let pos = *game.position();
    let legal_set = game.legal_moves();
    let legal: Vec<Move> = legal_set.into_iter().collect();
    let previews = pos
        .to_move()
        .houses()
        .map(|h| {
            let mv = Move::new(h);
            let refusal = if game.is_over() {
                Some(Refusal {
                    code: IllegalMove::GameOver.code(),
                    reason: IllegalMove::GameOver.to_string(),
                    rule: IllegalMove::GameOver.rule(),
                })
            } else {
                pos.check(mv).err().map(|r| Refusal {
                    code: r.code(),
                    reason: r.to_string(),
                    rule: r.rule(),
                })
            };
            if refusal.is_some() {
                return Preview {
                    mv,
                    legal: false,
                    refusal,
                    last_house: None,
                    captures: 0,
                };
            }
            let trace = pos.trace(mv).expect("checked legal");
            Preview {
                mv,
                legal: true,
                refusal: None,
                last_house: Some(trace.last),
                captures: captured(&pos, &trace.after),
            }
        })
        .collect();
    let n = game.plies().len();
    RulesState {
        position: pos,
        to_move: pos.to_move(),
        ply: n as u32,
        legal,
        status: if game.is_over() {
            GameStatus::Over
        } else {
            GameStatus::Playing
        },
        result: game.outcome().map(ResultView::from),
        score: Totals::from(stores(&pos)),
        moves: oware_core::format_moves(&game.moves().collect::<Vec<Move>>()),
        last: n.checked_sub(1).and_then(|i| trace_of(game, i)),
        explained: last_trace(game).map(|t| Texts {
            en: oware_session::lessons::explain(&t, oware_session::Lang::En),
            fr: oware_session::lessons::explain(&t, oware_session::Lang::Fr),
        }),
        previews,
    }
}

/// The core's trace of the game's last ply, if it was a move.
fn last_trace(game: &Game) -> Option<oware_core::MoveTrace> {
    let n = game.plies().len().checked_sub(1)?;
    let before = game.positions().get(n)?;
    match game.plies()[n] {
        oware_core::Ply::Move(mv) => before.trace(mv).ok(),
        oware_core::Ply::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_of(position: &str) -> RulesState {
        state(&Game::new(position.parse().unwrap()))
    }

    #[test]
    fn start_position_previews() {
        let s = state(&Game::new(Position::start()));
        assert_eq!(s.legal.len(), 6);
        assert_eq!(s.previews.len(), 6);
        // F from the start sows a..d: last seed in d, nothing taken.
        let f = &s.previews[5];
        assert_eq!(f.last_house.unwrap().to_string(), "d");
        assert_eq!(f.captures, 0);
    }

    #[test]
    fn e2_capture_and_misses() {
        // docs/RULES.md E2: F captures 2+2.
        let s = state_of("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        let f = s.previews.iter().find(|p| p.mv.to_string() == "F").unwrap();
        assert_eq!(f.captures, 4);
        let a = s.previews.iter().find(|p| p.mv.to_string() == "A").unwrap();
        assert!(!a.legal);
        let refusal = a.refusal.as_ref().unwrap();
        assert_eq!((refusal.rule, refusal.code), ("R3", "empty_house"));
    }

    #[test]
    fn the_last_move_is_explained_in_both_languages() {
        let mut g = Game::new("0-0-0-5-0-0-3-1-2-0-0-3-17-17-S".parse().unwrap());
        g.play(Move::from_letter('D').unwrap()).unwrap();
        let e = state(&g).explained.unwrap();
        assert_eq!(
            e.en,
            "D: the last seed lands in c and makes 3 there, so it is taken: c 3 + b 2, 5 seeds in all."
        );
        assert!(
            e.fr.starts_with("D\u{a0}: la dernière graine tombe en c"),
            "{}",
            e.fr
        );
        assert!(state_of("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
            .explained
            .is_none());
    }

    #[test]
    fn e9_must_feed() {
        let s = state_of("3-0-0-0-0-1-0-0-0-0-0-0-22-22-S");
        assert_eq!(
            s.legal.iter().map(|m| m.to_string()).collect::<String>(),
            "F"
        );
        let refusal = s.previews[0].refusal.as_ref().unwrap();
        assert_eq!((refusal.rule, refusal.code), ("R8", "must_feed"));
    }
}
