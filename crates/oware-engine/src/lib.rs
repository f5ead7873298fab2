//! The Oware Abapa engine: search, evaluation and playing levels, on top of
//! `oware-core`.
//!
//! The public API (what the terminal game, the server and the UCI front end
//! use) is [`Engine`], [`Limits`], [`Level`], [`SearchResult`], [`Score`] and
//! [`MoveAnalysis`]. The search itself lives in [`search`], the evaluation in
//! [`nn`] (a small network, the default) and [`eval`] (the linear one), the
//! time manager in [`time`], the playing levels in [`levels`].
//!
//! ```
//! use oware_core::{Game, Position};
//! use oware_engine::{Engine, EngineOptions, Limits};
//!
//! let game = Game::new(Position::start());
//! let mut engine = Engine::new(EngineOptions::default());
//! let result = engine.search(&game, &Limits::depth(4), &mut |_| {});
//! assert!(result.best.is_some());
//! ```

#![deny(missing_docs)]

pub mod bench;
pub mod book;
pub mod clock;
pub mod eval;
pub mod levels;
pub mod nn;
pub mod search;
pub mod tablebase;
pub mod threads;
pub mod time;
mod tt;
pub mod uci;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use oware_core::{Game, Move};

pub use search::{Score, SearchInfo};
pub use tablebase::TablebaseError;

/// The transposition table of every analysis, in MiB.
///
/// An analysis ([`Engine::analyze`] and its variants) searches with a table
/// of this size, cleared first, on one thread, whatever the engine's own
/// [`hash_mb`](EngineOptions::hash_mb), threads and earlier searches: the
/// same position, history since the last capture, limits (a depth or a
/// node count) and tables give the same values and move order in every
/// front end (the command line, the server, the browser's module, the
/// terminal game and Python). 16 MiB is the server's and the browser's
/// default table, so an engine of that size analyses in its own table
/// (cleared) and needs no second one.
pub const ANALYSIS_HASH_MB: usize = 16;

/// Engine settings that persist between searches.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Directory of endgame tablebase files, if any.
    pub tablebase_dir: Option<std::path::PathBuf>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            tablebase_dir: None,
        }
    }
}

/// A playing strength, from 1 (a beginner can beat it) to [`Level::MAX`]
/// (full strength).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(10);

    /// The level `n`, clamped to 1..=10.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(Self::MIN.0, Self::MAX.0))
    }

    /// The level's number, 1..=10.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The level's name for people, from "beginner" (1) to "master" (10).
    /// The one source of the names (the terminal game, the web app and the
    /// docs take them from here).
    pub fn name(self) -> &'static str {
        LEVEL_NAMES[self.0 as usize - 1]
    }

    /// The level's name in French, from « débutant » (1) to « maître » (10).
    pub fn name_fr(self) -> &'static str {
        LEVEL_NAMES_FR[self.0 as usize - 1]
    }

    /// The level with this [`name`](Self::name) or
    /// [`French name`](Self::name_fr) (ignoring case), if any.
    pub fn from_name(name: &str) -> Option<Level> {
        let wanted = name.trim().to_lowercase();
        LEVEL_NAMES
            .iter()
            .position(|n| *n == wanted)
            .or_else(|| LEVEL_NAMES_FR.iter().position(|n| *n == wanted))
            .map(|i| Level(i as u8 + 1))
    }

    /// The level written as its number (`1` to `10`) or its name in
    /// either language (`beginner`, `Débutant`, …), as command lines and
    /// UCI accept it.
    pub fn parse(text: &str) -> Option<Level> {
        let text = text.trim();
        match text.parse::<u8>() {
            Ok(n) if (Self::MIN.0..=Self::MAX.0).contains(&n) => Some(Level(n)),
            Ok(_) => None,
            Err(_) => Level::from_name(text),
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Self::MIN.0..=Self::MAX.0).map(Level)
    }
}

/// The names of levels 1 to 10 (lower case).
const LEVEL_NAMES: [&str; 10] = [
    "beginner",
    "novice",
    "learner",
    "casual",
    "club",
    "intermediate",
    "advanced",
    "strong",
    "expert",
    "master",
];

/// The French names of levels 1 to 10 (lower case).
const LEVEL_NAMES_FR: [&str; 10] = [
    "débutant",
    "novice",
    "apprenti",
    "amateur",
    "club",
    "intermédiaire",
    "avancé",
    "fort",
    "expert",
    "maître",
];

