//! The live games: each game's state in memory behind its own lock, every
//! change stored before it is announced, clocks, and the engine's turns.
//! All rules are calls into `oware-core`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use oware_core::{Game, GameError, Move, Outcome, Ply, Position, Record, Side};
use oware_engine::{Level, Limits};
use rand::Rng;
use serde::Serialize;
use tokio::sync::{broadcast, Mutex};

use crate::engines::EnginePool;
use crate::error::ApiError;
use crate::model::*;
use crate::store::{Listing, Store, StoredGame, StoredPly, WriteOp};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Searches that may run at once.
    pub engine_threads: usize,
    /// Searches that may wait for a thread before requests get `busy`.
    pub engine_queue: usize,
    /// Hash table per engine, MiB.
    pub engine_hash_mb: usize,
    /// Longest time the engine thinks for one move in a computer game.
    pub engine_move_cap: Duration,
    /// Longest time one engine request (analysis, hint) may search,
    /// whatever depth it asked for.
    pub engine_request_cap: Duration,
    /// Longest time the review of one game may take in all.
    pub review_cap: Duration,
    /// Connections open at once (HTTP and WebSocket); fewer if the
    /// process's file-descriptor limit cannot be raised that far.
    pub max_connections: usize,
    /// A connection that sends nothing for this long is closed.
    pub idle_timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Config {
            engine_threads: cores.max(1),
            engine_queue: 64,
            engine_hash_mb: 16,
            engine_move_cap: Duration::from_secs(3),
            engine_request_cap: Duration::from_secs(10),
            review_cap: Duration::from_secs(30),
            max_connections: 20_000,
            idle_timeout: Duration::from_secs(180),
        }
    }
}

/// A running clock: time left for each side, and since when the side to
/// move's time has been running.
#[derive(Clone, Copy, Debug)]
pub struct ClockState {
    remaining: [u64; 2],
    running: Option<(Side, Instant)>,
}

impl ClockState {
    fn view(&self, now: Instant) -> ClockView {
        let mut r = self.remaining;
        if let Some((side, since)) = self.running {
            let spent = now.saturating_duration_since(since).as_millis() as u64;
            r[side.index()] = r[side.index()].saturating_sub(spent);
        }
        ClockView {
            south_ms: r[0],
            north_ms: r[1],
            running: self.running.map(|(s, _)| s),
        }
    }
}

/// One game in memory.
pub struct Live {
    /// Persisted metadata.
    pub meta: GameMeta,
    /// The game, as the rules core keeps it.
    pub game: Game,
    clock: Option<ClockState>,
    clock_at: Vec<Option<[u64; 2]>>,
    timer_gen: u64,
    engine_gen: u64,
    thinking: bool,
}

/// A game slot: the state behind its lock, and the channel its events go out on.
pub struct Slot {
    /// Game id.
    pub id: String,
    /// The state.
    pub state: Mutex<Live>,
    /// Serialized events for every connection watching the game.
    pub events: broadcast::Sender<Utf8Bytes>,
    connected: [AtomicU32; 2],
}

/// The games and everything they need.
pub struct Hub {
    store: Arc<dyn Store>,
    engines: Arc<EnginePool>,
    games: StdMutex<HashMap<String, Arc<Slot>>>,
    reviews: StdMutex<ReviewCache>,
    config: Config,
}

/// What a new game asks for (`POST /api/v1/games`).
#[derive(Clone, Debug, Default)]
pub struct NewGame {
    /// Mode.
    pub mode: Option<Mode>,
    /// Level 1..=10.
    pub level: Option<u8>,
    /// `Some(side)` or `None` for drawing lots.
    pub side: Option<Side>,
    /// Display name.
    pub name: Option<String>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Start position.
    pub position: Option<Position>,
    /// Listed in the lobby.
    pub public: bool,
}

/// A seat given to a client.
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// Game id.
    pub id: String,
    /// Seat tokens held, by side.
    pub tokens: HashMap<Side, String>,
    /// The caller's side (South in hot-seat games).
    pub you: Side,
    /// Invite link (online games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
    /// Spectator link.
    pub spectator_url: String,
    /// The game.
    pub game: GameView,
}

/// An event sent to every connection of a game (docs/PROTOCOL.md).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event<'a> {
    /// The whole game.
    State {
        /// Plies played.
        ply: u32,
        /// The game.
        game: &'a GameView,
        /// The receiver's seat (connect-time state only).
        #[serde(skip_serializing_if = "Option::is_none")]
        you: Option<Option<Side>>,
    },
    /// A ply.
    Move {
        /// Plies played after it.
        ply: u32,
        /// Who played it.
        side: Side,
        /// The move letter or `-`.
        #[serde(rename = "move")]
        mv: String,
        /// What it did.
        trace: Option<TraceView>,
        /// Position after it.
        position: Position,
        /// Side to move after it.
        to_move: Side,
        /// Legal moves after it.
        legal: Vec<Move>,
        /// Stores after it.
        score: Totals,
        /// Clock after it.
        clock: Option<ClockView>,
    },
    /// The clock.
    Clock {
        /// Plies played.
        ply: u32,
        /// The clock.
        clock: ClockView,
    },
    /// An agreement offer or its refusal.
    Offer {
        /// Plies played.
        ply: u32,
        /// Who offered or declined.
        side: Side,
        /// `offer` or `decline`.
        action: &'static str,
    },
    /// The game ended.
    End {
        /// Plies played.
        ply: u32,
        /// How.
        result: ResultView,
    },
    /// Seats changed (taken, connected).
    Presence {
        /// Plies played.
        ply: u32,
        /// Status after the change.
        status: &'static str,
        /// The seats.
        seats: SeatsView,
    },
    /// The engine started or stopped thinking.
    Thinking {
        /// Plies played.
        ply: u32,
        /// The engine's side.
        side: Side,
        /// Thinking or not.
        thinking: bool,
    },
    /// A rematch was created.
    Rematch {
        /// Plies played.
        ply: u32,
        /// The new game.
        id: String,
    },
    /// Answer to ping.
    Pong {
        /// Plies played.
        ply: u32,
    },
    /// A refused client message.
    Error {
        /// Plies played.
        ply: u32,
        /// Error code.
        code: &'static str,
        /// Message.
        message: String,
        /// Rule id.
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<&'static str>,
    },
}

