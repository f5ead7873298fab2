//! One game in memory: what is stored (metadata, the game, the clock),
//! what is not (its timer, its engine search), and the views and events
//! built from it.

use axum::extract::ws::Utf8Bytes;
use oware_core::{Game, Ply, Side};
use tokio::task::AbortHandle;

use super::clock::Clock;
use super::Announce;
use crate::config::Config;
use crate::error::ApiError;
use crate::model::*;
use crate::protocol::views::*;
use crate::protocol::ClientOut;
use crate::store::{Due, StoredGame, StoredPly};
use crate::time::Time;

/// Why a stored game cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A stored ply is not a move letter or `-`.
    #[error("ply {index}: {text:?} is not a move")]
    BadPly {
        /// 0-based index.
        index: usize,
        /// Its text.
        text: String,
    },
    /// A stored ply breaks a rule.
    #[error("ply {index}: {error}")]
    Rules {
        /// 0-based index.
        index: usize,
        /// What the core said.
        error: oware_core::GameError,
    },
}

/// One game in memory.
pub struct Live {
    /// Persisted metadata.
    pub meta: GameMeta,
    /// The game, as the rules core keeps it.
    pub game: Game,
    clock: Option<Clock>,
    /// The time left after each ply (chess clocks), as stored.
    clock_at: Vec<Option<[u64; 2]>>,
    timer: Option<AbortHandle>,
    timer_gen: u64,
    engine: Option<AbortHandle>,
    engine_gen: u64,
    /// Changes stored so far: the version the next change is made from.
    pub(crate) version: u64,
    /// The deadlines as last stored.
    pub(crate) due: Due,
    /// The server's clock.
    time: Time,
}

/// What [`Live::restore`] puts back: everything that is stored.
pub(crate) struct Saved {
    meta: GameMeta,
    game: Game,
    clock: Option<Clock>,
    clock_at: Vec<Option<[u64; 2]>>,
    version: u64,
    due: Due,
}

impl Saved {
    /// The game had ended.
    pub(crate) fn was_over(&self) -> bool {
        self.meta.result.is_some()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.stop_engine();
        if let Some(t) = self.timer.take() {
            t.abort();
        }
    }
}

/// Replays a stored game's plies through the rules and brings its row up
/// to date with them: a plain move stores only its ply, so the row keeps
/// the ply, score, result and last change of its last other change.
fn replay_all(meta: &mut GameMeta, plies: &[StoredPly]) -> Result<Game, LoadError> {
    let mut game = Game::new(meta.start);
    for p in plies {
        replay(&mut game, p)?;
    }
    if let Some(o) = meta.result {
        if game.outcome() != Some(&o) && !game.is_over() {
            game.set_outcome(o).map_err(|error| LoadError::Rules {
                index: plies.len(),
                error,
            })?;
        }
    }
    meta.result = game.outcome().copied();
    meta.ply = game.plies().len() as u32;
    meta.score = stores(game.position());
    if let Some(last) = plies.last() {
        meta.updated_at = meta.updated_at.max(last.at);
    }
    Ok(game)
}

/// Stored games as lists show them: each row brought up to date with its
/// plies (its ply, side to move, score, result and last change), never the
/// row as a plain move left it. A game that cannot be replayed is logged
/// and left out, as [`super::Hub::list`] does.
pub fn current_games(games: Vec<StoredGame>) -> Vec<StoredGame> {
    games
        .into_iter()
        .filter_map(|mut g| match replay_all(&mut g.meta, &g.plies) {
            Ok(_) => Some(g),
            Err(e) => {
                tracing::error!("game {} cannot be replayed: {e}", g.meta.id);
                None
            }
        })
        .collect()
}

/// Plays one stored ply.
fn replay(game: &mut Game, p: &StoredPly) -> Result<(), LoadError> {
    let index = game.plies().len();
    let ply = parse_ply(&p.text).ok_or_else(|| LoadError::BadPly {
        index,
        text: p.text.clone(),
    })?;
    match ply {
        Ply::Move(mv) => game.play(mv).map(|_| ()),
        Ply::Pass => game.pass(),
    }
    .map_err(|error| LoadError::Rules { index, error })
}

