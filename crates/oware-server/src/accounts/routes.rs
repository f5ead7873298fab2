//! The account routes (docs/PROTOCOL.md, "Accounts"): sign up, sign in and
//! out, the signed-in player's own page (password, deletion, games), public
//! profiles and leaderboards.

use crate::error::Reason;
use crate::protocol::incoming::{BoardQuery, Credentials, Deletion, PasswordChange};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;

use super::ratings::{Rating, RatingClass};
use super::session::{set_cookie, SESSION_MS};
use super::*;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::limits::{ClientAddr, Cost};
use crate::model::{new_id, new_token};
use crate::protocol::incoming::MyGamesQuery;
use crate::protocol::views::Summary;
use crate::Hub;

/// The account routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/account/signup", post(sign_up))
        .route("/api/v1/account/signin", post(sign_in))
        .route("/api/v1/account/signout", post(sign_out))
        .route("/api/v1/account/password", post(change_password))
        .route("/api/v1/account/delete", post(delete))
        .route("/api/v1/account/games", get(my_games))
        .route("/api/v1/account/export", get(export))
        .route("/api/v1/account", get(me))
        .route("/api/v1/players/{name}", get(profile))
        .route("/api/v1/ratings/{class}", get(leaderboard))
}

impl Credentials {
    fn parse(self) -> Result<(String, String), ApiError> {
        let username = self
            .username
            .ok_or_else(|| ApiError::invalid_request("username: required"))?;
        let password = self
            .password
            .ok_or_else(|| ApiError::invalid_request("password: required"))?;
        if password.len() > 1024 {
            return Err(ApiError::too_large("password: at most 128 characters"));
        }
        Ok((username.trim().to_string(), password))
    }
}

/// A rating as sent.
#[derive(Serialize)]
struct RatingView {
    class: RatingClass,
    rating: i32,
    deviation: i32,
    provisional: bool,
    games: u32,
}

impl RatingView {
    fn new(class: RatingClass, r: &Rating) -> RatingView {
        RatingView {
            class,
            rating: r.rating.round() as i32,
            deviation: r.deviation.round() as i32,
            provisional: r.provisional(),
            games: r.games,
        }
    }
}

/// `GET /account` and the answer to signing in.
#[derive(Serialize)]
struct Me {
    username: String,
    /// Echo this in `X-CSRF-Token` on every state-changing request.
    csrf: String,
    ratings: Vec<RatingView>,
    /// The puzzle rating, once a puzzle was tried signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzles: Option<PuzzleRatingView>,
    /// Unread notifications.
    unread: u32,
}

/// A player's puzzle rating and how many puzzles they tried and solved.
#[derive(Serialize)]
struct PuzzleRatingView {
    rating: i32,
    deviation: i32,
    provisional: bool,
    tried: u32,
    solved: u32,
}

/// The account's puzzle rating; `None` before its first puzzle.
async fn puzzle_rating_of(
    hub: &Arc<Hub>,
    account: &str,
) -> Result<Option<PuzzleRatingView>, ApiError> {
    let p = hub.accounts().puzzle_player(account).await?;
    Ok((!p.tried.is_empty()).then(|| PuzzleRatingView {
        rating: p.rating.rating.round() as i32,
        deviation: p.rating.deviation.round() as i32,
        provisional: p.rating.provisional(),
        tried: p.tried.len() as u32,
        solved: p.solved,
    }))
}

async fn cpu<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        tracing::error!("a worker thread failed: {e}");
        ApiError::internal("the server could not finish this request")
    })
}

async fn ratings_of(hub: &Arc<Hub>, account: &str) -> Result<Vec<RatingView>, ApiError> {
    let rows = hub.accounts().ratings(account).await?;
    Ok(rows
        .iter()
        .map(|r| RatingView::new(r.class, &r.rating))
        .collect())
}

/// Starts a session for `account`: stored, then sent as the cookie.
async fn start_session(hub: &Arc<Hub>, account: &AccountRow) -> Result<Response, ApiError> {
    let (token, token_hash) = new_session_token();
    let now = hub.now_ms();
    let csrf = new_token();
    hub.accounts()
        .open_session(SessionRow {
            token_hash,
            account_id: account.id.clone(),
            csrf: csrf.clone(),
            created_at: now,
            expires_at: now + SESSION_MS,
        })
        .await?;
    let me = Me {
        username: account.username.clone(),
        csrf,
        ratings: ratings_of(hub, &account.id).await?,
        puzzles: puzzle_rating_of(hub, &account.id).await?,
        unread: hub.notifications().unread(&account.id).await?,
    };
    let mut res = Json(me).into_response();
    res.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(Some(&token), hub.config().secure_cookies),
    );
    Ok(res)
}

