//! An account's notifications as stored: the row type, its writes (with
//! the rules that keep them bounded: one unread "your turn" per game, one
//! "starts soon" per tournament, the newest [`KEEP`] per account, nothing
//! from a blocked player) and reads,
//! once for both stores. (Who is told what is `hub/notifications.rs`.)

use super::sql::{args, Db, SqlRow};
use super::StoreError;

/// Notifications kept per account: older ones are pruned as new ones come.
pub const KEEP: u32 = 100;

pub use crate::model::notification::{Kind, Notification};

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
                     AND game_id = $6 AND NOT is_read)
                 AND NOT EXISTS (SELECT 1 FROM notifications
                     WHERE account_id = $2 AND kind = $3 AND $3 = 'tournament_starting'
                     AND tournament_id = $9 AND detail = 'soon' AND $10 = 'soon')",
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