/// The clock as stored: the time left after the last ply, running toward
/// its stored deadline when the game is on (so the time that passed while
/// no node held the game counts).
fn stored_clock(
    meta: &GameMeta,
    game: &Game,
    clock_at: &[Option<[u64; 2]>],
    due: Due,
    time: &Time,
) -> Option<Clock> {
    let mut clock = meta
        .time_control
        .map(|tc| Clock::new(tc, clock_at.last().copied().flatten()));
    if let (Some(c), Some(deadline)) = (clock.as_mut(), due.clock) {
        if !game.is_over() && meta.status() == GameStatus::Playing {
            c.resume(game.position().to_move(), time.instant_at(deadline));
        }
    }
    clock
}

impl Live {
    /// A stored game replayed through the rules, on the server's clock
    /// (`config.time`).
    pub fn from_stored(stored: StoredGame, config: &Config) -> Result<Live, LoadError> {
        let time = config.time.clone();
        let StoredGame {
            mut meta,
            plies,
            version,
            due,
        } = stored;
        let game = replay_all(&mut meta, &plies)?;
        let clock_at: Vec<_> = plies.iter().map(|p| p.clock).collect();
        let clock = stored_clock(&meta, &game, &clock_at, due, &time);
        Ok(Live {
            meta,
            game,
            clock,
            clock_at,
            timer: None,
            timer_gen: 0,
            engine: None,
            engine_gen: 0,
            version,
            due,
            time,
        })
    }

    /// Plays a ply another node stored (a plain move: nothing else of the
    /// game changed), as [`Live::from_stored`] would read it back, and
    /// takes the version and deadlines stored with it.
    pub(crate) fn apply_stored_ply(
        &mut self,
        p: &StoredPly,
        version: u64,
        due: Due,
    ) -> Result<(), LoadError> {
        replay(&mut self.game, p)?;
        self.clock_at.push(p.clock);
        self.meta.result = self.game.outcome().copied();
        self.meta.ply = self.ply();
        self.meta.score = stores(self.game.position());
        self.meta.updated_at = self.meta.updated_at.max(p.at);
        self.clock = stored_clock(&self.meta, &self.game, &self.clock_at, due, &self.time);
        self.version = version;
        self.due = due;
        Ok(())
    }

    /// Takes the stored state (game, clock, version) of `fresh`, a newer
    /// copy read from the store; the timer and the engine search stay.
    pub(crate) fn replace(&mut self, mut fresh: Live) {
        std::mem::swap(&mut self.meta, &mut fresh.meta);
        std::mem::swap(&mut self.game, &mut fresh.game);
        std::mem::swap(&mut self.clock_at, &mut fresh.clock_at);
        self.clock = fresh.clock;
        self.version = fresh.version;
        self.due = fresh.due;
    }

    pub(crate) fn save(&self) -> Saved {
        Saved {
            meta: self.meta.clone(),
            game: self.game.clone(),
            clock: self.clock,
            clock_at: self.clock_at.clone(),
            version: self.version,
            due: self.due,
        }
    }

    pub(crate) fn restore(&mut self, saved: Saved) {
        self.meta = saved.meta;
        self.game = saved.game;
        self.clock = saved.clock;
        self.clock_at = saved.clock_at;
        self.version = saved.version;
        self.due = saved.due;
    }

    /// The rating update due now: the game is rated and over, and both
    /// seats are accounts.
    pub(crate) fn rated_result(&self) -> Option<crate::accounts::RatedGame> {
        let result = self.meta.result.filter(|_| self.meta.rated)?;
        if !self.both_have_moved() {
            return None;
        }
        let [s, n] = &self.meta.seats;
        Some(crate::accounts::RatedGame {
            game_id: self.meta.id.clone(),
            class: crate::accounts::ratings::RatingClass::of(self.meta.time_control),
            accounts: [s.account.clone()?, n.account.clone()?],
            winner: result.winner,
            at: self.meta.updated_at,
        })
    }

    /// Has each side made a move of its own (not a lost turn)? Until
    /// then a rated game that ends is aborted: it counts for no rating
    /// (docs/SECURITY.md, "Ratings").
    pub fn both_have_moved(&self) -> bool {
        Side::ALL.into_iter().all(|side| self.has_moved(side))
    }

    /// Has `side` made a move of its own (not a lost turn)?
    pub fn has_moved(&self, side: Side) -> bool {
        self.game
            .plies()
            .iter()
            .zip(self.game.positions())
            .any(|(ply, pos)| matches!(ply, oware_core::Ply::Move(_)) && pos.to_move() == side)
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.game.plies().len() as u32
    }

