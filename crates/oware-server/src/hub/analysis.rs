//! The engine for people studying: hints, whole-game reviews and analyses
//! of a position. Each runs on the engine pool within its time cap and
//! stops when its client goes away, within the client's engine budget
//! (`engines.rs`); the coach's analyses (hint, coach, review) are kept in
//! one cache by position, and reviews are computed once per content and
//! kept.

use crate::error::Reason;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, LazyLock, Mutex};

use oware_core::Game;
use oware_engine::{Engine, Limits, MoveAnalysis, StopHandle};
use oware_session::analysis::{Analysis, AnalysisCache, AnalysisKey, Budget};
use oware_session::review::ReviewedPly;

use super::Hub;
use crate::engines::ClientKeys;
use crate::error::ApiError;
use crate::model::{Mode, PlyText};
use crate::protocol::views::ScoreView;
use crate::protocol::{HintResponse, ReviewPly, ReviewResponse};

/// A review, computed once by the first request that needs it.
type ReviewCell = Arc<tokio::sync::OnceCell<Arc<Vec<ReviewPly>>>>;

/// Reviews kept, by content: the start position and every ply, so the
/// same game imported twice, or asked for under two ids, is reviewed once.
/// The oldest are forgotten first.
#[derive(Default)]
pub(super) struct ReviewCache {
    games: HashMap<String, ReviewCell>,
    order: VecDeque<String>,
}

/// What a review depends on: the start position and the plies.
fn review_key(game: &Game) -> String {
    let mut key = game.start().to_string();
    for ply in game.plies() {
        key.push(' ');
        key.push_str(&PlyText(*ply).to_string());
    }
    key
}

impl ReviewCache {
    const MAX_GAMES: usize = 256;

    /// The cell of `game`'s review.
    fn entry(&mut self, game: &Game) -> ReviewCell {
        let key = review_key(game);
        if let Some(cell) = self.games.get(&key) {
            return cell.clone();
        }
        self.order.push_back(key.clone());
        while self.order.len() > Self::MAX_GAMES {
            if let Some(old) = self.order.pop_front() {
                self.games.remove(&old);
            }
        }
        let cell = Arc::new(tokio::sync::OnceCell::new());
        self.games.insert(key, cell.clone());
        cell
    }
}

/// Analyses kept (a few hundred bytes each).
const CACHE_SIZE: usize = 4096;

/// The server's analyses: shared by every request, so two asks of one
/// position read one analysis.
static CACHE: LazyLock<Mutex<AnalysisCache>> =
    LazyLock::new(|| Mutex::new(AnalysisCache::new(CACHE_SIZE)));

