//! One session layer for every front end of Oware Abapa: the terminal game,
//! its line mode and the web server ask the same questions of a game in
//! progress, and get the same answers, in English or French.
//!
//! - [`takeback`]: how many plies to undo to give a side the move again, and
//!   when that is refused.
//! - [`analysis`]: the engine coach. One fixed-depth [`Analysis`] of a
//!   position answers the hint (its best move), the [`Verdict`] on every
//!   move (best, good, inaccuracy, mistake, blunder, from the value lost
//!   against the best) with its explanation from the engine's line, and the
//!   analysis board, so they never disagree; it is deterministic, and
//!   [`AnalysisCache`] keeps answers by position and budget.
//! - [`coach`]: what a move would do ([`Preview`], from the core's trace),
//!   and the coach's [`Advice`]: the opponent's best capture in reply, or,
//!   for the engine's recommended move, a sacrifice. It never warns about
//!   the recommended move.
//! - [`score`]: [`ScoreKind`], an engine score as a value in seeds, a win or
//!   loss in N moves, a tablebase win or loss, or a draw.
//! - [`replay`](mod@replay): a move list replayed through `Game::from_moves`.
//! - [`session`]: [`Session`], a game with its players, take-back and
//!   replay, hints and the coach, as the terminal game uses it.
//! - [`levels`]: the computer's levels by name, with their measured
//!   strength; [`problems`]: failed file operations and unreadable game
//!   records in words, never the system's raw messages.
//! - [`lessons`]: the lessons, worked examples and rules texts
//!   (`data/lessons.json`, read by the web page and the terminal game),
//!   each board's facts checked against the rules, and what a move did in
//!   words.
//! - [`mistakes`]: "learn from your mistakes": the moves of a game the
//!   coach warns about, as exercises, and a new try judged (the web app and
//!   the terminal game judge games with it).
//! - [`puzzles`]: the shipped puzzles (one move clearly better than every
//!   other), their themes from the core's trace, attempts judged in words,
//!   and the one test that finds and re-verifies a puzzle.
//! - [`wire`]: the words the web server and the browser module share: refusal
//!   codes and the rules' view of a game.
//! - [`words`]: sentences every front end shows (moves played, the end of a
//!   game), and [`Lang`], [`Player`].
//!
//! Every rule question goes to `oware-core`; this crate has no I/O and no
//! async runtime. Refusals and advice are typed values with stable codes
//! (`empty_house`, `must_feed`, `gives_capture`, …) beside their text.
//!
//! ```
//! use oware_core::{Game, Move, Position};
//! use oware_session::{coach, Lang, Player};
//!
//! // After D, North's f would capture: the coach says so.
//! let game = Game::new("1-2-0-1-0-0-0-0-0-0-0-2-21-21-S".parse().unwrap());
//! let d = Move::from_letter('D').unwrap();
//! let advice = coach::advice(&game, d, None).unwrap();
//! assert_eq!(advice.code(), "gives_capture");
//! assert_eq!(advice.text(Lang::En, Player::North), "After D, North could reply f and capture 5.");
//! // If the engine recommends D, it is explained, not warned about.
//! assert_eq!(coach::advice(&game, d, Some(d)).unwrap().code(), "sacrifice");
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod analysis;
pub mod coach;
pub mod lang;
pub mod lessons;
pub mod levels;
pub mod mistakes;
pub mod player;
pub mod problems;
pub mod puzzles;
pub mod replay;
pub mod review;
pub mod score;
pub mod session;
pub mod takeback;
pub mod wire;
pub mod words;

pub use analysis::{
    Analysis, AnalysisCache, AnalysisError, Budget, Judgement, Look, MoveValue, Verdict,
};
pub use coach::{Advice, Preview, Refusal, Threat};
pub use lang::Lang;
pub use player::Player;
pub use replay::{replay, replay_text, ReplayError};
pub use score::ScoreKind;
pub use session::{Hint, Session, SessionError};
pub use takeback::{plan_take_back, take_back, TakeBackError, TakeBackPlan, TakenBack};
