//! E-mail as stored, once for both stores: an account's address (pending
//! or verified, its language, whether it takes notification mails), the
//! single-use links' tokens (only their SHA-256 is kept), and the outbox
//! that a task drains off the request path (`hub/mail.rs`), with the rules
//! that keep it bounded: a "your move" mail at most once a game a day, a
//! few password-reset mails an address an hour, notification mails only to
//! a verified address that has not unsubscribed.

use super::sql::{args, Db, SqlRow};
use super::{Lease, StoreError};

/// One day, ms: a game's "your move" mail is sent at most once in it.
pub const DAY_MS: i64 = 24 * 3600 * 1000;
/// Password-reset mails one address gets an hour at most (whoever asks).
pub const RESETS_PER_HOUR: u32 = 3;
/// Verification mails one account gets an hour at most.
pub const VERIFICATIONS_PER_HOUR: u32 = 5;

/// What a mail is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailKind {
    /// A link that proves the address is the account's.
    Verify,
    /// A link that sets a new password.
    Reset,
    /// A correspondence game waits for the account's move.
    YourTurn,
    /// A tournament the account entered is starting.
    TournamentStarting,
}

impl MailKind {
    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            MailKind::Verify => "verify",
            MailKind::Reset => "reset",
            MailKind::YourTurn => "your_turn",
            MailKind::TournamentStarting => "tournament_starting",
        }
    }

    /// A stored kind read back.
    pub fn from_stored(s: &str) -> Option<MailKind> {
        Some(match s {
            "verify" => MailKind::Verify,
            "reset" => MailKind::Reset,
            "your_turn" => MailKind::YourTurn,
            "tournament_starting" => MailKind::TournamentStarting,
            _ => return None,
        })
    }

    /// A notification mail (sent only to a verified address that takes them).
    pub const fn is_notification(self) -> bool {
        matches!(self, MailKind::YourTurn | MailKind::TournamentStarting)
    }
}

/// What a link's token does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Verifies an address (single use).
    Verify,
    /// Sets a new password (single use).
    Reset,
    /// Stops notification mails (may be used again).
    Unsubscribe,
}

impl TokenKind {
    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            TokenKind::Verify => "verify",
            TokenKind::Reset => "reset",
            TokenKind::Unsubscribe => "unsubscribe",
        }
    }
}

/// An account's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// The account.
    pub account: String,
    /// The address as given.
    pub address: String,
    /// The address in lower case (what is compared).
    pub key: String,
    /// `en` or `fr`: the mails' language.
    pub lang: String,
    /// The account proved it reads this address.
    pub verified: bool,
    /// It takes notification mails ("your move", tournaments).
    pub subscribed: bool,
}

/// A link's token, as stored (its hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// SHA-256 of the token.
    pub hash: Vec<u8>,
    /// What it does.
    pub kind: TokenKind,
    /// Whose.
    pub account: String,
    /// The address (lower case) it was sent to.
    pub key: String,
    /// When it stops working (server's clock, ms).
    pub expires_at: i64,
    /// When it was used, if it was.
    pub used_at: Option<i64>,
}

/// A mail waiting in (or gone from) the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// Its id.
    pub id: String,
    /// The account it is for.
    pub account: String,
    /// The address it goes to.
    pub address: String,
    /// What it is.
    pub kind: MailKind,
    /// `en` or `fr`.
    pub lang: String,
    /// The game, for "your move".
    pub game: Option<String>,
    /// The tournament, for "tournament starting".
    pub tournament: Option<String>,
    /// A word more: the opponent's or the tournament's name.
    pub detail: Option<String>,
    /// When queued (server's clock, ms).
    pub created_at: i64,
    /// Attempts so far.
    pub attempts: u32,
}

