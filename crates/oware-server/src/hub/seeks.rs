//! Seeks: public online games waiting in the lobby. A seek is listed while
//! its creator is there.
//!
//! - Every [`SEEN_EVERY`], a node stores that the seeks whose creator has a
//!   connection open to it were seen now (`WriteOp::Seen`, one write for
//!   all of them).
//! - Every node then asks the store for seeks not seen for
//!   [`Config::seek_grace`](crate::config::Config) (their creator left: tab
//!   closed, connection lost, node gone) or older than
//!   [`SEEK_TTL`](crate::limits::SEEK_TTL), and cancels them. With several
//!   nodes, the version check lets one cancel stand.
//! - The creator may cancel a seek (`Command::Cancel`), from HTTP or the
//!   WebSocket.
//!
//! A cancelled seek is [`GameStatus::Cancelled`]: listed nowhere, and every
//! command on it is refused (`game_over`, reason `cancelled`).

use crate::error::Reason;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::{Announce, Commit, Hub, Live, Slot};
use crate::error::ApiError;
use crate::model::GameStatus;
use crate::store::WriteOp;

/// How often a node says which seeks' creators it holds, and looks for
/// seeks to cancel.
pub(crate) const SEEN_EVERY: Duration = Duration::from_secs(2);

/// The seeks this node holds in memory (a small set beside the games).
#[derive(Default)]
pub(crate) struct Seeks(std::sync::Mutex<HashSet<String>>);

impl Seeks {
    fn ids(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    fn forget(&self, id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Notes `live` if it is a seek.
    pub(crate) fn note(&self, live: &Live) {
        if live.meta.public && live.meta.status() == GameStatus::Waiting {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(live.meta.id.clone());
        }
    }
}

/// The seat that made the seek (the taken one).
fn creator(live: &Live) -> Option<usize> {
    live.meta.seats.iter().position(|s| s.token_hash.is_some())
}

impl Hub {
    /// Starts the task that keeps the lobby true (see the module's notes).
    pub(crate) fn start_seek_task(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        // On the server's clock: a test's manual clock runs the rounds when
        // it is moved, not every 2 s of the machine's time.
        let time = self.time().clone();
        tokio::spawn(async move {
            let mut next = time.now() + SEEN_EVERY;
            loop {
                // A round SEEN_EVERY after the last one began: at once when
                // the clock moved on further meanwhile.
                time.sleep_until(next).await;
                next = time.now() + SEEN_EVERY;
                let Some(hub) = weak.upgrade() else { break };
                let at = hub.now_ms();
                hub.seeks_seen().await;
                hub.cancel_stale_seeks().await;
                hub.metrics().lobby_swept(at);
            }
        });
    }

    /// Stores that the seeks whose creator is connected here were seen now.
    async fn seeks_seen(self: &Arc<Self>) {
        let mut seen = Vec::new();
        for id in self.seeks.ids() {
            let Some(slot) = self.held(&id) else {
                self.seeks.forget(&id);
                continue;
            };
            let live = slot.state.lock().await;
            if live.meta.status() != GameStatus::Waiting {
                self.seeks.forget(&id);
                continue;
            }
            if creator(&live).is_some_and(|side| slot.connected_here()[side]) {
                seen.push(id);
            }
        }
        if !seen.is_empty() {
            let at = self.now_ms();
            if let Err(e) = self.write_raw(WriteOp::Seen { ids: seen, at }).await {
                tracing::warn!("seeks not marked as seen: {e}");
            }
        }
    }

    /// Cancels the seeks whose creator left or that nobody took in time.
    async fn cancel_stale_seeks(self: &Arc<Self>) {
        let now = self.now_ms();
        let seen_before = now - self.config.seek_grace.as_millis() as i64;
        let created_before = now - crate::limits::SEEK_TTL.as_millis() as i64;
        let Ok(ids) = self
            .read(move |store| store.stale_seeks(seen_before, created_before, 50))
            .await
        else {
            return;
        };
        for id in ids {
            let Ok(slot) = self.slot(&id).await else {
                continue;
            };
            let mut live = self.lock_fresh(&slot).await;
            let here = creator(&live).is_some_and(|side| slot.connected_here()[side]);
            let expired = live.meta.created_at < created_before;
            // A creator connected here is marked seen at the next round.
            if live.meta.status() != GameStatus::Waiting || (here && !expired) {
                continue;
            }
            match self.cancel_seek(&slot, &mut live).await {
                Ok(()) => tracing::info!(
                    "seek {id} cancelled: {}",
                    if expired {
                        "nobody took it"
                    } else {
                        "its creator left"
                    }
                ),
                Err(e) if e.code == crate::error::ErrorCode::StalePly => {}
                Err(e) => tracing::warn!("seek {id} not cancelled: {e}"),
            }
        }
    }

    /// Cancels a seek nobody has taken yet.
    pub(crate) async fn cancel_seek(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
    ) -> Result<(), ApiError> {
        if live.meta.status() != GameStatus::Waiting {
            return Err(ApiError::not_allowed(
                "only a game still waiting for its opponent can be cancelled",
            )
            .with_reason(Reason::NotWaiting));
        }
        self.commit(slot, live, |live| {
            live.meta.cancelled = true;
            live.meta.updated_at = self.now_ms();
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: vec![Announce::State],
                new_position: true,
            })
        })
        .await?;
        self.seeks.forget(&slot.id);
        Ok(())
    }
}

impl Hub {
    /// Calls off an online game before each side has made its first move
    /// (a player who sat down and then found they cannot play): it ends
    /// unrated and without a result, as a cancelled seek does.
    pub(crate) async fn abort(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
    ) -> Result<(), ApiError> {
        if live.meta.mode != crate::model::Mode::Online {
            return Err(ApiError::not_allowed("only online games can be aborted")
                .with_reason(Reason::NotOnline));
        }
        if live.meta.tournament.is_some() {
            // An absent opponent loses on time; a player who cannot play
            // resigns (an abort would let either side skip a pairing).
            return Err(ApiError::not_allowed(
                "a tournament game cannot be aborted; resign instead",
            )
            .with_reason(Reason::TournamentGame));
        }
        match live.meta.status() {
            GameStatus::Waiting => return self.cancel_seek(slot, live).await,
            GameStatus::Playing if live.ply() < 2 && !live.game.is_over() => {}
            _ => {
                return Err(ApiError::not_allowed(
                    "a game can be aborted only before each side has moved; resign instead",
                )
                .with_reason(Reason::TooLate))
            }
        }
        self.commit(slot, live, |live| {
            live.meta.cancelled = true;
            live.meta.offer = None;
            live.meta.updated_at = self.now_ms();
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: vec![Announce::State],
                new_position: true,
            })
        })
        .await
    }
}

/// The refusal for any command on a cancelled seek.
pub(crate) fn cancelled() -> ApiError {
    ApiError::game_over("this game was called off before it started").with_reason(Reason::Cancelled)
}
