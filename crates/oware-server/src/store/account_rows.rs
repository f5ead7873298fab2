//! The rows the store keeps for accounts (the account logic itself is in
//! `crate::accounts`): accounts, sessions, ratings and their history, and
//! the changes to them.

pub use crate::model::account::{
    AccountRow, HistoryPoint, RatedGame, RatingRow, Relations, ReportFilter, ReportRow, SessionRow,
};

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
    /// seats are anonymised separately). Its name stays reserved for
    /// [`NAME_RESERVED_MS`] from `at`.
    Delete {
        /// The account.
        id: String,
        /// When, ms since the epoch.
        at: i64,
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
    /// Starts (`on`) or stops following a player.
    Follow {
        /// The follower's account.
        follower: String,
        /// The followed account.
        followed: String,
        /// Follow, or stop.
        on: bool,
        /// When, ms since the epoch.
        at: i64,
    },
    /// Blocks (`on`) or unblocks a player.
    Block {
        /// The blocking account.
        blocker: String,
        /// The blocked account.
        blocked: String,
        /// Block, or unblock.
        on: bool,
        /// When, ms since the epoch.
        at: i64,
    },
    /// A new report.
    Report(ReportRow),
    /// An operator closes a report.
    CloseReport {
        /// The report.
        id: String,
        /// The operator's note.
        resolution: String,
        /// When, ms since the epoch.
        at: i64,
    },
    /// An operator closes an account: it can no longer sign in, and its
    /// sessions end. Its name and games stay.
    Close {
        /// The account.
        id: String,
        /// Why (the operator's words).
        reason: String,
        /// When, ms since the epoch.
        at: i64,
    },
}

pub use crate::model::account::{username_key, NAME_RESERVED_MS};
