//! Optional accounts: usernames, passwords hashed with Argon2id, sessions
//! in HttpOnly cookies with a CSRF token, and Glicko-2 ratings. Anonymous
//! play with seat tokens works as before; a game played while signed in
//! belongs to the account as well. The threat model is docs/SECURITY.md.

pub mod ratings;
pub mod routes;
pub mod session;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use ratings::{Rating, RatingClass};

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

/// A signed-in user, as handlers see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Account id.
    pub id: String,
    /// Username.
    pub username: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// SHA-256 of the session token.
    pub token_hash: Vec<u8>,
}

/// Names nobody may take: they would pass for the site, a role or a seat.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "computer",
    "deleted",
    "engine",
    "guest",
    "help",
    "mod",
    "moderator",
    "north",
    "oware",
    "player",
    "root",
    "south",
    "staff",
    "support",
    "system",
];

/// The key a username is unique by (case-insensitive).
pub fn username_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a new username: 3 to 20 characters, ASCII letters, digits, `_`
/// and `-`, starting with a letter, not a reserved name.
pub fn check_username(name: &str) -> Result<(), ApiError> {
    let bad = |reason: &'static str, text: &str| {
        Err(ApiError::invalid_request(format!("username: {text}")).with_reason(reason))
    };
    if !(3..=20).contains(&name.chars().count()) {
        return bad("username_length", "3 to 20 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return bad(
            "username_characters",
            "letters, digits, _ and - only, starting with a letter",
        );
    }
    if RESERVED.contains(&username_key(name).as_str()) {
        return bad("username_reserved", "this name is reserved");
    }
    Ok(())
}

/// Checks a new password: 8 to 128 characters, not the username.
pub fn check_password(password: &str, username: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !(8..=128).contains(&n) {
        return Err(ApiError::invalid_request("password: 8 to 128 characters")
            .with_reason("password_length"));
    }
    if username_key(password) == username_key(username) {
        return Err(
            ApiError::invalid_request("password: must not be the username")
                .with_reason("password_is_username"),
        );
    }
    Ok(())
}

/// Hashes a password with Argon2id (the crate's defaults: 19 MiB, two
/// passes, one lane, a random salt). Slow on purpose: call it off the async
/// threads.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&bytes)
        .map_err(|e| ApiError::internal(format!("password salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("password hashing failed: {e}")))
}

/// Whether `password` matches the stored hash (false for a damaged hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A new session token (256 random bits, hex) and its SHA-256.
pub fn new_session_token() -> (String, Vec<u8>) {
    let token = format!("{}{}", crate::model::new_token(), crate::model::new_token());
    let hash = token_hash(&token);
    (token, hash)
}

/// SHA-256 of a session token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for ok in ["Ama", "kofi_99", "Abapa-Fan"] {
            check_username(ok).unwrap();
        }
        let reason = |n: &str| check_username(n).unwrap_err().reason.unwrap();
        assert_eq!(reason("ab"), "username_length");
        assert_eq!(reason("a".repeat(21).as_str()), "username_length");
        assert_eq!(reason("9lives"), "username_characters");
        assert_eq!(reason("<b>x</b>"), "username_characters");
        assert_eq!(reason("Amá"), "username_characters");
        assert_eq!(reason("Admin"), "username_reserved");
    }

    #[test]
    fn passwords_are_hashed_with_argon2id_and_verified() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsE", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(h, hash_password("correct horse").unwrap(), "salted");
        assert_eq!(
            check_password("short", "ama").unwrap_err().reason,
            Some("password_length")
        );
        assert!(check_password("AMA-AMA-", "ama-ama-").is_err());
    }

    #[test]
    fn session_tokens_are_long_and_stored_hashed() {
        let (t, h) = new_session_token();
        assert_eq!(t.len(), 64);
        assert_eq!(h, token_hash(&t));
        assert_eq!(h.len(), 32);
        assert_ne!(new_session_token().0, t);
    }
}