    pub(crate) fn to_move(&self) -> Side {
        self.game.position().to_move()
    }

    pub(crate) fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    pub(crate) fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    pub(crate) fn per_move_limit(&self) -> bool {
        matches!(self.meta.time_control, Some(TimeControl::PerMove { .. }))
    }

    /// Records the time left after the ply just played.
    pub(crate) fn push_clock(&mut self) {
        let stored = self.clock.and_then(|c| c.stored());
        self.clock_at.push(stored);
    }

    /// The time left after the ply just played, as stored.
    pub(crate) fn last_clock(&self) -> Option<[u64; 2]> {
        self.clock_at.last().copied().flatten()
    }

    /// Forgets the clocks of plies taken back.
    pub(crate) fn truncate_clock(&mut self, plies: usize) {
        self.clock_at.truncate(plies);
    }

    pub(crate) fn computer_to_move(&self) -> bool {
        !self.game.is_over() && self.meta.seats[self.to_move().index()].kind == SeatKind::Computer
    }

    /// The clock runs while both seats are taken and the game is on.
    pub(crate) fn clock_should_run(&self) -> bool {
        self.clock.is_some() && !self.game.is_over() && self.meta.status() == GameStatus::Playing
    }

    /// The engine is searching a move for this game.
    pub(crate) fn thinking(&self) -> bool {
        self.engine.is_some()
    }

    /// Replaces the game's timer: the old one is cancelled, and `spawn`
    /// (given the new timer's generation) starts the new one.
    pub(crate) fn set_timer<F: FnOnce(u64) -> AbortHandle>(&mut self, spawn: Option<F>) {
        if let Some(t) = self.timer.take() {
            t.abort();
        }
        self.timer_gen += 1;
        self.timer = spawn.map(|f| f(self.timer_gen));
    }

    /// The timer of generation `gen` went off: true if it is still the
    /// game's timer (then it is used up).
    pub(crate) fn timer_fired(&mut self, gen: u64) -> bool {
        let current = gen == self.timer_gen;
        if current {
            self.timer = None;
        }
        current
    }

    /// Starts the engine's search for this game: any earlier one is
    /// cancelled, and `spawn` (given the new search's generation) starts it.
    pub(crate) fn set_engine(&mut self, spawn: impl FnOnce(u64) -> AbortHandle) {
        self.stop_engine();
        self.engine = Some(spawn(self.engine_gen));
    }

    /// The search of generation `gen` finished: true if it is still the
    /// game's search (then it is over).
    pub(crate) fn engine_done(&mut self, gen: u64) -> bool {
        let current = gen == self.engine_gen && self.engine.is_some();
        if current {
            self.engine = None;
        }
        current
    }

    /// Cancels the engine's search, if one runs.
    pub(crate) fn stop_engine(&mut self) {
        if let Some(t) = self.engine.take() {
            t.abort();
        }
        self.engine_gen += 1;
    }

    /// The view sent to clients.
    pub fn view(&self, connected: [bool; 2]) -> GameView {
        let game = &self.game;
        GameView {
            id: self.meta.id.clone(),
            mode: self.meta.mode,
            level: self.meta.level,
            level_name: self.meta.level.map(|l| oware_engine::Level::new(l).name()),
            status: self.meta.status(),
            public: self.meta.public,
            created_at: rfc3339(self.meta.created_at),
            updated_at: rfc3339(self.meta.updated_at),
            seats: seats_view(&self.meta.seats, connected),
            play: oware_session::wire::play(game),
            time_control: self.meta.time_control,
            rated: self.meta.rated,
            aborted: self.meta.aborted,
            offline: self.meta.offline,
            verified: !self.meta.offline,
            rating_range: self.meta.rating_range,
            accounts_only: self.meta.accounts_only,
            clock: self.clock.map(|c| c.view(self.time.now())),
            offer: self.meta.offer,
            takeback: self.meta.takeback,
            thinking: self.thinking(),
            engine: (self.meta.mode == Mode::Computer).then_some(if self.meta.browser_engine {
                EngineSide::Browser
            } else {
                EngineSide::Server
            }),
            rematch: self.meta.rematch.clone(),
            tournament: self.meta.tournament.clone(),
        }
    }

