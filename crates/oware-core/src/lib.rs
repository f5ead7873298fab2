//! The rules of Oware Abapa, as specified by the project's docs/RULES.md
//! (rule ids R1–R13), and the formats of docs/INTEROP.md.
//!
//! - [`Position`]: a validated position, its legal moves (R3, R8) and
//!   copy-make move playing (R3–R7); [`Setup`] is the unvalidated form.
//! - [`Game`]: a game with its history, repetition (R11) and how it ended
//!   (R9–R13).
//! - [`notation`]: position strings and move lists; [`ogn`]: game records.
//! - [`perft`]: move-path counting, the move generator's test and benchmark.
//!
//! ```
//! use oware_core::{Game, Position, Move, Side};
//!
//! let mut game = Game::new(Position::start());
//! let captured = game.play(Move::from_letter('F').unwrap()).unwrap();
//! assert_eq!(captured, 0);
//! assert_eq!(game.position().to_move(), Side::North);
//! assert_eq!(game.position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
//! ```
//!
//! This crate does no I/O, never panics on bad input and has no required
//! dependencies; `serde` support is behind the `serde` feature.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod game;
pub mod notation;
pub mod ogn;
pub mod position;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod types;

pub use game::{EndReason, Game, GameError, Outcome, Ply};
pub use notation::{
    diagram, format_moves, parse_moves, parse_plies, ParseMoveError, ParsePositionError,
};
pub use ogn::{OgnError, OgnErrorKind, Record, RecordPly};
pub use position::{
    divide, perft, IllegalMove, MoveTrace, Position, PositionError, Setup, TOTAL_SEEDS,
    WINNING_STORE,
};
pub use types::{House, Move, MoveSet, Side};
