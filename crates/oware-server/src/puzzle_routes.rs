//! The puzzles (`oware_session::puzzles`, shipped in the binary):
//!
//! - `GET /api/v1/puzzles/next?rating=R&skip=1,2&lang=fr`: a puzzle rated
//!   near the caller: a signed-in account's puzzle rating (its tried
//!   puzzles skipped), else `rating` (a visitor's, kept by the page; 1500
//!   when absent), skipping the ids in `skip`.
//! - `GET /api/v1/puzzles/daily`: the day's puzzle (UTC), the same for
//!   everyone.
//! - `GET /api/v1/puzzles/{id}`: one puzzle.
//! - `POST /api/v1/puzzles/{id}/attempt` with `{moves, lang}`: solved or
//!   failed, the solution and its line, and why in the asked language. A
//!   signed-in account's first attempt at a puzzle is a rated game
//!   between the account and the puzzle (Glicko-2, `store/puzzles.rs`),
//!   unless the client (its address or its account) has been shown the
//!   solution already, by an earlier answer ([`unrated_because`]: the one
//!   place that decides, for both stores); visitors keep their streak in
//!   the page.
//!
//! A puzzle is never sent with its solution before an attempt. Every
//! request counts against the client's study allowance (`Cost::Engine`),
//! like the coach.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use oware_core::{Move, Position, Side};
use oware_session::puzzles::{self, Puzzle};
use oware_session::Lang;
use serde::Serialize;

use crate::accounts::session::MaybeUser;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::hub::Hub;
use crate::limits::{ClientAddr, ClientKeys, Cost, Limiter};
use crate::model::ratings::Rating;
use crate::protocol::incoming::{AttemptReq, LangQuery, NextQuery};

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/puzzles/next", get(next))
        .route("/api/v1/puzzles/daily", get(daily))
        .route("/api/v1/puzzles/{id}", get(one))
        .route("/api/v1/puzzles/{id}/attempt", post(attempt))
}

/// The most ids a visitor may ask to skip.
const MAX_SKIP: usize = 500;

/// A puzzle as sent before it is solved: no solution.
#[derive(Serialize, Debug)]
pub struct PuzzleView {
    /// Its number.
    pub id: u32,
    /// The position.
    pub position: Position,
    /// The side that solves it.
    pub to_move: Side,
    /// Its current rating (rounded).
    pub rating: i32,
    /// Attempts that rated it.
    pub attempts: u32,
    /// Theme codes (`capture-chain`, `endgame`, …).
    pub themes: Vec<&'static str>,
    /// The themes in the asked language.
    pub theme_names: Vec<&'static str>,
    /// The day (`YYYY-MM-DD`, UTC) for the daily puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The caller's puzzle rating, when signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub your_rating: Option<i32>,
}

fn view(p: &Puzzle, rating: Rating, lang: Lang) -> PuzzleView {
    PuzzleView {
        id: p.id,
        position: p.position,
        to_move: p.to_move(),
        rating: rating.rating.round() as i32,
        attempts: rating.games,
        themes: p.themes.iter().map(|t| t.code()).collect(),
        theme_names: p.themes.iter().map(|t| t.name(lang)).collect(),
        date: None,
        your_rating: None,
    }
}

fn puzzle(id: &str) -> Result<&'static Puzzle, ApiError> {
    id.parse::<u32>()
        .ok()
        .and_then(|n| puzzles::shipped().get(n))
        .ok_or_else(|| ApiError::not_found(format!("no puzzle {id:?}")))
}

/// Every puzzle's current rating: the stored one, else its starting one.
async fn current_ratings(hub: &Arc<Hub>) -> Result<Vec<Rating>, ApiError> {
    hub.puzzles().ratings(&puzzles::shipped().puzzles).await
}

async fn rating_of(hub: &Arc<Hub>, id: u32) -> Result<Rating, ApiError> {
    let set = puzzles::shipped();
    let all = current_ratings(hub).await?;
    Ok(set
        .puzzles
        .iter()
        .position(|p| p.id == id)
        .map(|i| all[i])
        .unwrap_or_default())
}

async fn next(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    limits.check(Cost::Engine, client).await?;
    let (lang, mut skip) = q.parse(MAX_SKIP)?;
    let (target, yours) = match &user {
        Some(u) => {
            let me = hub.puzzles().player(&u.id).await?;
            skip.extend(me.tried);
            (me.rating.rating, Some(me.rating.rating.round() as i32))
        }
        None => {
            let r = q.rating.unwrap_or(1500.0);
            if !(100.0..=3500.0).contains(&r) {
                return Err(ApiError::invalid_request(format!(
                    "rating: expected 100 to 3500, not {r}"
                )));
            }
            (r, None)
        }
    };
    let set = puzzles::shipped();
    let ratings = current_ratings(&hub).await?;
    let values: Vec<f64> = ratings.iter().map(|r| r.rating).collect();
    let near = set.nearest(&values, target, &skip);
    let i = *near
        .get(rand::random_range(0..near.len().max(1)))
        .ok_or_else(|| ApiError::not_found("no puzzles"))?;
    let mut v = view(&set.puzzles[i], ratings[i], lang);
    v.your_rating = yours;
    Ok(Json(v))
}

