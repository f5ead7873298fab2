//! The live games. Each game is a [`Slot`]: its state ([`Live`]) behind its
//! own lock and the channel its events go out on. The [`Hub`] is the
//! registry of slots, loading games from the store on first use and
//! dropping idle ones.
//!
//! Every stored change goes through one path, [`Hub::commit`]: the change is
//! made in memory, stored, and only then announced; if storing fails, the
//! game is put back as it was and nothing is announced. After each change
//! the clock is started or stopped, the game's one timer re-armed, and the
//! engine started if it is the computer's turn.
//!
//! - `live.rs`: one game's state and the views and events built from it;
//! - `clock.rs`: the clock as a pure value;
//! - `commands.rs`: what players do (create, join, play, undo, resign,
//!   agree, rematch, import, watch);
//! - `engine.rs`: the computer's turns and its answer to offers;
//! - `analysis.rs`: hints, reviews and analyses.
//!
//! All rules are calls into `oware-core`.

pub mod accounts;
mod analysis;
mod challenges;
pub mod chat;
pub mod clock;
mod commands;
pub mod community;
mod engine;
mod live;
mod mail;
mod new_game;
mod nodes;
mod notifications;
pub mod offline;
pub mod operator;
pub mod puzzles;
mod seeks;
mod tournaments;

use std::collections::HashMap;
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use oware_core::Side;
use tokio::sync::{broadcast, Mutex};

pub use crate::protocol::incoming::NewGame;
pub use challenges::{CHALLENGE_MS, OPEN_CHALLENGES};
pub use commands::{Command, Watcher};
pub use live::{current_games, Live};
pub use mail::{MAX_ATTEMPTS, RESET_HOURS, VERIFY_HOURS};
pub use notifications::{AccountLink, READ_IDS};

use crate::config::Config;
use crate::engines::EnginePool;
use crate::error::ApiError;
use crate::model::OfferAction;
use crate::store::account_rows::AccountOp;
use crate::store::{Store, StoreError, WriteOp};
use oware_engine::book::Book;
use oware_tablebase::background::Loading;

/// A game slot: the state behind its lock, and the channel its events go out on.
pub struct Slot {
    /// Game id.
    pub id: String,
    /// The state: only the hub locks it (`tests/architecture.rs`).
    state: Mutex<Live>,
    /// Serialized events for every connection watching the game.
    pub events: broadcast::Sender<Utf8Bytes>,
    /// The spectators' chat, for spectators' connections only.
    pub spectator_events: broadcast::Sender<Utf8Bytes>,
    connected: [AtomicU32; 2],
    /// Whether this node told a seat of a live game "your turn" (it was
    /// away): its next move, or its return, reads it.
    told: [std::sync::atomic::AtomicBool; 2],
    /// How many times each seat's last connection closed: a "your turn"
    /// waiting out the grace goes only if the seat has not left again
    /// since (then the newer leave's counts).
    leaves: [AtomicU32; 2],
    /// The seats connected on other nodes sharing the store, by node, and
    /// when that node last said so.
    remote: StdMutex<HashMap<u64, ([bool; 2], Instant)>>,
}

impl Slot {
    fn new(live: Live) -> Arc<Slot> {
        let (events, _) = broadcast::channel(64);
        let (spectator_events, _) = broadcast::channel(16);
        Arc::new(Slot {
            id: live.meta.id.clone(),
            state: Mutex::new(live),
            events,
            spectator_events,
            connected: Default::default(),
            told: Default::default(),
            leaves: Default::default(),
            remote: Default::default(),
        })
    }

    /// Which seats have a connection open, on this node or (as last told,
    /// within [`nodes::PRESENCE_TTL`]) on another.
    pub fn connected(&self) -> [bool; 2] {
        let mut seats = self.connected_here();
        let remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        for (other, at) in remote.values() {
            if at.elapsed() < nodes::PRESENCE_TTL {
                seats[0] |= other[0];
                seats[1] |= other[1];
            }
        }
        seats
    }

    /// Which seats have a connection open on this node.
    pub(crate) fn connected_here(&self) -> [bool; 2] {
        use std::sync::atomic::Ordering;
        [
            self.connected[0].load(Ordering::Relaxed) > 0,
            self.connected[1].load(Ordering::Relaxed) > 0,
        ]
    }

