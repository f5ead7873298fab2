//! Direct challenges (docs/PROTOCOL.md, "Challenges"): one signed-in
//! player asks another for a game; the other accepts (the game is created
//! with both seats held by their accounts, in the same transaction that
//! closes the challenge, so it is accepted once) or declines; the
//! challenger may withdraw it; unanswered, it lapses after
//! [`CHALLENGE_MS`] on the server's clock. Each step notifies and is sent
//! live to both players' account sockets (`notifications.rs`).

use std::sync::Arc;

use oware_core::{Position, Side};
use rand::Rng;

use super::new_game::check_time_control;
use super::{Hub, Live};
use crate::accounts::ratings::RatingClass;
use crate::accounts::User;
use crate::error::{ApiError, Reason};
use crate::model::{new_id, GameMeta, Mode, Seat};
use crate::protocol::incoming::NewChallenge;
use crate::protocol::outgoing::AccountOut;
use crate::store::account_rows::AccountOp;
use crate::store::challenges::{Challenge, ChallengeOp, ChallengeStatus};
use crate::store::notifications::Kind;
use crate::store::{Cap, StoreError, StoredGame, WriteOp};

/// How long a challenge waits for its answer: ten minutes.
pub const CHALLENGE_MS: i64 = 10 * 60_000;
/// Open challenges one account may have made at once (on every node: the
/// store counts them in the transaction that adds one).
pub const OPEN_CHALLENGES: u32 = 3;

fn closed(c: &Challenge) -> ApiError {
    ApiError::not_allowed(format!(
        "this challenge is {}",
        c.status.as_str().replace('_', " ")
    ))
    .with_reason(Reason::ChallengeClosed)
}

fn gone() -> ApiError {
    ApiError::not_allowed("this challenge was answered, withdrawn or has expired")
        .with_reason(Reason::ChallengeClosed)
}

/// The challenges' service ([`Hub::challenges`]): a challenge sent,
/// answered or withdrawn, and the game it starts.
pub struct Challenges<'h>(&'h Arc<Hub>);

impl Hub {
    /// The challenges' service.
    pub fn challenges(self: &Arc<Self>) -> Challenges<'_> {
        Challenges(self)
    }
}

