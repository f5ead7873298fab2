//! The puzzles' service: the shipped puzzles' current ratings and a
//! signed-in player's attempts. The rating of an attempt (a player's first
//! attempt at a puzzle rates both the player and the puzzle, inside the
//! attempt's transaction) is the store's one function for both dialects,
//! `store/puzzles.rs`; the routes (`puzzle_routes.rs`) judge the move and
//! answer.

use std::sync::Arc;

use oware_session::puzzles::Puzzle;

use crate::error::ApiError;
use crate::model::ratings::Rating;
pub use crate::store::puzzles::PuzzlePlayer;
use crate::store::puzzles::{start_rating, PuzzleAttempt};
use crate::store::WriteOp;
use crate::Hub;

/// The puzzles' service ([`Hub::puzzles`]).
pub struct Puzzles<'h>(&'h Arc<Hub>);

impl Hub {
    /// The puzzles' service.
    pub fn puzzles(self: &Arc<Self>) -> Puzzles<'_> {
        Puzzles(self)
    }
}

impl Puzzles<'_> {
    /// Every shipped puzzle's current rating, in the set's order: the
    /// stored one, else its starting one.
    pub async fn ratings(&self, set: &[Puzzle]) -> Result<Vec<Rating>, ApiError> {
        let stored = self.0.read(|store| store.puzzle_ratings()).await?;
        let mut out: Vec<Rating> = set
            .iter()
            .map(|p| start_rating(f64::from(p.rating)))
            .collect();
        for (id, r) in stored {
            if let Some(i) = set.iter().position(|p| p.id == id) {
                out[i] = r;
            }
        }
        Ok(out)
    }

    /// A player's puzzle rating and the puzzles they tried.
    pub async fn player(&self, account: &str) -> Result<PuzzlePlayer, ApiError> {
        self.0.accounts().puzzle_player(account).await
    }

    /// Stores `account`'s attempt at `puzzle` (`rated`: it counts for
    /// both ratings); the player as they stand after it.
    pub async fn attempt(
        &self,
        account: &str,
        puzzle: &Puzzle,
        solved: bool,
        rated: bool,
    ) -> Result<PuzzlePlayer, ApiError> {
        let op = WriteOp::PuzzleAttempt(PuzzleAttempt {
            puzzle: puzzle.id,
            account_id: account.to_string(),
            solved,
            rated,
            start: f64::from(puzzle.rating),
            at: self.0.now_ms(),
        });
        self.0.write_change(op, ApiError::not_stored).await?;
        self.player(account).await
    }
}
