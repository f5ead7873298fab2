//! Direct challenges as stored: the row, its writes (a challenger's open
//! challenges capped inside the transaction, an answer only to a challenge
//! still open and not expired on the server's clock) and reads, once for
//! both stores. (Who may challenge whom is `hub/challenges.rs`.)

use super::sql::{args, Db, SqlRow};
use super::StoreError;

pub use crate::model::challenge::{Challenge, ChallengeStatus};

/// A change to challenges.
#[derive(Clone, Debug)]
pub enum ChallengeOp {
    /// A new challenge, refused with [`StoreError::Full`] when its
    /// challenger already has `cap` open ones (counted inside the
    /// transaction, the challenger's account row locked, so two nodes
    /// cannot both pass it).
    Create {
        /// The challenge.
        challenge: Challenge,
        /// Open challenges a challenger may have.
        cap: u32,
    },
    /// An answer (accepted, declined, cancelled) by `account` (the
    /// challenged player, or the challenger to cancel): refused with
    /// [`StoreError::Gone`] unless the challenge is open and not expired
    /// at `now`, and theirs to answer.
    Answer {
        /// The challenge.
        id: String,
        /// Who answers.
        account: String,
        /// The answer.
        status: ChallengeStatus,
        /// The game created, when accepted.
        game: Option<String>,
        /// Now, on the server's clock.
        now: i64,
    },
}

/// Applies a change.
pub(crate) async fn apply(db: &impl Db, op: &ChallengeOp) -> Result<(), StoreError> {
    match op {
        ChallengeOp::Create { challenge: c, cap } => {
            let lock = db.dialect().for_update;
            db.query(
                &format!("SELECT 1 FROM accounts WHERE id = $1{lock}"),
                args![&c.from_account],
            )
            .await?;
            let open: u32 = db
                .query_one(
                    "SELECT count(*) FROM challenges
                     WHERE from_account = $1 AND status = 'open' AND expires_at > $2",
                    args![&c.from_account, c.created_at],
                )
                .await?
                .get(0)?;
            if open >= *cap {
                return Err(StoreError::Full {
                    what: super::Cap::OpenChallenges,
                    cap: *cap,
                });
            }
            let tc = c
                .time_control
                .map(|tc| serde_json::to_string(&tc).unwrap_or_default());
            db.execute(
                "INSERT INTO challenges (id, from_account, from_name, to_account, to_name,
                 time_control, rated, side, status, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10)",
                args![
                    &c.id,
                    &c.from_account,
                    &c.from,
                    &c.to_account,
                    &c.to,
                    tc.as_deref(),
                    c.rated,
                    c.side.map(super::chat::side_code),
                    c.created_at,
                    c.expires_at
                ],
            )
            .await?;
        }
        ChallengeOp::Answer {
            id,
            account,
            status,
            game,
            now,
        } => {
            let who = if *status == ChallengeStatus::Cancelled {
                "from_account"
            } else {
                "to_account"
            };
            let changed = db
                .execute(
                    &format!(
                        "UPDATE challenges SET status = $3, game_id = $4
                         WHERE id = $1 AND {who} = $2 AND status = 'open' AND expires_at > $5"
                    ),
                    args![id, account, status.as_str(), game, *now],
                )
                .await?;
            if changed == 0 {
                return Err(StoreError::Gone(id.clone()));
            }
        }
    }
    Ok(())
}

const COLUMNS: &str = "id, from_account, from_name, to_account, to_name, time_control, rated,
                       side, status, created_at, expires_at, game_id";

fn from_row(r: &SqlRow, now: i64) -> Result<Challenge, StoreError> {
    let expires_at: i64 = r.get(10)?;
    let mut status = ChallengeStatus::from_stored(&r.get::<String>(8)?);
    if status == ChallengeStatus::Open && expires_at <= now {
        status = ChallengeStatus::Expired;
    }
    Ok(Challenge {
        id: r.get(0)?,
        from_account: r.get(1)?,
        from: r.get(2)?,
        to_account: r.get(3)?,
        to: r.get(4)?,
        time_control: r
            .get::<Option<String>>(5)?
            .and_then(|t| serde_json::from_str(&t).ok()),
        rated: r.get(6)?,
        side: super::chat::side_from_code(r.get::<Option<String>>(7)?.as_deref()),
        status,
        created_at: r.get(9)?,
        expires_at,
        game: r.get(11)?,
    })
}

/// One challenge, as it stands at `now`.
pub(crate) async fn one(db: &impl Db, id: &str, now: i64) -> Result<Option<Challenge>, StoreError> {
    match db
        .query_opt(
            &format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"),
            args![id],
        )
        .await?
    {
        Some(r) => from_row(&r, now).map(Some),
        None => Ok(None),
    }
}

/// The open challenges an account made or received, at `now`, newest first.
pub(crate) async fn open_of(
    db: &impl Db,
    account: &str,
    now: i64,
) -> Result<Vec<Challenge>, StoreError> {
    let rows = db
        .query(
            &format!(
                "SELECT {COLUMNS} FROM challenges
                 WHERE (from_account = $1 OR to_account = $1) AND status = 'open'
                 AND expires_at > $2 ORDER BY created_at DESC, id LIMIT 50"
            ),
            args![account, now],
        )
        .await?;
    rows.iter().map(|r| from_row(r, now)).collect()
}

/// Challenges (blocking reads).
pub trait ChallengeStore: Send + Sync + 'static {
    /// One challenge, as it stands at `now`.
    fn challenge(&self, id: &str, now: i64) -> Result<Option<Challenge>, StoreError>;
    /// The open challenges an account made or received, at `now`.
    fn open_challenges(&self, account: &str, now: i64) -> Result<Vec<Challenge>, StoreError>;
}