/// The UTC date of `ms` since the epoch, and the day's number.
fn day(ms: i64) -> (String, i64) {
    let days = ms.div_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (format!("{y:04}-{m:02}-{d:02}"), days)
}

async fn daily(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    limits.check(Cost::Engine, client).await?;
    let lang = q.lang()?;
    let (date, n) = day(hub.now_ms());
    let p = puzzles::shipped()
        .daily(n)
        .ok_or_else(|| ApiError::not_found("no puzzles"))?;
    let mut v = view(p, rating_of(&hub, p.id).await?, lang);
    v.date = Some(date);
    Ok(Json(v))
}

async fn one(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    Path(id): Path<String>,
    q: Result<Query<LangQuery>, QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    limits.check(Cost::Engine, client).await?;
    let lang = q.lang()?;
    let p = puzzle(&id)?;
    Ok(Json(view(p, rating_of(&hub, p.id).await?, lang)))
}

/// The answer to an attempt.
#[derive(Serialize, Debug)]
pub struct AttemptResponse {
    /// The puzzle.
    pub id: u32,
    /// True when the first move was the solution.
    pub solved: bool,
    /// The move judged.
    pub tried: Move,
    /// The solution.
    pub solution: Move,
    /// The expected line, starting with the solution.
    pub line: Vec<Move>,
    /// The solution's lead over every other move, seeds.
    pub margin: f64,
    /// `tables` or `search`.
    pub proof: &'static str,
    /// Solved or not, and why the solution is the move.
    pub text: String,
    /// True when this attempt was rated (a signed-in account's first).
    pub rated: bool,
    /// Why a signed-in account's attempt was not rated: `tried` (not its
    /// first), `solution_seen` (the solution was shown to this client,
    /// its address or its account, before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrated: Option<&'static str>,
    /// The puzzle's rating now.
    pub rating: i32,
    /// The caller's puzzle rating now, when signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub your_rating: Option<i32>,
}

async fn attempt(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AttemptReq>,
) -> Result<Json<AttemptResponse>, ApiError> {
    let p = puzzle(&id)?;
    let (moves, lang) = req.parse()?;
    let judged = p
        .attempt(&moves)
        .map_err(|e| ApiError::from(oware_session::wire::Refusal::from(e)))?;
    limits.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    let mut rated = false;
    let mut unrated = None;
    let mut yours = None;
    if let Some(u) = &user {
        let before = hub.puzzles().player(&u.id).await?;
        unrated = unrated_because(
            before.tried.contains(&p.id),
            limits.seen_solutions().seen(&keys, p.id).await,
        );
        rated = unrated.is_none();
        let after = hub
            .puzzles()
            .attempt(&u.id, p, judged.solved, rated)
            .await?;
        yours = Some(after.rating.rating.round() as i32);
    }
    // This answer shows the solution: to the address, and the account.
    limits.seen_solutions().show(&keys, p.id).await;
    let rating = rating_of(&hub, p.id).await?;
    Ok(Json(AttemptResponse {
        id: p.id,
        solved: judged.solved,
        tried: judged.tried,
        solution: p.solution,
        line: p.line.clone(),
        margin: p.margin,
        proof: p.proof.source(),
        text: judged.text(p, lang),
        rated,
        unrated,
        rating: rating.rating.round() as i32,
        your_rating: yours,
    }))
}

/// Whether a signed-in account's attempt is rated: only its first at the
/// puzzle, and only if its client has not been shown the solution (an
/// attempt's answer shows it, a visitor's too). `None` when rated, else
/// the reason sent as `unrated`.
pub fn unrated_because(tried_before: bool, solution_seen: bool) -> Option<&'static str> {
    if tried_before {
        Some("tried")
    } else if solution_seen {
        Some("solution_seen")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::day;

    #[test]
    fn days_have_dates() {
        assert_eq!(day(0), ("1970-01-01".to_string(), 0));
        // 1 December 2026, 12:00 UTC.
        assert_eq!(day(1_796_126_400_000).0, "2026-12-01");
        assert_eq!(day(951_782_400_000).0, "2000-02-29");
    }
}
