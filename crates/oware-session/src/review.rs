//! The engine's review of a whole game: every move played valued against
//! the engine's best in the position it was played from. One function for
//! the server's `GET /games/{id}/review` and the browser's module offline
//! (`oware-wasm`'s `review` request), so both pages read the same values.

use std::time::Duration;

use oware_core::{Game, Move, Ply, Side};
use oware_engine::{Engine, Limits, Score, StopHandle};

/// One ply of a review (the values are absent for a lost turn, R13).
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedPly {
    /// 1-based ply number.
    pub ply: u32,
    /// Who played it.
    pub side: Side,
    /// The ply played.
    pub played: Ply,
    /// The engine's choice.
    pub best: Option<Move>,
    /// The value of the move played, for its player.
    pub score: Option<Score>,
    /// The value of the best move.
    pub best_score: Option<Score>,
    /// What the move played lost against the best, centiseeds (≥ 0).
    pub loss_cp: Option<i32>,
    /// The best line.
    pub pv: Vec<Move>,
    /// The value of the move played for South, centiseeds.
    pub eval_south_cp: Option<i32>,
}

/// Every ply of `game` valued against the engine's best, `movetime_ms` a
/// position (every legal move is searched within it); `None` if `stop`
/// was raised before the end.
pub fn review_game(
    engine: &mut Engine,
    stop: &StopHandle,
    game: &Game,
    movetime_ms: u64,
) -> Option<Vec<ReviewedPly>> {
    let mut g = Game::new(*game.start());
    let mut plies = Vec::new();
    for (i, &ply) in game.plies().iter().enumerate() {
        let side = g.position().to_move();
        let mut entry = ReviewedPly {
            ply: i as u32 + 1,
            side,
            played: ply,
            best: None,
            score: None,
            best_score: None,
            loss_cp: None,
            pv: Vec::new(),
            eval_south_cp: None,
        };
        match ply {
            Ply::Pass => {
                let _ = g.pass();
            }
            Ply::Move(mv) => {
                let limits = Limits::movetime(Duration::from_millis(movetime_ms));
                let analysis = engine.analyze_with(&g, &limits, stop, &mut |_| {});
                let best = analysis.first();
                let played = analysis.iter().find(|a| a.mv == mv);
                let _ = g.play(mv);
                if let (Some(best), Some(played)) = (best, played) {
                    let cp = played.score.centiseeds();
                    entry.best = Some(best.mv);
                    entry.score = Some(played.score);
                    entry.best_score = Some(best.score);
                    entry.loss_cp = Some((best.score.centiseeds() - cp).max(0));
                    entry.pv = best.pv.clone();
                    entry.eval_south_cp = Some(if side == Side::South { cp } else { -cp });
                }
            }
        }
        plies.push(entry);
        if stop.is_stopped() {
            return None;
        }
    }
    Some(plies)
}
