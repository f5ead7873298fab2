//! Tournaments as pure functions: who plays whom next, and the standings,
//! computed from what has been played. No clock, no storage, no I/O: the
//! server stores the rounds and games, and asks this crate again after
//! every change, so the same history always gives the same answer.
//!
//! Players are numbered by the caller ([`PlayerId`]); South moves first and
//! plays the role of White in the pairing systems' colour rules.

use serde::{Deserialize, Serialize};

pub mod arena;
pub mod swiss;

/// A player, as the caller numbers them (an index into its list of entrants).
pub type PlayerId = u32;

/// How a game ended, from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    SouthWon,
    NorthWon,
    Draw,
}

/// One game to start: who sits South (moves first) and who North.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    pub south: PlayerId,
    pub north: PlayerId,
}

/// Points in half-point units: a win is 2, a draw 1 (so "2½" is 5).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct HalfPoints(pub u32);
