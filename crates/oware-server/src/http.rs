//! HTTP routes (docs/PROTOCOL.md): each handler parses its request into
//! typed values ([`crate::protocol::incoming`]), checks the client's rate
//! limit when the request is costly, calls the [`Hub`], and answers a typed
//! response ([`crate::protocol::outgoing`]).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;

use crate::accounts::session::MaybeUser;
use crate::engines::ClientKeys;
use crate::error::ApiError;
use crate::hub::{Command, Hub};
use crate::limits::{ClientAddr, Cost};
use crate::model::game::Listing;
use crate::protocol::incoming::*;
use crate::protocol::views::{GameView, ScoreView, Summary};
use crate::protocol::*;

/// Largest request body, except OGN imports: for every route
/// ([`crate::app`] sets it), and named in the refusal.
pub const BODY_LIMIT: usize = 64 * 1024;
/// Largest OGN import.
pub const IMPORT_LIMIT: usize = 1024 * 1024;

/// A JSON body whose errors are API errors (`malformed`, `too_large`).
pub struct JsonBody<T>(pub T);

/// A body that could not be read; over `limit` bytes, `too_large` naming
/// the limit.
fn body_rejection(r: BytesRejection, limit: usize) -> ApiError {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let most = if limit.is_multiple_of(1024 * 1024) {
            format!("{} MiB", limit / (1024 * 1024))
        } else {
            format!("{} KiB", limit / 1024)
        };
        ApiError::too_large(format!("the request body is too large: at most {most}"))
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
            .map_err(|r| body_rejection(r, BODY_LIMIT))?;
        // A body without a type is refused too (an empty one is fine: it
        // reads as `{}`), so nothing is taken for JSON unless labelled so.
        if content_type.is_none() && !bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(ApiError::malformed(
                "the body must be JSON, labelled Content-Type: application/json",
            ));
        }
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
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/rules/state", post(rules_state))
        .route("/api/v1/games", post(create).get(list))
        .route("/api/v1/lobby", get(lobby))
        .route("/api/v1/watch", get(watch))
        .route(
            "/api/v1/games/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
        )
        .route("/api/v1/games/{id}", get(show))
        .route("/api/v1/games/{id}/join", post(join))
        .route("/api/v1/games/{id}/moves", post(play))
        .route("/api/v1/games/{id}/undo", post(undo))
        .route("/api/v1/games/{id}/engine", post(choose_engine))
        .route("/api/v1/games/{id}/resign", post(resign))
        .route("/api/v1/games/{id}/cancel", post(cancel))
        .route("/api/v1/games/{id}/abort", post(abort))
        .route("/api/v1/games/{id}/takeback", post(takeback))
        .route("/api/v1/games/{id}/agreement", post(agreement))
        .route(
            "/api/v1/games/{id}/conditional",
            post(conditional).get(conditional_get),
        )
        .route("/api/v1/games/{id}/hint", post(hint))
        .route("/api/v1/games/{id}/rematch", post(rematch))
        .route("/api/v1/games/{id}/seat", post(claim_seats))
        .route("/api/v1/games/{id}/ogn", get(ogn))
        .route("/api/v1/games/{id}/review", get(review))
        .route("/api/v1/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/v1/games/{id}/chat", get(chat))
        .route("/api/v1/analyze", post(analyze))
        .route("/api/v1/health", get(health))
        .route("/api/v1/clock", post(move_clock))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// Moves a manual clock on (`oware serve --manual-clock`, for tests of
/// separate processes: the browser's, several nodes'): refused as an
/// unknown route on a server with the wall clock, and from any address but
/// the loopback's.
async fn move_clock(
    State(hub): State<Arc<Hub>>,
    parts: axum::http::request::Parts,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let peer = parts
        .extensions
        .get::<axum::extract::ConnectInfo<crate::listener::PeerAddr>>()
        .map(|c| c.0 .0.ip());
    if !hub.time().is_manual() || !peer.is_some_and(|ip| ip.is_loopback()) {
        return Err(ApiError::not_found("no API route /api/v1/clock"));
    }
    let req: crate::protocol::incoming::MoveClockReq = serde_json::from_slice(&body)
        .map_err(|e| ApiError::malformed(format!("invalid JSON body: {e}")))?;
    hub.time()
        .advance(std::time::Duration::from_millis(req.advance_ms));
    Ok(Json(serde_json::json!({ "now_ms": hub.now_ms() })))
}