impl Challenges<'_> {
    /// `user` challenges the player named `name`.
    pub async fn send(
        &self,
        user: &User,
        name: &str,
        req: NewChallenge,
    ) -> Result<Challenge, ApiError> {
        let key = name.to_string();
        let target = self
            .0
            .read(move |store| store.account_by_name(&key))
            .await?
            .ok_or_else(|| ApiError::not_found("no such player"))?;
        if target.id == user.id {
            return Err(ApiError::invalid_request("you cannot challenge yourself")
                .with_reason(Reason::Yourself));
        }
        let (a, b) = (user.id.clone(), target.id.clone());
        if self
            .0
            .read(move |store| store.blocked_between(&a, &b))
            .await?
        {
            return Err(ApiError::blocked());
        }
        let t = target.id.clone();
        if self.0.read(move |store| store.account_closed(&t)).await? {
            return Err(ApiError::not_found("no such player"));
        }
        if let Some(tc) = req.time_control {
            check_time_control(tc, Mode::Online)?;
        }
        if req.rated && req.time_control.is_none() {
            return Err(ApiError::invalid_request(
                "rated: a rated game needs a time control (a clock or a limit per move)",
            )
            .with_reason(Reason::RatedNeedsClock));
        }
        let now = self.0.now_ms();
        let challenge = Challenge {
            id: new_id(),
            from_account: user.id.clone(),
            from: user.username.clone(),
            to_account: target.id.clone(),
            to: target.username.clone(),
            time_control: req.time_control,
            rated: req.rated,
            side: req.side,
            status: ChallengeStatus::Open,
            created_at: now,
            expires_at: now + CHALLENGE_MS,
            game: None,
        };
        let op = WriteOp::Challenge(ChallengeOp::Create {
            challenge: challenge.clone(),
            cap: OPEN_CHALLENGES,
        });
        match self.0.write_raw(op).await {
            Ok(()) => {}
            Err(StoreError::Full {
                what: Cap::OpenChallenges,
                cap,
            }) => {
                return Err(ApiError::not_allowed(format!(
                    "you have {cap} challenges waiting for an answer; wait or withdraw one"
                ))
                .with_reason(Reason::TooManyChallenges))
            }
            Err(e) => return Err(super::store_err(e)),
        }
        let mut n = self.0.notifications().draft(&target.id, Kind::Challenge);
        n.from = Some(user.username.clone());
        n.from_account = Some(user.id.clone());
        n.challenge = Some(challenge.id.clone());
        n.detail = Some("received".into());
        // The prompt first, then the notification that stays.
        self.tell_both(&challenge);
        self.0.notifications().notify(n).await?;
        Ok(challenge)
    }

    /// Sends a challenge as it now stands to both players' sockets.
    fn tell_both(&self, c: &Challenge) {
        let event = AccountOut::Challenge { challenge: c }.to_text();
        self.0.deliver(&c.to_account, event.clone());
        self.0.deliver(&c.from_account, event);
    }

    /// A challenge `user` made or received, as it stands now
    /// (`not_found` for anyone else's).
    pub async fn one(&self, user: &User, id: &str) -> Result<Challenge, ApiError> {
        let (key, now) = (id.to_string(), self.0.now_ms());
        let c = self
            .0
            .read(move |store| store.challenge(&key, now))
            .await?
            .filter(|c| c.from_account == user.id || c.to_account == user.id)
            .ok_or_else(|| ApiError::not_found("no such challenge"))?;
        Ok(c)
    }

    /// The open challenges `user` made or received.
    pub async fn open(&self, user: &User) -> Result<Vec<Challenge>, ApiError> {
        let (id, now) = (user.id.clone(), self.0.now_ms());
        self.0
            .read(move |store| store.open_challenges(&id, now))
            .await
    }

    /// The challenged player answers; accepting creates the game, both
    /// seats held by the two accounts. Returns the challenge as it now
    /// stands (with its game).
    pub async fn reply(&self, user: &User, id: &str, accept: bool) -> Result<Challenge, ApiError> {
        let mut c = self.one(user, id).await?;
        if c.to_account != user.id {
            return Err(
                ApiError::not_allowed("only the player challenged answers a challenge")
                    .with_reason(Reason::NotYours),
            );
        }
        if c.status != ChallengeStatus::Open {
            return Err(closed(&c));
        }
        let now = self.0.now_ms();
        if !accept {
            let op = WriteOp::Challenge(ChallengeOp::Answer {
                id: c.id.clone(),
                account: user.id.clone(),
                status: ChallengeStatus::Declined,
                game: None,
                now,
            });
            self.store_answer(op).await?;
            c.status = ChallengeStatus::Declined;
        } else {
            let (a, b) = (c.from_account.clone(), c.to_account.clone());
            if self
                .0
                .read(move |store| store.blocked_between(&a, &b))
                .await?
            {
                return Err(ApiError::blocked());
            }
            let game = self.start_game(&c, now).await?;
            c.status = ChallengeStatus::Accepted;
            c.game = Some(game);
        }
        let mut n = self
            .0
            .notifications()
            .draft(&c.from_account, Kind::Challenge);
        n.from = Some(c.to.clone());
        n.from_account = Some(c.to_account.clone());
        n.challenge = Some(c.id.clone());
        n.game = c.game.clone();
        n.detail = Some(c.status.as_str().into());
        self.tell_both(&c);
        self.0.notifications().notify(n).await?;
        Ok(c)
    }

    /// The challenger withdraws a challenge still open.
    pub async fn cancel(&self, user: &User, id: &str) -> Result<Challenge, ApiError> {
        let mut c = self.one(user, id).await?;
        if c.from_account != user.id {
            return Err(
                ApiError::not_allowed("only the challenger withdraws a challenge")
                    .with_reason(Reason::NotYours),
            );
        }
        if c.status != ChallengeStatus::Open {
            return Err(closed(&c));
        }
        let op = WriteOp::Challenge(ChallengeOp::Answer {
            id: c.id.clone(),
            account: user.id.clone(),
            status: ChallengeStatus::Cancelled,
            game: None,
            now: self.0.now_ms(),
        });
        self.store_answer(op).await?;
        c.status = ChallengeStatus::Cancelled;
        self.tell_both(&c);
        Ok(c)
    }

    async fn store_answer(&self, op: WriteOp) -> Result<(), ApiError> {
        match self.0.write_raw(op).await {
            Ok(()) => Ok(()),
            Err(StoreError::Gone(_)) => Err(gone()),
            Err(e) => Err(super::store_err(e)),
        }
    }

    /// Creates an accepted challenge's game, closing the challenge in the
    /// same transaction: its id.
    async fn start_game(&self, c: &Challenge, now: i64) -> Result<String, ApiError> {
        let challenger = c.side.unwrap_or_else(|| {
            if rand::rng().random_bool(0.5) {
                Side::South
            } else {
                Side::North
            }
        });
        let class = RatingClass::of(c.time_control);
        let seat = |account: &str, name: &str| {
            let (mut seat, _token) = Seat::human(name.to_string());
            seat.account = Some(account.to_string());
            seat
        };
        let mut ours = seat(&c.from_account, &c.from);
        let mut theirs = seat(&c.to_account, &c.to);
        if c.rated {
            ours.rating = Some(self.0.seat_rating(&c.from_account, class).await?);
            theirs.rating = Some(self.0.seat_rating(&c.to_account, class).await?);
        }
        let seats = match challenger {
            Side::South => [ours, theirs],
            Side::North => [theirs, ours],
        };
        let (mut meta, _invite) = GameMeta::new(
            Mode::Online,
            None,
            true,
            Position::start(),
            seats,
            c.time_control,
            now,
        );
        meta.rated = c.rated;
        let mut live = Live::from_stored(
            StoredGame {
                meta,
                plies: Vec::new(),
                version: 0,
                due: Default::default(),
            },
            &self.0.config,
        )
        .map_err(super::store_err)?;
        live.sync_meta();
        let due = self.0.due(&live);
        live.due = due;
        let game = live.meta.id.clone();
        let mut ops = vec![
            WriteOp::Challenge(ChallengeOp::Answer {
                id: c.id.clone(),
                account: c.to_account.clone(),
                status: ChallengeStatus::Accepted,
                game: Some(game.clone()),
                now,
            }),
            WriteOp::Create {
                meta: live.meta.clone(),
                plies: Vec::new(),
                due,
            },
        ];
        for account in [&c.from_account, &c.to_account] {
            ops.push(WriteOp::Account(AccountOp::LinkGame {
                account_id: account.clone(),
                game_id: game.clone(),
            }));
        }
        self.store_answer(WriteOp::All(ops)).await?;
        let slot = self.0.insert(live);
        let mut live = slot.state.lock().await;
        self.0.after_change(&slot, &mut live, true);
        Ok(game)
    }
}