    /// Brings the stored summary fields up to date with the game.
    pub(crate) fn sync_meta(&mut self) {
        self.meta.ply = self.ply();
        self.meta.score = stores(self.game.position());
        self.meta.result = self.game.outcome().copied();
        self.meta.updated_at = self.time.unix_ms();
        // Ended before each side's first move: aborted, not rated.
        if self.meta.result.is_some() && self.meta.rated && !self.both_have_moved() {
            self.meta.rated = false;
            self.meta.aborted = true;
        }
    }

    /// May a spectator signed in as `account` (or not signed in) read and
    /// write the spectators' room? Once the game is over, anyone; while it
    /// is played, only a signed-in account that holds no seat in it, so a
    /// player cannot read the spectators' tips by leaving out the seat
    /// token (docs/SECURITY.md). A game kept to accounts
    /// (`accounts_only`) opens it to signed-in accounts only, even after.
    pub fn spectators_room_open_to(&self, account: Option<&str>) -> bool {
        (self.game.is_over() && (account.is_some() || !self.meta.accounts_only))
            || account.is_some_and(|a| {
                !self
                    .meta
                    .seats
                    .iter()
                    .any(|s| s.account.as_deref() == Some(a))
            })
    }

    /// The seat a token holds; `missing_token` / `bad_token` otherwise.
    pub(crate) fn seat(&self, token: Option<&str>) -> Result<Side, ApiError> {
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
            return vec![self.state_event(connected, None)];
        }
        let mut out: Vec<Utf8Bytes> = (since as usize..n as usize)
            .map(|i| self.ply_event(i, None).to_text())
            .collect();
        out.extend(self.announce(&Announce::Clock, connected));
        out.extend(self.announce(&Announce::End, connected));
        out
    }

    /// The whole game as a `state` event; `you` is the receiver's seat at
    /// connect time.
    pub fn state_event(&self, connected: [bool; 2], you: Option<Option<Side>>) -> Utf8Bytes {
        let view = self.view(connected);
        ClientOut::State {
            ply: view.play.ply,
            game: &view,
            you,
        }
        .to_text()
    }

    /// The `presence` event.
    pub(crate) fn presence_event(&self, connected: [bool; 2]) -> Utf8Bytes {
        ClientOut::Presence {
            ply: self.ply(),
            status: self.meta.status(),
            seats: seats_view(&self.meta.seats, connected),
        }
        .to_text()
    }

    /// The event for an announcement, if there is one to send.
    pub(crate) fn announce(&self, a: &Announce, connected: [bool; 2]) -> Option<Utf8Bytes> {
        let ply = self.ply();
        let event = match a {
            Announce::Ply(i) => self.ply_event(*i, self.clock.map(|c| c.view(self.time.now()))),
            Announce::Clock => ClientOut::Clock {
                ply,
                clock: self.clock?.view(self.time.now()),
            },
            Announce::End => ClientOut::End {
                ply,
                result: ResultView::from(self.game.outcome()?),
            },
            Announce::State => return Some(self.state_event(connected, None)),
            Announce::Presence => return Some(self.presence_event(connected)),
            Announce::Offer(side, action) => ClientOut::Offer {
                ply,
                side: *side,
                action: *action,
            },
            Announce::Takeback(side, action) => ClientOut::Takeback {
                ply,
                side: *side,
                action: *action,
            },
            Announce::Rematch(id) => ClientOut::Rematch {
                ply,
                id: id.clone(),
            },
        };
        Some(event.to_text())
    }

    /// The `move` event of ply `i` (0-based).
    fn ply_event(&self, i: usize, clock: Option<ClockView>) -> ClientOut<'static> {
        let before = &self.game.positions()[i];
        let after = &self.game.positions()[i + 1];
        let legal = if i + 1 == self.game.plies().len() {
            self.game.legal_moves().into_iter().collect()
        } else {
            after.legal_moves().into_iter().collect()
        };
        ClientOut::Move {
            ply: i as u32 + 1,
            side: before.to_move(),
            mv: PlyText(self.game.plies()[i]),
            trace: trace_of(&self.game, i),
            position: *after,
            to_move: after.to_move(),
            legal,
            score: Totals::from(stores(after)),
            clock,
        }
    }
}