/// A change to e-mail data.
#[derive(Clone, Debug)]
pub enum MailOp {
    /// Sets an account's address (unverified, taking notification mails);
    /// its earlier verification links stop working.
    SetAddress(Address),
    /// Sets the mails' language.
    SetLang {
        /// The account.
        account: String,
        /// `en` or `fr`.
        lang: String,
    },
    /// Removes an account's address, its links and its queued mails.
    Remove {
        /// The account.
        account: String,
    },
    /// Turns notification mails on or off.
    Subscribe {
        /// The account.
        account: String,
        /// On.
        on: bool,
    },
    /// Stores a link's token.
    Token(Token),
    /// Uses a single-use token: refused ([`StoreError::Gone`]) unless it
    /// is of `kind`, unused and unexpired at `now`.
    UseToken {
        /// Its hash.
        hash: Vec<u8>,
        /// What it must be.
        kind: TokenKind,
        /// Now.
        now: i64,
    },
    /// The account's address `key` is verified (refused with
    /// [`StoreError::Gone`] if the account's address changed meanwhile).
    Verified {
        /// The account.
        account: String,
        /// The address, lower case.
        key: String,
    },
    /// Queues a mail, unless a rule of its kind says no (quietly): a
    /// notification mail needs the account's verified, subscribed address
    /// and goes at most once a game a day; resets and verifications are
    /// capped per address and per account an hour.
    Enqueue(Outgoing),
    /// A mail was sent (or is dropped: `failed`) at `at`.
    Done {
        /// The mail.
        id: String,
        /// When.
        at: i64,
        /// Given up rather than sent.
        failed: bool,
    },
    /// A mail's attempt failed: tried again at `due_at`.
    Retry {
        /// The mail.
        id: String,
        /// When to try again.
        due_at: i64,
    },
    /// Forgets mails done and tokens expired before `before`.
    Prune {
        /// The oldest time kept.
        before: i64,
    },
}

/// Applies a change.
pub(crate) async fn apply(db: &impl Db, op: &MailOp) -> Result<(), StoreError> {
    match op {
        MailOp::SetAddress(a) => {
            db.execute(
                "DELETE FROM mail_tokens WHERE account_id = $1 AND kind = 'verify'",
                args![&a.account],
            )
            .await?;
            db.execute(
                "INSERT INTO mail_addresses (account_id, address, address_key, lang, verified,
                                             subscribed)
                 SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1)
                 ON CONFLICT (account_id) DO UPDATE SET address = excluded.address,
                     address_key = excluded.address_key, lang = excluded.lang,
                     verified = excluded.verified, subscribed = excluded.subscribed",
                args![
                    &a.account,
                    &a.address,
                    &a.key,
                    &a.lang,
                    a.verified,
                    a.subscribed
                ],
            )
            .await?;
        }
        MailOp::SetLang { account, lang } => {
            db.execute(
                "UPDATE mail_addresses SET lang = $2 WHERE account_id = $1",
                args![account, lang],
            )
            .await?;
        }
        MailOp::Remove { account } => forget(db, account).await?,
        MailOp::Subscribe { account, on } => {
            db.execute(
                "UPDATE mail_addresses SET subscribed = $2 WHERE account_id = $1",
                args![account, *on],
            )
            .await?;
        }
        MailOp::Token(t) => {
            db.execute(
                "INSERT INTO mail_tokens (token_hash, kind, account_id, address_key, expires_at)
                 VALUES ($1, $2, $3, $4, $5)",
                args![&t.hash, t.kind.as_str(), &t.account, &t.key, t.expires_at],
            )
            .await?;
        }
        MailOp::UseToken { hash, kind, now } => {
            let changed = db
                .execute(
                    "UPDATE mail_tokens SET used_at = $3
                     WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3",
                    args![hash, kind.as_str(), *now],
                )
                .await?;
            if changed == 0 {
                return Err(StoreError::Gone("the link".into()));
            }
        }
        MailOp::Verified { account, key } => {
            let changed = db
                .execute(
                    "UPDATE mail_addresses SET verified = $3
                     WHERE account_id = $1 AND address_key = $2",
                    args![account, key, true],
                )
                .await?;
            if changed == 0 {
                return Err(StoreError::Gone("the address".into()));
            }
        }
        MailOp::Enqueue(m) => enqueue(db, m).await?,
        MailOp::Done { id, at, failed } => {
            db.execute(
                "UPDATE mail_outbox SET status = $2, done_at = $3, claim = NULL WHERE id = $1",
                args![id, if *failed { "failed" } else { "sent" }, *at],
            )
            .await?;
        }
        MailOp::Retry { id, due_at } => {
            db.execute(
                "UPDATE mail_outbox SET attempts = attempts + 1, due_at = $2, claim = NULL
                 WHERE id = $1",
                args![id, *due_at],
            )
            .await?;
        }
        MailOp::Prune { before } => {
            db.execute(
                "DELETE FROM mail_outbox WHERE status <> 'queued' AND done_at < $1",
                args![*before],
            )
            .await?;
            db.execute(
                "DELETE FROM mail_tokens WHERE expires_at < $1",
                args![*before],
            )
            .await?;
        }
    }
    Ok(())
}