async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no API route {}", uri.path()))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|e| ApiError::invalid_request(format!("query: {e}")))
}

async fn health(State(hub): State<Arc<Hub>>) -> Json<Health> {
    let stats = hub.write_stats();
    Json(Health {
        ok: true,
        games_in_memory: hub.games_in_memory(),
        writes: stats.ops,
        commits: stats.commits,
        commit_us: stats.commit_us,
        max_commit_us: stats.max_commit_us,
        max_group: stats.max_group,
        tablebase_seeds: hub.engines().tablebase_seeds(),
    })
}

async fn rules_state(
    JsonBody(req): JsonBody<GameReq>,
) -> Result<Json<oware_session::wire::RulesState>, ApiError> {
    Ok(Json(oware_session::wire::state(&req.parse()?)))
}

async fn create(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<CreateReq>,
) -> Result<Response, ApiError> {
    let new = req.parse()?;
    limits.check(Cost::Game, client).await?;
    // A game listed in the lobby holds one of the client's lobby places.
    let place = match limits.seeks().filter(|_| new.public) {
        Some(seeks) => {
            let keys = ClientKeys::of(client, user.as_ref());
            let mut gone = Vec::new();
            for id in seeks.recent(&keys) {
                let waiting = match hub.summary(&id).await {
                    Ok(s) => s.status == crate::model::GameStatus::Waiting,
                    Err(e) if e.code == crate::error::ErrorCode::NotFound => false,
                    Err(e) => return Err(e),
                };
                if !waiting {
                    gone.push(id);
                }
            }
            Some(seeks.reserve(&keys, &gone)?)
        }
        None => None,
    };
    let seated = hub.create(new, user.as_ref()).await?;
    if let Some(place) = place {
        place.confirm(&seated.id);
    }
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

async fn list(
    State(hub): State<Arc<Hub>>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<ListResponse>, ApiError> {
    let q = query(q)?;
    if let Some(ids) = q.ids()? {
        // Games the client names by id (an id is the link that opens a
        // game, so this shows nothing the client could not open); unknown
        // ids are left out.
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            match hub.summary(&id).await {
                Ok(s) => games.push(s),
                Err(e) if e.code == crate::error::ErrorCode::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        let total = games.len() as u64;
        return Ok(Json(ListResponse { games, total }));
    }
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let (games, total) = hub
        .list(Listing::Public, limit, q.offset.unwrap_or(0))
        .await?;
    Ok(Json(ListResponse { games, total }))
}

async fn lobby(State(hub): State<Arc<Hub>>) -> Result<Json<LobbyResponse>, ApiError> {
    let (games, _) = hub.list(Listing::Lobby, 100, 0).await?;
    Ok(Json(LobbyResponse {
        games,
        online: hub.online_count(),
    }))
}

/// How recent a game's last move must be for it to be listed as being
/// played now.
const WATCH_WINDOW: std::time::Duration = std::time::Duration::from_secs(30 * 60);

async fn watch(State(hub): State<Arc<Hub>>) -> Result<Json<WatchResponse>, ApiError> {
    let since = hub.now_ms() - WATCH_WINDOW.as_millis() as i64;
    let (games, _) = hub.list(Listing::Playing { since }, 50, 0).await?;
    Ok(Json(WatchResponse {
        featured: featured(&games),
        games,
    }))
}

/// The game to show large: the one whose players' mean rating is the
/// highest (rated games carry their players' ratings); failing that, the
/// one moved last.
fn featured(games: &[Summary]) -> Option<String> {
    let mean = |g: &Summary| match (&g.seats.south.rating, &g.seats.north.rating) {
        (Some(s), Some(n)) => Some(s.rating + n.rating),
        _ => None,
    };
    games
        .iter()
        .filter_map(|g| mean(g).map(|m| (m, g)))
        .max_by_key(|(m, _)| *m)
        .map(|(_, g)| g)
        .or(games.first())
        .map(|g| g.id.clone())
}

async fn show(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    hub.view(&id).await.map(Json)
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<JoinReq>,
) -> Result<Json<JoinResponse>, ApiError> {
    let mut seated = hub
        .join(&id, req.invite.as_deref(), req.name, user.as_ref())
        .await?;
    Ok(Json(JoinResponse {
        token: seated.tokens.remove(&seated.you),
        id: seated.id,
        you: seated.you,
        game: seated.game,
    }))
}

async fn play(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<MoveReq>,
) -> Result<Json<MoveResponse>, ApiError> {
    let body = req.parse()?;
    let (mv, ply) = (body.mv, body.ply);
    let command = if body.computer {
        Command::ComputerMove { mv, ply }
    } else {
        Command::Move { mv, ply }
    };
    let game = hub.apply_to(&id, body.token.as_deref(), command).await?;
    Ok(Json(MoveResponse {
        ply: game.play.ply,
        game,
    }))
}

/// A seat's command that answers with the game (undo, resign, cancel,
/// abort, agreement, take-back): all go through [`Hub::apply_to`].
async fn seat_command(
    hub: &Arc<Hub>,
    id: &str,
    token: Option<String>,
    command: Command,
) -> Result<Json<GameResponse>, ApiError> {
    let game = hub.apply_to(id, token.as_deref(), command).await?;
    Ok(Json(GameResponse { game }))
}

/// `POST /games/{id}/engine`: the computer's moves from the player's
/// browser engine, or from the server's.
async fn choose_engine(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<EngineReq>,
) -> Result<Json<GameResponse>, ApiError> {
    let (token, browser) = req.parse()?;
    seat_command(&hub, &id, token, Command::Engine { browser }).await
}

async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<GameResponse>, ApiError> {
    seat_command(&hub, &id, req.token, Command::Undo).await
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<GameResponse>, ApiError> {
    seat_command(&hub, &id, req.token, Command::Resign).await
}

async fn cancel(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<GameResponse>, ApiError> {
    seat_command(&hub, &id, req.token, Command::Cancel).await
}

async fn abort(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<GameResponse>, ApiError> {
    seat_command(&hub, &id, req.token, Command::Abort).await
}

async fn agreement(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AgreementReq>,
) -> Result<Json<GameResponse>, ApiError> {
    let (token, action) = req.parse()?;
    seat_command(&hub, &id, token, Command::Agreement(action)).await
}

async fn conditional(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ConditionalReq>,
) -> Result<Json<crate::protocol::views::Prepared>, ApiError> {
    let (token, ply, replies) = req.parse()?;
    let slot = hub.slot(&id).await?;
    let command = Command::Conditional { ply, replies };
    let live = hub.apply(&slot, token.as_deref(), command).await?;
    Ok(Json(crate::protocol::views::Prepared::of(
        &live.meta,
        live.seat(token.as_deref())?,
    )))
}

/// The replies the seat prepared: only to that seat.
async fn conditional_get(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    q: Result<Query<SeatQuery>, QueryRejection>,
) -> Result<Json<crate::protocol::views::Prepared>, ApiError> {
    let q = query(q)?;
    hub.prepared(&id, q.token.as_deref()).await.map(Json)
}

async fn takeback(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AgreementReq>,
) -> Result<Json<GameResponse>, ApiError> {
    let (token, action) = req.parse()?;
    seat_command(&hub, &id, token, Command::Takeback(action)).await
}

async fn hint(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<HintReq>,
) -> Result<Json<HintResponse>, ApiError> {
    limits.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    hub.hint(
        &id,
        req.token.as_deref(),
        req.movetime_ms.unwrap_or(500),
        &keys,
    )
    .await
    .map(Json)
}

async fn rematch(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<TokenReq>,
) -> Result<Json<Seated>, ApiError> {
    limits.check(Cost::Game, client).await?;
    hub.rematch(&id, req.token.as_deref()).await.map(Json)
}

/// `POST /games/{id}/seat`: the signed-in player's seats in a game of
/// theirs, with tokens for this device.
async fn claim_seats(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    Path(id): Path<String>,
    user: crate::accounts::User,
) -> Result<Json<Seated>, ApiError> {
    limits.check(Cost::Game, client).await?;
    hub.claim_seats(&id, &user).await.map(Json)
}

async fn ogn(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = hub.ogn(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn import(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    req: Request,
) -> Result<Response, ApiError> {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let bytes = Bytes::from_request(req, &())
        .await
        .map_err(|r| body_rejection(r, IMPORT_LIMIT))?;
    let text = if is_json {
        serde_json::from_slice::<ImportReq>(&bytes)
            .map_err(|e| ApiError::malformed(format!("invalid JSON body: {e}")))?
            .ogn
    } else {
        String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::malformed("the OGN text is not UTF-8"))?
    };
    let record = oware_core::Record::parse(&text).map_err(|e| ApiError::record(&e))?;
    limits.check(Cost::Game, client).await?;
    let seated = hub.import(record).await?;
    Ok((StatusCode::CREATED, Json(seated)).into_response())
}

async fn review(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    q: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Json<ReviewResponse>, ApiError> {
    let q = query(q)?;
    limits.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    hub.review(&id, q.token.as_deref(), q.movetime_ms.unwrap_or(100), &keys)
        .await
        .map(Json)
}

async fn analyze(
    State(hub): State<Arc<Hub>>,
    State(limiter): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<AnalyzeReq>,
) -> Result<Json<AnalyzeResponse>, ApiError> {
    let (game, limits) = req.parse()?;
    limiter.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    let pos = *game.position();
    let (moves, depth, tables) = hub.analyze(game, limits, &keys).await?;
    let moves = moves
        .into_iter()
        .map(|a| MoveValue {
            mv: a.mv,
            score: ScoreView::from(a.score),
            pv: a.pv,
        })
        .collect();
    Ok(Json(AnalyzeResponse {
        position: pos,
        to_move: pos.to_move(),
        depth,
        tables,
        moves,
    }))
}

#[derive(serde::Serialize)]
struct ChatResponse {
    messages: Vec<crate::hub::chat::ChatMessage>,
}

async fn chat(
    State(hub): State<Arc<Hub>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    q: Result<Query<ChatQuery>, QueryRejection>,
) -> Result<Json<ChatResponse>, ApiError> {
    let q = query(q)?;
    let page = q.page()?;
    let account = user.as_ref().map(|u| u.id.as_str());
    let messages = hub
        .chat_history(&id, q.token.as_deref(), account, page)
        .await?;
    Ok(Json(ChatResponse { messages }))
}

/// `GET /healthz`: the process answers.
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// `GET /readyz`: the node takes new work: its database answers and it is
/// not being stopped.
pub async fn readyz(State(hub): State<Arc<Hub>>) -> Response {
    if hub.metrics().draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response();
    }
    match hub.ping().await {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n").into_response(),
    }
}

/// `GET /metrics`.
pub async fn metrics(State(hub): State<Arc<Hub>>) -> Response {
    let mut text = hub.metrics().render(hub.games_in_memory());
    hub.engines().render_metrics(&mut text);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// The client's address, from the connection (or the proxy's
/// `X-Forwarded-For` when the configuration trusts it).
impl axum::extract::FromRequestParts<crate::state::AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &crate::state::AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<crate::listener::PeerAddr>>()
            .map(|c| c.0 .0);
        Ok(ClientAddr::from_parts(
            peer,
            &parts.headers,
            state.config.trust_forwarded_for,
        ))
    }
}
