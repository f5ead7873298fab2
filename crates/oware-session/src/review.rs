//! The engine's review of a whole game: every move played judged by the
//! coach's analysis of the position it was played from ([`Analysis`] at
//! the coach's [`Budget`](crate::analysis::Budget)), so a review's word on a move is the coach's
//! word on it, and asking the coach about a position of a reviewed game
//! answers what the review said. One function for the server's
//! `GET /games/{id}/review` and the browser's module offline
//! (`oware-wasm`'s `review` request); each gives it its own way to get an
//! analysis (its cache of the coach's analyses), so a position asked
//! about by the coach, the hint and the review is searched once.

use std::sync::Arc;

use oware_core::{Game, Move, Ply, Side};

use crate::analysis::{Analysis, AnalysisError, Judgement};

/// One ply of a review (no judgement for a lost turn, R13).
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedPly {
    /// 1-based ply number.
    pub ply: u32,
    /// Who played it.
    pub side: Side,
    /// The ply played.
    pub played: Ply,
    /// The coach's judgement of the move played: its verdict, its value
    /// and the best move's (the coach's hint there).
    pub judgement: Option<Judgement>,
}

impl ReviewedPly {
    /// The coach's best move in the position the move was played from.
    pub fn best(&self) -> Option<Move> {
        self.judgement.as_ref().map(|j| j.best.mv)
    }

    /// What the move played lost against the best by the engine's
    /// scores, centi-seeds (≥ 0).
    pub fn loss_cp(&self) -> Option<i32> {
        self.judgement
            .as_ref()
            .map(|j| (j.best.score.centiseeds() - j.value.score.centiseeds()).max(0))
    }

    /// The value of the move played for South, centi-seeds.
    pub fn eval_south_cp(&self) -> Option<i32> {
        self.judgement.as_ref().map(|j| {
            let cp = j.value.score.centiseeds();
            if self.side == Side::South {
                cp
            } else {
                -cp
            }
        })
    }
}

/// Every ply of `game` judged by the coach: `analyse` gives the coach's
/// analysis of a position (the game before the ply, with its history).
/// Stops at the first analysis that fails (stopped, or a position the
/// game's rules end).
pub fn review_game(
    game: &Game,
    analyse: &mut dyn FnMut(&Game) -> Result<Arc<Analysis>, AnalysisError>,
) -> Result<Vec<ReviewedPly>, AnalysisError> {
    let mut g = Game::new(*game.start());
    let mut plies = Vec::new();
    for (i, &ply) in game.plies().iter().enumerate() {
        let side = g.position().to_move();
        let judgement = match ply {
            Ply::Pass => {
                let _ = g.pass();
                None
            }
            Ply::Move(mv) => {
                let analysis = analyse(&g)?;
                let j = analysis.judge(mv);
                let _ = g.play(mv);
                j
            }
        };
        plies.push(ReviewedPly {
            ply: i as u32 + 1,
            side,
            played: ply,
            judgement,
        });
    }
    Ok(plies)
}
