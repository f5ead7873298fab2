//! Several nodes sharing one store (PostgreSQL, docs/DEPLOY.md).
//!
//! - **Versions.** Every change is stored from the version the node read
//!   (`WriteOp::Version`); a change made from an out-of-date copy is refused
//!   by the store, the copy is read again and the client told
//!   (`stale_ply`). So two nodes never store different moves at one ply.
//! - **Events.** A stored change carries a [`NodeNotice`] sent with it
//!   (PostgreSQL `NOTIFY`, in the same transaction, so in commit order).
//!   Every other node holding the game reads it again and sends its own
//!   watchers the same announcements; if it missed a version, the whole
//!   game instead. A chat message travels whole.
//! - **Deadlines.** Each change stores when the game's clock runs out and
//!   when the computer's reply is overdue (`Due`). Every node claims the
//!   overdue games now and then (`Store::claim_due`, `FOR UPDATE SKIP
//!   LOCKED` on PostgreSQL) and acts on them: a flag falls, a turn is lost,
//!   the computer moves, even when the node that set the deadline is gone.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};

use super::{Announce, Hub, Live, Slot};
use crate::store::{Due, Notice, StoredPly};

/// How often a node looks for overdue games.
const SWEEP_EVERY: Duration = Duration::from_millis(500);
/// How long a claimed overdue game is left to its claimer.
const CLAIM_MS: i64 = 10_000;
/// How long after its deadline a game is taken up by any node (the node
/// holding it acts at the deadline itself).
const GRACE_MS: i64 = 1_000;
/// How long a node that lost a race waits for the winner's notice before
/// reading the game again itself.
const CATCH_UP_AFTER: Duration = Duration::from_secs(2);
/// How long the computer may take beyond its move cap before another node
/// takes its turn over.
const ENGINE_GRACE: Duration = Duration::from_secs(5);

/// How long another node's word on who is connected holds without being
/// repeated (nodes repeat it every [`PRESENCE_EVERY`]).
pub(crate) const PRESENCE_TTL: Duration = Duration::from_secs(75);
/// How often a node repeats who is connected to it.
const PRESENCE_EVERY: Duration = Duration::from_secs(30);

/// What one node tells the others.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum NodeNotice {
    /// Game `game` is now at `version`, with these announcements; `ply`
    /// is the ply stored when the change was a plain move (nothing else
    /// changed), which the other nodes play on their copy instead of
    /// reading the game again, with the deadlines `due`.
    Game {
        node: u64,
        game: String,
        version: u64,
        announce: Vec<Announce>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<StoredPly>,
        #[serde(default)]
        due: Due,
        /// When it was sent, ms since the epoch (for the lag metric).
        sent: i64,
    },
    /// The seats of each game connected to node `node`.
    /// (Several games in one notice: a node repeats its word for all its
    /// games every [`PRESENCE_EVERY`].)
    Presence {
        node: u64,
        games: Vec<(String, [bool; 2])>,
        sent: i64,
    },
    /// Node `node` has just opened game `game`: who is connected where?
    WhoIsThere { node: u64, game: String },
    /// An event for an account's sockets (a notification, its unread
    /// count).
    Account {
        node: u64,
        account: String,
        event: String,
        sent: i64,
    },
    /// These accounts have (`on`) or no longer have a socket open on node
    /// `node`.
    Online {
        node: u64,
        accounts: Vec<String>,
        on: bool,
        sent: i64,
    },
    /// A chat event for the game's players' room, or its spectators'.
    Chat {
        node: u64,
        game: String,
        spectators: bool,
        event: String,
        sent: i64,
    },
}

