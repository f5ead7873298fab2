//! Direct challenges as stored: the row, its writes (a challenger's open
//! challenges capped inside the transaction, an answer only to a challenge
//! still open and not expired on the server's clock) and reads, once for
//! both stores. (Who may challenge whom is `hub/challenges.rs`.)

use serde::Serialize;

use super::sql::{args, Db, SqlRow};
use super::StoreError;
use crate::model::TimeControl;

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Waiting for an answer (until it expires).
    Open,
    /// Accepted: the game is created.
    Accepted,
    /// Declined by the player challenged.
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
    /// Not answered in time (never stored: an open one past its time).
    Expired,
}

impl ChallengeStatus {
    /// As stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    fn from_stored(text: &str) -> ChallengeStatus {
        match text {
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            "cancelled" => ChallengeStatus::Cancelled,
            "expired" => ChallengeStatus::Expired,
            _ => ChallengeStatus::Open,
        }
    }
}

/// A challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The challenger's account (never sent).
    #[serde(skip)]
    pub from_account: String,
    /// The challenger's name.
    pub from: String,
    /// The challenged player's account (never sent).
    #[serde(skip)]
    pub to_account: String,
    /// The challenged player's name.
    pub to: String,
    /// The game's time control (`None`: untimed).
    pub time_control: Option<TimeControl>,
    /// Rated.
    pub rated: bool,
    /// The challenger's side (`None`: drawn by lot on accepting).
    #[serde(serialize_with = "side_code")]
    pub side: Option<oware_core::Side>,
    /// Where it stands (an open one past `expires_at` reads as expired).
    pub status: ChallengeStatus,
    /// When it was made, ms since the epoch.
    #[serde(skip)]
    pub created_at: i64,
    /// When it lapses unanswered, ms since the epoch (sent as RFC 3339).
    #[serde(serialize_with = "date")]
    pub expires_at: i64,
    /// The game, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

fn date<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::rfc3339(*ms))
}

fn side_code<S: serde::Serializer>(
    side: &Option<oware_core::Side>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_str(super::chat::side_code(*side)),
        None => s.serialize_none(),
    }
}

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
