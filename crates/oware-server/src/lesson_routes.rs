//! `POST /api/v1/rules/agreement`: the rules service's answer to "what if
//! the players stopped here by agreement" (R12), for the tutorial's R12
//! board. Stateless like `rules/state`: the game is the position and moves
//! given, stopped by `Game::agree_to_stop`, so the totals come from the core.

use axum::routing::post;
use axum::{Json, Router};

use crate::error::ApiError;
use crate::http::JsonBody;
use crate::protocol::incoming::GameReq;

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new().route("/api/v1/rules/agreement", post(agreement))
}

async fn agreement(
    JsonBody(req): JsonBody<GameReq>,
) -> Result<Json<oware_session::wire::RulesState>, ApiError> {
    let mut game = req.parse()?;
    game.agree_to_stop().map_err(ApiError::from)?;
    Ok(Json(oware_session::wire::state(&game)))
}