impl Event<'_> {
    /// As a WebSocket text payload.
    pub fn to_text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).expect("events serialize"))
    }
}

fn random_string(len: usize, alphabet: &[u8]) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| alphabet[rng.random_range(0..alphabet.len())] as char)
        .collect()
}

fn new_id() -> String {
    random_string(10, b"abcdefghijkmnopqrstuvwxyz23456789")
}

fn new_token() -> String {
    random_string(32, b"0123456789abcdef")
}

fn check_name(name: Option<String>, default: &str) -> Result<String, ApiError> {
    let name = name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| default.to_string());
    if name.chars().count() > 40 || name.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Err(ApiError::invalid_request(
            "name: at most 40 characters, no control, direction or invisible characters",
        ));
    }
    Ok(name)
}

/// Characters that change how the text around them is shown without being
/// seen themselves: direction overrides and isolates (which can make a
/// name read backwards), zero-width and other invisible format characters.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

fn parse_ply(text: &str) -> Option<Ply> {
    if text == "-" || text == "--" {
        Some(Ply::Pass)
    } else {
        text.parse().ok().map(Ply::Move)
    }
}

fn store_err(e: impl std::fmt::Display) -> ApiError {
    tracing::error!("storage: {e}");
    ApiError::internal("the game could not be stored; nothing was changed")
}

impl Live {
    fn from_stored(stored: StoredGame) -> Result<Live, String> {
        let StoredGame { mut meta, plies } = stored;
        let mut game = Game::new(meta.start);
        let mut clock_at = Vec::with_capacity(plies.len());
        for (i, p) in plies.iter().enumerate() {
            let ply =
                parse_ply(&p.text).ok_or_else(|| format!("ply {i}: {:?} is not a move", p.text))?;
            match ply {
                Ply::Move(mv) => game.play(mv).map(|_| ()),
                Ply::Pass => game.pass(),
            }
            .map_err(|e| format!("ply {i}: {e}"))?;
            clock_at.push(p.clock);
        }
        if let Some(o) = meta.result {
            if game.outcome() != Some(&o) && !game.is_over() {
                game.set_outcome(o).map_err(|e| e.to_string())?;
            }
        }
        meta.result = game.outcome().copied();
        meta.ply = game.plies().len() as u32;
        meta.score = stores(game.position());
        if let Some(last) = plies.last() {
            meta.updated_at = meta.updated_at.max(last.at);
        }
        let clock = meta.time_control.map(|tc| {
            let remaining = match tc {
                TimeControl::PerMove { per_move_ms } => [per_move_ms; 2],
                TimeControl::Clock { initial_ms, .. } => clock_at
                    .last()
                    .copied()
                    .flatten()
                    .unwrap_or([initial_ms; 2]),
            };
            ClockState {
                remaining,
                running: None,
            }
        });
        Ok(Live {
            meta,
            game,
            clock,
            clock_at,
            timer_gen: 0,
            engine_gen: 0,
            thinking: false,
        })
    }

    fn ply(&self) -> u32 {
        self.game.plies().len() as u32
    }

    fn to_move(&self) -> Side {
        self.game.position().to_move()
    }

    fn computer_to_move(&self) -> bool {
        !self.game.is_over() && self.meta.seats[self.to_move().index()].kind == SeatKind::Computer
    }

    /// The clock runs while both seats are taken and the game is on.
    fn clock_should_run(&self) -> bool {
        self.clock.is_some() && !self.game.is_over() && self.meta.status() == "playing"
    }

    /// The view sent to clients, with the slot's connection flags.
    pub fn view_for(&self, slot: &Slot) -> GameView {
        self.view(slot.connected())
    }

    fn view(&self, connected: [bool; 2]) -> GameView {
        let game = &self.game;
        let pos = game.position();
        let n = game.plies().len();
        GameView {
            id: self.meta.id.clone(),
            mode: self.meta.mode,
            level: self.meta.level,
            status: self.meta.status().to_string(),
            public: self.meta.public,
            created_at: rfc3339(self.meta.created_at),
            updated_at: rfc3339(self.meta.updated_at),
            seats: seats_view(&self.meta.seats, connected),
            start: *game.start(),
            plies: game.plies().iter().map(|&p| ply_text(p)).collect(),
            ply: n as u32,
            position: *pos,
            to_move: pos.to_move(),
            legal: game.legal_moves().into_iter().collect(),
            score: Totals::from(stores(pos)),
            last: n.checked_sub(1).and_then(|i| trace_of(game, i)),
            result: game.outcome().map(ResultView::from),
            time_control: self.meta.time_control,
            clock: self.clock.map(|c| c.view(Instant::now())),
            offer: self.meta.offer,
            thinking: self.thinking,
            rematch: self.meta.rematch.clone(),
        }
    }

    fn sync_meta(&mut self) {
        self.meta.ply = self.ply();
        self.meta.score = stores(self.game.position());
        self.meta.result = self.game.outcome().copied();
        self.meta.updated_at = now_ms();
    }

    /// The seat a token holds; `missing_token` / `bad_token` otherwise.
    fn seat(&self, token: Option<&str>) -> Result<Side, ApiError> {
        let token = token
            .filter(|t| !t.is_empty())
            .ok_or_else(|| ApiError::missing_token("this action needs a seat token"))?;
        self.meta
            .side_of(token)
            .ok_or_else(|| ApiError::bad_token("this token holds no seat of this game"))
    }

