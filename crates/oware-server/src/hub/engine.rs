//! The computer's side of a game: its moves, and its answer to an offer to
//! stop (R12).

use std::sync::Arc;
use std::time::Duration;

use oware_core::{Ply, Side};
use oware_engine::{Level, Limits};

use super::{Hub, Live, Slot};
use crate::error::ApiError;
use crate::model::OfferAction;
use crate::protocol::ClientOut;

impl Hub {
    /// Starts the engine's search for the computer's move. It runs on the
    /// engine pool within `engine_move_cap`; a new position (a take-back, a
    /// resignation) cancels it.
    pub(crate) fn start_engine(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live) {
        let side = live.to_move();
        let game = live.game.clone();
        let level = Level::new(live.meta.level.unwrap_or(3));
        // On a clock, the computer spends a fifteenth of what it has left
        // at most (50 ms at least), so it never loses on time by thinking.
        let cap = match live.clock().and_then(|c| c.deadline()) {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(self.time().now());
                (left / 15)
                    .max(Duration::from_millis(50))
                    .min(self.config.engine_move_cap)
            }
            None => self.config.engine_move_cap,
        };
        let seed = live.meta.created_at as u64 ^ u64::from(live.ply());
        let hub = self.clone();
        let slot2 = slot.clone();
        live.set_engine(move |gen| {
            tokio::spawn(async move {
                let result = hub
                    .engines
                    .run_game(cap + Duration::from_millis(500), move |engine, stop| {
                        let mut limits = Limits::level(level);
                        limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
                        limits.seed = seed;
                        engine.search_with(&game, &limits, stop, &mut |_| {}).best
                    })
                    .await;
                let mut live = slot2.state.lock().await;
                if !live.engine_done(gen) {
                    return;
                }
                let played = match result {
                    Ok(Some(mv)) => hub
                        .commit_ply(&slot2, &mut live, Ply::Move(mv))
                        .await
                        .map_err(|e| format!("move {mv} not applied: {e}")),
                    Ok(None) => Err("no move found".to_string()),
                    Err(e) => Err(format!("engine failed: {e}")),
                };
                if let Err(e) = played {
                    tracing::error!("game {}: {e}", slot2.id);
                    slot2.send(thinking(&live, side, false));
                }
            })
            .abort_handle()
        });
        slot.send(thinking(live, side, true));
    }

    /// The engine accepts an offer when it judges the position no better
    /// than a draw for itself.
    pub(crate) async fn computer_answers_offer(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        side: Side,
    ) -> Result<(), ApiError> {
        let ply = live.ply();
        slot.send(
            ClientOut::Offer {
                ply,
                side,
                action: OfferAction::Offer,
            }
            .to_text(),
        );
        let game = live.game.clone();
        let result = self
            .engines
            .run_game(self.config.engine_request_cap, move |e, stop| {
                let limits = Limits::movetime(Duration::from_millis(300));
                e.search_with(&game, &limits, stop, &mut |_| {})
            })
            .await?;
        let cp = result.score.centiseeds();
        let for_computer = if live.to_move() == side { -cp } else { cp };
        if for_computer <= 0 {
            self.end_off_board(slot, live, |g| g.agree_to_stop()).await
        } else {
            slot.send(
                ClientOut::Offer {
                    ply,
                    side: side.opponent(),
                    action: OfferAction::Decline,
                }
                .to_text(),
            );
            Ok(())
        }
    }
}

pub(super) fn thinking(live: &Live, side: Side, thinking: bool) -> axum::extract::ws::Utf8Bytes {
    ClientOut::Thinking {
        ply: live.ply(),
        side,
        thinking,
    }
    .to_text()
}