impl Hub {
    /// The analysis of `game` at the coach's budget: the kept one, or a new
    /// one searched on the engine pool (within the request cap).
    pub async fn coach_analysis(
        self: &Arc<Self>,
        game: Game,
        client: &ClientKeys,
    ) -> Result<Arc<Analysis>, ApiError> {
        let hub = self;
        if game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        let budget = Budget::COACH;
        // A position already analysed costs no engine time and no budget.
        let seeds = hub
            .engines()
            .tablebase_seeds()
            .map_or(0, |n| n.min(48) as u8);
        let known = AnalysisKey::new(&game, budget, seeds);
        if let Some(a) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&known) {
            return Ok(a);
        }
        let cap = hub.config().engine_request_cap;
        let answer = hub
            .engines()
            .run_study(client, cap, move |engine, stop| {
                cached_analysis(engine, &game, stop)
            })
            .await?;
        answer.map_err(|e: oware_session::AnalysisError| match e {
            oware_session::AnalysisError::GameOver => ApiError::game_over("the game is over"),
            oware_session::AnalysisError::Stopped => {
                ApiError::busy("the analysis did not finish in time; try again shortly")
            }
        })
    }

    /// The engine's suggestion for the side to move, searched for
    /// `movetime_ms` (10..=5000).
    pub async fn hint(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        movetime_ms: u64,
        client: &ClientKeys,
    ) -> Result<HintResponse, ApiError> {
        if !(10..=5000).contains(&movetime_ms) {
            return Err(ApiError::invalid_request("movetime_ms: expected 10..5000"));
        }
        let slot = self.slot(id).await?;
        let game = {
            let live = slot.state.lock().await;
            live.seat(token)?;
            if live.meta.mode == Mode::Online || live.meta.time_control.is_some() {
                return Err(ApiError::not_allowed(
                    "hints are for computer and untimed hot-seat games",
                ));
            }
            if live.game.is_over() {
                return Err(ApiError::game_over("the game is over"));
            }
            live.game.clone()
        };
        // The coach's analysis (one per position, kept): the hint is its
        // best move, so the hint and the coach agree, and asking twice
        // answers the same. `movetime_ms` is checked but no longer used.
        let a = self.coach_analysis(game, client).await?;
        let best = a.best();
        let mut score = ScoreView::from(best.score);
        score.kind = best.kind.code();
        Ok(HintResponse {
            mv: Some(best.mv),
            score,
            pv: best.line.clone(),
            depth: a.depth,
        })
    }

    /// The coach's judgement of every move played: each position's
    /// analysis at the coach's budget, read from and kept in the coach's
    /// cache (`cached_analysis`), so the review says what the coach and
    /// the hint say of the same position, and a position is searched once
    /// for all three. A game still being played online is not reviewed
    /// (that would be help during the game); one being played against the
    /// computer or on one device is reviewed for its seats only. One
    /// review per content is computed at a time and kept. `movetime_ms`
    /// is checked (10..=2000) but decides nothing: the review's budget is
    /// a depth. The whole request is held within `review_cap`, a safety
    /// net: if it runs out (or every client that wanted the review has
    /// left), the answer is `busy`, nothing of the review is kept, but
    /// every position analysed so far is in the coach's cache, so the next
    /// request goes on from there and answers the same.
    pub async fn review(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        movetime_ms: u64,
        client: &ClientKeys,
    ) -> Result<ReviewResponse, ApiError> {
        if !(10..=2000).contains(&movetime_ms) {
            return Err(ApiError::invalid_request("movetime_ms: expected 10..2000"));
        }
        let slot = self.slot(id).await?;
        let game = {
            let live = slot.state.lock().await;
            if !live.game.is_over() {
                if live.meta.mode == Mode::Online {
                    return Err(ApiError::not_allowed(
                        "an online game is reviewed once it is over",
                    )
                    .with_reason(Reason::GameInProgress));
                }
                live.seat(token)?;
            }
            live.game.clone()
        };
        let cell = self
            .reviews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(&game);
        let cap = self.config.review_cap;
        let value = cell
            .get_or_try_init(|| async move {
                let plies = self
                    .engines
                    .run_study(client, cap, move |engine, stop| {
                        oware_session::review::review_game(&game, &mut |g| {
                            cached_analysis(engine, g, stop)
                        })
                    })
                    .await?
                    // Stopped part-way: the review is not kept (its
                    // analyses are), a later request goes on.
                    .map_err(|_| {
                        ApiError::busy("the review did not finish in time; try again shortly")
                    })?;
                Ok::<_, ApiError>(Arc::new(plies.iter().map(review_ply).collect()))
            })
            .await?;
        Ok(ReviewResponse {
            id: id.to_string(),
            depth: Budget::COACH.depth,
            plies: value.clone(),
        })
    }

    /// Values of every legal move of a position (the engine's one analysis,
    /// as `oware analyze` runs it), with the depth completed and the seeds
    /// the tables covered.
    pub async fn analyze(
        self: &Arc<Self>,
        game: Game,
        limits: Limits,
        client: &ClientKeys,
    ) -> Result<(Vec<MoveAnalysis>, u32, u8), ApiError> {
        self.engines
            .run_study(
                client,
                self.config.engine_request_cap,
                move |engine, stop| {
                    let (moves, depth) = engine.analyze_to_depth(&game, &limits, stop, &mut |_| {});
                    (moves, depth, engine.tablebase_seeds())
                },
            )
            .await
    }
}

/// The coach's analysis of `game` (at its budget, with `engine`'s
/// tables): the one kept in the server's cache, or a new one, kept.
fn cached_analysis(
    engine: &mut Engine,
    game: &Game,
    stop: &StopHandle,
) -> Result<Arc<Analysis>, oware_session::AnalysisError> {
    let budget = Budget::COACH;
    let key = AnalysisKey::new(game, budget, engine.tablebase_seeds());
    if let Some(a) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(a);
    }
    let a = Arc::new(Analysis::run(engine, game, budget, stop)?);
    Ok(CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, a))
}

/// One ply of a review as sent: the coach's judgement of the move played.
fn review_ply(p: &ReviewedPly) -> ReviewPly {
    let j = p.judgement.as_ref();
    let view = |v: &oware_session::MoveValue| {
        let mut view = ScoreView::from(v.score);
        view.kind = v.kind.code();
        view
    };
    ReviewPly {
        ply: p.ply,
        side: p.side,
        mv: PlyText(p.played),
        best: p.best(),
        score: j.map(|j| view(&j.value)),
        best_score: j.map(|j| view(&j.best)),
        loss_cp: p.loss_cp(),
        verdict: j.map(|j| j.verdict.code()),
        loss: j.map(|j| j.loss_tenths()),
        pv: j.map(|j| j.best.line.clone()).unwrap_or_default(),
        eval_south_cp: p.eval_south_cp(),
    }
}