    /// Plies played.
    pub async fn ply(&self) -> u32 {
        self.state.lock().await.ply()
    }

    /// The seat `token` holds (`missing_token`, `bad_token` otherwise).
    pub async fn seat_of(&self, token: Option<&str>) -> Result<Side, ApiError> {
        self.state.lock().await.seat(token)
    }

    /// The whole game as a `state` event.
    pub async fn state_event(&self) -> Utf8Bytes {
        self.state.lock().await.state_event(self.connected(), None)
    }

    /// Events that bring a client that has seen `since` plies up to date.
    pub async fn catch_up(&self, since: u32) -> Vec<Utf8Bytes> {
        self.state.lock().await.catch_up(since, self.connected())
    }

    fn send(&self, text: Utf8Bytes) {
        // No receiver is fine: nobody is watching.
        let _ = self.events.send(text);
    }
}

/// What a committed change tells the game's watchers, in order. Sent to
/// the other nodes too, which build the same events from their own copy.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Announce {
    /// The ply at this 0-based index (with the clock after it).
    Ply(usize),
    /// The clock, if the game has one.
    Clock,
    /// The result.
    End,
    /// The whole game (after a take-back).
    State,
    /// An offer made or declined.
    Offer(Side, OfferAction),
    /// A take-back request made or declined.
    Takeback(Side, OfferAction),
    /// Seats taken or connected.
    Presence,
    /// A rematch was created.
    Rematch(String),
}

/// A change made in memory, ready to be stored and announced.
pub(crate) struct Commit {
    /// What to store.
    pub op: WriteOp,
    /// What to announce once stored.
    pub announce: Vec<Announce>,
    /// The position changed (a ply, a take-back, an end): a search under
    /// way for the old one is pointless.
    pub new_position: bool,
}

impl Commit {
    /// The game has just ended other than by a move (resignation,
    /// agreement, time): its metadata is stored and the end announced with
    /// the stopped clock. (An end by a move is a ply's commit; a rated
    /// game's rating is added to either by [`Hub::commit`].)
    pub(crate) fn ended(live: &mut Live) -> Commit {
        live.meta.offer = None;
        live.sync_meta();
        Commit {
            op: WriteOp::Meta(live.meta.clone()),
            announce: vec![Announce::Clock, Announce::End],
            new_position: true,
        }
    }
}

/// The games and everything they need.
pub struct Hub {
    store: Arc<dyn Store>,
    engines: Arc<EnginePool>,
    games: StdMutex<HashMap<String, Arc<Slot>>>,
    reviews: StdMutex<analysis::ReviewCache>,
    seeks: seeks::Seeks,
    presence: tournaments::Presence,
    reminded: tournaments::Reminded,
    online: notifications::Online,
    outbox: mail::Outbox,
    config: Config,
    /// This process's id among the nodes sharing the store.
    node: u64,
    metrics: crate::metrics::Metrics,
    stopping: tokio::sync::watch::Sender<bool>,
    /// Set by [`Hub::halt`]: nothing more is written.
    halted: std::sync::atomic::AtomicBool,
    /// Bulk reads ([`Hub::read_bulk`]) running at once.
    bulk_reads: tokio::sync::Semaphore,
}

/// Bulk reads (an export's pages) that may run at once: fewer than the
/// store's read connections, so the other reads always find one free.
pub const BULK_READS: usize = 2;

/// Starts or stops the clock as the game's state wants, at `now`.
fn run_clock(live: &mut Live, now: Instant) {
    let run = live.clock_should_run();
    let to_move = live.to_move();
    if let Some(clock) = live.clock_mut() {
        if run {
            clock.start(to_move, now);
        } else {
            clock.stop(now);
        }
    }
}

