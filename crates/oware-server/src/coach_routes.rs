//! `POST /api/v1/coach`: the engine coach. One analysis of the position
//! (`oware_session::analysis`: every legal move searched to a fixed depth
//! with a cleared table) answers the verdict on a move, the hint (its best
//! move) and the list of every move's value; analyses are kept in a cache
//! by position, history since the last capture, depth and tables, so the
//! same question always gets the same answer. The game page's hint
//! (`POST /games/{id}/hint`) reads the same cache (`Hub::coach_analysis`).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use oware_core::{Move, Position, Side};
use oware_session::analysis::Judgement;
use oware_session::Lang;
use serde::Serialize;

use crate::error::ApiError;
use crate::http::JsonBody;
use crate::hub::Hub;
use crate::limits::ClientKeys;
use crate::limits::{ClientAddr, Cost};
use crate::protocol::incoming::CoachReq;
use crate::protocol::views::ScoreView;

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new().route("/api/v1/coach", post(coach))
}

/// One move judged.
#[derive(Serialize, Debug)]
pub struct JudgedMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub verdict: &'static str,
    /// True from `mistake` up: the coach warns before it is played.
    pub warn: bool,
    /// Seeds lost against the best move on the coach's scale (one decimal).
    pub loss: f64,
    /// Its value for the player who moves (`kind` `tablebase_draw` for a
    /// drawn table position).
    pub score: ScoreView,
    /// The value in words.
    pub value: String,
    /// The engine's line, starting with the move.
    pub line: Vec<Move>,
    /// The verdict and its reason, in the asked language.
    pub text: String,
}

/// The response.
#[derive(Serialize, Debug)]
pub struct CoachResponse {
    /// The position analysed.
    pub position: Position,
    /// Its side to move.
    pub to_move: Side,
    /// The depth searched.
    pub depth: u32,
    /// The hint: the best move.
    pub best: Move,
    /// The asked move's verdict (absent without `move`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
    /// The asked move's loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// The asked move's line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<Move>>,
    /// The asked move's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Every legal move judged, best first.
    pub moves: Vec<JudgedMove>,
}

fn score_view(j: &Judgement) -> ScoreView {
    let mut view = ScoreView::from(j.value.score);
    view.kind = j.value.kind.code();
    view
}

fn judged(j: &Judgement, lang: Lang, computer: Option<Side>) -> JudgedMove {
    JudgedMove {
        mv: j.mv,
        verdict: j.verdict.code(),
        warn: j.is_warning(),
        loss: j.loss_tenths(),
        score: score_view(j),
        value: j.value.kind.short(lang),
        line: j.value.line.clone(),
        text: j.text(lang, computer),
    }
}

async fn coach(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    client: ClientAddr,
    crate::accounts::session::MaybeUser(user): crate::accounts::session::MaybeUser,
    JsonBody(req): JsonBody<CoachReq>,
) -> Result<Json<CoachResponse>, ApiError> {
    let req = req.parse()?;
    if req.game.is_over() {
        return Err(ApiError::game_over("the game is over"));
    }
    limits.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    let analysis = hub.coach_analysis(req.game, &keys).await?;
    let moves: Vec<JudgedMove> = analysis
        .judgements()
        .iter()
        .map(|j| judged(j, req.lang, req.computer))
        .collect();
    let asked = req
        .mv
        .and_then(|m| moves.iter().find(|j| j.mv == m))
        .map(|j| (j.verdict, j.loss, j.line.clone(), j.text.clone()));
    let (verdict, loss, line, text) = match asked {
        Some((v, l, line, t)) => (Some(v), Some(l), Some(line), Some(t)),
        None => (None, None, None, None),
    };
    Ok(Json(CoachResponse {
        position: analysis.position,
        to_move: analysis.to_move(),
        depth: analysis.depth,
        best: analysis.best().mv,
        verdict,
        loss,
        line,
        text,
        moves,
    }))
}