/// `204`, with the session cookie cleared.
fn signed_out(hub: &Hub) -> Response {
    let mut res = StatusCode::NO_CONTENT.into_response();
    res.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(None, hub.config().secure_cookies),
    );
    res
}

async fn sign_up(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let (username, password) = req.parse()?;
    check_username(&username)?;
    check_password(&password, &username)?;
    limits.check(Cost::SignUp, client).await?;
    let hash = cpu(move || hash_password(&password)).await??;
    let account = AccountRow {
        id: new_id(),
        username,
        password_hash: hash,
        created_at: hub.now_ms(),
    };
    hub.accounts().create(account.clone()).await?;
    let mut res = start_session(&hub, &account).await?;
    *res.status_mut() = StatusCode::CREATED;
    Ok(res)
}

/// A hash to verify against when the account does not exist, so a wrong
/// name takes as long as a wrong password.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password("not a password of anyone").unwrap_or_default())
}

/// Checks a name and password; the account if they match. Wrong
/// passwords are counted by the sign-in guard (`limits::SignInGuard`).
async fn authenticate(
    hub: &Arc<Hub>,
    limits: &crate::limits::Limiter,
    client: ClientAddr,
    username: &str,
    password: String,
) -> Result<AccountRow, ApiError> {
    limits.check(Cost::SignIn, client).await?;
    let key = username_key(username);
    let guard = limits.sign_in_guard();
    if let Some(g) = guard {
        g.check(&key, client).await?;
    }
    let account = hub.accounts().by_name(username).await?;
    let hash = account
        .as_ref()
        .map(|a| a.password_hash.clone())
        .unwrap_or_else(|| dummy_hash().to_string());
    let ok = cpu(move || verify_password(&password, &hash)).await?;
    match account {
        Some(a) if ok => {
            if let Some(g) = guard {
                g.succeeded(&key, client).await;
            }
            Ok(a)
        }
        _ => {
            if let Some(g) = guard {
                g.failed(&key, client).await;
            }
            Err(ApiError::bad_credentials("wrong username or password"))
        }
    }
}

/// Checks the signed-in player's password before a change to the account.
/// Wrong ones are counted per account, apart from sign-in attempts, so a
/// stranger guessing at the sign-in form never refuses the owner here.
pub(crate) async fn confirm_password(
    hub: &Arc<Hub>,
    limits: &crate::limits::Limiter,
    user: &User,
    password: String,
) -> Result<(), ApiError> {
    let guard = limits.sign_in_guard();
    if let Some(g) = guard {
        g.check_confirm(&user.id).await?;
    }
    let account = hub.accounts().own(&user.id, &user.username).await?;
    let hash = account.password_hash;
    if cpu(move || verify_password(&password, &hash)).await? {
        return Ok(());
    }
    if let Some(g) = guard {
        g.confirm_failed(&user.id).await;
    }
    Err(ApiError::bad_credentials("wrong password"))
}

async fn sign_in(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let (username, password) = req.parse()?;
    let account = authenticate(&hub, &limits, client, &username, password).await?;
    // Said only to whoever knows the password.
    if hub.accounts().closed(&account.id).await? {
        return Err(
            ApiError::not_allowed("this account was closed by the site's operator")
                .with_reason(Reason::AccountClosed),
        );
    }
    start_session(&hub, &account).await
}

async fn sign_out(State(hub): State<Arc<Hub>>, user: User) -> Result<Response, ApiError> {
    hub.accounts().end_session(user.token_hash).await?;
    Ok(signed_out(&hub))
}

async fn me(State(hub): State<Arc<Hub>>, user: User) -> Result<Json<Me>, ApiError> {
    Ok(Json(Me {
        ratings: ratings_of(&hub, &user.id).await?,
        puzzles: puzzle_rating_of(&hub, &user.id).await?,
        unread: hub.notifications().unread(&user.id).await?,
        username: user.username,
        csrf: user.csrf,
    }))
}

