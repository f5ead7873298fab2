//! Swiss tournaments: a fixed number of rounds, each paired from the
//! results so far by the FIDE Dutch system, with a bye when the number of
//! players is odd, and the standings with their tie-breaks.

use serde::{Deserialize, Serialize};

use crate::{HalfPoints, Outcome, Pairing, PlayerId};

/// An entrant. `rating` orders the initial ranking (ties by `id`);
/// a player who left (`active == false`) is not paired any more but keeps
/// their results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub rating: i32,
    pub active: bool,
}

/// One line of a round as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A game; `outcome` is `None` while it is being played.
    Game {
        south: PlayerId,
        north: PlayerId,
        outcome: Option<Outcome>,
    },
    /// The pairing-allocated bye (one point).
    Bye { player: PlayerId },
}

/// A round: its games and its bye. An active player in no entry was absent
/// (zero points for the round).
pub type Round = Vec<Entry>;

/// The next round's pairings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub games: Vec<Pairing>,
    pub bye: Option<PlayerId>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SwissError {
    #[error("round {round} still has a game in play")]
    RoundNotFinished { round: usize },
    #[error("player {0} is not an entrant")]
    UnknownPlayer(PlayerId),
    #[error("fewer than two active players")]
    TooFewPlayers,
    #[error("no pairing satisfies the absolute criteria")]
    NoPairing,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: PlayerId,
    /// 1-based; players equal on points and every tie-break share a rank.
    pub rank: u32,
    pub points: HalfPoints,
    /// Sum of the opponents' points (see the module docs for byes).
    pub buchholz: HalfPoints,
    /// Sum over games of the opponent's points times the result, in
    /// quarter points (a win against 2½ adds 10, a draw adds 5).
    pub sonneborn_berger: u32,
    pub wins: u32,
}

/// Pairs the round after `played` (`played.len() + 1`), for a tournament
/// of `total_rounds` rounds. The pairs in `forbidden` (players who blocked
/// each other) are never paired, like players who already met (absolute
/// criterion C1).
pub fn pair_next_round(
    players: &[Player],
    played: &[Round],
    total_rounds: u32,
    forbidden: &[(PlayerId, PlayerId)],
) -> Result<RoundPairing, SwissError> {
    let _ = (players, played, total_rounds, forbidden);
    todo!("FIDE Dutch system")
}

/// The standings after `played`, best first.
pub fn standings(players: &[Player], played: &[Round]) -> Vec<Standing> {
    let _ = (players, played);
    todo!("Buchholz, Sonneborn-Berger")
}