/// Opens or builds the endgame tables in the background, logging progress
/// (a line per seed count, not per step).
fn start_tablebases(setup: crate::config::Tablebases) -> Loading {
    use oware_tablebase::background::Event;
    tracing::info!(
        "endgame tables up to {} seeds: opening or building in the background{}",
        setup.max_seeds,
        setup
            .dir
            .as_ref()
            .map(|d| format!(" in {}", d.display()))
            .unwrap_or_default()
    );
    oware_tablebase::background::load_or_build(setup.dir, setup.max_seeds, |e| match e {
        Event::Opened { max_seeds } => tracing::info!("endgame tables opened: {max_seeds} seeds"),
        Event::Level { seeds, status } => {
            tracing::info!("endgame tables: {seeds} seeds {status:?}")
        }
        Event::FallingBack { reason } => {
            tracing::warn!("endgame tables built in memory instead: {reason}")
        }
        Event::Ready { max_seeds, elapsed } => tracing::info!(
            "endgame tables ready: up to {max_seeds} seeds after {:.1} s",
            elapsed.as_secs_f64()
        ),
        Event::Failed { reason } => tracing::error!("endgame tables failed: {reason}"),
        Event::Building { .. } => {}
    })
}

/// A database failure, logged here and answered in words that name no
/// table, query or file: no raw database error reaches a client
/// (`tests/server/commit.rs`).
fn store_err(e: impl std::fmt::Display) -> ApiError {
    tracing::error!("storage: {}", crate::model::printable(&e.to_string()));
    ApiError::not_stored()
}

impl Hub {
    /// The server's one clock (`config.time`).
    pub fn time(&self) -> &crate::time::Time {
        &self.config.time
    }