/// Everything of an account's e-mail: its address, links and mails
/// (also when the account is deleted).
pub(crate) async fn forget(db: &impl Db, account: &str) -> Result<(), StoreError> {
    for sql in [
        "DELETE FROM mail_addresses WHERE account_id = $1",
        "DELETE FROM mail_tokens WHERE account_id = $1",
        "DELETE FROM mail_outbox WHERE account_id = $1",
    ] {
        db.execute(sql, args![account]).await?;
    }
    Ok(())
}

async fn enqueue(db: &impl Db, m: &Outgoing) -> Result<(), StoreError> {
    let key = m.address.to_lowercase();
    // Each kind's rule, as a condition on the insert: `$13` a time bound
    // and `$14` a cap, where the rule has them (no gap in the numbers:
    // PostgreSQL must type every parameter up to the last one used).
    let (rule, since, cap) = match m.kind {
        MailKind::YourTurn => (
            "EXISTS (SELECT 1 FROM mail_addresses WHERE account_id = $2 AND address_key = $4
                     AND verified AND subscribed)
             AND NOT EXISTS (SELECT 1 FROM mail_outbox WHERE account_id = $2
                 AND kind = 'your_turn' AND game_id = $7 AND created_at > $13)",
            m.created_at - DAY_MS,
            0,
        ),
        MailKind::TournamentStarting => (
            "EXISTS (SELECT 1 FROM mail_addresses WHERE account_id = $2 AND address_key = $4
                     AND verified AND subscribed)
             AND NOT EXISTS (SELECT 1 FROM mail_outbox WHERE account_id = $2
                 AND kind = 'tournament_starting' AND tournament_id = $8)",
            0,
            0,
        ),
        MailKind::Reset => (
            "EXISTS (SELECT 1 FROM mail_addresses WHERE account_id = $2 AND address_key = $4
                     AND verified)
             AND (SELECT COUNT(*) FROM mail_outbox WHERE address_key = $4 AND kind = 'reset'
                  AND created_at > $13) < $14",
            m.created_at - 3_600_000,
            RESETS_PER_HOUR,
        ),
        MailKind::Verify => (
            "EXISTS (SELECT 1 FROM mail_addresses WHERE account_id = $2 AND address_key = $4
                     AND NOT verified)
             AND (SELECT COUNT(*) FROM mail_outbox WHERE account_id = $2 AND kind = 'verify'
                  AND created_at > $13) < $14",
            m.created_at - 3_600_000,
            VERIFICATIONS_PER_HOUR,
        ),
    };
    db.execute(
        &format!(
            "INSERT INTO mail_outbox (id, account_id, address, address_key, kind, lang, game_id,
                                      tournament_id, detail, created_at, due_at, attempts, status)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'queued' WHERE {rule}"
        ),
        args![
            &m.id,
            &m.account,
            &m.address,
            &key,
            m.kind.as_str(),
            &m.lang,
            &m.game,
            &m.tournament,
            &m.detail,
            m.created_at,
            m.created_at,
            m.attempts,
            since,
            cap
        ],
    )
    .await?;
    Ok(())
}

fn address_row(r: &SqlRow) -> Result<Address, StoreError> {
    Ok(Address {
        account: r.get(0)?,
        address: r.get(1)?,
        key: r.get(2)?,
        lang: r.get(3)?,
        verified: r.get(4)?,
        subscribed: r.get(5)?,
    })
}

const ADDRESS: &str = "account_id, address, address_key, lang, verified, subscribed";

/// An account's address.
pub(crate) async fn address(db: &impl Db, account: &str) -> Result<Option<Address>, StoreError> {
    db.query_opt(
        &format!("SELECT {ADDRESS} FROM mail_addresses WHERE account_id = $1"),
        args![account],
    )
    .await?
    .map(|r| address_row(&r))
    .transpose()
}

/// The accounts whose verified address is `key` (lower case), with their
/// names.
pub(crate) async fn verified(
    db: &impl Db,
    key: &str,
) -> Result<Vec<(Address, String)>, StoreError> {
    db.query(
        &format!(
            "SELECT {ADDRESS}, (SELECT username FROM accounts WHERE id = account_id)
             FROM mail_addresses WHERE address_key = $1 AND verified
             ORDER BY account_id LIMIT 10"
        ),
        args![key],
    )
    .await?
    .iter()
    .map(|r| {
        Ok((
            address_row(r)?,
            r.get::<Option<String>>(6)?.unwrap_or_default(),
        ))
    })
    .collect()
}

