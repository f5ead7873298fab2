//! A game as stored (its metadata, plies and deadlines), and which games
//! a listing asks for.

use crate::model::GameMeta;

/// One stored ply.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredPly {
    /// A move letter, or `-` for a turn lost on time.
    pub text: String,
    /// Both clocks' time left after the ply (South, North), when the game has a clock.
    pub clock: Option<[u64; 2]>,
    /// When it was played, ms since the epoch.
    pub at: i64,
}

/// A game as stored: metadata and plies, and where its timers stand.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Everything but the plies.
    pub meta: GameMeta,
    /// The plies in order.
    pub plies: Vec<StoredPly>,
    /// Changes stored so far (0 when created).
    pub version: u64,
    /// Deadlines when the game was stored.
    pub due: Due,
}

/// A game's deadlines, in ms since the epoch, kept in the database so that
/// any node can act on them when the node that set them is gone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Due {
    /// When the running side's time runs out (its clock was running).
    pub clock: Option<i64>,
    /// When something must happen at the latest: the clock's deadline, or
    /// the computer's reply overdue.
    pub at: Option<i64>,
}

/// Which games a listing wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Finished public games, most recently created first.
    Public,
    /// Public online games waiting for an opponent, newest first.
    Lobby,
    /// Public online games being played, with a change at or after `since`
    /// (ms since the Unix epoch), most recently changed first.
    Playing {
        /// The oldest last change listed.
        since: i64,
    },
}
