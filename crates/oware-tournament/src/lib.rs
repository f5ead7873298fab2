//! Tournaments as pure functions: who plays whom next, and the standings,
//! computed from what has been played. No clock, no storage, no I/O: the
//! server stores the rounds and games, and asks this crate again after
//! every change, so the same history always gives the same answer.
//!
//! Players are numbered by the caller ([`PlayerId`]); South moves first and
//! plays the role of White in the pairing systems' colour rules.
//!
//! ```
//! use oware_tournament::swiss::{pair_next_round, standings, Entry, Player};
//! use oware_tournament::{Outcome, Pairing};
//!
//! let players: Vec<Player> =
//!     [1900, 1800, 1700].iter().zip(1..).map(|(&rating, id)| Player { id, rating, active: true }).collect();
//! let round = pair_next_round(&players, &[], 3, &[]).unwrap();
//! // Round 1: the top half meets the bottom half, the top seed South; the
//! // lowest-ranked has the bye.
//! assert_eq!(round.games, [Pairing { south: 1, north: 2 }]);
//! assert_eq!(round.bye, Some(3));
//! let played = vec![vec![
//!     Entry::Game { south: 1, north: 2, outcome: Some(Outcome::Draw) },
//!     Entry::Bye { player: 3 },
//! ]];
//! let table = standings(&players, &played);
//! assert_eq!(table[0].player, 3); // the bye's point beats a draw
//! ```
//!
//! # Swiss tournaments ([`swiss`])
//!
//! A fixed number of rounds, each paired by the FIDE Dutch system (FIDE
//! Handbook C.04.3, the 2017 rules, with the bye chosen as the 2025 rules'
//! criteria C5 and C9 have it), with a pairing-allocated bye (one point)
//! when the number of players is odd. A search for a maintained Rust crate
//! implementing the Dutch system (December 2026) found none, only programs
//! in C++ (bbpPairings), Python, Go and JavaScript, so [`swiss::pair_next_round`] implements it:
//! the absolute criteria (no rematch, no second bye, no two players with
//! the same absolute colour preference, and the caller's forbidden pairs)
//! always hold; score brackets are paired from the top in the rules' order
//! of transpositions and exchanges, the best candidate on the quality
//! criteria kept, completion checked exactly by a maximum matching
//! (Edmonds' blossom algorithm); colours follow rules E1–E5, South being
//! the initial colour (the top seed is South in round 1). The module docs
//! of `swiss` list the steps and what is not implemented.
//!
//! The standings ([`swiss::standings`]) rank by points, Buchholz,
//! Sonneborn-Berger and games won, unplayed rounds counted as FIDE's
//! Tie-Break Regulations (C.07, 2023) say: against a dummy opponent with
//! the player's own score.
//!
//! Checked against published pairings (`tests/dutch.rs`):
//! - round 1 as C.04.3 describes it (top half against bottom half, colours
//!   alternating by board);
//! - all five rounds of the example tournament of Mario Held's Dutch system
//!   tutorial (FIDE Arbiters' Manual 2014), as transcribed with expected
//!   pairings in the tests of rmoritz/swissdutch (tests/test_dutch.py);
//! - the test files `dutch_2025_C5` and `dutch_2025_C9` of bbpPairings
//!   (BieremaBoyzProgramming/bbpPairings, test/tests/; FIDE-endorsed),
//!   read from the TRF files as published (`tests/data/`).
//!
//! and over 2,000 seeded random tournaments (4–40 players, up to 9 rounds,
//! players leaving, blocked pairs): never a rematch, a second bye or three
//! games running with one colour; the largest score difference in a round
//! the smallest any legal pairing allows; "no pairing" only when brute
//! force confirms none exists.
//!
//! Not reproduced: bbpPairings's `issue_7` case (the last round of a
//! 60-player, 15-round event with forfeits) pairs differently here; the
//! last-round exceptions for topscorers (C.04.3 A.7, criteria C8–C9 and the
//! topscorers' exemption from C3) and criteria C16–C21 are not applied.
//!
//! # Arena tournaments ([`arena`])
//!
//! As lichess runs them (its tournament help page): for a
//! fixed time, a player who finishes a game is paired again at once. A win
//! scores 2, a draw 1, a loss 0; after two wins in a row a player is "on
//! fire" and every game scores double (a win 4, a draw 2) until one is not
//! won. Standings rank by score, then by fewer games for the same score
//! (this crate has no ratings in the standings, so not by performance as
//! lichess does). [`arena::pair`] pairs the waiting players near in rank,
//! never a forbidden pair, avoids an immediate rematch whenever another
//! pairing gives as many games, and gives South to whoever has had it
//! less, then to whoever was North last. The choice is exact among
//! partners up to [`arena::PAIRING_WINDOW`] places apart in rank.
//!
//! # Speed
//!
//! `cargo run -p oware-tournament --profile ci --example pairing_times`
//! on the shared 2-core development machine (load average about 9, so the
//! figures are high) printed, on 2026-12-02: a Swiss round of 40 players
//! 8.9 ms on average (worst of 9 rounds 26 ms), of 100 players 22 ms (worst
//! 47 ms), of 200 players 46 ms (worst 70 ms), against 0.03–1.9 ms for the
//! standings of the same history timed alternately; an arena pairing of
//! 100 waiting players 49 ms, of 500 waiting players 263 ms (standings
//! 0.1 and 1.6 ms). Before completion used the blossom matching (a
//! depth-first search), a 100-player round took 3.8 s on average and 34 s
//! at worst.

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
    /// The game ended before each side had moved (a resignation or an
    /// abort at the start): it scores nothing for anyone. An arena does not
    /// count it as a game at all; a Swiss counts it as a game both lost
    /// (the two met, neither scores), so an accomplice cannot hand out
    /// points by resigning at once.
    Void,
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
