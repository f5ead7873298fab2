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
use crate::protocol::incoming::{GameFilter, MyGamesQuery};
use crate::protocol::views::Summary;
use crate::store::WriteOp;
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
async fn puzzle_rating_of(hub: &Hub, account: &str) -> Result<Option<PuzzleRatingView>, ApiError> {
    let id = account.to_string();
    let p = hub.read(move |store| store.puzzle_player(&id)).await?;
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

async fn write(hub: &Hub, op: WriteOp) -> Result<(), ApiError> {
    hub.write_change(op, || ApiError::username_taken("this username is taken"))
        .await
}

async fn ratings_of(hub: &Hub, account: &str) -> Result<Vec<RatingView>, ApiError> {
    let id = account.to_string();
    let rows = hub.read(move |store| store.ratings(&id)).await?;
    Ok(rows
        .iter()
        .map(|r| RatingView::new(r.class, &r.rating))
        .collect())
}

/// Starts a session for `account`: stored, then sent as the cookie.
async fn start_session(hub: &Hub, account: &AccountRow) -> Result<Response, ApiError> {
    let (token, token_hash) = new_session_token();
    let now = hub.now_ms();
    let csrf = new_token();
    write(
        hub,
        WriteOp::Account(AccountOp::CreateSession(SessionRow {
            token_hash,
            account_id: account.id.clone(),
            csrf: csrf.clone(),
            created_at: now,
            expires_at: now + SESSION_MS,
        })),
    )
    .await?;
    let me = Me {
        username: account.username.clone(),
        csrf,
        ratings: ratings_of(hub, &account.id).await?,
        puzzles: puzzle_rating_of(hub, &account.id).await?,
        unread: hub.unread(&account.id).await?,
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
    write(&hub, WriteOp::Account(AccountOp::Create(account.clone()))).await?;
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
    hub: &Hub,
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
    let name = username.to_string();
    let account = hub.read(move |store| store.account_by_name(&name)).await?;
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
    hub: &Hub,
    limits: &crate::limits::Limiter,
    user: &User,
    password: String,
) -> Result<(), ApiError> {
    let guard = limits.sign_in_guard();
    if let Some(g) = guard {
        g.check_confirm(&user.id).await?;
    }
    let name = user.username.clone();
    let account = hub
        .read(move |store| store.account_by_name(&name))
        .await?
        .filter(|a| a.id == user.id)
        .ok_or_else(|| ApiError::not_signed_in("this account no longer exists"))?;
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
    let id = account.id.clone();
    if hub.read(move |store| store.account_closed(&id)).await? {
        return Err(
            ApiError::not_allowed("this account was closed by the site's operator")
                .with_reason(Reason::AccountClosed),
        );
    }
    start_session(&hub, &account).await
}

async fn sign_out(State(hub): State<Arc<Hub>>, user: User) -> Result<Response, ApiError> {
    write(
        &hub,
        WriteOp::Account(AccountOp::EndSession {
            token_hash: user.token_hash,
        }),
    )
    .await?;
    Ok(signed_out(&hub))
}

async fn me(State(hub): State<Arc<Hub>>, user: User) -> Result<Json<Me>, ApiError> {
    Ok(Json(Me {
        ratings: ratings_of(&hub, &user.id).await?,
        puzzles: puzzle_rating_of(&hub, &user.id).await?,
        unread: hub.unread(&user.id).await?,
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
    write(
        &hub,
        WriteOp::All(vec![
            WriteOp::Account(AccountOp::SetPassword {
                id: user.id.clone(),
                hash,
            }),
            // Whoever else is signed in with the old password is signed out.
            WriteOp::Account(AccountOp::EndOtherSessions {
                account_id: user.id,
                keep: Some(user.token_hash),
            }),
        ]),
    )
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
    // Withdrawn from every open tournament first (no round is paired with
    // the account any more); games stay, with the seats made anonymous
    // (a game in play resigned); then the account goes.
    let id = user.id.clone();
    let open = hub.read(move |store| store.tournaments_of(&id)).await?;
    if !open.is_empty() {
        let ops = crate::store::tournaments::withdrawals(open, &user.id);
        write(&hub, WriteOp::All(ops)).await?;
    }
    let id = user.id.clone();
    let games = hub
        .read(move |store| store.account_games(&id, u32::MAX))
        .await?;
    for g in games {
        hub.anonymise(&g.meta.id, &user.id).await?;
    }
    let delete = AccountOp::Delete {
        id: user.id,
        at: hub.now_ms(),
    };
    write(&hub, WriteOp::Account(delete)).await?;
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

/// The most recent games a search of one's games looks through.
pub const SEARCH_DEPTH: u32 = 1000;
/// The most games one answer lists.
const MY_GAMES: usize = 200;

/// Whether `g` (one of `me`'s games) is one `f` asks for.
fn matches(f: &GameFilter, g: &crate::store::StoredGame, me: &str) -> bool {
    use crate::protocol::incoming::ResultFilter;
    let meta = &g.meta;
    if f.mode.is_some_and(|m| meta.mode != m) {
        return false;
    }
    let mine: Vec<oware_core::Side> = oware_core::Side::ALL
        .into_iter()
        .filter(|s| meta.seats[s.index()].account.as_deref() == Some(me))
        .collect();
    // One seat: an opponent to name, a game to win or lose (hot-seat
    // games, both seats one's own, have neither).
    let me_side = (mine.len() == 1).then(|| mine[0]);
    if let Some(o) = &f.opponent {
        let Some(side) = me_side else { return false };
        if !meta.seats[side.opponent().index()]
            .name
            .to_lowercase()
            .contains(o.as_str())
        {
            return false;
        }
    }
    if let Some(r) = f.result {
        let ok = match (r, meta.result) {
            (ResultFilter::Ongoing, None) => matches!(
                meta.status(),
                crate::model::GameStatus::Waiting | crate::model::GameStatus::Playing
            ),
            (ResultFilter::Drawn, Some(o)) => o.winner.is_none(),
            (ResultFilter::Won, Some(o)) => me_side.is_some() && o.winner == me_side,
            (ResultFilter::Lost, Some(o)) => {
                me_side.is_some() && o.winner == me_side.map(oware_core::Side::opponent)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    f.from.is_none_or(|from| meta.updated_at >= from) && f.to.is_none_or(|to| meta.updated_at <= to)
}

async fn my_games(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    user: User,
    q: Result<Query<MyGamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<MyGames>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let filter = q.parse()?;
    let id = user.id.clone();
    // Reading up to 200 games is a costly read, counted per address and
    // per account; a search reads more, and counts like a new game too.
    let keys = crate::limits::ClientKeys::of(client, Some(&user));
    limits.check_client(Cost::Read, &keys).await?;
    let games = if filter.is_empty() {
        crate::hub::current_games(
            hub.read(move |store| store.account_games(&id, MY_GAMES as u32))
                .await?,
        )
    } else {
        limits.check_client(Cost::Game, &keys).await?;
        let me = user.id.clone();
        hub.read(move |store| {
            Ok(
                crate::hub::current_games(store.account_games(&id, SEARCH_DEPTH)?)
                    .into_iter()
                    .filter(|g| matches(&filter, g, &me))
                    .take(MY_GAMES)
                    .collect::<Vec<_>>(),
            )
        })
        .await?
    };
    let games: Vec<MyGame> = games
        .into_iter()
        .map(|g| {
            let mine = |s: &crate::model::Seat| s.account.as_deref() == Some(user.id.as_str());
            let all = g.meta.mode == crate::model::Mode::Hotseat && g.meta.seats.iter().any(mine);
            MyGame {
                mine: oware_core::Side::ALL
                    .into_iter()
                    .filter(|s| all || mine(&g.meta.seats[s.index()]))
                    .collect(),
                game: crate::protocol::views::Summary::of(&g.meta),
            }
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
    tournaments: Vec<crate::store::tournaments::Entered>,
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

async fn community_export(hub: &Hub, account: &str) -> Result<CommunityExport, ApiError> {
    let id = account.to_string();
    let (relations, reports, tournaments, puzzles) = hub
        .read(move |store| {
            Ok((
                store.relations(&id)?,
                store.reports(crate::store::account_rows::ReportFilter::FiledBy(
                    id.clone(),
                ))?,
                store.tournaments_entered(&id)?,
                store.puzzle_player(&id)?,
            ))
        })
        .await?;
    Ok(CommunityExport {
        following: relations.following,
        blocked: relations.blocked,
        reports_filed: reports
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
        tournaments,
        puzzles: PuzzleExport {
            rating: puzzles.rating.rating,
            deviation: puzzles.rating.deviation,
            tried: puzzles.tried,
            solved: puzzles.solved,
        },
    })
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
    let id = user.id.clone();
    let name = user.username.clone();
    let (account, history, ids) = hub
        .read(move |store| {
            let account = store.account_by_name(&name)?;
            let history = store.rating_history(&id)?;
            let ids = store.account_game_ids(&id, u32::MAX)?;
            Ok((account, history, ids))
        })
        .await?;
    let account = account
        .filter(|a| a.id == user.id)
        .ok_or_else(|| ApiError::not_signed_in("this account no longer exists"))?;
    let head = ExportHead {
        community: community_export(&hub, &account.id).await?,
        email: Some(hub.email(&account.id).await?).filter(|v| v.email.is_some()),
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
            let page = page.to_vec();
            let games = hub
                .read_bulk(move |store| {
                    let mut games = Vec::with_capacity(page.len());
                    for id in &page {
                        games.extend(store.load(id)?);
                    }
                    Ok(games)
                })
                .await;
            let games = match games {
                Ok(g) => g,
                Err(e) => {
                    let _ = tx.send(Err(std::io::Error::other(e.message))).await;
                    return;
                }
            };
            let mut buf = Vec::new();
            // Each game as it stands (its summary row may lag its moves).
            for g in crate::hub::current_games(games) {
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
    let found = hub
        .read(move |store| {
            let Some(account) = store.account_by_name(&name)? else {
                return Ok(None);
            };
            let history = store.rating_history(&account.id)?;
            let games = store.account_games(&account.id, 50)?;
            Ok(Some((account, history, games)))
        })
        .await?;
    let (account, history, games) = found.ok_or_else(|| ApiError::not_found("no such player"))?;
    let games = crate::hub::current_games(games);
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
        .read(move |store| store.leaderboard(class, limit, provisional))
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
