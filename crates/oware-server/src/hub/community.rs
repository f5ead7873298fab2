//! The community's service: following, blocking and reporting a player,
//! with its rules: at most [`MAX_RELATIONS`] followed and blocked
//! players, no following across a block, a block ending following both
//! ways, and at most [`REPORTS_PER_DAY`] reports a day per account,
//! counted in the database so the limit holds across nodes. The routes
//! (`accounts/community.rs`) parse and answer.

use std::sync::Arc;

use crate::accounts::User;
use crate::error::{ApiError, Reason};
use crate::model::account::ReportRow;
use crate::model::{new_id, GameMeta, GameStatus};
use crate::store::account_rows::AccountOp;
use crate::store::WriteOp;
use crate::Hub;

/// Reports one account may file in a day.
pub const REPORTS_PER_DAY: u32 = 10;
/// Players one account may follow, and block.
pub const MAX_RELATIONS: usize = 500;
/// The latest games of a followed player looked through for the public
/// ones being played.
const FOLLOWED_GAMES: u32 = 20;

/// The community's service ([`Hub::community`]).
pub struct Community<'h>(&'h Arc<Hub>);

/// A report as filed, checked by the route.
pub struct NewReport {
    /// `cheating`, `abuse` or `other`.
    pub reason: String,
    /// The reporter's words.
    pub details: String,
    /// The game it is about, if one.
    pub game: Option<String>,
}

/// Whom an account follows (with the public games each is playing) and
/// blocks.
pub struct Circle {
    /// Followed players' names, each with their public games in play.
    pub following: Vec<(String, Vec<GameMeta>)>,
    /// Blocked players' names.
    pub blocked: Vec<String>,
}

impl Hub {
    /// The community's service.
    pub fn community(self: &Arc<Self>) -> Community<'_> {
        Community(self)
    }
}

impl Community<'_> {
    async fn write(&self, op: WriteOp) -> Result<(), ApiError> {
        self.0.write_change(op, ApiError::not_stored).await
    }

    /// The other player's account id and name, refusing oneself.
    async fn other(&self, user: &User, name: &str) -> Result<(String, String), ApiError> {
        let account = self
            .0
            .accounts()
            .by_name(name)
            .await?
            .ok_or_else(|| ApiError::not_found("no such player"))?;
        if account.id == user.id {
            return Err(
                ApiError::invalid_request("that is your own account").with_reason(Reason::Yourself)
            );
        }
        Ok((account.id, account.username))
    }

    /// `user` follows (`on`) or stops following the player called `name`.
    pub async fn follow(&self, user: &User, name: &str, on: bool) -> Result<(), ApiError> {
        let (id, _) = self.other(user, name).await?;
        if on {
            let (uid, oid) = (user.id.clone(), id.clone());
            let (r, blocked) = self
                .0
                .read(move |store| Ok((store.relations(&uid)?, store.blocked_between(&uid, &oid)?)))
                .await?;
            if r.following.len() >= MAX_RELATIONS {
                return Err(
                    ApiError::not_allowed("you follow as many players as one may")
                        .with_reason(Reason::TooMany),
                );
            }
            if blocked {
                return Err(ApiError::blocked());
            }
        }
        self.write(WriteOp::Account(AccountOp::Follow {
            follower: user.id.clone(),
            followed: id,
            on,
            at: self.0.now_ms(),
        }))
        .await
    }

    /// `user` blocks (`on`) or unblocks the player called `name`; a block
    /// ends following both ways, in the same transaction.
    pub async fn block(&self, user: &User, name: &str, on: bool) -> Result<(), ApiError> {
        let (id, _) = self.other(user, name).await?;
        if on {
            let uid = user.id.clone();
            let r = self.0.read(move |store| store.relations(&uid)).await?;
            if r.blocked.len() >= MAX_RELATIONS {
                return Err(
                    ApiError::not_allowed("you block as many players as one may")
                        .with_reason(Reason::TooMany),
                );
            }
        }
        let at = self.0.now_ms();
        let mut ops = vec![WriteOp::Account(AccountOp::Block {
            blocker: user.id.clone(),
            blocked: id.clone(),
            on,
            at,
        })];
        if on {
            // Neither sees the other's games in their list any more.
            for (follower, followed) in [(&user.id, &id), (&id, &user.id)] {
                ops.push(WriteOp::Account(AccountOp::Follow {
                    follower: follower.clone(),
                    followed: followed.clone(),
                    on: false,
                    at,
                }));
            }
        }
        self.write(WriteOp::All(ops)).await
    }

    /// Files `user`'s report on the player called `name`; its id.
    pub async fn report(
        &self,
        user: &User,
        name: &str,
        report: NewReport,
    ) -> Result<String, ApiError> {
        let (id, username) = self.other(user, name).await?;
        if let Some(g) = &report.game {
            // A game id must name a game: it is what the operator opens.
            self.0.summary(g).await?;
        }
        let uid = user.id.clone();
        let since = self.0.now_ms() - 86_400_000;
        let filed = self
            .0
            .read(move |store| store.reports_by(&uid, since))
            .await?;
        if filed >= REPORTS_PER_DAY {
            return Err(ApiError::too_many(
                "reports from your account",
                std::time::Duration::from_secs(3_600),
            )
            .with_reason(Reason::Reports));
        }
        let row = ReportRow {
            id: new_id(),
            reporter: user.id.clone(),
            reported: id,
            reported_name: username,
            game_id: report.game,
            reason: report.reason,
            details: report.details,
            at: self.0.now_ms(),
            closed_at: None,
            resolution: None,
            reporter_name: None,
            reported_closed: false,
        };
        let rid = row.id.clone();
        self.write(WriteOp::Account(AccountOp::Report(row))).await?;
        Ok(rid)
    }

    /// Whom `user` follows, with the public games each is playing, and
    /// blocks.
    pub async fn circle(&self, user: &User) -> Result<Circle, ApiError> {
        let uid = user.id.clone();
        let (r, games) = self
            .0
            .read(move |store| {
                let r = store.relations(&uid)?;
                let mut games = Vec::with_capacity(r.following.len());
                for name in &r.following {
                    let playing = match store.account_by_name(name)? {
                        Some(a) => {
                            crate::hub::current_games(store.account_games(&a.id, FOLLOWED_GAMES)?)
                                .into_iter()
                                .filter(|g| g.meta.public && g.meta.status() == GameStatus::Playing)
                                .map(|g| g.meta)
                                .collect()
                        }
                        None => Vec::new(),
                    };
                    games.push(playing);
                }
                Ok((r, games))
            })
            .await?;
        Ok(Circle {
            following: r.following.into_iter().zip(games).collect(),
            blocked: r.blocked,
        })
    }
}