/// A token, by its hash.
pub(crate) async fn token(db: &impl Db, hash: &[u8]) -> Result<Option<Token>, StoreError> {
    let Some(r) = db
        .query_opt(
            "SELECT kind, account_id, address_key, expires_at, used_at FROM mail_tokens
             WHERE token_hash = $1",
            args![hash],
        )
        .await?
    else {
        return Ok(None);
    };
    let kind = match r.get::<String>(0)?.as_str() {
        "verify" => TokenKind::Verify,
        "reset" => TokenKind::Reset,
        "unsubscribe" => TokenKind::Unsubscribe,
        _ => return Ok(None),
    };
    Ok(Some(Token {
        hash: hash.to_vec(),
        kind,
        account: r.get(1)?,
        key: r.get(2)?,
        expires_at: r.get(3)?,
        used_at: r.get(4)?,
    }))
}

const OUTGOING: &str = "id, account_id, address, kind, lang, game_id, tournament_id, detail,
                        created_at, attempts";

/// Claims up to `limit` queued mails due at `now` that no node holds.
pub(crate) async fn claim(
    db: &impl Db,
    now: i64,
    lease: Lease,
    limit: u32,
) -> Result<Vec<Outgoing>, StoreError> {
    let rows = db
        .query(
            &format!(
                "UPDATE mail_outbox SET claim = $2 WHERE id IN (
                     SELECT id FROM mail_outbox WHERE status = 'queued' AND due_at <= $1
                     AND coalesce(claim, 0) <= $4 ORDER BY due_at LIMIT $3{})
                 RETURNING {OUTGOING}",
                db.dialect().skip_locked
            ),
            args![now, lease.now + lease.ms, limit, lease.now],
        )
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let Some(kind) = MailKind::from_stored(&r.get::<String>(3)?) else {
            continue;
        };
        out.push(Outgoing {
            id: r.get(0)?,
            account: r.get(1)?,
            address: r.get(2)?,
            kind,
            lang: r.get(4)?,
            game: r.get(5)?,
            tournament: r.get(6)?,
            detail: r.get(7)?,
            created_at: r.get(8)?,
            attempts: r.get(9)?,
        });
    }
    Ok(out)
}

/// When the next queued mail is due, if any is queued.
pub(crate) async fn next_due(db: &impl Db) -> Result<Option<i64>, StoreError> {
    db.query_one(
        "SELECT min(due_at) FROM mail_outbox WHERE status = 'queued'",
        args![],
    )
    .await?
    .get(0)
}

/// The outbox's counts: queued, sent, given up, and failed attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OutboxCounts {
    /// Waiting to be sent.
    pub queued: u64,
    /// Sent (and kept for the once-a-day rule).
    pub sent: u64,
    /// Given up after too many attempts.
    pub failed: u64,
    /// Failed attempts of the mails still kept.
    pub retries: u64,
}

/// The outbox's counts.
pub(crate) async fn counts(db: &impl Db) -> Result<OutboxCounts, StoreError> {
    let r = db
        .query_one(
            "SELECT
                 coalesce(sum(CASE WHEN status = 'queued' THEN 1 ELSE 0 END), 0),
                 coalesce(sum(CASE WHEN status = 'sent' THEN 1 ELSE 0 END), 0),
                 coalesce(sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0),
                 CAST(coalesce(sum(attempts), 0) AS BIGINT)
             FROM mail_outbox",
            args![],
        )
        .await?;
    Ok(OutboxCounts {
        queued: r.get(0)?,
        sent: r.get(1)?,
        failed: r.get(2)?,
        retries: r.get(3)?,
    })
}

/// E-mail data (blocking reads; claims lease rows).
pub trait MailStore: Send + Sync + 'static {
    /// An account's address.
    fn mail_address(&self, account: &str) -> Result<Option<Address>, StoreError>;
    /// The accounts whose verified address is `key` (lower case), with
    /// their names.
    fn mail_verified(&self, key: &str) -> Result<Vec<(Address, String)>, StoreError>;
    /// A link's token, by its hash.
    fn mail_token(&self, hash: &[u8]) -> Result<Option<Token>, StoreError>;
    /// Claims queued mails due at `now`.
    fn claim_mail(&self, now: i64, lease: Lease, limit: u32) -> Result<Vec<Outgoing>, StoreError>;
    /// When the next queued mail is due.
    fn next_mail_due(&self) -> Result<Option<i64>, StoreError>;
    /// The outbox's counts.
    fn outbox_counts(&self) -> Result<OutboxCounts, StoreError>;
}
