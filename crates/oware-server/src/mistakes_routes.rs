//! `POST /api/v1/mistakes`: "learn from your mistakes". Given a game (its
//! start and plies) and a side, the engine coach judges every move that
//! side played (`oware_session::mistakes`, as the terminal game does, with
//! `Hub::coach_analysis`: the same kept analyses as the coach and the
//! hint) and answers the ones it warns about (mistakes and blunders), each
//! as an exercise: the position before it, the plies that
//! led there, the move played, its verdict and the coach's words. The page
//! then asks the coach (`POST /api/v1/coach`) about the player's new try,
//! which reads the same analysis.
//!
//! Stateless, like the coach: the client sends the game. The analyses run
//! one at a time in the client's study lane (`engines.rs`), so a long game
//! takes a few seconds and never holds more than the client's share.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use oware_core::{Move, Ply, Position, Side};
use oware_session::mistakes;
use serde::Serialize;

use crate::accounts::session::MaybeUser;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::hub::Hub;
use crate::limits::{ClientAddr, ClientKeys, Cost, Limiter};
use crate::protocol::incoming::MistakesReq;

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new().route("/api/v1/mistakes", post(mistakes))
}

/// The most moves of one side judged in one request.
const MAX_MOVES: usize = 150;

/// One mistake, as an exercise.
#[derive(Serialize, Debug)]
pub struct Exercise {
    /// The ply (0-based) of the move.
    pub ply: usize,
    /// The plies before it, as sent (`-` for a lost turn).
    pub moves: String,
    /// The position before it.
    pub position: Position,
    /// The move played.
    pub played: Move,
    /// `mistake` or `blunder`.
    pub verdict: &'static str,
    /// Seeds it gave up on the coach's scale.
    pub loss: f64,
    /// The coach's words on it.
    pub text: String,
}

/// The response.
#[derive(Serialize, Debug)]
pub struct MistakesResponse {
    /// The side judged.
    pub side: Side,
    /// Moves of that side judged.
    pub judged: usize,
    /// The mistakes, in the game's order.
    pub exercises: Vec<Exercise>,
}

fn plies_text(plies: &[Ply]) -> String {
    plies
        .iter()
        .map(|p| match p {
            Ply::Move(m) => m.letter(),
            Ply::Pass => '-',
        })
        .collect()
}

async fn mistakes(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<MistakesReq>,
) -> Result<Json<MistakesResponse>, ApiError> {
    let crate::protocol::incoming::Mistakes {
        game,
        side,
        lang,
        computer,
    } = req.parse()?;
    limits.check(Cost::Engine, client).await?;
    let keys = ClientKeys::of(client, user.as_ref());
    let candidates = mistakes::candidates(&game, side, MAX_MOVES);
    let judged = candidates.len();
    let mut exercises = Vec::new();
    for c in &candidates {
        let analysis = hub.coach_analysis(c.before.clone(), &keys).await?;
        if let Some(ex) = c.judge(&analysis) {
            let j = &ex.judgement;
            exercises.push(Exercise {
                ply: ex.ply,
                moves: plies_text(ex.before.plies()),
                position: ex.position(),
                played: ex.played,
                verdict: j.verdict.code(),
                loss: j.loss_tenths(),
                text: j.text(lang, computer),
            });
        }
    }
    Ok(Json(MistakesResponse {
        side,
        judged,
        exercises,
    }))
}