async fn change_password(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    user: User,
    JsonBody(req): JsonBody<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let (Some(old), Some(new)) = (req.old_password, req.new_password) else {
        return Err(ApiError::invalid_request(
            "old_password and new_password: required",
        ));
    };
    check_password(&new, &user.username)?;
    confirm_password(&hub, &limits, &user, old).await?;
    let hash = cpu(move || hash_password(&new)).await??;
    // Whoever else is signed in with the old password is signed out.
    hub.accounts()
        .set_password(&user.id, hash, Some(user.token_hash))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn delete(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    user: User,
    JsonBody(req): JsonBody<Deletion>,
) -> Result<Response, ApiError> {
    let password = req
        .password
        .ok_or_else(|| ApiError::invalid_request("password: required"))?;
    confirm_password(&hub, &limits, &user, password).await?;
    hub.accounts().delete(&user.id).await?;
    Ok(signed_out(&hub))
}

/// One of my games: its summary, and the seats my account holds in it
/// (both of my hot-seat games). The store keeps no plain seat token: a
/// browser without one asks `POST /games/{id}/seat` for its own.
#[derive(Serialize)]
struct MyGame {
    #[serde(flatten)]
    game: Summary,
    mine: Vec<oware_core::Side>,
}

pub use crate::hub::accounts::SEARCH_DEPTH;

async fn my_games(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    user: User,
    q: Result<Query<MyGamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<MyGames>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let filter = q.parse()?;
    // Reading up to 200 games is a costly read, counted per address and
    // per account; a search reads more, and counts like a new game too.
    let keys = crate::limits::ClientKeys::of(client, Some(&user));
    limits.check_client(Cost::Read, &keys).await?;
    let filter = if filter.is_empty() {
        None
    } else {
        limits.check_client(Cost::Game, &keys).await?;
        Some(filter)
    };
    let games: Vec<MyGame> = hub
        .accounts()
        .games(&user.id, filter)
        .await?
        .into_iter()
        .map(|g| MyGame {
            mine: crate::hub::accounts::seats_of(&g.meta, &user.id),
            game: Summary::of(&g.meta),
        })
        .collect();
    Ok(Json(MyGames { games }))
}

/// `GET /account/games`.
#[derive(Serialize)]
struct MyGames {
    games: Vec<MyGame>,
}

/// `GET /account/export`: everything the server keeps about the signed-in
/// player, as JSON (a download): this head, then `games`.
#[derive(Serialize)]
struct ExportHead {
    username: String,
    created_at: String,
    ratings: Vec<RatingView>,
    rating_history: Vec<HistoryPoint>,
    /// The e-mail address, if one was given (`hub/mail.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<crate::protocol::outgoing::EmailView>,
    #[serde(flatten)]
    community: CommunityExport,
}

/// The rest of what the server keeps about an account: whom it follows
/// and blocks, the reports it filed, the tournaments it entered and its
/// puzzle rating (docs/SECURITY.md: the export holds everything).
#[derive(Serialize)]
struct CommunityExport {
    following: Vec<String>,
    blocked: Vec<String>,
    reports_filed: Vec<FiledReport>,
    tournaments: Vec<crate::hub::accounts::Entered>,
    puzzles: PuzzleExport,
}

#[derive(Serialize)]
struct FiledReport {
    player: String,
    reason: String,
    details: String,
    game: Option<String>,
    at: String,
    closed: bool,
}

#[derive(Serialize)]
struct PuzzleExport {
    rating: f64,
    deviation: f64,
    tried: Vec<u32>,
    solved: u32,
}

fn community_export(rows: crate::hub::accounts::ExportRows) -> CommunityExport {
    CommunityExport {
        following: rows.relations.following,
        blocked: rows.relations.blocked,
        reports_filed: rows
            .reports
            .into_iter()
            .map(|r| FiledReport {
                player: r.reported_name,
                reason: r.reason,
                details: r.details,
                game: r.game_id,
                at: crate::model::rfc3339(r.at),
                closed: r.closed_at.is_some(),
            })
            .collect(),
        tournaments: rows.tournaments,
        puzzles: PuzzleExport {
            rating: rows.puzzles.rating.rating,
            deviation: rows.puzzles.rating.deviation,
            tried: rows.puzzles.tried,
            solved: rows.puzzles.solved,
        },
    }
}

/// One of the player's games with its moves.
#[derive(Serialize)]
struct ExportedGame {
    #[serde(flatten)]
    game: Summary,
    /// The start position.
    start: String,
    /// Every ply: a move letter, or `-` for a turn lost on time.
    moves: Vec<String>,
}

/// Games an export reads from the store at a time.
const EXPORT_PAGE: usize = 10;

/// The export, streamed: the head, then the games read [`EXPORT_PAGE`] at
/// a time, each page a short read taking its turn among the bulk reads
/// (`Hub::read_bulk`), so exports never hold the store's readers for long
/// nor all of them (issue 33, finding 6). Limited per address and per
/// account (`Cost::Export`). A read failing half-way ends the body short
/// (the download fails) with nothing of the error sent.
async fn export(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    user: User,
) -> Result<Response, ApiError> {
    limits
        .check_client(
            Cost::Export,
            &crate::limits::ClientKeys::of(client, Some(&user)),
        )
        .await?;
    let mut rows = hub.accounts().export(&user.id, &user.username).await?;
    let account = rows.account.clone();
    let ids = std::mem::take(&mut rows.game_ids);
    let history = std::mem::take(&mut rows.history);
    let head = ExportHead {
        community: community_export(rows),
        email: Some(hub.mail().email(&account.id).await?).filter(|v| v.email.is_some()),
        ratings: ratings_of(&hub, &account.id).await?,
        username: account.username,
        created_at: crate::model::rfc3339(account.created_at),
        rating_history: history,
    };
    // The head's object left open for `"games": [`.
    let mut first =
        serde_json::to_vec(&head).map_err(|e| ApiError::internal(format!("export: {e}")))?;
    first.pop();
    first.extend_from_slice(b",\"games\":[");
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<axum::body::Bytes, std::io::Error>>(2);
    tokio::spawn(async move {
        if tx.send(Ok(first.into())).await.is_err() {
            return;
        }
        let mut comma = false;
        for page in ids.chunks(EXPORT_PAGE) {
            let games = hub.accounts().export_page(page.to_vec()).await;
            let games = match games {
                Ok(g) => g,
                Err(e) => {
                    let _ = tx.send(Err(std::io::Error::other(e.message))).await;
                    return;
                }
            };
            let mut buf = Vec::new();
            // Each game as it stands (its summary row may lag its moves).
            for g in games {
                if comma {
                    buf.push(b',');
                }
                comma = true;
                let game = ExportedGame {
                    start: g.meta.start.to_string(),
                    moves: g.plies.into_iter().map(|p| p.text).collect(),
                    game: crate::protocol::views::Summary::of(&g.meta),
                };
                if serde_json::to_writer(&mut buf, &game).is_err() {
                    let _ = tx.send(Err(std::io::Error::other("export"))).await;
                    return;
                }
            }
            if tx.send(Ok(buf.into())).await.is_err() {
                // The client went away: stop reading.
                return;
            }
        }
        let _ = tx.send(Ok(axum::body::Bytes::from_static(b"]}"))).await;
    });
    let body = axum::body::Body::from_stream(futures_util::stream::unfold(rx, |mut rx| async {
        rx.recv().await.map(|chunk| (chunk, rx))
    }));
    let mut res = body.into_response();
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        axum::http::HeaderValue::from_static("attachment; filename=\"oware-account.json\""),
    );
    Ok(res)
}

