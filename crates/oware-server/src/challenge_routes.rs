//! The challenge routes (docs/PROTOCOL.md, "Challenges"): challenge a
//! player, list one's open challenges, accept, decline or withdraw one.
//! The hub's `challenges.rs` does the work; this file parses and limits.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::accounts::User;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::limits::{ClientAddr, ClientKeys, Cost, Limiter};
use crate::protocol::incoming::ChallengeReq;
use crate::Hub;

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/players/{name}/challenge", post(challenge))
        .route("/api/v1/challenges", get(list))
        .route("/api/v1/challenges/{id}/accept", post(accept))
        .route("/api/v1/challenges/{id}/decline", post(decline))
        .route("/api/v1/challenges/{id}/cancel", post(cancel))
}

async fn challenge(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<ChallengeReq>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req = req.parse()?;
    // Counted as a new game, under the address and the account, on every
    // node.
    limits
        .check_client(Cost::Game, &ClientKeys::new(client, Some(&user.id)))
        .await?;
    let c = hub.challenges().send(&user, &name, req).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": c.id, "challenge": c })),
    ))
}

async fn list(State(hub): State<Arc<Hub>>, user: User) -> Result<Json<Value>, ApiError> {
    let challenges = hub.challenges().open(&user).await?;
    Ok(Json(json!({ "challenges": challenges })))
}

async fn accept(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let c = hub.challenges().reply(&user, &id, true).await?;
    Ok(Json(json!({ "game": c.game, "challenge": c })))
}

async fn decline(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let c = hub.challenges().reply(&user, &id, false).await?;
    Ok(Json(json!({ "challenge": c })))
}

async fn cancel(
    State(hub): State<Arc<Hub>>,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let c = hub.challenges().cancel(&user, &id).await?;
    Ok(Json(json!({ "challenge": c })))
}
