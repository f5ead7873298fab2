//! What the server knows of accounts: an account, its sessions, ratings
//! and their history, whom it follows and blocks, and the reports players
//! file. (How they are stored is `store/account_rows.rs`, the account
//! logic `crate::accounts` and the hub's accounts service.)

use serde::Serialize;

use crate::model::ratings::{Rating, RatingClass};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// Stable id (random; never shown).
    pub id: String,
    /// The name as the player wrote it.
    pub username: String,
    /// The Argon2id hash, in PHC string form.
    pub password_hash: String,
    /// When it was made, ms since the epoch.
    pub created_at: i64,
}

/// A signed-in session as stored: only the SHA-256 of its token is kept,
/// so a copy of the database does not hold usable sessions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of the cookie's token.
    pub token_hash: Vec<u8>,
    /// The account.
    pub account_id: String,
    /// The token state-changing requests must echo (`X-CSRF-Token`).
    pub csrf: String,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// Invalid from then on, ms since the epoch.
    pub expires_at: i64,
}

/// A rating as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The account.
    pub account_id: String,
    /// The class.
    pub class: RatingClass,
    /// The rating.
    pub rating: Rating,
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    /// The class.
    pub class: RatingClass,
    /// The game that moved it.
    pub game_id: String,
    /// Rating after the game.
    pub rating: f64,
    /// Deviation after the game.
    pub deviation: f64,
    /// When, ms since the epoch.
    pub at: i64,
}

/// A rated game to apply: the writer reads both current ratings, rates the
/// game and writes both results and their history, in the transaction that
/// stores the game's end, so a game is rated exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The game.
    pub game_id: String,
    /// Its class.
    pub class: RatingClass,
    /// South's account, North's account.
    pub accounts: [String; 2],
    /// The winner (`None`: a draw).
    pub winner: Option<oware_core::Side>,
    /// When it ended, ms since the epoch.
    pub at: i64,
}

/// A report of a player, kept for an operator (`oware admin reports`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportRow {
    /// Random id (what the operator closes it by).
    pub id: String,
    /// The reporting account's id.
    pub reporter: String,
    /// The reported account's id.
    pub reported: String,
    /// The reported player's name when reported (kept if the account goes).
    pub reported_name: String,
    /// The game it is about, if any.
    pub game_id: Option<String>,
    /// `cheating`, `abuse` or `other`.
    pub reason: String,
    /// The reporter's words (at most 500 characters).
    pub details: String,
    /// When, ms since the epoch.
    pub at: i64,
    /// When an operator closed it.
    pub closed_at: Option<i64>,
    /// The operator's note on closing.
    pub resolution: Option<String>,
    /// The reporter's name now (read only; `None` once the account is gone).
    pub reporter_name: Option<String>,
    /// The reported account was closed by an operator (read only).
    pub reported_closed: bool,
}

/// Which reports to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportFilter {
    /// Those no operator has closed.
    Open,
    /// All of them.
    All,
    /// Those one account filed (its data export).
    FiledBy(String),
}

/// Whom an account follows and has blocked (usernames, alphabetical).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Relations {
    /// Followed players.
    pub following: Vec<String>,
    /// Blocked players.
    pub blocked: Vec<String>,
}

/// How long a deleted account's name stays reserved (30 days), so nobody
/// takes it over with its old chat lines and games: a new account of that
/// name is refused as if the name were taken.
pub const NAME_RESERVED_MS: i64 = 30 * 86_400_000;

/// The key a username is unique by (case-insensitive).
pub fn username_key(name: &str) -> String {
    name.to_ascii_lowercase()
}
