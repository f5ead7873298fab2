//! E-mail (docs/PROTOCOL.md, "E-mail"): an account's address and its
//! verification, password resets, notification mails, unsubscribing, and
//! the outbox's task.
//!
//! No mail is sent on a request's path: a request (or a notification)
//! queues a row in the store's outbox (`store/mail.rs`, with its rules:
//! once a game a day, caps an hour), and one task per node claims due rows
//! and sends them over SMTP, on the server's clock: a failed attempt is
//! tried again later (1, 2, 4… minutes, at most an hour apart, given up
//! after [`MAX_ATTEMPTS`]), and rows left by a node that stopped are
//! taken up when their lease ends, so nothing queued is lost. A link's
//! token is made when its mail is sent, and only its SHA-256 is stored:
//! neither the outbox nor the tokens' table holds a working link.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use super::Hub;
use crate::accounts::{new_session_token, token_hash, User};
use crate::error::{ApiError, Reason};
use crate::mailer::{compose, Email, Lang, Letter, Mailer};
use crate::model::new_id;
use crate::protocol::outgoing::EmailView;
use crate::store::account_rows::AccountOp;
use crate::store::mail::{
    Address, MailKind, MailOp, OutboxCounts, Outgoing, Token, TokenKind, DAY_MS,
};
use crate::store::notifications::{Kind as NoteKind, Notification};
use crate::store::{Lease, StoreError, WriteOp};

/// How long a verification link works.
pub const VERIFY_HOURS: u32 = 24;
/// How long a password-reset link works.
pub const RESET_HOURS: u32 = 1;
/// How long an unsubscribe link works.
pub const UNSUBSCRIBE_MS: i64 = 90 * DAY_MS;
/// Attempts at one mail before it is given up.
pub const MAX_ATTEMPTS: u32 = 8;
/// Mails claimed at once.
const BATCH: u32 = 16;
/// How long a node holds the mails it claimed (the machines' time).
const LEASE_MS: i64 = 60_000;

/// The outbox's state on this node: the SMTP client (none without
/// `--smtp`) and the wake-up of its task.
pub(crate) struct Outbox {
    mailer: Option<Mailer>,
    wake: Arc<Notify>,
}

impl Outbox {
    /// The outbox for `config`; without a mail setting, none.
    pub(crate) fn new(config: &crate::config::Config) -> Outbox {
        let mailer = config.mail.as_ref().and_then(|m| match Mailer::new(m) {
            Ok(mailer) => Some(mailer),
            Err(e) => {
                tracing::error!("mail is off: {e}");
                None
            }
        });
        Outbox {
            mailer,
            wake: Arc::new(Notify::new()),
        }
    }
}

fn link_refusal(reason: Reason) -> ApiError {
    let message = match reason {
        Reason::LinkExpired => "this link has expired; ask for a new one",
        Reason::LinkUsed => "this link was used already; ask for a new one",
        _ => "this link is not one of ours",
    };
    ApiError::bad_token(message).with_reason(reason)
}

/// The wait before attempt `attempts + 1`: a minute, doubled each time, at
/// most an hour.
fn backoff_ms(attempts: u32) -> i64 {
    (60_000i64 << attempts.min(6)).min(3_600_000)
}

/// The mail service: an account's address, its links, the outbox's rows
/// and notification mails (`hub.mail()`).
pub struct Mail<'h>(&'h Hub);

