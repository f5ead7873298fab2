//! HTTP routes (docs/PROTOCOL.md): request parsing at the edge, then a call
//! into the [`Hub`].

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use oware_core::{Position, Side};
use oware_engine::Limits;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::error::ApiError;
use crate::hub::{Hub, NewGame};
use crate::model::{Mode, ScoreView, TimeControl};
use crate::store::Listing;

/// Largest request body, except OGN imports.
pub const BODY_LIMIT: usize = 64 * 1024;
/// Largest OGN import.
pub const IMPORT_LIMIT: usize = 1024 * 1024;

/// A JSON body whose errors are API errors (`malformed`, `too_large`).
pub struct JsonBody<T>(pub T);

fn body_rejection(r: BytesRejection) -> ApiError {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::too_large("the request body is too large")
    } else {
        ApiError::malformed(format!("cannot read the body: {r}"))
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        // A body of another type (a form, text/plain: what a page on another
        // site can send without asking) is refused, not parsed as JSON.
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("?").to_ascii_lowercase());
        if let Some(ct) = &content_type {
            if !ct.starts_with("application/json") {
                return Err(ApiError::malformed(format!(
                    "the body must be JSON (Content-Type: application/json), not {ct}"
                )));
            }
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejection)?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::malformed(format!("invalid JSON body: {e}")))
    }
}

/// The API routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/v1/rules/state", post(rules_state))
        .route("/api/v1/games", post(create).get(list))
        .route("/api/v1/lobby", get(lobby))
        .route(
            "/api/v1/games/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
        )
        .route("/api/v1/games/{id}", get(show))
        .route("/api/v1/games/{id}/join", post(join))
        .route("/api/v1/games/{id}/moves", post(play))
        .route("/api/v1/games/{id}/undo", post(undo))
        .route("/api/v1/games/{id}/resign", post(resign))
        .route("/api/v1/games/{id}/agreement", post(agreement))
        .route("/api/v1/games/{id}/hint", post(hint))
        .route("/api/v1/games/{id}/rematch", post(rematch))
        .route("/api/v1/games/{id}/ogn", get(ogn))
        .route("/api/v1/games/{id}/review", get(review))
        .route("/api/v1/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/v1/analyze", post(analyze))
        .route("/api/v1/health", get(health))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no API route {}", uri.path()))
}

async fn health(State(hub): State<Arc<Hub>>) -> Json<serde_json::Value> {
    let stats = hub.store().stats();
    Json(serde_json::json!({
        "ok": true,
        "games_in_memory": hub.games_in_memory(),
        "writes": stats.ops,
        "commits": stats.commits,
        "commit_us": stats.commit_us,
        "max_commit_us": stats.max_commit_us,
        "max_group": stats.max_group,
    }))
}

#[derive(Deserialize)]
struct RulesReq {
    position: Option<String>,
    moves: Option<String>,
}

async fn rules_state(
    JsonBody(req): JsonBody<RulesReq>,
) -> Result<Json<crate::rules::RulesState>, ApiError> {
    crate::rules::state(req.position.as_deref(), req.moves.as_deref()).map(Json)
}

#[derive(Deserialize)]
struct CreateReq {
    mode: Option<String>,
    level: Option<i64>,
    side: Option<String>,
    name: Option<String>,
    time_control: Option<serde_json::Value>,
    position: Option<String>,
    #[serde(default)]
    public: bool,
}

fn parse_side(s: &str) -> Result<Option<Side>, ApiError> {
    match s {
        "S" | "s" | "south" => Ok(Some(Side::South)),
        "N" | "n" | "north" => Ok(Some(Side::North)),
        "random" | "R" => Ok(None),
        other => Err(ApiError::invalid_request(format!(
            "side: {other:?} is not S, N or random"
        ))),
    }
}

fn parse_time_control(v: Option<serde_json::Value>) -> Result<Option<TimeControl>, ApiError> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) if s == "none" => Ok(None),
        Some(v) => serde_json::from_value(v).map(Some).map_err(|_| {
            ApiError::invalid_request("time_control: expected \"none\", {\"per_move_ms\"} or {\"initial_ms\", \"increment_ms\"}")
        }),
    }
}

