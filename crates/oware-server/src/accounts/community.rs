//! Follow, block and report a player (docs/PROTOCOL.md, "Players").
//!
//! - Following shows the followed players' games being played (the
//!   signed-in player's `GET /account/relations`).
//! - Blocking works both ways: neither player can join the other's game,
//!   offer the other a rematch, or write in the players' chat of a game
//!   they share (`blocked`).
//! - A report is kept for an operator, who reviews and closes reports and
//!   closes accounts with `oware admin` (docs/DEPLOY.md); at most
//!   [`REPORTS_PER_DAY`] a day per account, counted in the database so
//!   the limit holds across nodes.

use crate::error::Reason;
use crate::protocol::incoming::{ReportRequest, Switch};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;

use super::{AccountOp, User};
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::model::new_id;
use crate::protocol::views::Summary;
use crate::store::account_rows::ReportRow;
use crate::store::WriteOp;
use crate::Hub;

/// Reports one account may file in a day.
pub const REPORTS_PER_DAY: u32 = 10;
/// Players one account may follow, and block.
pub const MAX_RELATIONS: usize = 500;
/// The reasons a report may give.
pub const REASONS: [&str; 3] = ["cheating", "abuse", "other"];
/// The longest report text, in characters.
pub const DETAILS_MAX: usize = 500;

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/players/{name}/follow", post(follow))
        .route("/api/v1/players/{name}/block", post(block))
        .route("/api/v1/players/{name}/report", post(report))
        .route("/api/v1/account/relations", get(relations))
}

/// The other player's account id, refusing oneself.
async fn other(hub: &Hub, user: &User, name: String) -> Result<(String, String), ApiError> {
    let account = hub
        .read(move |store| store.account_by_name(&name))
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))?;
    if account.id == user.id {
        return Err(
            ApiError::invalid_request("that is your own account").with_reason(Reason::Yourself)
        );
    }
    Ok((account.id, account.username))
}

async fn write(hub: &Hub, op: AccountOp) -> Result<(), ApiError> {
    hub.write_change(WriteOp::Account(op), ApiError::not_stored)
        .await
}

async fn follow(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<Switch>,
) -> Result<Json<RelationsView>, ApiError> {
    let (id, _) = other(&hub, &user, name).await?;
    if req.on {
        let (uid, oid) = (user.id.clone(), id.clone());
        let (r, blocked) = hub
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
    write(
        &hub,
        AccountOp::Follow {
            follower: user.id.clone(),
            followed: id,
            on: req.on,
            at: hub.now_ms(),
        },
    )
    .await?;
    relations_view(&hub, &user).await.map(Json)
}

async fn block(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<Switch>,
) -> Result<Json<RelationsView>, ApiError> {
    let (id, _) = other(&hub, &user, name).await?;
    if req.on {
        let uid = user.id.clone();
        let r = hub.read(move |store| store.relations(&uid)).await?;
        if r.blocked.len() >= MAX_RELATIONS {
            return Err(
                ApiError::not_allowed("you block as many players as one may")
                    .with_reason(Reason::TooMany),
            );
        }
    }
    let at = hub.now_ms();
    let mut ops = vec![WriteOp::Account(AccountOp::Block {
        blocker: user.id.clone(),
        blocked: id.clone(),
        on: req.on,
        at,
    })];
    if req.on {
        // A block ends following both ways: neither sees the other's games
        // in their list any more.
        for (follower, followed) in [(&user.id, &id), (&id, &user.id)] {
            ops.push(WriteOp::Account(AccountOp::Follow {
                follower: follower.clone(),
                followed: followed.clone(),
                on: false,
                at,
            }));
        }
    }
    hub.write_change(WriteOp::All(ops), ApiError::not_stored)
        .await?;
    relations_view(&hub, &user).await.map(Json)
}

#[derive(Serialize)]
struct Reported {
    id: String,
}

async fn report(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<ReportRequest>,
) -> Result<(axum::http::StatusCode, Json<Reported>), ApiError> {
    let (id, username) = other(&hub, &user, name).await?;
    let reason = req
        .reason
        .filter(|r| REASONS.contains(&r.as_str()))
        .ok_or_else(|| {
            ApiError::invalid_request("reason: one of cheating, abuse, other")
                .with_reason(Reason::ReportReason)
        })?;
    let details = req.details.trim().to_string();
    if details.chars().count() > DETAILS_MAX {
        return Err(ApiError::too_large("details: at most 500 characters"));
    }
    if let Some(g) = &req.game {
        // A game id must name a game: it is what the operator opens.
        hub.summary(g).await?;
    }
    let uid = user.id.clone();
    let since = hub.now_ms() - 86_400_000;
    let filed = hub.read(move |store| store.reports_by(&uid, since)).await?;
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
        game_id: req.game,
        reason,
        details,
        at: hub.now_ms(),
        closed_at: None,
        resolution: None,
        reporter_name: None,
        reported_closed: false,
    };
    let rid = row.id.clone();
    write(&hub, AccountOp::Report(row)).await?;
    Ok((axum::http::StatusCode::CREATED, Json(Reported { id: rid })))
}

/// `GET /account/relations`.
#[derive(Serialize)]
pub struct RelationsView {
    /// Followed players with their public games being played.
    following: Vec<Followed>,
    /// Blocked players.
    blocked: Vec<String>,
}

#[derive(Serialize)]
struct Followed {
    username: String,
    playing: Vec<Summary>,
}

async fn relations_view(hub: &Hub, user: &User) -> Result<RelationsView, ApiError> {
    let uid = user.id.clone();
    let (r, games) = hub
        .read(move |store| {
            let r = store.relations(&uid)?;
            let mut games = Vec::with_capacity(r.following.len());
            for name in &r.following {
                let playing = match store.account_by_name(name)? {
                    Some(a) => crate::hub::current_games(store.account_games(&a.id, 20)?)
                        .into_iter()
                        .filter(|g| {
                            g.meta.public && g.meta.status() == crate::model::GameStatus::Playing
                        })
                        .map(|g| Summary::of(&g.meta))
                        .collect(),
                    None => Vec::new(),
                };
                games.push(playing);
            }
            Ok((r, games))
        })
        .await?;
    Ok(RelationsView {
        following: r
            .following
            .into_iter()
            .zip(games)
            .map(|(username, playing)| Followed { username, playing })
            .collect(),
        blocked: r.blocked,
    })
}

async fn relations(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: crate::limits::ClientAddr,
    user: User,
) -> Result<Json<RelationsView>, ApiError> {
    // It reads the games of every player followed: a costly read.
    limits
        .check_client(
            crate::limits::Cost::Read,
            &crate::limits::ClientKeys::of(client, Some(&user)),
        )
        .await?;
    relations_view(&hub, &user).await.map(Json)
}