    /// Events that bring a client that has seen `since` plies up to date.
    pub fn catch_up(&self, since: u32, connected: [bool; 2]) -> Vec<Utf8Bytes> {
        let n = self.ply();
        if since > n {
            let view = self.view(connected);
            return vec![Event::State {
                ply: n,
                game: &view,
                you: None,
            }
            .to_text()];
        }
        let mut out = Vec::new();
        for i in since as usize..n as usize {
            out.push(self.move_event(i, None).to_text());
        }
        if let Some(c) = self.clock {
            out.push(
                Event::Clock {
                    ply: n,
                    clock: c.view(Instant::now()),
                }
                .to_text(),
            );
        }
        if let Some(o) = self.game.outcome() {
            out.push(
                Event::End {
                    ply: n,
                    result: ResultView::from(o),
                }
                .to_text(),
            );
        }
        out
    }

    fn move_event(&self, i: usize, clock: Option<ClockView>) -> Event<'static> {
        let before = &self.game.positions()[i];
        let after = &self.game.positions()[i + 1];
        let legal = if i + 1 == self.game.plies().len() {
            self.game.legal_moves().into_iter().collect()
        } else {
            after.legal_moves().into_iter().collect()
        };
        Event::Move {
            ply: i as u32 + 1,
            side: before.to_move(),
            mv: ply_text(self.game.plies()[i]),
            trace: trace_of(&self.game, i),
            position: *after,
            to_move: after.to_move(),
            legal,
            score: Totals::from(stores(after)),
            clock,
        }
    }
}

impl Slot {
    fn new(live: Live) -> Arc<Slot> {
        let (events, _) = broadcast::channel(64);
        Arc::new(Slot {
            id: live.meta.id.clone(),
            state: Mutex::new(live),
            events,
            connected: Default::default(),
        })
    }

    /// Which seats have a connection open.
    pub fn connected(&self) -> [bool; 2] {
        [
            self.connected[0].load(Ordering::Relaxed) > 0,
            self.connected[1].load(Ordering::Relaxed) > 0,
        ]
    }

    fn send(&self, text: Utf8Bytes) {
        // No receiver is fine: nobody is watching.
        let _ = self.events.send(text);
    }
}

impl Hub {
    /// A hub over `store`. Must be called inside a Tokio runtime: it starts
    /// the task that drops idle games from memory every 30 s.
    pub fn new(store: Arc<dyn Store>, config: Config) -> Arc<Hub> {
        let engines = Arc::new(EnginePool::new(
            config.engine_threads,
            config.engine_queue,
            config.engine_hash_mb,
        ));
        let hub = Arc::new(Hub {
            store,
            engines,
            games: StdMutex::new(HashMap::new()),
            reviews: StdMutex::new(ReviewCache::default()),
            config,
        });
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

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The engine pool.
    pub fn engines(&self) -> &Arc<EnginePool> {
        &self.engines
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
        let store = self.store.clone();
        let key = id.to_string();
        let stored = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(store_err)?
            .map_err(store_err)?
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let live = Live::from_stored(stored).map_err(|e| store_err(format!("game {id}: {e}")))?;
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
            let mut live = slot.state.lock().await;
            self.after_change(&slot, &mut live, true);
        }
        Ok(slot)
    }

    fn insert(&self, live: Live) -> Arc<Slot> {
        let slot = Slot::new(live);
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(slot.id.clone(), slot.clone());
        slot
    }

