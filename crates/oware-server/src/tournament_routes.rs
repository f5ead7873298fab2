//! The tournament routes (`/api/v1/tournaments…`, docs/PROTOCOL.md,
//! "Tournaments"): list, create, show, join, pause and leave. The hub's
//! `tournaments.rs` does the work; this file parses and limits.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::accounts::session::MaybeUser;
use crate::accounts::User;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::limits::{ClientAddr, Cost, Limiter};
use crate::protocol::incoming::CreateTournamentReq;
use crate::protocol::outgoing::{TournamentListView, TournamentView};
use crate::store::tournaments::EntrantState;
use crate::Hub;

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/tournaments", get(list).post(create))
        .route("/api/v1/tournaments/{id}", get(show))
        .route("/api/v1/tournaments/{id}/join", post(join))
        .route("/api/v1/tournaments/{id}/pause", post(pause))
        .route("/api/v1/tournaments/{id}/leave", post(leave))
}

async fn list(State(hub): State<Arc<Hub>>) -> Result<Json<TournamentListView>, ApiError> {
    hub.tournament_list().await.map(Json)
}

async fn create(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    JsonBody(req): JsonBody<CreateTournamentReq>,
) -> Result<Json<TournamentView>, ApiError> {
    limits.check(Cost::Game, client).await?;
    let req = req.parse()?;
    hub.create_tournament(req, &user).await.map(Json)
}

async fn show(
    State(hub): State<Arc<Hub>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    hub.tournament_view(&id, user.as_ref()).await.map(Json)
}

async fn join(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    limits.check(Cost::Game, client).await?;
    hub.join_tournament(&id, &user).await.map(Json)
}

async fn pause(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    limits.check(Cost::Game, client).await?;
    hub.set_tournament_state(&id, &user, EntrantState::Paused)
        .await
        .map(Json)
}

async fn leave(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    limits.check(Cost::Game, client).await?;
    hub.set_tournament_state(&id, &user, EntrantState::Left)
        .await
        .map(Json)
}