async fn create(
    State(hub): State<Arc<Hub>>,
    JsonBody(req): JsonBody<CreateReq>,
) -> Result<Response, ApiError> {
    let mode = match req.mode.as_deref() {
        Some("computer") => Mode::Computer,
        Some("hotseat") => Mode::Hotseat,
        Some("online") => Mode::Online,
        Some(other) => {
            return Err(ApiError::invalid_request(format!(
                "mode: {other:?} is not computer, hotseat or online"
            )))
        }
        None => {
            return Err(ApiError::invalid_request(
                "mode: required (computer, hotseat or online)",
            ))
        }
    };
    let level = match req.level {
        None => None,
        Some(l) if (1..=10).contains(&l) => Some(l as u8),
        Some(l) => {
            return Err(ApiError::invalid_request(format!(
                "level: {l} is not in 1..10"
            )))
        }
    };
    let position = match req.position.as_deref() {
        None => None,
        Some(p) => Some(
            p.parse::<Position>()
                .map_err(|e| ApiError::invalid_position(format!("position {p:?}: {e}")))?,
        ),
    };
    let side = match req.side.as_deref() {
        None => None,
        Some(s) => parse_side(s)?,
    };
    let seated = hub
        .create(NewGame {
            mode: Some(mode),
            level,
            side,
            name: req.name,
            time_control: parse_time_control(req.time_control)?,
            position,
            public: req.public,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn list(
    State(hub): State<Arc<Hub>>,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let (games, total) = hub.list(Listing::All, limit, q.offset.unwrap_or(0)).await?;
    Ok(Json(serde_json::json!({ "games": games, "total": total })))
}

async fn lobby(State(hub): State<Arc<Hub>>) -> Result<Json<serde_json::Value>, ApiError> {
    let (games, _) = hub.list(Listing::Lobby, 100, 0).await?;
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn show(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<crate::model::GameView>, ApiError> {
    hub.view(&id).await.map(Json)
}

#[derive(Deserialize)]
struct JoinReq {
    invite: Option<String>,
    name: Option<String>,
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let seated = hub.join(&id, req.invite.as_deref(), req.name).await?;
    let token = seated.tokens.get(&seated.you).cloned();
    Ok(Json(
        serde_json::json!({ "id": seated.id, "token": token, "you": seated.you, "game": seated.game }),
    ))
}

#[derive(Deserialize)]
struct MoveReq {
    token: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
    ply: Option<u32>,
}

async fn play(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<MoveReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mv = req
        .mv
        .ok_or_else(|| ApiError::invalid_move("move: required (a letter A-F or a-f)"))?;
    let game = hub.play(&id, req.token.as_deref(), &mv, req.ply).await?;
    Ok(Json(serde_json::json!({ "ply": game.ply, "game": game })))
}

#[derive(Deserialize)]
struct TokenReq {
    token: Option<String>,
    action: Option<String>,
    movetime_ms: Option<u64>,
}

async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = hub.undo(&id, req.token.as_deref()).await?;
    Ok(Json(serde_json::json!({ "game": game })))
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = hub.resign(&id, req.token.as_deref()).await?;
    Ok(Json(serde_json::json!({ "game": game })))
}

async fn agreement(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let action = req
        .action
        .ok_or_else(|| ApiError::invalid_request("action: required (offer, accept or decline)"))?;
    let game = hub.agreement(&id, req.token.as_deref(), &action).await?;
    Ok(Json(serde_json::json!({ "game": game })))
}

async fn hint(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    hub.hint(&id, req.token.as_deref(), req.movetime_ms)
        .await
        .map(Json)
}

async fn rematch(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<crate::hub::Seated>, ApiError> {
    hub.rematch(&id, req.token.as_deref()).await.map(Json)
}

async fn ogn(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = hub.ogn(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn import(State(hub): State<Arc<Hub>>, req: Request) -> Result<Response, ApiError> {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let bytes = Bytes::from_request(req, &())
        .await
        .map_err(body_rejection)?;
    let text = if is_json {
        #[derive(Deserialize)]
        struct ImportReq {
            ogn: String,
        }
        serde_json::from_slice::<ImportReq>(&bytes)
            .map_err(|e| ApiError::malformed(format!("invalid JSON body: {e}")))?
            .ogn
    } else {
        String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::malformed("the OGN text is not UTF-8"))?
    };
    let seated = hub.import(&text).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

#[derive(Deserialize)]
struct ReviewQuery {
    movetime_ms: Option<u64>,
}

async fn review(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    q: Result<Query<ReviewQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let v = hub.review(&id, q.movetime_ms.unwrap_or(100)).await?;
    Ok(Json((*v).clone()))
}

#[derive(Deserialize)]
struct AnalyzeReq {
    position: Option<String>,
    moves: Option<String>,
    movetime_ms: Option<u64>,
    depth: Option<u32>,
}

async fn analyze(
    State(hub): State<Arc<Hub>>,
    JsonBody(req): JsonBody<AnalyzeReq>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = crate::rules::replay(req.position.as_deref(), req.moves.as_deref())?;
    let limits = match (req.depth, req.movetime_ms) {
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid_request(
                "give depth or movetime_ms, not both",
            ))
        }
        (Some(d), None) if (1..=40).contains(&d) => Limits::depth(d),
        (Some(d), None) => {
            return Err(ApiError::invalid_request(format!(
                "depth: {d} is not in 1..40"
            )))
        }
        (None, ms) => {
            let ms = ms.unwrap_or(1000);
            if !(10..=10_000).contains(&ms) {
                return Err(ApiError::invalid_request(format!(
                    "movetime_ms: {ms} is not in 10..10000"
                )));
            }
            // The whole analysis (every legal move's value) within `ms`.
            Limits::movetime(Duration::from_millis(ms))
        }
    };
    let pos = *game.position();
    let analysis = hub.analyze(game, limits).await?;
    let moves: Vec<serde_json::Value> = analysis
        .iter()
        .map(|a| serde_json::json!({ "move": a.mv, "score": ScoreView::from(a.score), "pv": oware_core::format_moves(&a.pv) }))
        .collect();
    Ok(Json(
        serde_json::json!({ "position": pos, "to_move": pos.to_move(), "moves": moves }),
    ))
}
