//! An account's notifications as stored: the row type, its writes (with
//! the rules that keep them bounded: one unread "your turn" per game, the
//! newest [`KEEP`] per account, nothing from a blocked player) and reads,
//! once for both stores. (Who is told what is `hub/notifications.rs`.)

use serde::{Deserialize, Serialize};

use super::sql::{args, Db, SqlRow};
use super::StoreError;

/// Notifications kept per account: older ones are pruned as new ones come.
pub const KEEP: u32 = 100;

/// What a notification is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A game waits for the account's move.
    YourTurn,
    /// A challenge was received, accepted or declined (`detail` says which).
    Challenge,
    /// A tournament the account entered is starting, or paired it.
    TournamentStarting,
    /// A followed player started a game.
    FollowedPlaying,
}

impl Kind {
    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::TournamentStarting => "tournament_starting",
            Kind::FollowedPlaying => "followed_playing",
        }
    }

    /// A stored kind, read back (`None` for one this program does not know).
    pub fn from_stored(text: &str) -> Option<Kind> {
        Some(match text {
            "your_turn" => Kind::YourTurn,
            "challenge" => Kind::Challenge,
            "tournament_starting" => Kind::TournamentStarting,
            "followed_playing" => Kind::FollowedPlaying,
            _ => return None,
        })
    }
}

/// One notification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notification {
    /// Its id.
    pub id: String,
    /// The account told (never sent).
    #[serde(skip)]
    pub account: String,
    /// What about.
    pub kind: Kind,
    /// When, ms since the epoch (sent as an RFC 3339 date).
    #[serde(serialize_with = "date")]
    pub at: i64,
    /// Seen.
    pub read: bool,
    /// The game, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The player whose action it tells of, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// That player's account (never sent: a block between the two keeps
    /// the notification from being stored).
    #[serde(skip)]
    pub from_account: Option<String>,
    /// The tournament, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The challenge, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
    /// A word more for its kind (a challenge's `received`, `accepted`,
    /// `declined`; its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

fn date<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::rfc3339(*ms))
}

/// A change to notifications.
#[derive(Clone, Debug)]
pub enum NotificationOp {
    /// Stores a notification, unless its sender and its account block one
    /// another, or (a `your_turn`) one is unread for the same game; then
    /// prunes the account's oldest beyond [`KEEP`].
    Add(Notification),
    /// Marks some (`ids`) or all of an account's notifications read.
    Read {
        /// The account.
        account: String,
        /// Which; all of them when `None`.
        ids: Option<Vec<String>>,
    },
    /// Marks read the account's unread `your_turn` for a game (it has
    /// moved there).
    ReadGame {
        /// The account.
        account: String,
        /// The game.
        game: String,
    },
}

/// Applies a change.
pub(crate) async fn apply(db: &impl Db, op: &NotificationOp) -> Result<(), StoreError> {
    match op {
        NotificationOp::Add(n) => {
            db.execute(
                "INSERT INTO notifications
                 (id, account_id, kind, at, is_read, game_id, from_name, from_account,
                  tournament_id, detail, challenge_id)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
                 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2)
                 AND NOT EXISTS (SELECT 1 FROM blocks
                     WHERE (blocker = $2 AND blocked = $8) OR (blocker = $8 AND blocked = $2))
                 AND NOT EXISTS (SELECT 1 FROM notifications
                     WHERE account_id = $2 AND kind = 'your_turn' AND $3 = 'your_turn'
                     AND game_id = $6 AND NOT is_read)",
                args![
                    &n.id,
                    &n.account,
                    n.kind.as_str(),
                    n.at,
                    n.read,
                    &n.game,
                    &n.from,
                    &n.from_account,
                    &n.tournament,
                    &n.detail,
                    &n.challenge
                ],
            )
            .await?;
            db.execute(
                "DELETE FROM notifications WHERE account_id = $1 AND seq <= (
                     SELECT seq FROM notifications WHERE account_id = $1
                     ORDER BY seq DESC LIMIT 1 OFFSET $2)",
                args![&n.account, KEEP],
            )
            .await?;
        }
        NotificationOp::Read { account, ids: None } => {
            db.execute(
                "UPDATE notifications SET is_read = $2 WHERE account_id = $1 AND NOT is_read",
                args![account, true],
            )
            .await?;
        }
        NotificationOp::Read {
            account,
            ids: Some(ids),
        } => {
            for id in ids {
                db.execute(
                    "UPDATE notifications SET is_read = $2
                     WHERE account_id = $1 AND id = $3 AND NOT is_read",
                    args![account, true, id],
                )
                .await?;
            }
        }
        NotificationOp::ReadGame { account, game } => {
            db.execute(
                "UPDATE notifications SET is_read = $3 WHERE account_id = $1 AND game_id = $2
                 AND kind = 'your_turn' AND NOT is_read",
                args![account, game, true],
            )
            .await?;
        }
    }
    Ok(())
}

const COLUMNS: &str = "id, account_id, kind, at, is_read, game_id, from_name, from_account,
                       tournament_id, detail, challenge_id";

fn from_row(r: &SqlRow) -> Result<Option<Notification>, StoreError> {
    let Some(kind) = Kind::from_stored(&r.get::<String>(2)?) else {
        return Ok(None);
    };
    Ok(Some(Notification {
        id: r.get(0)?,
        account: r.get(1)?,
        kind,
        at: r.get(3)?,
        read: r.get(4)?,
        game: r.get(5)?,
        from: r.get(6)?,
        from_account: r.get(7)?,
        tournament: r.get(8)?,
        detail: r.get(9)?,
        challenge: r.get(10)?,
    }))
}

/// A page of an account's notifications, newest first: at most `limit`,
/// older than the notification `before` when given.
pub(crate) async fn page(
    db: &impl Db,
    account: &str,
    before: Option<&str>,
    limit: u32,
) -> Result<Vec<Notification>, StoreError> {
    let rows = db
        .query(
            &format!(
                "SELECT {COLUMNS} FROM notifications WHERE account_id = $1
                 AND seq < coalesce((SELECT seq FROM notifications
                                     WHERE id = $2 AND account_id = $1), $3)
                 ORDER BY seq DESC LIMIT $4"
            ),
            args![account, before, i64::MAX, limit],
        )
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        out.extend(from_row(r)?);
    }
    Ok(out)
}

/// One notification, by id.
pub(crate) async fn one(db: &impl Db, id: &str) -> Result<Option<Notification>, StoreError> {
    match db
        .query_opt(
            &format!("SELECT {COLUMNS} FROM notifications WHERE id = $1"),
            args![id],
        )
        .await?
    {
        Some(r) => from_row(&r),
        None => Ok(None),
    }
}

/// An account's unread notifications.
pub(crate) async fn unread(db: &impl Db, account: &str) -> Result<u32, StoreError> {
    db.query_one(
        "SELECT COUNT(*) FROM notifications WHERE account_id = $1 AND NOT is_read",
        args![account],
    )
    .await?
    .get(0)
}

/// Notifications: an account's, newest first (blocking reads).
pub trait NotificationStore: Send + Sync + 'static {
    /// A page of an account's notifications, newest first.
    fn notifications(
        &self,
        account: &str,
        before: Option<&str>,
        limit: u32,
    ) -> Result<Vec<Notification>, StoreError>;
    /// One notification.
    fn notification(&self, id: &str) -> Result<Option<Notification>, StoreError>;
    /// How many of an account's notifications are unread.
    fn unread_notifications(&self, account: &str) -> Result<u32, StoreError>;
}