#[derive(Serialize)]
struct Profile {
    username: String,
    created_at: String,
    ratings: Vec<RatingView>,
    /// The puzzle rating, once a puzzle was tried signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzles: Option<PuzzleRatingView>,
    history: Vec<HistoryPoint>,
    games: Vec<Summary>,
    /// An account socket of theirs is open (on any node).
    online: bool,
    /// The public game they are playing now, if any (the latest begun).
    #[serde(skip_serializing_if = "Option::is_none")]
    playing: Option<String>,
}

async fn profile(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let crate::hub::accounts::ProfileRows {
        account,
        history,
        games,
    } = hub
        .accounts()
        .profile(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))?;
    let playing = games
        .iter()
        .filter(|g| {
            g.meta.public
                && g.meta.result.is_none()
                && g.meta.status() == crate::model::GameStatus::Playing
        })
        .max_by_key(|g| g.meta.created_at)
        .map(|g| g.meta.id.clone());
    Ok(Json(Profile {
        playing,
        ratings: ratings_of(&hub, &account.id).await?,
        puzzles: puzzle_rating_of(&hub, &account.id).await?,
        online: hub.online(&account.id),
        username: account.username,
        created_at: crate::model::rfc3339(account.created_at),
        history,
        // Others see the finished public games only: a private game's id
        // is the link that opens it, its moves, names and chat.
        games: games
            .into_iter()
            .filter(|g| g.meta.result.is_some() && g.meta.public)
            .map(|g| crate::protocol::views::Summary::of(&g.meta))
            .collect(),
    }))
}

#[derive(Serialize)]
struct BoardEntry {
    rank: usize,
    username: String,
    #[serde(flatten)]
    rating: RatingView,
}

async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    Path(class): Path<String>,
    q: Result<Query<BoardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Leaderboard>, ApiError> {
    let class = RatingClass::parse(&class).ok_or_else(|| {
        ApiError::not_found(format!("no rating class {class:?}: fast, slow or per_move"))
    })?;
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    let provisional = q.provisional;
    let rows = hub
        .accounts()
        .leaderboard(class, limit, provisional)
        .await?;
    let players: Vec<BoardEntry> = rows
        .into_iter()
        .enumerate()
        .map(|(i, (username, r))| BoardEntry {
            rank: i + 1,
            username,
            rating: RatingView::new(class, &r),
        })
        .collect();
    Ok(Json(Leaderboard { class, players }))
}

/// `GET /ratings/{class}`.
#[derive(Serialize)]
struct Leaderboard {
    class: RatingClass,
    players: Vec<BoardEntry>,
}