    async fn write(&self, op: WriteOp) -> Result<(), ApiError> {
        match self.store.write(op).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(store_err(e)),
            Err(_) => Err(store_err("the writer dropped the request")),
        }
    }

    /// Creates a game.
    pub async fn create(self: &Arc<Self>, req: NewGame) -> Result<Seated, ApiError> {
        let mode = req.mode.ok_or_else(|| {
            ApiError::invalid_request("mode: expected computer, hotseat or online")
        })?;
        let level = match (mode, req.level) {
            (Mode::Computer, None) => Some(3),
            (Mode::Computer, Some(l)) if (1..=10).contains(&l) => Some(l),
            (Mode::Computer, Some(l)) => {
                return Err(ApiError::invalid_request(format!(
                    "level: {l} is not in 1..10"
                )))
            }
            (_, _) => None,
        };
        if let Some(tc) = req.time_control {
            if mode == Mode::Computer {
                return Err(ApiError::invalid_request(
                    "time_control: only online and hot-seat games have one",
                ));
            }
            let ok = |ms: u64| (1_000..=86_400_000).contains(&ms);
            let valid = match tc {
                TimeControl::PerMove { per_move_ms } => ok(per_move_ms),
                TimeControl::Clock {
                    initial_ms,
                    increment_ms,
                } => ok(initial_ms) && increment_ms <= 3_600_000,
            };
            if !valid {
                return Err(ApiError::invalid_request(
                    "time_control: times must be between 1 s and 24 h",
                ));
            }
        }
        if req.public && mode != Mode::Online {
            return Err(ApiError::invalid_request(
                "public: only online games are listed in the lobby",
            ));
        }
        let side = req.side.unwrap_or_else(|| {
            if rand::rng().random_bool(0.5) {
                Side::South
            } else {
                Side::North
            }
        });
        let name = check_name(req.name, "Player")?;
        let start = req.position.unwrap_or_else(Position::start);
        let human = |name: String| Seat {
            kind: SeatKind::Human,
            name,
            token: Some(new_token()),
        };
        let seats: [Seat; 2] = match mode {
            Mode::Hotseat => [human("South".into()), human("North".into())],
            Mode::Computer | Mode::Online => {
                let other = if mode == Mode::Computer {
                    Seat {
                        kind: SeatKind::Computer,
                        name: format!("Computer (level {})", level.unwrap_or(3)),
                        token: None,
                    }
                } else {
                    Seat {
                        kind: SeatKind::Human,
                        name: "Open seat".into(),
                        token: None,
                    }
                };
                let mine = human(name);
                if side == Side::South {
                    [mine, other]
                } else {
                    [other, mine]
                }
            }
        };
        let now = now_ms();
        let meta = GameMeta {
            id: new_id(),
            mode,
            level,
            public: req.public,
            created_at: now,
            updated_at: now,
            start,
            seats,
            invite: new_token(),
            time_control: req.time_control,
            result: None,
            offer: None,
            rematch: None,
            ply: 0,
            score: stores(&start),
        };
        let you = if mode == Mode::Hotseat {
            Side::South
        } else {
            side
        };
        self.create_from(meta, Vec::new(), you).await
    }

    async fn create_from(
        self: &Arc<Self>,
        meta: GameMeta,
        plies: Vec<StoredPly>,
        you: Side,
    ) -> Result<Seated, ApiError> {
        let mut live = Live::from_stored(StoredGame {
            meta,
            plies: plies.clone(),
        })
        .map_err(|e| ApiError::invalid_request(format!("the game cannot be played: {e}")))?;
        live.sync_meta();
        self.write(WriteOp::Create {
            meta: live.meta.clone(),
            plies,
        })
        .await?;
        let tokens: HashMap<Side, String> = Side::ALL
            .into_iter()
            .filter(|s| live.meta.mode == Mode::Hotseat || *s == you)
            .filter_map(|s| live.meta.seats[s.index()].token.clone().map(|t| (s, t)))
            .collect();
        let id = live.meta.id.clone();
        let invite_url = (live.meta.mode == Mode::Online)
            .then(|| format!("/game/{id}?invite={}", live.meta.invite));
        let slot = self.insert(live);
        let mut live = slot.state.lock().await;
        self.after_change(&slot, &mut live, true);
        let game = live.view(slot.connected());
        Ok(Seated {
            id: id.clone(),
            tokens,
            you,
            invite_url,
            spectator_url: format!("/game/{id}"),
            game,
        })
    }

    /// The game's view.
    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.state.lock().await;
        Ok(live.view(slot.connected()))
    }

    /// Lists games.
    pub async fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<Summary>, u64), ApiError> {
        let store = self.store.clone();
        let (games, total) = tokio::task::spawn_blocking(move || store.list(which, limit, offset))
            .await
            .map_err(store_err)?
            .map_err(store_err)?;
        let mut out = Vec::with_capacity(games.len());
        for g in games {
            let id = g.meta.id.clone();
            match Live::from_stored(g) {
                Ok(live) => out.push(live.meta.summary()),
                Err(e) => tracing::error!("game {id} cannot be replayed: {e}"),
            }
        }
        Ok((out, total))
    }

    /// Takes the free seat of an online game.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        invite: Option<&str>,
        name: Option<String>,
    ) -> Result<Seated, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        if live.meta.mode != Mode::Online {
            return Err(ApiError::not_allowed("only online games can be joined"));
        }
        if !live.meta.public && invite != Some(live.meta.invite.as_str()) {
            return Err(ApiError::bad_token(
                "this game needs its invite code to join",
            ));
        }
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        let side = Side::ALL
            .into_iter()
            .find(|s| live.meta.seats[s.index()].token.is_none())
            .ok_or_else(|| ApiError::seat_taken("both seats are taken"))?;
        let name = check_name(name, "Guest")?;
        let token = new_token();
        let before = live.meta.clone();
        live.meta.seats[side.index()] = Seat {
            kind: SeatKind::Human,
            name,
            token: Some(token.clone()),
        };
        live.meta.updated_at = now_ms();
        if let Err(e) = self.write(WriteOp::Meta(live.meta.clone())).await {
            live.meta = before;
            return Err(e);
        }
        self.after_change(&slot, &mut live, true);
        let ply = live.ply();
        slot.send(
            Event::Presence {
                ply,
                status: live.meta.status(),
                seats: seats_view(&live.meta.seats, slot.connected()),
            }
            .to_text(),
        );
        let game = live.view(slot.connected());
        Ok(Seated {
            id: id.to_string(),
            tokens: HashMap::from([(side, token)]),
            you: side,
            invite_url: None,
            spectator_url: format!("/game/{id}"),
            game,
        })
    }

    /// Plays a move for the seat `token` holds; `ply` must be the number of
    /// plies already played. Resolves once the move is stored.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        mv: &str,
        ply: Option<u32>,
    ) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        self.play_locked(&slot, &mut live, token, mv, ply).await?;
        Ok(live.view(slot.connected()))
    }

    /// [`play`](Self::play) with the lock held (the WebSocket path).
    pub async fn play_locked(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        mv: &str,
        ply: Option<u32>,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        let mv: Move = mv
            .parse()
            .map_err(|e| ApiError::invalid_move(format!("move {mv:?}: {e}")))?;
        let ply = ply.ok_or_else(|| {
            ApiError::invalid_request("ply: the number of plies already played is required")
        })?;
        self.expire_if_due(slot, live).await;
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        if ply != live.ply() {
            return Err(ApiError::stale_ply(format!(
                "ply {ply} given, but {} plies have been played",
                live.ply()
            )));
        }
        if live.meta.status() == "waiting" {
            return Err(ApiError::not_allowed(
                "the game has not started: a seat is still free",
            ));
        }
        if side != live.to_move() {
            return Err(ApiError::not_your_turn(format!(
                "it is {}'s turn",
                live.to_move()
            )));
        }
        if mv.side() != side {
            return Err(ApiError::illegal(mv, oware_core::IllegalMove::NotYourHouse));
        }
        self.apply(slot, live, Ply::Move(mv)).await
    }

    /// Applies a ply: plays it with the rules, stores it, then announces it.
    /// On a storage failure the game is put back as it was.
    async fn apply(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        ply: Ply,
    ) -> Result<(), ApiError> {
        let side = live.to_move();
        let now = Instant::now();
        match ply {
            Ply::Move(mv) => live.game.play(mv).map(|_| ())?,
            Ply::Pass => live.game.pass()?,
        }
        let before_clock = live.clock;
        let before_meta = live.meta.clone();
        if let (Some(clock), Some(tc)) = (live.clock.as_mut(), live.meta.time_control) {
            match tc {
                TimeControl::PerMove { per_move_ms } => clock.remaining = [per_move_ms; 2],
                TimeControl::Clock { increment_ms, .. } => {
                    if let Some((s, since)) = clock.running {
                        let spent = now.saturating_duration_since(since).as_millis() as u64;
                        clock.remaining[s.index()] =
                            clock.remaining[s.index()].saturating_sub(spent);
                    }
                    if ply != Ply::Pass {
                        clock.remaining[side.index()] += increment_ms;
                    }
                }
            }
            clock.running = None;
        }
        live.meta.offer = None;
        live.sync_meta();
        let index = live.ply() - 1;
        let clock_after = live
            .clock
            .map(|c| c.remaining)
            .filter(|_| matches!(live.meta.time_control, Some(TimeControl::Clock { .. })));
        // The games row changes only when the status or an offer does; a
        // plain ply is one small row (the listings replay the plies).
        let meta_changed = before_meta.offer.is_some() || live.game.is_over();
        let op = WriteOp::Ply {
            id: live.meta.id.clone(),
            meta: meta_changed.then(|| live.meta.clone()),
            index,
            ply: StoredPly {
                text: ply_text(ply),
                clock: clock_after,
                at: live.meta.updated_at,
            },
        };
        if let Err(e) = self.write(op).await {
            let _ = live.game.undo();
            live.clock = before_clock;
            live.meta = before_meta;
            return Err(e);
        }
        live.clock_at.push(clock_after);
        // A new ply makes any running search pointless.
        live.engine_gen += 1;
        live.thinking = false;
        self.after_change(slot, live, false);
        let clock = live.clock.map(|c| c.view(Instant::now()));
        slot.send(live.move_event(index as usize, clock).to_text());
        if let Some(o) = live.game.outcome() {
            slot.send(
                Event::End {
                    ply: live.ply(),
                    result: ResultView::from(o),
                }
                .to_text(),
            );
        }
        Ok(())
    }

    /// After any change: start or stop the clock, arm its timer, and start
    /// the engine if it is the computer's turn.
    fn after_change(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live, announce_clock: bool) {
        live.timer_gen += 1;
        if live.clock_should_run() {
            let side = live.to_move();
            let now = Instant::now();
            let clock = live.clock.as_mut().expect("clock_should_run checks it");
            if clock.running.map(|(s, _)| s) != Some(side) {
                clock.running = Some((side, now));
            }
            let (s, since) = clock.running.expect("just set");
            let deadline = since + Duration::from_millis(clock.remaining[s.index()]);
            let gen = live.timer_gen;
            let hub = self.clone();
            let slot2 = slot.clone();
            tokio::spawn(async move {
                tokio::time::sleep_until(deadline.into()).await;
                let mut live = slot2.state.lock().await;
                if live.timer_gen == gen {
                    hub.expire_if_due(&slot2, &mut live).await;
                }
            });
            let view = clock.view(now);
            if announce_clock {
                slot.send(
                    Event::Clock {
                        ply: live.ply(),
                        clock: view,
                    }
                    .to_text(),
                );
            }
        } else if let Some(c) = live.clock.as_mut() {
            if c.running.is_some() {
                // Stopped (game over): charge the time spent.
                let (s, since) = c.running.take().expect("checked");
                let spent = since.elapsed().as_millis() as u64;
                if matches!(live.meta.time_control, Some(TimeControl::Clock { .. })) {
                    c.remaining[s.index()] = c.remaining[s.index()].saturating_sub(spent);
                }
            }
        }
        if live.computer_to_move() && !live.thinking {
            self.start_engine(slot, live);
        }
    }

    /// The side to move's time is up: a lost turn (per-move limit, R13) or
    /// a lost game (clock).
    async fn expire_if_due(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live) {
        let (Some(clock), Some(tc)) = (live.clock, live.meta.time_control) else {
            return;
        };
        let Some((side, since)) = clock.running else {
            return;
        };
        if live.game.is_over()
            || since.elapsed() < Duration::from_millis(clock.remaining[side.index()])
        {
            return;
        }
        match tc {
            TimeControl::PerMove { .. } => {
                if let Err(e) = self.apply(slot, live, Ply::Pass).await {
                    tracing::error!("game {}: lost turn not stored: {e}", slot.id);
                }
            }
            TimeControl::Clock { .. } => {
                let before = live.meta.clone();
                let before_clock = live.clock;
                let _ = live.game.lose_on_time(side);
                if let Some(c) = live.clock.as_mut() {
                    c.remaining[side.index()] = 0;
                    c.running = None;
                }
                live.sync_meta();
                if let Err(e) = self.write(WriteOp::Meta(live.meta.clone())).await {
                    tracing::error!("game {}: time loss not stored: {e}", slot.id);
                    live.game.reopen();
                    live.meta = before;
                    live.clock = before_clock;
                    return;
                }
                self.after_change(slot, live, false);
                self.announce_end(slot, live);
            }
        }
    }

    fn announce_end(&self, slot: &Slot, live: &Live) {
        if let Some(o) = live.game.outcome() {
            if let Some(c) = live.clock {
                slot.send(
                    Event::Clock {
                        ply: live.ply(),
                        clock: c.view(Instant::now()),
                    }
                    .to_text(),
                );
            }
            slot.send(
                Event::End {
                    ply: live.ply(),
                    result: ResultView::from(o),
                }
                .to_text(),
            );
        }
    }

    fn start_engine(self: &Arc<Self>, slot: &Arc<Slot>, live: &mut Live) {
        live.thinking = true;
        live.engine_gen += 1;
        let gen = live.engine_gen;
        let side = live.to_move();
        let game = live.game.clone();
        let level = Level::new(live.meta.level.unwrap_or(3));
        let cap = self.config.engine_move_cap;
        let seed = live.meta.created_at as u64 ^ live.ply() as u64;
        slot.send(
            Event::Thinking {
                ply: live.ply(),
                side,
                thinking: true,
            }
            .to_text(),
        );
        let hub = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let result = hub
                .engines
                .run(
                    false,
                    cap + Duration::from_millis(500),
                    move |engine, stop| {
                        let mut limits = Limits::level(level);
                        if limits.movetime.is_none() {
                            limits.movetime = Some(cap);
                        }
                        limits.seed = seed;
                        engine.search_with(&game, &limits, stop, &mut |_| {}).best
                    },
                )
                .await;
            let mut live = slot.state.lock().await;
            if live.engine_gen != gen {
                return;
            }
            live.thinking = false;
            match result {
                Ok(Some(mv)) => {
                    if let Err(e) = hub.apply(&slot, &mut live, Ply::Move(mv)).await {
                        tracing::error!("game {}: engine move {mv} not applied: {e}", slot.id);
                        slot.send(
                            Event::Thinking {
                                ply: live.ply(),
                                side,
                                thinking: false,
                            }
                            .to_text(),
                        );
                    }
                }
                Ok(None) => slot.send(
                    Event::Thinking {
                        ply: live.ply(),
                        side,
                        thinking: false,
                    }
                    .to_text(),
                ),
                Err(e) => {
                    tracing::error!("game {}: engine failed: {e}", slot.id);
                    slot.send(
                        Event::Thinking {
                            ply: live.ply(),
                            side,
                            thinking: false,
                        }
                        .to_text(),
                    );
                }
            }
        });
    }

    /// Takes back moves: in computer games the player's last move and the
    /// engine's answer; in hot-seat games one ply.
    pub async fn undo(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        let side = live.seat(token)?;
        match live.meta.mode {
            Mode::Online => {
                return Err(ApiError::not_allowed(
                    "moves cannot be taken back in online games",
                ))
            }
            _ if live.meta.time_control.is_some() => {
                return Err(ApiError::not_allowed(
                    "moves cannot be taken back in games with a time control",
                ))
            }
            _ => {}
        }
        let mut game = live.game.clone();
        let mut undone_human = false;
        loop {
            let before = game.clone();
            let Ok(_) = game.undo() else {
                if !undone_human {
                    return Err(ApiError::not_allowed(
                        "there is no move of yours to take back",
                    ));
                }
                game = before;
                break;
            };
            let mover = game.position().to_move();
            if live.meta.mode == Mode::Hotseat {
                undone_human = true;
                break;
            }
            if mover == side {
                undone_human = true;
                break;
            }
        }
        if !undone_human {
            return Err(ApiError::not_allowed(
                "there is no move of yours to take back",
            ));
        }
        let from = game.plies().len() as u32;
        let before = (live.game.clone(), live.meta.clone(), live.clock_at.clone());
        live.game = game;
        live.clock_at.truncate(from as usize);
        live.meta.offer = None;
        live.sync_meta();
        if let Err(e) = self
            .write(WriteOp::Truncate {
                meta: live.meta.clone(),
                from,
            })
            .await
        {
            (live.game, live.meta, live.clock_at) = before;
            return Err(e);
        }
        live.engine_gen += 1;
        live.thinking = false;
        self.after_change(&slot, &mut live, false);
        let view = live.view(slot.connected());
        slot.send(
            Event::State {
                ply: view.ply,
                game: &view,
                you: None,
            }
            .to_text(),
        );
        Ok(view)
    }

    /// The seat `token` holds resigns.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        self.resign_locked(&slot, &mut live, token).await?;
        Ok(live.view(slot.connected()))
    }

    /// [`resign`](Self::resign) with the lock held.
    pub async fn resign_locked(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        self.end_off_board(slot, live, |g| g.resign(side)).await
    }

    async fn end_off_board(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>,
    ) -> Result<(), ApiError> {
        self.expire_if_due(slot, live).await;
        let before = live.meta.clone();
        end(&mut live.game)?;
        live.meta.offer = None;
        live.sync_meta();
        if let Err(e) = self.write(WriteOp::Meta(live.meta.clone())).await {
            live.game.reopen();
            live.meta = before;
            return Err(e);
        }
        live.engine_gen += 1;
        live.thinking = false;
        self.after_change(slot, live, false);
        self.announce_end(slot, live);
        Ok(())
    }

    /// Offers, accepts or declines an end by agreement (R12).
    pub async fn agreement(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: &str,
    ) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        self.agreement_locked(&slot, &mut live, token, action)
            .await?;
        Ok(live.view(slot.connected()))
    }

    /// [`agreement`](Self::agreement) with the lock held.
    pub async fn agreement_locked(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        action: &str,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        let opponent_offered = live.meta.offer == Some(side.opponent());
        match action {
            "accept" if opponent_offered => {
                self.end_off_board(slot, live, |g| g.agree_to_stop()).await
            }
            "offer" if opponent_offered => {
                self.end_off_board(slot, live, |g| g.agree_to_stop()).await
            }
            "accept" | "decline" if !opponent_offered => Err(ApiError::not_allowed(
                "there is no offer from the opponent to answer",
            )),
            "decline" => {
                live.meta.offer = None;
                live.meta.updated_at = now_ms();
                self.write(WriteOp::Meta(live.meta.clone())).await?;
                slot.send(
                    Event::Offer {
                        ply: live.ply(),
                        side,
                        action: "decline",
                    }
                    .to_text(),
                );
                Ok(())
            }
            "offer" => {
                if live.meta.offer == Some(side) {
                    return Ok(());
                }
                if live.meta.mode == Mode::Computer {
                    return self.computer_answers_offer(slot, live, side).await;
                }
                live.meta.offer = Some(side);
                live.meta.updated_at = now_ms();
                if let Err(e) = self.write(WriteOp::Meta(live.meta.clone())).await {
                    live.meta.offer = None;
                    return Err(e);
                }
                slot.send(
                    Event::Offer {
                        ply: live.ply(),
                        side,
                        action: "offer",
                    }
                    .to_text(),
                );
                Ok(())
            }
            other => Err(ApiError::invalid_request(format!(
                "action: {other:?} is not offer, accept or decline"
            ))),
        }
    }

    // The engine accepts an offer when it judges the position no better than a draw for itself.
    async fn computer_answers_offer(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        side: Side,
    ) -> Result<(), ApiError> {
        slot.send(
            Event::Offer {
                ply: live.ply(),
                side,
                action: "offer",
            }
            .to_text(),
        );
        let game = live.game.clone();
        let result = self
            .engines
            .run(true, self.config.engine_request_cap, move |e, stop| {
                e.search_with(
                    &game,
                    &Limits::movetime(Duration::from_millis(300)),
                    stop,
                    &mut |_| {},
                )
            })
            .await?;
        let for_computer = if live.to_move() == side {
            -result.score.raw()
        } else {
            result.score.raw()
        };
        if for_computer <= 0 {
            self.end_off_board(slot, live, |g| g.agree_to_stop()).await
        } else {
            slot.send(
                Event::Offer {
                    ply: live.ply(),
                    side: side.opponent(),
                    action: "decline",
                }
                .to_text(),
            );
            Ok(())
        }
    }

    /// The engine's suggestion for the side to move.
    pub async fn hint(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        movetime_ms: Option<u64>,
    ) -> Result<serde_json::Value, ApiError> {
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
        let ms = movetime_ms.unwrap_or(500);
        if !(10..=5000).contains(&ms) {
            return Err(ApiError::invalid_request("movetime_ms: expected 10..5000"));
        }
        let r = self
            .engines
            .run(true, self.config.engine_request_cap, move |e, stop| {
                e.search_with(
                    &game,
                    &Limits::movetime(Duration::from_millis(ms)),
                    stop,
                    &mut |_| {},
                )
            })
            .await?;
        Ok(serde_json::json!({
            "move": r.best,
            "score": ScoreView::from(r.score),
            "pv": oware_core::format_moves(&r.pv),
            "depth": r.depth,
        }))
    }

    /// A new game with the sides swapped; the first call creates it, the
    /// opponent's call returns their seat in it.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<Seated, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.state.lock().await;
        let side = live.seat(token)?;
        let new_side = side.opponent();
        if let Some(rid) = live.meta.rematch.clone() {
            drop(live);
            let rslot = self.slot(&rid).await?;
            let rlive = rslot.state.lock().await;
            let tokens: HashMap<Side, String> = Side::ALL
                .into_iter()
                .filter(|s| rlive.meta.mode == Mode::Hotseat || *s == new_side)
                .filter_map(|s| rlive.meta.seats[s.index()].token.clone().map(|t| (s, t)))
                .collect();
            let game = rlive.view(rslot.connected());
            return Ok(Seated {
                id: rid.clone(),
                tokens,
                you: new_side,
                invite_url: None,
                spectator_url: format!("/game/{rid}"),
                game,
            });
        }
        let old = &live.meta;
        let now = now_ms();
        let mut seats = [old.seats[1].clone(), old.seats[0].clone()];
        for s in &mut seats {
            if s.kind == SeatKind::Human {
                s.token = Some(new_token());
            }
        }
        let meta = GameMeta {
            id: new_id(),
            mode: old.mode,
            level: old.level,
            public: false,
            created_at: now,
            updated_at: now,
            start: Position::start(),
            seats,
            invite: new_token(),
            time_control: old.time_control,
            result: None,
            offer: None,
            rematch: None,
            ply: 0,
            score: [0, 0],
        };
        let rid = meta.id.clone();
        let you = if meta.mode == Mode::Hotseat {
            Side::South
        } else {
            new_side
        };
        let seated = self.create_from(meta, Vec::new(), you).await?;
        live.meta.rematch = Some(rid.clone());
        live.meta.updated_at = now_ms();
        self.write(WriteOp::Meta(live.meta.clone())).await?;
        slot.send(
            Event::Rematch {
                ply: live.ply(),
                id: rid,
            }
            .to_text(),
        );
        Ok(seated)
    }

    /// The game as an OGN record.
    pub async fn ogn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.state.lock().await;
        let date = ogn_date(live.meta.created_at);
        let tags = [
            (
                "Event",
                format!("oware serve, {} game", live.meta.mode.as_str()),
            ),
            ("Site", "oware serve".to_string()),
            ("Date", date),
            ("South", live.meta.seats[0].name.clone()),
            ("North", live.meta.seats[1].name.clone()),
        ];
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Ok(Record::from_game(live.game.clone(), &tags).write())
    }

    /// Imports an OGN record as a hot-seat game.
    pub async fn import(self: &Arc<Self>, text: &str) -> Result<Seated, ApiError> {
        let record =
            Record::parse(text).map_err(|e| ApiError::invalid_request(format!("OGN: {e}")))?;
        let name = |tag: &str, default: &str| {
            record
                .tag(tag)
                .filter(|n| n != "?" && !n.trim().is_empty())
                .map(|n| n.chars().filter(|c| !c.is_control()).take(40).collect())
                .unwrap_or_else(|| default.to_string())
        };
        let now = now_ms();
        let seats = [
            Seat {
                kind: SeatKind::Human,
                name: name("South", "South"),
                token: Some(new_token()),
            },
            Seat {
                kind: SeatKind::Human,
                name: name("North", "North"),
                token: Some(new_token()),
            },
        ];
        let meta = GameMeta {
            id: new_id(),
            mode: Mode::Hotseat,
            level: None,
            public: false,
            created_at: now,
            updated_at: now,
            start: *record.game().start(),
            seats,
            invite: new_token(),
            time_control: None,
            result: record.game().outcome().copied(),
            offer: None,
            rematch: None,
            ply: 0,
            score: [0, 0],
        };
        let plies = record
            .game()
            .plies()
            .iter()
            .map(|&p| StoredPly {
                text: ply_text(p),
                clock: None,
                at: now,
            })
            .collect();
        self.create_from(meta, plies, Side::South).await
    }

    /// The engine's evaluation of every move played. One review per game
    /// and length is computed at a time and kept (the first request's
    /// `movetime_ms` decides it); the whole review is held within
    /// `review_cap`, and stops if every client that wanted it has left.
    pub async fn review(
        self: &Arc<Self>,
        id: &str,
        movetime_ms: u64,
    ) -> Result<Arc<serde_json::Value>, ApiError> {
        if !(10..=2000).contains(&movetime_ms) {
            return Err(ApiError::invalid_request("movetime_ms: expected 10..2000"));
        }
        let slot = self.slot(id).await?;
        let game = slot.state.lock().await.game.clone();
        let plies = game.plies().len() as u32;
        let cell = self
            .reviews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(id, plies);
        let cap = self.config.review_cap;
        // Each move's share of the cap, so the review ends within it.
        let per_ply = movetime_ms.min(cap.as_millis() as u64 / u64::from(plies.max(1)));
        let id2 = id.to_string();
        let value = cell
            .get_or_try_init(|| async move {
                let value = self
                    .engines
                    .run(true, cap, move |engine, stop| {
                        review_game(engine, stop, &id2, &game, per_ply.max(5))
                    })
                    .await?
                    // Stopped part-way: nothing is kept, a later request
                    // starts again.
                    .ok_or_else(|| {
                        ApiError::busy("the review did not finish in time; try again shortly")
                    })?;
                Ok::<_, ApiError>(Arc::new(value))
            })
            .await?;
        Ok(value.clone())
    }

    /// Values of every legal move of a position.
    pub async fn analyze(
        self: &Arc<Self>,
        game: Game,
        limits: Limits,
    ) -> Result<Vec<oware_engine::MoveAnalysis>, ApiError> {
        self.engines
            .run(true, self.config.engine_request_cap, move |engine, stop| {
                engine.analyze_with(&game, &limits, stop, &mut |_| {})
            })
            .await
    }

    /// Opens a watcher of game `id`: the seat (if the token holds one), the
    /// connect-time state and the event receiver. Counts the connection.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<
        (
            Arc<Slot>,
            Option<Side>,
            Utf8Bytes,
            broadcast::Receiver<Utf8Bytes>,
        ),
        ApiError,
    > {
        let slot = self.slot(id).await?;
        let live = slot.state.lock().await;
        let side = match token.filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => Some(
                live.meta
                    .side_of(t)
                    .ok_or_else(|| ApiError::bad_token("this token holds no seat of this game"))?,
            ),
        };
        let rx = slot.events.subscribe();
        if let Some(s) = side {
            if slot.connected[s.index()].fetch_add(1, Ordering::Relaxed) == 0 {
                slot.send(
                    Event::Presence {
                        ply: live.ply(),
                        status: live.meta.status(),
                        seats: seats_view(&live.meta.seats, slot.connected()),
                    }
                    .to_text(),
                );
            }
        }
        let view = live.view(slot.connected());
        let state = Event::State {
            ply: view.ply,
            game: &view,
            you: Some(side),
        }
        .to_text();
        Ok((slot.clone(), side, state, rx))
    }

    /// A watcher left.
    pub async fn unwatch(&self, slot: &Arc<Slot>, side: Option<Side>) {
        if let Some(s) = side {
            if slot.connected[s.index()].fetch_sub(1, Ordering::Relaxed) == 1 {
                let live = slot.state.lock().await;
                slot.send(
                    Event::Presence {
                        ply: live.ply(),
                        status: live.meta.status(),
                        seats: seats_view(&live.meta.seats, slot.connected()),
                    }
                    .to_text(),
                );
            }
        }
    }
}

