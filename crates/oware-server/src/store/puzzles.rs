//! Puzzle ratings as stored: the row types the stores read and write.
//! (The puzzles themselves are `oware_session::puzzles`; the routes are
//! `puzzle_routes.rs`.)
//!
//! Each puzzle and each signed-in account has a Glicko-2 rating
//! (`ratings.rs`); an account's first attempt at a puzzle is a
//! rated game between them (solved: the account wins) when the routes
//! say it is ([`PuzzleAttempt::rated`], decided above the stores by
//! `puzzle_routes::unrated_because`), applied by the store's writer in one
//! transaction, so an attempt is rated once. A puzzle without a stored
//! rating has its starting rating from the file.

use crate::ratings::Rating;

/// An attempt to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleAttempt {
    /// The puzzle.
    pub puzzle: u32,
    /// The account that tried it.
    pub account_id: String,
    /// Whether the first move was the solution.
    pub solved: bool,
    /// Whether it may move the ratings (if it is the account's first
    /// attempt at the puzzle): false when the client had seen the
    /// solution. An unrated attempt still counts as tried.
    pub rated: bool,
    /// The puzzle's starting rating, used when none is stored yet.
    pub start: f64,
    /// When, ms since the epoch.
    pub at: i64,
}

/// The puzzle's starting Glicko-2 rating: its file rating, with the
/// deviation of a new player.
pub fn start_rating(rating: f64) -> Rating {
    Rating {
        rating,
        ..Rating::default()
    }
}

/// An account's puzzle standing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PuzzlePlayer {
    /// Its puzzle rating (the starting rating before any attempt).
    pub rating: Rating,
    /// The puzzles it has tried.
    pub tried: Vec<u32>,
    /// Of those, solved.
    pub solved: u32,
}
