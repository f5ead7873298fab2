//! The rows the store keeps for accounts (the account logic itself is in
//! `crate::accounts`): accounts, sessions, ratings and their history, and
//! the changes to them.

use serde::Serialize;

use crate::ratings::{Rating, RatingClass};

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

/// A change to accounts (a [`crate::store::WriteOp`]).
#[derive(Clone, Debug)]
pub enum AccountOp {
    /// A new account; fails with a constraint error if the name is taken.
    Create(AccountRow),
    /// A new password hash.
    SetPassword {
        /// The account.
        id: String,
        /// The new hash.
        hash: String,
    },
    /// Deletes the account, its sessions and ratings; its games stay (their
    /// seats are anonymised separately).
    Delete {
        /// The account.
        id: String,
    },
    /// A new session.
    CreateSession(SessionRow),
    /// Ends one session.
    EndSession {
        /// SHA-256 of its token.
        token_hash: Vec<u8>,
    },
    /// Ends every session of an account but one.
    EndOtherSessions {
        /// The account.
        account_id: String,
        /// The session kept (SHA-256 of its token).
        keep: Option<Vec<u8>>,
    },
    /// Links a game to an account (its "my games").
    LinkGame {
        /// The account.
        account_id: String,
        /// The game.
        game_id: String,
    },
    /// Rates a finished game.
    Rate(RatedGame),
}

/// The key a username is unique by (case-insensitive).
pub fn username_key(name: &str) -> String {
    name.to_ascii_lowercase()
}