    /// Now on the server's clock, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        self.config.time.unix_ms()
    }

    /// A hub over `store`. Must be called inside a Tokio runtime: it starts
    /// the task that drops idle games from memory every 30 s.
    pub fn new(store: Arc<dyn Store>, config: Config) -> Arc<Hub> {
        let tables = config.tablebases.clone().map(start_tablebases);
        let engines = Arc::new(EnginePool::new(
            config.engine_threads,
            config.engine_study_threads,
            config.engine_queue,
            config.engine_hash_mb,
            config.book.then(Book::builtin),
            tables,
        ));
        let hub = Arc::new(Hub {
            store,
            engines,
            games: StdMutex::new(HashMap::new()),
            reviews: StdMutex::new(analysis::ReviewCache::default()),
            seeks: seeks::Seeks::default(),
            presence: tournaments::Presence::default(),
            reminded: tournaments::Reminded::default(),
            online: notifications::Online::default(),
            outbox: mail::Outbox::new(&config),
            config,
            node: rand::random(),
            metrics: crate::metrics::Metrics::default(),
            stopping: tokio::sync::watch::channel(false).0,
            halted: std::sync::atomic::AtomicBool::new(false),
            bulk_reads: tokio::sync::Semaphore::new(BULK_READS),
        });
        hub.start_node_tasks();
        hub.start_seek_task();
        hub.tournaments().start_director();
        hub.start_mail_task();
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(30)).await;
                match weak.upgrade() {
                    Some(hub) => {
                        hub.sweep();
                    }
                    None => break,
                }
            }
        });
        hub
    }

    /// Drops from memory every game nobody holds: no connection, request,
    /// timer or engine search has a reference to it, so its whole state is
    /// the stored one and it is loaded again on next use. Returns how many.
    pub fn sweep(&self) -> usize {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let before = games.len();
        // Every reference to a slot is cloned from this map under this lock,
        // so a count of one cannot grow while we hold it.
        games.retain(|_, slot| Arc::strong_count(slot) > 1);
        before - games.len()
    }

    /// Stores a change that is not a game's (an account, a follow, a
    /// block, a report, a puzzle attempt) in the store's next group
    /// commit. A uniqueness conflict (a name already taken) answers
    /// `conflict()`; any other failure is logged and answered without the
    /// database's own words.
    async fn write_change(
        &self,
        op: WriteOp,
        conflict: impl FnOnce() -> ApiError,
    ) -> Result<(), ApiError> {
        match self.write_raw(op).await {
            Ok(()) => Ok(()),
            Err(e) if e.is_conflict() => Err(conflict()),
            Err(e) => Err(store_err(e)),
        }
    }

    /// What the store has written so far (for `/healthz`).
    pub fn write_stats(&self) -> crate::store::WriteStats {
        self.store.stats()
    }

    /// The engine pool.
    pub fn engines(&self) -> &Arc<EnginePool> {
        &self.engines
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Starts a graceful stop: `/readyz` answers 503 and every game
    /// WebSocket is closed with "service restart" (1012), so that clients
    /// reconnect to another node.
    pub fn stop_gracefully(&self) {
        self.metrics.drain();
        self.stopping.send_replace(true);
    }

    /// Stops the node as if its process had died: a graceful stop, and from
    /// now on every write is refused ([`StoreError::Closed`]), so a game
    /// timer, an engine or a tournament task still running in this process
    /// cannot write over what another node (or the next server on the same
    /// database) stores. For tests that restart a server in one process.
    pub fn halt(&self) {
        self.halted.store(true, std::sync::atomic::Ordering::SeqCst);
        self.stop_gracefully();
    }

    /// Whether [`Hub::halt`] was called.
    pub(crate) fn halted(&self) -> bool {
        self.halted.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Changes to `true` when the node is being stopped.
    pub(crate) fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// The counters behind `/metrics`.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// Games held in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// A game, loaded from the store on first use (its clock and engine
    /// resume then).
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.games.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(s.clone());
        }
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!("no game {id:?}")));
        }
        let key = id.to_string();
        let stored = self
            .read(move |store| store.load(&key))
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let live = Live::from_stored(stored, &self.config)
            .map_err(|e| store_err(format!("game {id}: {e}")))?;
        self.seeks.note(&live);
        let (slot, fresh) = {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            match games.get(id) {
                Some(s) => (s.clone(), false),
                None => {
                    let s = Slot::new(live);
                    games.insert(id.to_string(), s.clone());
                    (s, true)
                }
            }
        };
        if fresh {
            self.ask_presence(id);
            let mut live = slot.state.lock().await;
            // With several nodes, the computer's move is left to the node
            // that made it the computer's turn, unless that is overdue.
            let owner = !self.store.shared() || live.due.at.is_some_and(|at| at <= self.now_ms());
            self.after_change(&slot, &mut live, owner);
        }
        Ok(slot)
    }

    /// The game if this node holds it in memory (never loads it).
    pub(crate) fn held(&self, id: &str) -> Option<Arc<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Every game held in memory.
    pub(crate) fn held_all(&self) -> Vec<Arc<Slot>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    fn insert(&self, live: Live) -> Arc<Slot> {
        self.seeks.note(&live);
        let slot = Slot::new(live);
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(slot.id.clone(), slot.clone());
        slot
    }

    /// Whether the store answers (`/readyz`).
    pub async fn ping(&self) -> Result<(), ApiError> {
        self.read(|store| store.ping()).await
    }

    /// A read from the store, off the async threads; a failure is logged
    /// and answered `internal`. Only the hub's layer reads the store: the
    /// routes call its services (`accounts`, `community`, `puzzles`...).
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(store_err)?
            .map_err(store_err)
    }

    /// [`Hub::read`] for a read of many rows on behalf of one client (a
    /// page of an export): at most [`BULK_READS`] run at once, whoever asks,
    /// so they never take every read connection of the store.
    async fn read_bulk<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let _turn = self
            .bulk_reads
            .acquire()
            .await
            .map_err(|_| ApiError::busy("the server is stopping"))?;
        self.read(f).await
    }

    async fn write(&self, op: WriteOp) -> Result<(), ApiError> {
        self.write_raw(op).await.map_err(store_err)
    }

    async fn write_raw(&self, op: WriteOp) -> Result<(), StoreError> {
        if self.halted() {
            return Err(StoreError::Closed);
        }
        let started = Instant::now();
        let result = match self.store.write(op).await {
            Ok(r) => r,
            Err(_) => Err(StoreError::Closed),
        };
        self.metrics.commit_latency(started.elapsed());
        result
    }

    /// The one way a game changes. `change` edits the game in memory and
    /// says what to store and announce; the change is stored, and only then
    /// announced. If `change` refuses or storing fails, the game is put back
    /// exactly as it was and nothing is sent.
    ///
    /// With several nodes, commands start from the stored version
    /// ([`Hub::fresh`]); if another node stores a change in between, the
    /// store refuses this one (`stale_ply`) and the winner's notice brings
    /// this copy up to date.
    pub(crate) async fn commit(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        change: impl FnOnce(&mut Live) -> Result<Commit, ApiError>,
    ) -> Result<(), ApiError> {
        let saved = live.save();
        let mut commit = match change(live) {
            Ok(c) => c,
            Err(e) => {
                live.restore(saved);
                return Err(e);
            }
        };
        // A rated game that has just ended is rated in the same transaction.
        // So is a tournament game's result (`tournaments.rs`).
        if !saved.was_over() {
            let mut extra = tournaments::end_ops(live);
            if let Some(rate) = live.rated_result() {
                extra.push(WriteOp::Account(AccountOp::Rate(rate)));
            }
            if !extra.is_empty() {
                let op = std::mem::replace(&mut commit.op, WriteOp::All(Vec::new()));
                extra.insert(0, op);
                commit.op = WriteOp::All(extra);
            }
        }
        // The clock starts or stops now, so that its deadline is stored
        // with the change.
        run_clock(live, self.time().now());
        let due = self.due(live);
        let shared = self.store.shared();
        let mut ops = Vec::with_capacity(3);
        // With other nodes, every change is checked against the stored
        // version. Alone on its store, the node writes the deadlines only
        // when they change (an untimed move between people leaves them).
        if shared || due != live.due {
            ops.push(WriteOp::Version {
                id: live.meta.id.clone(),
                expected: shared.then_some(live.version),
                due,
            });
        }
        ops.push(commit.op);
        if shared {
            // A plain move travels with its notice (see `nodes.rs`).
            let ply = match &ops[1] {
                WriteOp::Ply {
                    meta: None, ply, ..
                } => Some(ply),
                _ => None,
            };
            let notice =
                self.game_notice(&live.meta.id, live.version + 1, &commit.announce, ply, due);
            ops.push(WriteOp::Notify(notice));
        }
        if let Err(e) = self.write_raw(WriteOp::All(ops)).await {
            live.restore(saved);
            if e.is_stale() {
                self.catch_up_later(slot);
                return Err(ApiError::stale_ply(
                    "the game changed meanwhile on another server; wait for its move",
                ));
            }
            return Err(store_err(e));
        }
        live.version += 1;
        live.due = due;
        if commit.new_position {
            live.stop_engine();
        }
        if commit
            .announce
            .iter()
            .any(|a| matches!(a, Announce::Ply(_)))
        {
            self.metrics.moved();
            self.after_ply(slot, live);
        }
        self.after_change(slot, live, true);
        for a in commit.announce {
            if let Some(text) = live.announce(&a, slot.connected()) {
                slot.send(text);
            }
        }
        Ok(())
    }

    /// After any change: start or stop the clock, re-arm the game's timer,
    /// and, if `owner`, start the engine if it is the computer's turn.
    fn after_change(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live, owner: bool) {
        run_clock(live, self.time().now());
        self.arm_timer(slot, live);
        if owner && live.computer_to_move() && !live.thinking() && !live.meta.browser_engine {
            self.start_engine(slot, live);
        }
    }

    /// The game's one timer: at the running side's deadline, the turn or
    /// the game is lost. Re-arming cancels the previous one.
    fn arm_timer(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live) {
        let deadline = live.clock().and_then(|c| c.deadline());
        let hub = self.clone();
        let slot2 = slot.clone();
        live.set_timer(deadline.map(|deadline| {
            move |gen| {
                tokio::spawn(async move {
                    hub.time().sleep_until(deadline).await;
                    let mut live = slot2.state.lock().await;
                    if live.timer_fired(gen) {
                        hub.expire_if_due(&slot2, &mut live).await;
                    }
                })
                .abort_handle()
            }
        }));
    }

    /// The side to move's time is up: a lost turn (per-move limit, R13) or
    /// a lost game (clock).
    pub(crate) async fn expire_if_due(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live) {
        let Some(side) = live.clock().and_then(|c| c.expired(self.time().now())) else {
            return;
        };
        if live.game.is_over() {
            return;
        }
        let result = if live.per_move_limit() {
            self.commit_ply(slot, live, oware_core::Ply::Pass).await
        } else {
            self.commit(slot, live, |live| {
                live.game.lose_on_time(side)?;
                if let Some(c) = live.clock_mut() {
                    c.flag(side);
                }
                Ok(Commit::ended(live))
            })
            .await
        };
        if let Err(e) = result {
            tracing::error!("game {}: lost time not stored: {e}", slot.id);
        }
    }
}