impl Default for Level {
    fn default() -> Self {
        Level::MAX
    }
}

/// When a search must stop. Unset limits are unlimited; a search with no
/// limit at all runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock: time left for the side to move, its increment, and moves to
    /// the next time control, if any.
    pub clock: Option<Clock>,
    /// Playing strength; full strength when `None`.
    pub level: Option<Level>,
    /// Seed for the weaker levels' choices, so games can be replayed.
    pub seed: u64,
}

/// Time left on the clock of the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// A search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// A search at a playing level, with the level's own time budget.
    pub fn level(level: Level) -> Limits {
        Limits {
            level: Some(level),
            ..Limits::default()
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` when the game is over).
    pub best: Option<Move>,
    /// The value of the position for the side to move.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The value and principal variation of one legal move.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// The move.
    pub mv: Move,
    /// Its value for the side that plays it.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// A flag that stops a running search from another thread, and the
/// pondering state (a pondering search ignores its time limits until
/// [`ponderhit`](Self::ponderhit)).
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<Flags>);

#[derive(Debug, Default)]
struct Flags {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl StopHandle {
    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
    /// True once [`stop`](Self::stop) was called.
    pub fn is_stopped(&self) -> bool {
        self.0.stop.load(Ordering::Relaxed) || clock::host_stop()
    }
    /// Clears the flag for the next search.
    pub fn reset(&self) {
        self.0.stop.store(false, Ordering::Relaxed);
    }
    /// Marks the search as pondering: time limits wait for
    /// [`ponderhit`](Self::ponderhit).
    pub fn set_pondering(&self, on: bool) {
        self.0.pondering.store(on, Ordering::Relaxed);
    }
    /// True while pondering.
    pub fn is_pondering(&self) -> bool {
        self.0.pondering.load(Ordering::Relaxed)
    }
    /// The pondered move was played: the time limits start counting now.
    pub fn ponderhit(&self) {
        self.set_pondering(false);
    }
}

// The helpers of a parallel search as their jobs end, and how many are
// still out. (A Mutex and a Condvar rather than a channel: on WebAssembly
// they are the standard library's futexes, which the browser's workers
// run; a channel's receiver there never woke.)
#[derive(Default)]
struct Returned {
    back: Mutex<(Vec<(usize, search::Searcher)>, usize)>,
    ended: Condvar,
}

impl Returned {
    // Waits until every helper is back, and takes them. With a `slice` in
    // the policy (WebAssembly, where a helper's thread can be lost), only
    // until those still out are no more than the threads lost since
    // `lost_before` (`lost()`), or for at most the policy's grace: a lost
    // thread never hands its helper back, and the search must answer.
    fn wait(
        &self,
        policy: threads::WaitPolicy,
        lost: impl Fn() -> usize,
        lost_before: usize,
    ) -> Vec<(usize, search::Searcher)> {
        let started = clock::Instant::now();
        let mut back = self.back.lock().unwrap_or_else(PoisonError::into_inner);
        while back.1 > 0 {
            match policy.slice {
                None => {
                    back = self
                        .ended
                        .wait(back)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                Some(slice) => {
                    let gone = lost().saturating_sub(lost_before);
                    if back.1 <= gone || started.elapsed() >= policy.grace {
                        break;
                    }
                    back = self
                        .ended
                        .wait_timeout(back, slice)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
        }
        std::mem::take(&mut back.0)
    }
}

// A helper in its job: handed back when the job ends, or when the job is
// dropped without running, so the search never waits for it forever.
struct HandBack {
    to: Arc<Returned>,
    helper: Option<(usize, search::Searcher)>,
}

impl HandBack {
    fn new(to: &Arc<Returned>, index: usize, helper: search::Searcher) -> HandBack {
        to.back.lock().unwrap_or_else(PoisonError::into_inner).1 += 1;
        HandBack {
            to: Arc::clone(to),
            helper: Some((index, helper)),
        }
    }
}

impl Drop for HandBack {
    fn drop(&mut self) {
        let mut back = self.to.back.lock().unwrap_or_else(PoisonError::into_inner);
        back.0.extend(self.helper.take());
        back.1 -= 1;
        self.to.ended.notify_all();
    }
}

/// The engine: search state (transposition table, tables) that lives across
/// searches. Not shared between threads; create one per concurrent search.
pub struct Engine {
    options: EngineOptions,
    searcher: search::Searcher,
    // Helper searchers of a parallel search (Lazy SMP): `threads - 1` of
    // them, sharing `searcher`'s transposition table.
    helpers: Vec<search::Searcher>,
    threads: usize,
    stop: StopHandle,
    tables: Option<Arc<tablebase::Tablebase>>,
    tablebase_error: Option<String>,
    book: Option<Arc<book::Book>>,
    // The searcher of analyses when the engine's own table is not of
    // `ANALYSIS_HASH_MB` (built at the first analysis; dropped when the
    // evaluation or the tables change, so it is rebuilt with them).
    analyst: Option<search::Searcher>,
    // Tables still being loaded or built in the background; installed by
    // the first search that starts after they are ready.
    #[cfg(feature = "tablebase")]
    pending_tables: Option<oware_tablebase::background::Loading>,
}

impl Engine {
    /// A new engine. If `options.tablebase_dir` cannot be opened, the engine
    /// runs without tables and [`tablebase_error`](Self::tablebase_error)
    /// says why.
    pub fn new(options: EngineOptions) -> Engine {
        let searcher = search::Searcher::new(options.hash_mb);
        let mut engine = Engine {
            options,
            searcher,
            helpers: Vec::new(),
            threads: 1,
            stop: StopHandle::default(),
            tables: None,
            tablebase_error: None,
            book: None,
            analyst: None,
            #[cfg(feature = "tablebase")]
            pending_tables: None,
        };
        // The network is the default evaluation: it won its matches against
        // the linear one (docs/ENGINE.md, "The network").
        engine.searcher.set_network(Some(nn::Network::builtin()));
        let dir = engine.options.tablebase_dir.clone();
        let _ = engine.set_tablebase_dir(dir);
        engine
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the transposition table size (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        if mb != self.options.hash_mb {
            self.options.hash_mb = mb;
            let weights = self.searcher.weights();
            let net = self.searcher.network().cloned();
            self.searcher = search::Searcher::new(mb);
            self.searcher.set_weights(weights);
            self.searcher.set_network(net);
            let tables = self.tables.clone();
            self.set_tablebase(tables);
        }
    }

    /// Sets the number of search threads (at least 1). With more than one,
    /// full-strength searches run in parallel (Lazy SMP: helper threads
    /// search the same position and share the transposition table, and
    /// a thread leaves for later the moves another is searching, as in
    /// ABDADA; the main thread's result is played) and are no longer
    /// deterministic.
    /// Analyses and the weaker levels' searches stay on one thread.
    /// On WebAssembly it is at most one more than the host's helper
    /// workers (`threads::set_pool`).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, threads::max_threads());
        self.rebuild_helpers();
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    // Helpers matching the main searcher's table, weights and tables.
    fn rebuild_helpers(&mut self) {
        self.helpers = (1..self.threads)
            .map(|i| {
                let mut h = self.searcher.helper(i);
                h.set_oracle(
                    self.tables
                        .clone()
                        .map(|t| Box::new(t) as Box<dyn search::Oracle>),
                );
                h
            })
            .collect();
    }

    // The full-strength search, on `threads` threads. Each helper is moved
    // into its job with a copy of the game and handed back when the job
    // ends (`HandBack`), so the same code runs on native threads and on the
    // browser's workers (`threads`).
    fn full_search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        // A host's thread lost since the last search (WebAssembly) leaves
        // fewer threads than helpers.
        if self.threads > threads::max_threads() {
            self.threads = threads::max_threads();
            self.rebuild_helpers();
        }
        if self.helpers.is_empty() {
            return self.searcher.search(game, limits, control, info);
        }
        let lost_before = threads::lost();
        // Helpers search without limits until the main search ends (or the
        // GUI stops everything).
        let helper_stop = StopHandle::default();
        let returned = Arc::new(Returned::default());
        for (i, h) in std::mem::take(&mut self.helpers).into_iter().enumerate() {
            let mut back = HandBack::new(&returned, i, h);
            let (game, stop) = (game.clone(), helper_stop.clone());
            threads::spawn(Box::new(move || {
                if let Some((_, h)) = back.helper.as_mut() {
                    h.search(&game, &Limits::default(), &stop, &mut |_| {});
                }
            }));
        }
        self.searcher.set_parallel(true);
        let mut r = self.searcher.search(game, limits, control, info);
        self.searcher.set_parallel(false);
        helper_stop.stop();
        // Jobs no thread took (a busy or lost one) are handed back at once.
        threads::reclaim();
        let mut helpers = returned.wait(threads::wait_policy(), threads::lost, lost_before);
        helpers.sort_by_key(|&(i, _)| i);
        r.nodes += helpers.iter().map(|(_, h)| h.nodes()).sum::<u64>();
        self.helpers = helpers.into_iter().map(|(_, h)| h).collect();
        self.threads = self.threads.min(threads::max_threads());
        if self.helpers.len() + 1 != self.threads {
            // A helper was lost (its thread panicked while handing it back,
            // or on WebAssembly its thread trapped, ended, or was too late).
            self.rebuild_helpers();
        }
        r
    }

    /// Uses `tables` (shared, e.g. built in memory) for the search, or none.
    pub fn set_tablebase(&mut self, tables: Option<Arc<tablebase::Tablebase>>) {
        self.tables = tables.clone();
        self.searcher
            .set_oracle(tables.map(|t| Box::new(t) as Box<dyn search::Oracle>));
        self.analyst = None;
        self.rebuild_helpers();
    }

    /// The tablebases in use, if any.
    pub fn tablebase(&self) -> Option<&Arc<tablebase::Tablebase>> {
        self.tables.as_ref()
    }

    /// Opens the endgame tablebases in `dir` (or drops them with `None`).
    /// Returns the largest seed count covered. On failure the engine runs
    /// without tables and the error is returned.
    pub fn set_tablebase_dir(
        &mut self,
        dir: Option<std::path::PathBuf>,
    ) -> Result<u8, TablebaseError> {
        self.options.tablebase_dir = dir.clone();
        self.tablebase_error = None;
        match dir {
            None => {
                self.set_tablebase(None);
                Ok(0)
            }
            Some(d) => match tablebase::open(&d) {
                Ok(t) => {
                    self.set_tablebase(Some(t));
                    Ok(self.tablebase_seeds())
                }
                Err(e) => {
                    self.set_tablebase(None);
                    self.tablebase_error = Some(e.to_string());
                    Err(e)
                }
            },
        }
    }

    /// The endgame tables' verdict on `game`'s position for the side to
    /// move: `1` won, `0` drawn, `-1` lost with perfect play, when the
    /// loaded tables cover the position, give an exact result, and hold
    /// (no board since the last capture has occurred twice, as the search
    /// requires before probing). `None` otherwise, and always without
    /// tables. A finished game is not probed.
    pub fn table_result(&self, game: &Game) -> Option<i8> {
        use search::Oracle;
        if game.is_over() {
            return None;
        }
        let tables = self.tables.as_ref()?;
        let pos = game.position();
        if pos.seeds_on_board() > tables.max_seeds() {
            return None;
        }
        let history = game.since_last_capture();
        let repeated = history
            .iter()
            .enumerate()
            .any(|(i, p)| history[..i].iter().any(|q| q.board_key() == p.board_key()));
        if repeated {
            return None;
        }
        let v = tables.probe(pos)?;
        (v.lower == v.upper).then_some(v.lower)
    }

    /// The loaded tables' value of every legal move of `position` (bounds
    /// on the seeds of the board each leaves the mover, with no regard for
    /// history), or `None` without tables or when they do not cover it.
    pub fn table_move_values(
        &self,
        position: &oware_core::Position,
    ) -> Option<Vec<tablebase::TableMove>> {
        tablebase::move_values(self.tables.as_ref()?, position)
    }

    /// Why the tablebase directory could not be used, if it could not.
    pub fn tablebase_error(&self) -> Option<&str> {
        self.tablebase_error.as_deref()
    }

    /// The largest seed count covered by the loaded tablebases (0 for none).
    pub fn tablebase_seeds(&self) -> u8 {
        self.searcher.oracle_seeds()
    }

    /// Uses the tables that `loading` delivers (see
    /// [`oware_tablebase::background::load_or_build`]) from the first
    /// search or analysis that starts after they are ready; until then the
    /// engine plays with the tables it has (or none). Replaces any tables
    /// set before once they arrive.
    #[cfg(feature = "tablebase")]
    pub fn set_tablebase_loading(&mut self, loading: Option<oware_tablebase::background::Loading>) {
        self.pending_tables = loading;
        self.install_pending_tables();
    }

    // Without tables there is nothing to install.
    #[cfg(not(feature = "tablebase"))]
    fn install_pending_tables(&mut self) {}

    // Installs background tables if they have arrived (never waits).
    #[cfg(feature = "tablebase")]
    fn install_pending_tables(&mut self) {
        let Some(loading) = &self.pending_tables else {
            return;
        };
        if let Some(tables) = loading.ready() {
            self.pending_tables = None;
            self.set_tablebase(Some(tables));
        } else if loading.is_finished() {
            self.pending_tables = None;
        }
    }

    /// Plays from `book` (shared) while the game is in it, or never with
    /// `None` (the default). Full strength and levels 9-10 play the book's
    /// best move, lower levels draw one with variety (see
    /// [`levels::Profile::book_temperature`]). Analyses ignore the book.
    pub fn set_book(&mut self, book: Option<Arc<book::Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    pub fn book(&self) -> Option<&Arc<book::Book>> {
        self.book.as_ref()
    }

    // The book's move for this search, if the game is in the book.
    fn book_move(&self, game: &Game, limits: &Limits) -> Option<SearchResult> {
        let book = self.book.as_ref()?;
        let temperature = limits
            .level
            .map_or(0, |l| levels::profile(l).book_temperature);
        let m = book.choose(game, temperature, limits.seed)?;
        Some(SearchResult {
            best: Some(m.mv),
            score: m.score,
            pv: vec![m.mv],
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        })
    }

    /// Replaces the evaluation weights (for tuning and experiments).
    pub fn set_weights(&mut self, weights: eval::Weights) {
        self.searcher.set_weights(weights);
        self.analyst = None;
        self.rebuild_helpers();
    }

    /// Evaluates with a neural network ([`nn::Network::builtin`], the
    /// default of a new engine) or, with `None`, with the linear weights.
    /// Levels 1-8's glance at a move they do not read keeps the weights.
    pub fn set_network(&mut self, net: Option<Arc<nn::Network>>) {
        self.searcher.set_network(net);
        self.analyst = None;
        self.rebuild_helpers();
    }

    /// The evaluation network in use, if any.
    pub fn network(&self) -> Option<&Arc<nn::Network>> {
        self.searcher.network()
    }

    /// A handle that stops this engine's running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Forgets everything learnt from earlier searches.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.rebuild_helpers();
    }

    /// Searches the current position of `game` (its history since the last
    /// capture is used for repetitions). `info` is called after each
    /// completed iteration. With `limits.level` set below full strength,
    /// the move is drawn as described in [`levels`].
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.stop.reset();
        let stop = self.stop.clone();
        self.search_with(game, limits, &stop, info)
    }

    /// As [`search`](Self::search), stopped by `control` (which is not
    /// reset first: a stop that arrives before the search starts counts).
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.install_pending_tables();
        if let Some(r) = self.book_move(game, limits) {
            return r;
        }
        let Some(level) = limits.level else {
            return self.full_search(game, limits, control, info);
        };
        let profile = levels::profile(level);
        let effective = profile.limits(limits);
        if profile.temperature == 0 {
            return self.full_search(game, &effective, control, info);
        }
        let started = clock::Instant::now();
        let (moves, depth) = self.searcher.analyze(game, &effective, control, info);
        let nodes = self.searcher.nodes();
        if moves.is_empty() {
            return SearchResult {
                best: None,
                score: Score(0),
                pv: Vec::new(),
                depth,
                nodes,
                elapsed: started.elapsed(),
            };
        }
        let weights = self.searcher.weights();
        let i = levels::choose(&moves, &profile, limits.seed, game, &weights);
        let chosen = &moves[i];
        SearchResult {
            best: Some(chosen.mv),
            score: chosen.score,
            pv: chosen.pv.clone(),
            depth,
            nodes,
            elapsed: started.elapsed(),
        }
    }

    /// The value and principal variation of every legal move, best first.
    ///
    /// Every analysis starts from nothing: a table of [`ANALYSIS_HASH_MB`],
    /// cleared, and fresh move-ordering statistics, on one thread, so with a
    /// depth or node limit the answer depends only on the position, its
    /// history since the last capture, the limits and the tables (not on
    /// the engine's hash size, its threads or what it searched before).
    pub fn analyze(&mut self, game: &Game, limits: &Limits) -> Vec<MoveAnalysis> {
        self.stop.reset();
        let stop = self.stop.clone();
        self.analyze_with(game, limits, &stop, &mut |_| {})
    }

    /// As [`analyze`](Self::analyze), stopped by `control`, reporting each
    /// completed iteration (its score and PV are the best move's).
    pub fn analyze_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<MoveAnalysis> {
        self.analyze_to_depth(game, limits, control, info).0
    }

    /// As [`analyze_with`](Self::analyze_with), with the depth every value
    /// is exact at (the last iteration completed), so that a caller can
    /// tell a finished analysis from one stopped early.
    pub fn analyze_to_depth(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<MoveAnalysis>, u32) {
        self.analyze_moves_to_depth(game, &[], limits, control, info)
    }

    /// As [`analyze_to_depth`](Self::analyze_to_depth), over the legal
    /// moves of `only` alone (every legal move when it is empty), in the
    /// same cleared table: the coach searches its closest moves deeper
    /// with it (`oware_session::Analysis`).
    pub fn analyze_moves_to_depth(
        &mut self,
        game: &Game,
        only: &[Move],
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<MoveAnalysis>, u32) {
        self.install_pending_tables();
        let searcher = self.analysis_searcher();
        searcher.clear();
        searcher.analyze_moves(game, only, limits, control, info)
    }

    // The searcher analyses run on: the engine's own when its table has
    // the analyses' size, else one of that size kept for them.
    fn analysis_searcher(&mut self) -> &mut search::Searcher {
        if self.options.hash_mb == ANALYSIS_HASH_MB {
            return &mut self.searcher;
        }
        let (main, tables) = (&self.searcher, &self.tables);
        self.analyst.get_or_insert_with(|| {
            let mut s = search::Searcher::new(ANALYSIS_HASH_MB);
            s.set_weights(main.weights());
            s.set_network(main.network().cloned());
            s.set_oracle(
                tables
                    .clone()
                    .map(|t| Box::new(t) as Box<dyn search::Oracle>),
            );
            s
        })
    }
}

#[cfg(test)]
mod wait_tests {
    use super::*;
    use std::time::Duration;

    // A policy as on WebAssembly, with a grace long enough that a test
    // ending before it shows the lost count ended the wait.
    fn policy(grace_ms: u64) -> threads::WaitPolicy {
        threads::WaitPolicy {
            slice: Some(Duration::from_millis(1)),
            grace: Duration::from_millis(grace_ms),
        }
    }

    // A helper whose job never ends: its hand-back is forgotten, as when
    // its thread traps (nothing unwinds there).
    fn stranded(to: &Arc<Returned>, index: usize) {
        std::mem::forget(HandBack::new(to, index, search::Searcher::new(1)));
    }

    #[test]
    fn a_lost_helper_is_not_waited_for() {
        let returned = Arc::new(Returned::default());
        drop(HandBack::new(&returned, 0, search::Searcher::new(1)));
        stranded(&returned, 1);
        let t = std::time::Instant::now();
        // One thread lost since the search began (2 then, 3 now).
        let back = returned.wait(policy(60_000), || 3, 2);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(back.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn a_loss_before_the_search_does_not_end_the_wait() {
        let returned = Arc::new(Returned::default());
        stranded(&returned, 0);
        let t = std::time::Instant::now();
        // The count says 1, but it was 1 before: only the grace ends it.
        let back = returned.wait(policy(100), || 1, 1);
        assert!(
            t.elapsed() >= Duration::from_millis(100),
            "{:?}",
            t.elapsed()
        );
        assert!(back.is_empty());
    }

    #[test]
    fn a_silent_helper_is_given_up_after_the_grace() {
        let returned = Arc::new(Returned::default());
        stranded(&returned, 0);
        let t = std::time::Instant::now();
        let back = returned.wait(policy(50), || 0, 0);
        assert!(
            t.elapsed() >= Duration::from_millis(50),
            "{:?}",
            t.elapsed()
        );
        assert!(back.is_empty());
    }

    #[test]
    fn a_helper_that_comes_back_late_is_waited_for() {
        let returned = Arc::new(Returned::default());
        let back = HandBack::new(&returned, 0, search::Searcher::new(1));
        let late = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            drop(back);
        });
        let got = returned.wait(policy(60_000), || 0, 0);
        late.join().unwrap();
        assert_eq!(got.len(), 1);
        // Natively the wait has no grace at all.
        assert_eq!(threads::wait_policy().slice, None);
    }
}
