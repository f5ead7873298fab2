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
use crate::model::tournament::EntrantState;
use crate::protocol::incoming::CreateTournamentReq;
use crate::protocol::outgoing::{TournamentListView, TournamentView};
use crate::Hub;

/// The handler of one [`Action`].
macro_rules! action {
    ($action:expr) => {
        |State(hub): State<Arc<Hub>>,
         State(limits): State<Arc<Limiter>>,
         client: ClientAddr,
         user: User,
         Path(id): Path<String>| async move { act(hub, limits, client, user, id, $action).await }
    };
}

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/tournaments", get(list).post(create))
        .route("/api/v1/tournaments/{id}", get(show))
        .route("/api/v1/tournaments/{id}/join", post(action!(Action::Join)))
        .route(
            "/api/v1/tournaments/{id}/pause",
            post(action!(Action::Pause)),
        )
        .route(
            "/api/v1/tournaments/{id}/leave",
            post(action!(Action::Leave)),
        )
}

async fn list(State(hub): State<Arc<Hub>>) -> Result<Json<TournamentListView>, ApiError> {
    hub.tournaments().list().await.map(Json)
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
    hub.tournaments().create(req, &user).await.map(Json)
}

async fn show(
    State(hub): State<Arc<Hub>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    hub.tournaments().view(&id, user.as_ref()).await.map(Json)
}

/// What an entrant does: join (or come back), pause or leave.
#[derive(Clone, Copy)]
enum Action {
    Join,
    Pause,
    Leave,
}

async fn act(
    hub: Arc<Hub>,
    limits: Arc<Limiter>,
    client: ClientAddr,
    user: User,
    id: String,
    action: Action,
) -> Result<Json<TournamentView>, ApiError> {
    limits.check(Cost::Game, client).await?;
    match action {
        Action::Join => hub.tournaments().join(&id, &user).await,
        Action::Pause => {
            hub.tournaments()
                .set_state(&id, &user, EntrantState::Paused)
                .await
        }
        Action::Leave => {
            hub.tournaments()
                .set_state(&id, &user, EntrantState::Left)
                .await
        }
    }
    .map(Json)
}