/// A review, computed once by the first request that needs it.
type ReviewCell = Arc<tokio::sync::OnceCell<Arc<serde_json::Value>>>;

/// Reviews kept: one per game (for its current length), the oldest
/// forgotten first.
#[derive(Default)]
struct ReviewCache {
    games: HashMap<String, (u32, ReviewCell)>,
    order: std::collections::VecDeque<String>,
}

impl ReviewCache {
    const MAX_GAMES: usize = 256;

    /// The cell of game `id`'s review at `plies` plies (a new one when the
    /// game has grown since).
    fn entry(&mut self, id: &str, plies: u32) -> ReviewCell {
        if let Some((n, cell)) = self.games.get(id) {
            if *n == plies {
                return cell.clone();
            }
        } else {
            self.order.push_back(id.to_string());
            while self.order.len() > Self::MAX_GAMES {
                if let Some(old) = self.order.pop_front() {
                    self.games.remove(&old);
                }
            }
        }
        let cell = Arc::new(tokio::sync::OnceCell::new());
        self.games.insert(id.to_string(), (plies, cell.clone()));
        cell
    }
}

fn review_game(
    engine: &mut oware_engine::Engine,
    stop: &oware_engine::StopHandle,
    id: &str,
    game: &Game,
    movetime_ms: u64,
) -> Option<serde_json::Value> {
    let mut g = Game::new(*game.start());
    let mut plies = Vec::new();
    for (i, &ply) in game.plies().iter().enumerate() {
        let side = g.position().to_move();
        let entry = match ply {
            Ply::Pass => {
                let _ = g.pass();
                serde_json::json!({"ply": i + 1, "side": side, "move": "-"})
            }
            Ply::Move(mv) => {
                // `analyze_with` values every legal move within the time.
                let limits = Limits::movetime(Duration::from_millis(movetime_ms));
                let analysis = engine.analyze_with(&g, &limits, stop, &mut |_| {});
                let best = analysis.first();
                let played = analysis.iter().find(|a| a.mv == mv);
                let _ = g.play(mv);
                match (best, played) {
                    (Some(best), Some(played)) => {
                        let loss = (best.score.centiseeds() - played.score.centiseeds()).max(0);
                        let south = if side == Side::South {
                            played.score.centiseeds()
                        } else {
                            -played.score.centiseeds()
                        };
                        serde_json::json!({
                            "ply": i + 1, "side": side, "move": mv, "best": best.mv,
                            "score": ScoreView::from(played.score), "best_score": ScoreView::from(best.score),
                            "loss_cp": loss, "pv": oware_core::format_moves(&best.pv), "eval_south_cp": south,
                        })
                    }
                    _ => serde_json::json!({"ply": i + 1, "side": side, "move": mv}),
                }
            }
        };
        plies.push(entry);
        if stop.is_stopped() {
            return None;
        }
    }
    Some(serde_json::json!({"id": id, "plies": plies}))
}