impl Hub {
    /// The mail service.
    pub fn mail(&self) -> Mail<'_> {
        Mail(self)
    }

    /// Queues a password-reset mail for every account whose verified
    /// address is `email` (none: nothing; the store caps the mails an
    /// address gets). The look-up and the queueing happen after the
    /// answer, so neither the answer nor its time says whether an account
    /// has the address.
    pub fn ask_password_reset(self: &Arc<Self>, email: &Email) -> Result<(), ApiError> {
        self.mail().require_on()?;
        let key = email.key();
        let hub = self.clone();
        tokio::spawn(async move {
            let accounts = match hub.read(move |store| store.mail_verified(&key)).await {
                Ok(a) => a,
                Err(e) => return tracing::warn!("a reset's look-up failed: {e:?}"),
            };
            for (a, username) in accounts {
                let mut m = hub
                    .mail()
                    .outgoing(&a.account, &a.address, MailKind::Reset, &a.lang);
                m.detail = Some(username);
                if let Err(e) = hub.mail().queue(m).await {
                    tracing::warn!("a reset mail was not queued: {e:?}");
                }
            }
        });
        Ok(())
    }

    /// Starts the outbox's task (with `--smtp` only).
    pub(crate) fn start_mail_task(self: &Arc<Self>) {
        if !self.mail().available() {
            return;
        }
        let weak = Arc::downgrade(self);
        let wake = self.outbox.wake.clone();
        let time = self.time().clone();
        tokio::spawn(async move {
            let mut pruned: Option<i64> = None;
            loop {
                let next = {
                    let Some(hub) = weak.upgrade() else { break };
                    if hub.halted() {
                        break;
                    }
                    let now = hub.now_ms();
                    if pruned.is_none_or(|at| now - at > 3_600_000) {
                        pruned = Some(now);
                        let before = now - 2 * DAY_MS;
                        if let Err(e) = hub.mail().write(MailOp::Prune { before }).await {
                            tracing::warn!("the outbox was not pruned: {e}");
                        }
                    }
                    match hub.mail().drain_outbox().await {
                        Ok(()) => hub.read(|store| store.next_mail_due()).await,
                        Err(e) => Err(e),
                    }
                };
                let next = match next {
                    Ok(next) => next,
                    Err(e) => {
                        // The store did not answer (a busy database): tried
                        // again a second later on the machine's time, as
                        // any query is, whatever the server's clock does.
                        tracing::warn!("the outbox could not be read: {e:?}");
                        tokio::select! {
                            _ = wake.notified() => {}
                            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                        }
                        continue;
                    }
                };
                // Until the next mail is due, a new one is queued here, or
                // (for other nodes' rows) a minute has passed.
                let wait = match next {
                    Some(at) => time
                        .instant_at(at)
                        .min(time.now() + Duration::from_secs(60)),
                    None => time.now() + Duration::from_secs(60),
                };
                tokio::select! {
                    _ = wake.notified() => {}
                    _ = time.sleep_until(wait) => {}
                }
            }
        });
    }
}

