//! Arena tournaments (as lichess runs them): for a fixed time, a player
//! who finishes a game waits to be paired again at once with a near-ranked
//! waiting player. A win scores 2, a draw 1, a loss 0; after two wins in a
//! row each game scores double until one is not won.

use serde::{Deserialize, Serialize};

use crate::{Outcome, Pairing, PlayerId};

/// An arena game, in the order the games started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub south: PlayerId,
    pub north: PlayerId,
    /// `None` while it is being played.
    pub outcome: Option<Outcome>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: PlayerId,
    /// 1-based, by score then by performance; equal players share a rank.
    pub rank: u32,
    pub score: u32,
    pub games: u32,
    /// On a streak: the next win scores double.
    pub on_fire: bool,
    /// Each finished game's points in order ("2", "4", "0", …), for the table.
    pub sheet: Vec<u32>,
}

/// The standings of `players` after `games` (finished games only count).
pub fn standings(players: &[PlayerId], games: &[Game]) -> Vec<Standing> {
    let _ = (players, games);
    todo!()
}

/// Pairs the players in `waiting` (those not in a game and not paused),
/// given every game so far: near ranks together, no immediate rematch when
/// another pairing exists, South to whoever has had South less. The pairs
/// in `forbidden` (players who blocked each other) are never paired. A
/// player left over keeps waiting. `ratings` breaks ties in rank (and
/// ranks players with no game yet).
pub fn pair(
    waiting: &[PlayerId],
    ratings: &[(PlayerId, i32)],
    games: &[Game],
    forbidden: &[(PlayerId, PlayerId)],
) -> Vec<Pairing> {
    let _ = (waiting, ratings, games, forbidden);
    todo!()
}
