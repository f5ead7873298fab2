//! Follow, block and report a player (docs/PROTOCOL.md, "Players").
//!
//! - Following shows the followed players' games being played (the
//!   signed-in player's `GET /account/relations`).
//! - Blocking works both ways: neither player can join the other's game,
//!   offer the other a rematch, or write in the players' chat of a game
//!   they share (`blocked`).
//! - A report is kept for an operator, who reviews and closes reports and
//!   closes accounts with `oware admin` (docs/DEPLOY.md).
//!
//! The rules (caps, a block ending following, reports a day) are the
//! hub's community service (`hub/community.rs`); this file parses and
//! answers.

use crate::error::Reason;
use crate::protocol::incoming::{ReportRequest, Switch};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;

use super::User;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::hub::community::NewReport;
pub use crate::hub::community::{MAX_RELATIONS, REPORTS_PER_DAY};
use crate::protocol::views::Summary;
use crate::Hub;

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

async fn follow(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<Switch>,
) -> Result<Json<RelationsView>, ApiError> {
    hub.community().follow(&user, &name, req.on).await?;
    relations_view(&hub, &user).await.map(Json)
}

async fn block(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<Switch>,
) -> Result<Json<RelationsView>, ApiError> {
    hub.community().block(&user, &name, req.on).await?;
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
    let report = NewReport {
        reason,
        details,
        game: req.game,
    };
    let id = hub.community().report(&user, &name, report).await?;
    Ok((axum::http::StatusCode::CREATED, Json(Reported { id })))
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

async fn relations_view(hub: &Arc<Hub>, user: &User) -> Result<RelationsView, ApiError> {
    let circle = hub.community().circle(user).await?;
    Ok(RelationsView {
        following: circle
            .following
            .into_iter()
            .map(|(username, playing)| Followed {
                username,
                playing: playing.iter().map(Summary::of).collect(),
            })
            .collect(),
        blocked: circle.blocked,
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
