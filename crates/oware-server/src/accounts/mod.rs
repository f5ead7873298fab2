//! Optional accounts: usernames, passwords hashed with Argon2id, sessions
//! in HttpOnly cookies with a CSRF token, and Glicko-2 ratings. Anonymous
//! play with seat tokens works as before; a game played while signed in
//! belongs to the account as well. The threat model is docs/SECURITY.md.

pub use crate::model::ratings;
pub mod community;
pub mod routes;
pub mod session;

use crate::error::Reason;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

pub use crate::model::account::{
    username_key, AccountRow, HistoryPoint, RatedGame, RatingRow, SessionRow,
};

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

/// Checks a new username: 3 to 20 characters, ASCII letters, digits, `_`
/// and `-`, starting with a letter, not a reserved name.
pub fn check_username(name: &str) -> Result<(), ApiError> {
    let bad = |reason: Reason, text: &str| {
        Err(ApiError::invalid_request(format!("username: {text}")).with_reason(reason))
    };
    if !(3..=20).contains(&name.chars().count()) {
        return bad(Reason::UsernameLength, "3 to 20 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return bad(
            Reason::UsernameCharacters,
            "letters, digits, _ and - only, starting with a letter",
        );
    }
    if RESERVED.contains(&username_key(name).as_str()) {
        return bad(Reason::UsernameReserved, "this name is reserved");
    }
    Ok(())
}

/// Checks a new password: 8 to 128 characters, not the username.
pub fn check_password(password: &str, username: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !(8..=128).contains(&n) {
        return Err(ApiError::invalid_request("password: 8 to 128 characters")
            .with_reason(Reason::PasswordLength));
    }
    if username_key(password) == username_key(username) {
        return Err(
            ApiError::invalid_request("password: must not be the username")
                .with_reason(Reason::PasswordIsUsername),
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