impl Mail<'_> {
    /// Whether this server sends mail (`--smtp`).
    pub fn available(&self) -> bool {
        self.0.outbox.mailer.is_some()
    }

    /// `not_allowed` (`mail_off`) unless this server sends mail.
    pub fn require_on(&self) -> Result<(), ApiError> {
        if self.available() {
            Ok(())
        } else {
            Err(ApiError::not_allowed(
                "this server sends no e-mail (it was started without --smtp)",
            )
            .with_reason(Reason::MailOff))
        }
    }

    async fn write(&self, op: MailOp) -> Result<(), StoreError> {
        self.0.write_raw(WriteOp::Mail(op)).await
    }

    async fn write_all(&self, ops: Vec<MailOp>) -> Result<(), StoreError> {
        self.0
            .write_raw(WriteOp::All(ops.into_iter().map(WriteOp::Mail).collect()))
            .await
    }

    /// Queues a mail and wakes the outbox's task.
    async fn queue(&self, mail: Outgoing) -> Result<(), ApiError> {
        self.write(MailOp::Enqueue(mail))
            .await
            .map_err(super::store_err)?;
        self.0.outbox.wake.notify_one();
        Ok(())
    }

    fn outgoing(&self, account: &str, address: &str, kind: MailKind, lang: &str) -> Outgoing {
        Outgoing {
            id: new_id(),
            account: account.to_string(),
            address: address.to_string(),
            kind,
            lang: lang.to_string(),
            game: None,
            tournament: None,
            detail: None,
            created_at: self.0.now_ms(),
            attempts: 0,
        }
    }

    /// The account's address, as `GET /account/email` shows it.
    pub async fn email(&self, account: &str) -> Result<EmailView, ApiError> {
        let id = account.to_string();
        let row = self.0.read(move |store| store.mail_address(&id)).await?;
        Ok(EmailView {
            available: self.available(),
            verified: row.as_ref().is_some_and(|a| a.verified),
            subscribed: row.as_ref().is_some_and(|a| a.subscribed),
            lang: row.as_ref().map(|a| a.lang.clone()),
            email: row.map(|a| a.address),
        })
    }

    /// Sets the signed-in player's address (its password checked by the
    /// route) and queues a verification mail. The same address again only
    /// sets the language, and sends the link again while unverified.
    pub async fn set_email(
        &self,
        user: &User,
        email: &Email,
        lang: Lang,
    ) -> Result<EmailView, ApiError> {
        self.require_on()?;
        let id = user.id.clone();
        let current = self.0.read(move |store| store.mail_address(&id)).await?;
        let same = current.as_ref().filter(|a| a.key == email.key());
        let op = match same {
            Some(_) => MailOp::SetLang {
                account: user.id.clone(),
                lang: lang.code().to_string(),
            },
            None => MailOp::SetAddress(Address {
                account: user.id.clone(),
                address: email.as_str().to_string(),
                key: email.key(),
                lang: lang.code().to_string(),
                verified: false,
                subscribed: true,
            }),
        };
        self.write(op).await.map_err(super::store_err)?;
        if !same.is_some_and(|a| a.verified) {
            let mut m = self.outgoing(&user.id, email.as_str(), MailKind::Verify, lang.code());
            m.detail = Some(user.username.clone());
            self.queue(m).await?;
        }
        self.email(&user.id).await
    }

    /// Removes the account's address (its links stop working).
    pub async fn remove_email(&self, account: &str) -> Result<(), ApiError> {
        self.write(MailOp::Remove {
            account: account.to_string(),
        })
        .await
        .map_err(super::store_err)
    }

    /// Turns the account's notification mails on or off.
    pub async fn set_subscribed(&self, account: &str, on: bool) -> Result<(), ApiError> {
        self.write(MailOp::Subscribe {
            account: account.to_string(),
            on,
        })
        .await
        .map_err(super::store_err)
    }

    /// A link's stored token, checked: of `kind`, known, unused (when
    /// single-use) and unexpired, else `bad_token` with why.
    async fn link(&self, token: &str, kind: TokenKind) -> Result<Token, ApiError> {
        let hash = token_hash(token);
        let row = self.0.read(move |store| store.mail_token(&hash)).await?;
        let row = row
            .filter(|t| t.kind == kind)
            .ok_or_else(|| link_refusal(Reason::LinkUnknown))?;
        if row.used_at.is_some() && kind != TokenKind::Unsubscribe {
            return Err(link_refusal(Reason::LinkUsed));
        }
        if row.expires_at <= self.0.now_ms() {
            return Err(link_refusal(Reason::LinkExpired));
        }
        Ok(row)
    }

    /// Uses a single-use link along with `ops`, all or nothing (a link
    /// used meanwhile by another request is `link_used`).
    async fn use_link(&self, t: &Token, ops: Vec<WriteOp>) -> Result<(), ApiError> {
        let mut all = vec![WriteOp::Mail(MailOp::UseToken {
            hash: t.hash.clone(),
            kind: t.kind,
            now: self.0.now_ms(),
        })];
        all.extend(ops);
        match self.0.write_raw(WriteOp::All(all)).await {
            Ok(()) => Ok(()),
            Err(StoreError::Gone(what)) if what == "the link" => {
                Err(link_refusal(Reason::LinkUsed))
            }
            Err(StoreError::Gone(_)) => Err(link_refusal(Reason::LinkUnknown)),
            Err(e) => Err(super::store_err(e)),
        }
    }

    /// Verifies an address by its link's token (no session needed: the
    /// token is the proof). Answers the account's address.
    pub async fn verify_email(&self, token: &str) -> Result<EmailView, ApiError> {
        let t = self.link(token, TokenKind::Verify).await?;
        let verified = MailOp::Verified {
            account: t.account.clone(),
            key: t.key.clone(),
        };
        self.use_link(&t, vec![WriteOp::Mail(verified)]).await?;
        self.email(&t.account).await
    }

    /// Stops an account's notification mails by an unsubscribe link's
    /// token (no session needed; the link works more than once).
    pub async fn unsubscribe(&self, token: &str) -> Result<(), ApiError> {
        let t = self.link(token, TokenKind::Unsubscribe).await?;
        self.set_subscribed(&t.account, false).await
    }

    /// The account a reset link is for: its id and name (to check the new
    /// password against), if the link works.
    pub async fn reset_link_account(&self, token: &str) -> Result<(String, String), ApiError> {
        let t = self.link(token, TokenKind::Reset).await?;
        let id = t.account.clone();
        let address = self.0.read(move |store| store.mail_address(&id)).await?;
        // The link goes with the address it was sent to.
        let Some(a) = address.filter(|a| a.verified && a.key == t.key) else {
            return Err(link_refusal(Reason::LinkUnknown));
        };
        let key = a.key.clone();
        let names = self.0.read(move |store| store.mail_verified(&key)).await?;
        let name = names
            .into_iter()
            .find(|(row, _)| row.account == t.account)
            .map(|(_, n)| n)
            .ok_or_else(|| link_refusal(Reason::LinkUnknown))?;
        Ok((t.account, name))
    }

    /// Sets a new password (`hash`, Argon2id) by a reset link, using it,
    /// and ends every session of the account.
    pub async fn reset_password(&self, token: &str, hash: String) -> Result<(), ApiError> {
        let t = self.link(token, TokenKind::Reset).await?;
        let ops = vec![
            WriteOp::Account(AccountOp::SetPassword {
                id: t.account.clone(),
                hash,
            }),
            WriteOp::Account(AccountOp::EndOtherSessions {
                account_id: t.account.clone(),
                keep: None,
            }),
        ];
        self.use_link(&t, ops).await
    }

    /// The outbox's counts (for tests and the operator).
    pub async fn outbox(&self) -> Result<OutboxCounts, ApiError> {
        self.0.read(|store| store.outbox_counts()).await
    }

    /// After a notification is stored: its mail, if the account has a
    /// verified address that takes them (the store's rules decide, once a
    /// game a day for "your move").
    pub(crate) async fn notify(&self, n: &Notification) {
        if !self.available() {
            return;
        }
        // One mail a tournament, at its first notice (five minutes ahead, or
        // the start); not a Swiss round's pairing.
        let kind = match n.kind {
            // A live game's "your turn" is for the site only.
            NoteKind::YourTurn if n.detail.is_none() => MailKind::YourTurn,
            NoteKind::TournamentStarting
                if n.tournament.is_some() && n.detail.as_deref() != Some("paired") =>
            {
                MailKind::TournamentStarting
            }
            _ => return,
        };
        let id = n.account.clone();
        let Ok(Some(a)) = self.0.read(move |store| store.mail_address(&id)).await else {
            return;
        };
        if !a.verified || !a.subscribed {
            return;
        }
        let mut m = self.outgoing(&n.account, &a.address, kind, &a.lang);
        // Dated as the notification (the ply's time), not as this task
        // gets to it: the once-a-day rule counts from the move.
        m.created_at = n.at;
        m.game = n.game.clone();
        m.tournament = n.tournament.clone();
        m.detail = n.from.clone();
        if let Some(t) = &n.tournament {
            let t = t.clone();
            if let Ok(Some(t)) = self.0.read(move |store| store.tournament(&t)).await {
                m.detail = Some(t.row.name);
            }
        }
        if let Err(e) = self.queue(m).await {
            tracing::warn!("a notification's mail was not queued: {e:?}");
        }
    }

    /// Sends every mail due now; an error when the outbox cannot be read.
    async fn drain_outbox(&self) -> Result<(), ApiError> {
        loop {
            let now = self.0.now_ms();
            let lease = Lease {
                now: self.0.time().lease_ms(),
                ms: LEASE_MS,
            };
            let batch = self
                .0
                .read(move |store| store.claim_mail(now, lease, BATCH))
                .await?;
            if batch.is_empty() {
                return Ok(());
            }
            for m in batch {
                if let Err(e) = self.send_one(&m).await {
                    tracing::warn!("mail {}: {e}", m.id);
                }
            }
        }
    }

    /// Sends one claimed mail: checked against the account's address as it
    /// is now, its links made and stored, then sent; retried later when
    /// the SMTP server fails.
    async fn send_one(&self, m: &Outgoing) -> Result<(), StoreError> {
        let Some(mailer) = &self.0.outbox.mailer else {
            return Ok(());
        };
        let now = self.0.now_ms();
        let id = m.account.clone();
        let address = self
            .0
            .read(move |store| store.mail_address(&id))
            .await
            .ok()
            .flatten();
        let key = m.address.to_lowercase();
        let still = address.as_ref().is_some_and(|a| {
            a.key == key
                && match m.kind {
                    MailKind::Verify => !a.verified,
                    MailKind::Reset => a.verified,
                    MailKind::YourTurn | MailKind::TournamentStarting => a.verified && a.subscribed,
                }
        });
        if !still {
            return self
                .write(MailOp::Done {
                    id: m.id.clone(),
                    at: now,
                    failed: true,
                })
                .await;
        }
        let base = &self
            .0
            .config()
            .mail
            .as_ref()
            .map(|c| c.public_url.clone())
            .unwrap_or_default();
        let mut ops = Vec::new();
        let mut token = |kind: TokenKind, expires_at: i64| {
            let (plain, hash) = new_session_token();
            ops.push(MailOp::Token(Token {
                hash,
                kind,
                account: m.account.clone(),
                key: key.clone(),
                expires_at,
                used_at: None,
            }));
            plain
        };
        let unsubscribe = format!(
            "{base}/unsubscribe#{}",
            token(TokenKind::Unsubscribe, now + UNSUBSCRIBE_MS)
        );
        let name = m.detail.clone().unwrap_or_default();
        let (letter, hours) = match m.kind {
            MailKind::Verify => (
                Letter::Verify {
                    link: format!(
                        "{base}/verify-email#{}",
                        token(TokenKind::Verify, now + i64::from(VERIFY_HOURS) * 3_600_000)
                    ),
                    username: name,
                },
                VERIFY_HOURS,
            ),
            MailKind::Reset => (
                Letter::Reset {
                    link: format!(
                        "{base}/reset-password#{}",
                        token(TokenKind::Reset, now + i64::from(RESET_HOURS) * 3_600_000)
                    ),
                    username: name,
                },
                RESET_HOURS,
            ),
            MailKind::YourTurn => (
                Letter::YourTurn {
                    link: format!("{base}/game/{}", m.game.clone().unwrap_or_default()),
                    opponent: name,
                },
                0,
            ),
            MailKind::TournamentStarting => (
                Letter::TournamentStarting {
                    link: format!(
                        "{base}/tournament/{}",
                        m.tournament.clone().unwrap_or_default()
                    ),
                    name,
                },
                0,
            ),
        };
        let lang = Lang::parse(&m.lang).unwrap_or_default();
        let mail = compose(&letter, lang, &unsubscribe, hours);
        // The links work once they are stored; a mail that then fails
        // leaves links nobody has.
        self.write_all(ops).await?;
        let date = crate::time::system_time(now);
        match mailer.send(&m.address, &mail, date).await {
            Ok(()) => {
                self.write(MailOp::Done {
                    id: m.id.clone(),
                    at: now,
                    failed: false,
                })
                .await
            }
            Err(e) => {
                tracing::warn!(
                    "mail {} (attempt {}): {e}",
                    m.id,
                    m.attempts.saturating_add(1)
                );
                let op = if m.attempts + 1 >= MAX_ATTEMPTS {
                    MailOp::Done {
                        id: m.id.clone(),
                        at: now,
                        failed: true,
                    }
                } else {
                    MailOp::Retry {
                        id: m.id.clone(),
                        due_at: now + backoff_ms(m.attempts),
                    }
                };
                self.write(op).await
            }
        }
    }
}