impl Hub {
    /// Starts what a node sharing its store runs beside its requests: the
    /// listener for the other nodes' changes, and the sweep of overdue
    /// games (run by a single node too: it acts on the deadlines of games
    /// nobody has opened since a restart).
    pub(crate) fn start_node_tasks(self: &Arc<Self>) {
        if let Some(mut notices) = self.store.subscribe() {
            let weak = Arc::downgrade(self);
            tokio::spawn(async move {
                while let Some(notice) = notices.recv().await {
                    let Some(hub) = weak.upgrade() else { break };
                    match notice {
                        Notice::Message(text) => hub.on_notice(&text),
                        Notice::Resync => {
                            for slot in hub.held_all() {
                                let hub = hub.clone();
                                tokio::spawn(async move {
                                    let mut live = slot.state.lock().await;
                                    hub.reload(&slot, &mut live, None).await;
                                });
                            }
                        }
                    }
                }
            });
        }
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(SWEEP_EVERY).await;
                let Some(hub) = weak.upgrade() else { break };
                hub.sweep_due().await;
            }
        });
        if self.store.shared() {
            let weak = Arc::downgrade(self);
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(PRESENCE_EVERY).await;
                    let Some(hub) = weak.upgrade() else { break };
                    let games: Vec<Arc<Slot>> = hub
                        .held_all()
                        .into_iter()
                        .filter(|slot| slot.connected_here().iter().any(|c| *c))
                        .collect();
                    // About 40 bytes a game: well under NOTIFY's 8,000.
                    for chunk in games.chunks(100) {
                        hub.publish_presence(chunk);
                    }
                    // Account ids of 10 letters: about 13 bytes each.
                    for chunk in hub.online_here().chunks(400) {
                        hub.publish_online(chunk, true);
                    }
                }
            });
        }
    }

    /// Sends a word to the other nodes, not awaited (a lost word only ages
    /// out); nothing once the node is halted ([`Hub::halt`]), which speaks
    /// for it no more than it writes.
    fn tell_nodes(&self, notice: String) {
        if !self.halted() {
            drop(self.store.write(crate::store::WriteOp::Notify(notice)));
        }
    }

    /// Asks the other nodes which seats of a game just opened here are
    /// connected to them.
    pub(crate) fn ask_presence(&self, id: &str) {
        if self.store.shared() {
            let notice = serde_json::to_string(&NodeNotice::WhoIsThere {
                node: self.node,
                game: id.to_string(),
            })
            .unwrap_or_default();
            self.tell_nodes(notice);
        }
    }

    /// Tells the other nodes which seats of these games are connected here.
    pub(crate) fn publish_presence(&self, slots: &[Arc<Slot>]) {
        if !self.store.shared() || slots.is_empty() {
            return;
        }
        let notice = serde_json::to_string(&NodeNotice::Presence {
            node: self.node,
            games: slots
                .iter()
                .map(|s| (s.id.clone(), s.connected_here()))
                .collect(),
            sent: self.now_ms(),
        })
        .unwrap_or_default();
        // Not awaited: a lost word only ages out.
        self.tell_nodes(notice);
    }

    /// Tells the other nodes that these accounts have (`on`) or no longer
    /// have a socket open here.
    pub(crate) fn publish_online(&self, accounts: &[String], on: bool) {
        if !self.store.shared() || accounts.is_empty() {
            return;
        }
        let notice = serde_json::to_string(&NodeNotice::Online {
            node: self.node,
            accounts: accounts.to_vec(),
            on,
            sent: self.now_ms(),
        })
        .unwrap_or_default();
        self.tell_nodes(notice);
    }

    /// Sends an event to an account's sockets on the other nodes.
    pub(crate) fn publish_account(&self, account: &str, event: &Utf8Bytes) {
        let notice = serde_json::to_string(&NodeNotice::Account {
            node: self.node,
            account: account.to_string(),
            event: event.as_str().to_string(),
            sent: self.now_ms(),
        })
        .unwrap_or_default();
        self.tell_nodes(notice);
    }

    /// The game's deadlines after a change: the running clock's, and the
    /// computer's reply if it is its turn.
    pub(crate) fn due(&self, live: &Live) -> Due {
        let now_ms = self.now_ms();
        let clock = live
            .clock()
            .and_then(|c| c.deadline())
            .map(|d| self.time().unix_ms_at(d).max(now_ms));
        // A browser playing the computer's moves has no deadline here.
        let engine = (live.computer_to_move() && !live.meta.browser_engine)
            .then(|| now_ms + (self.config.engine_move_cap + ENGINE_GRACE).as_millis() as i64);
        Due {
            clock,
            at: match (clock, engine) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }

    /// The notice that goes with a change of game `id` to `version`.
    pub(crate) fn game_notice(
        &self,
        id: &str,
        version: u64,
        announce: &[Announce],
        ply: Option<&StoredPly>,
        due: Due,
    ) -> String {
        serde_json::to_string(&NodeNotice::Game {
            node: self.node,
            game: id.to_string(),
            version,
            announce: announce.to_vec(),
            ply: ply.cloned(),
            due,
            sent: self.now_ms(),
        })
        .unwrap_or_default()
    }

    /// The notice that carries a chat event to the other nodes.
    pub(crate) fn chat_notice(&self, id: &str, spectators: bool, event: &Utf8Bytes) -> String {
        serde_json::to_string(&NodeNotice::Chat {
            node: self.node,
            game: id.to_string(),
            spectators,
            event: event.as_str().to_string(),
            sent: self.now_ms(),
        })
        .unwrap_or_default()
    }

    /// Whether a notice comes from another node (this node's own come back
    /// to it too); counts its lag if so.
    fn foreign(&self, node: u64, sent: i64) -> bool {
        if node == self.node {
            return false;
        }
        self.metrics.notice_lag(self.now_ms() - sent);
        true
    }

    /// Another node's notice: if this node holds the game, bring it up to
    /// date and tell its watchers here.
    fn on_notice(self: &Arc<Self>, text: &str) {
        let notice: NodeNotice = match serde_json::from_str(text) {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!("unreadable notice from another node: {e}");
                return;
            }
        };
        // When a word from another node was heard (the machine's time: it
        // ages out whatever the server's clock says).
        let heard = Instant::now();
        match notice {
            NodeNotice::Game {
                node,
                game,
                version,
                announce,
                ply,
                due,
                sent,
            } => {
                if !self.foreign(node, sent) {
                    return;
                }
                let Some(slot) = self.held(&game) else { return };
                let hub = self.clone();
                tokio::spawn(async move {
                    let mut live = slot.state.lock().await;
                    if live.version >= version {
                        return;
                    }
                    // The next version and a plain move: play it here.
                    if let Some(p) = ply.filter(|_| live.version + 1 == version) {
                        let saved = live.save();
                        match live.apply_stored_ply(&p, version, due) {
                            Ok(()) => {
                                live.stop_engine();
                                hub.after_change(&slot, &mut live, false);
                                let connected = slot.connected();
                                for a in &announce {
                                    if let Some(text) = live.announce(a, connected) {
                                        slot.send(text);
                                    }
                                }
                                return;
                            }
                            Err(e) => {
                                tracing::warn!(
                                    "game {}: notice's ply refused ({e}); reading the game",
                                    slot.id
                                );
                                live.restore(saved);
                            }
                        }
                    }
                    hub.reload(&slot, &mut live, Some((version, announce)))
                        .await;
                });
            }
            NodeNotice::Presence { node, games, sent } => {
                if !self.foreign(node, sent) {
                    return;
                }
                for (game, seats) in games {
                    let Some(slot) = self.held(&game) else {
                        continue;
                    };
                    let before = slot.connected();
                    slot.remote
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(node, (seats, heard));
                    if slot.connected() != before {
                        tokio::spawn(async move {
                            let live = slot.state.lock().await;
                            slot.send(live.presence_event(slot.connected()));
                        });
                    }
                }
            }
            NodeNotice::WhoIsThere { node, game } => {
                if node == self.node {
                    return;
                }
                if let Some(slot) = self.held(&game) {
                    if slot.connected_here().iter().any(|c| *c) {
                        self.publish_presence(&[slot]);
                    }
                }
            }
            NodeNotice::Account {
                node,
                account,
                event,
                sent,
            } => {
                if self.foreign(node, sent) {
                    self.deliver_here(&account, Utf8Bytes::from(event));
                }
            }
            NodeNotice::Online {
                node,
                accounts,
                on,
                sent,
            } => {
                if self.foreign(node, sent) {
                    self.remote_online(node, accounts, on, heard);
                }
            }
            NodeNotice::Chat {
                node,
                game,
                spectators,
                event,
                sent,
            } => {
                if !self.foreign(node, sent) {
                    return;
                }
                if let Some(slot) = self.held(&game) {
                    let event = Utf8Bytes::from(event);
                    if spectators {
                        let _ = slot.spectator_events.send(event);
                    } else {
                        slot.send(event);
                    }
                }
            }
        }
    }

    /// Reads the game again from the store; true if it had moved on. The
    /// watchers here then get `expect`'s announcements when the store is
    /// exactly one version on at its version, or else the new plies (when
    /// the change only added plies), or else the whole game.
    pub(crate) async fn reload(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        expect: Option<(u64, Vec<Announce>)>,
    ) -> bool {
        let id = slot.id.clone();
        let stored = match self.read(move |store| store.load(&id)).await {
            Ok(Some(s)) => s,
            Ok(None) => return false,
            Err(e) => {
                tracing::error!("game {}: cannot read it again: {e}", slot.id);
                return false;
            }
        };
        if stored.version <= live.version {
            return false;
        }
        let fresh = match Live::from_stored(stored, &self.config) {
            Ok(f) => f,
            Err(e) => {
                tracing::error!("game {}: stored game unreadable: {e}", slot.id);
                return false;
            }
        };
        let before = live.version;
        let old_plies = live.game.plies().len();
        let was_over = live.game.is_over();
        let extends = fresh.game.plies().starts_with(live.game.plies());
        let moved = fresh.game.plies() != live.game.plies() || fresh.game.is_over();
        live.replace(fresh);
        if moved {
            // The search under way, if any, was for a position gone now.
            live.stop_engine();
        }
        self.after_change(slot, live, false);
        let announce = match expect {
            Some((version, announce)) if live.version == version && before + 1 == version => {
                announce
            }
            _ if extends && live.game.plies().len() > old_plies => {
                let mut a: Vec<Announce> = (old_plies..live.game.plies().len())
                    .map(Announce::Ply)
                    .collect();
                if live.game.is_over() && !was_over {
                    a.push(Announce::End);
                }
                a
            }
            _ => vec![Announce::State],
        };
        let connected = slot.connected();
        for a in &announce {
            if let Some(text) = live.announce(a, connected) {
                slot.send(text);
            }
        }
        true
    }

    /// The game's lock, with this copy brought up to the stored version
    /// first when other nodes share the store: a command is then judged on
    /// the game as it is (one short query; a full read only if it moved
    /// on).
    pub(crate) async fn lock_fresh<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<Slot>,
    ) -> tokio::sync::MutexGuard<'a, Live> {
        let mut live = slot.state.lock().await;
        if self.store.shared() {
            let id = slot.id.clone();
            if let Ok(Some(v)) = self.read(move |store| store.version(&id)).await {
                if v > live.version {
                    self.reload(slot, &mut live, None).await;
                }
            }
        }
        live
    }

    /// Reads the game again in a moment, if no notice has brought it up to
    /// date by then.
    pub(crate) fn catch_up_later(self: &Arc<Self>, slot: &Arc<Slot>) {
        let hub = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            tokio::time::sleep(CATCH_UP_AFTER).await;
            let mut live = slot.state.lock().await;
            hub.reload(&slot, &mut live, None).await;
        });
    }

    /// Claims the overdue games and acts on them.
    async fn sweep_due(self: &Arc<Self>) {
        let now = self.now_ms() - GRACE_MS;
        let lease = crate::store::Lease {
            now: self.time().lease_ms(),
            ms: CLAIM_MS,
        };
        let ids = match self
            .read(move |store| store.claim_due(now, lease, 100))
            .await
        {
            Ok(ids) => ids,
            Err(_) => return,
        };
        for id in ids {
            let hub = self.clone();
            tokio::spawn(async move {
                let Ok(slot) = hub.slot(&id).await else {
                    return;
                };
                let mut live = slot.state.lock().await;
                hub.metrics.taken_over();
                // Read it again first: a node holding it may have acted.
                hub.reload(&slot, &mut live, None).await;
                hub.expire_if_due(&slot, &mut live).await;
                if live.computer_to_move() && !live.thinking() {
                    hub.start_engine(&slot, &mut live);
                }
            });
        }
    }
}
