//! The engine off the async threads: searches on blocking threads in two
//! lanes, so that games come before study.
//!
//! - [`Lane::Game`]: the computer's moves and its answers to offers. Up to
//!   `threads` at once, with permits of their own: no analysis can hold
//!   them, and the computer's move never waits behind one.
//! - [`Lane::Study`]: hints, analyses and reviews. Up to `study_threads` at
//!   once (half the engine threads, at least one), at most `max_waiting`
//!   waiting in all, and each client ([`ClientKeys`]: its address, and its
//!   account when signed in) has at most one running and one waiting:
//!   beyond that it is refused at once with `busy` / `engine_in_use`.
//!   The queue is first come, first served, so with at most two requests
//!   each, clients take turns.
//!
//! Every search gets its own [`StopHandle`], raised when
//! - its time cap runs out (whatever limits the request asked for), or
//! - the request that wanted it goes away (the client disconnected and the
//!   handler's future was dropped),
//!
//! so no client can keep a core busy beyond the cap or after leaving. A
//! request dropped while it waits in the queue gives its place back.

use crate::error::Reason;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oware_engine::book::Book;
use oware_engine::{Engine, EngineOptions, StopHandle};
use oware_tablebase::background::Loading;
use tokio::sync::Semaphore;

use crate::error::ApiError;
pub use crate::limits::ClientKeys;

/// Which work a search is for (see the module text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A game's own search: the computer's move, its answer to an offer.
    Game,
    /// A person studying: hint, analysis, review.
    Study,
}

/// Study requests (running or waiting) one client may have at once.
pub const PER_CLIENT: usize = 2;

/// A pool of engines shared by every game.
pub struct EnginePool {
    game_permits: Arc<Semaphore>,
    study_permits: Arc<Semaphore>,
    idle: Mutex<Vec<Engine>>,
    /// Study requests running or waiting, in all.
    study: AtomicUsize,
    /// Study requests running or waiting, by client key.
    per_client: Mutex<HashMap<String, usize>>,
    max_waiting: usize,
    hash_mb: usize,
    /// Searches running now, by lane (for tests, health and metrics).
    running: [AtomicUsize; 2],
    /// Searches started since the node started, by lane.
    started: [AtomicU64; 2],
    /// The opening book every engine plays.
    book: Option<Arc<Book>>,
    /// The endgame tables, once built or opened.
    tables: Option<Loading>,
}

/// A study request's places (in all and per client), given back however
/// the request ends.
struct StudyPlace<'a> {
    pool: &'a EnginePool,
    keys: Vec<String>,
}

impl Drop for StudyPlace<'_> {
    fn drop(&mut self) {
        self.pool.study.fetch_sub(1, Ordering::SeqCst);
        let mut map = self
            .pool
            .per_client
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for k in &self.keys {
            if let Some(n) = map.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(k);
                }
            }
        }
    }
}

/// Stops the search when the request's future is dropped before the end.
struct StopOnDrop(StopHandle);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Counts a running search for as long as the blocking job lives.
struct Running(Arc<EnginePool>, usize);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running[self.1].fetch_sub(1, Ordering::SeqCst);
    }
}

impl EnginePool {
    /// A pool running at most `threads` game searches and `study_threads`
    /// study searches at once, with at most `max_waiting` study requests
    /// running or waiting.
    pub fn new(
        threads: usize,
        study_threads: usize,
        max_waiting: usize,
        hash_mb: usize,
        book: Option<Arc<Book>>,
        tables: Option<Loading>,
    ) -> EnginePool {
        let study_threads = study_threads.max(1);
        EnginePool {
            game_permits: Arc::new(Semaphore::new(threads.max(1))),
            study_permits: Arc::new(Semaphore::new(study_threads)),
            idle: Mutex::new(Vec::new()),
            study: AtomicUsize::new(0),
            per_client: Mutex::new(HashMap::new()),
            max_waiting: max_waiting.max(study_threads),
            hash_mb,
            running: Default::default(),
            started: Default::default(),
            book,
            tables,
        }
    }

    /// Study requests waiting for an engine or running one.
    pub fn queued(&self) -> usize {
        self.study.load(Ordering::SeqCst)
    }

    /// The endgame tables, once they are ready.
    pub fn tablebase(&self) -> Option<Arc<oware_tablebase::Tablebase>> {
        self.tables.as_ref()?.ready()
    }

    /// The largest seed count of the endgame tables, once they are ready.
    pub fn tablebase_seeds(&self) -> Option<usize> {
        self.tables.as_ref()?.ready()?.max_seeds()
    }

    /// Searches running now, in both lanes.
    pub fn running(&self) -> usize {
        self.running_in(Lane::Game) + self.running_in(Lane::Study)
    }

    /// Searches running now in `lane`.
    pub fn running_in(&self, lane: Lane) -> usize {
        self.running[lane as usize].load(Ordering::SeqCst)
    }

    /// Searches started in `lane` since the node started.
    pub fn started_in(&self, lane: Lane) -> u64 {
        self.started[lane as usize].load(Ordering::SeqCst)
    }

    /// The pool's counters for `/metrics` (Prometheus text format): the
    /// searches started and running, by lane.
    pub fn render_metrics(&self, out: &mut String) {
        use std::fmt::Write as _;
        let _ = writeln!(
            out,
            "# HELP oware_engine_searches_total Engine searches started by this node (game: the computer's moves and answers to offers; study: hints, analyses, reviews).\n# TYPE oware_engine_searches_total counter"
        );
        for (lane, name) in [(Lane::Game, "game"), (Lane::Study, "study")] {
            let _ = writeln!(
                out,
                "oware_engine_searches_total{{lane=\"{name}\"}} {}",
                self.started_in(lane)
            );
        }
        let _ = writeln!(
            out,
            "# HELP oware_engine_searches_running Engine searches running now.\n# TYPE oware_engine_searches_running gauge"
        );
        for (lane, name) in [(Lane::Game, "game"), (Lane::Study, "study")] {
            let _ = writeln!(
                out,
                "oware_engine_searches_running{{lane=\"{name}\"}} {}",
                self.running_in(lane)
            );
        }
    }

    /// Takes a study place for `client`, or refuses: the client has
    /// [`PER_CLIENT`] requests under way, or the queue is full.
    fn study_place(&self, client: &ClientKeys) -> Result<StudyPlace<'_>, ApiError> {
        let mut map = self.per_client.lock().unwrap_or_else(|e| e.into_inner());
        if client
            .0
            .iter()
            .any(|k| map.get(k).copied().unwrap_or(0) >= PER_CLIENT)
        {
            return Err(ApiError::busy(
                "you already have an analysis running and one waiting; \
                 wait for them to finish, or stop one",
            )
            .with_reason(Reason::EngineInUse));
        }
        if self.study.load(Ordering::SeqCst) >= self.max_waiting {
            return Err(ApiError::busy(
                "the engine is busy with other players' requests; try again shortly",
            )
            .with_reason(Reason::EngineQueueFull));
        }
        self.study.fetch_add(1, Ordering::SeqCst);
        for k in &client.0 {
            *map.entry(k.clone()).or_insert(0) += 1;
        }
        Ok(StudyPlace {
            pool: self,
            keys: client.0.clone(),
        })
    }

    /// Runs a game's search (see [`Lane::Game`]): it always waits its
    /// turn among games, never behind a study request.
    pub async fn run_game<R, F>(self: &Arc<Self>, cap: Duration, job: F) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine, &StopHandle) -> R + Send + 'static,
    {
        self.run(Lane::Game, &self.game_permits, cap, job).await
    }

    /// Runs a study request for `client` (see [`Lane::Study`]), or refuses
    /// it with `busy` at once.
    pub async fn run_study<R, F>(
        self: &Arc<Self>,
        client: &ClientKeys,
        cap: Duration,
        job: F,
    ) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine, &StopHandle) -> R + Send + 'static,
    {
        let _place = self.study_place(client)?;
        self.run(Lane::Study, &self.study_permits, cap, job).await
    }

    /// Runs `job` with an engine on a blocking thread, once `permits` lets
    /// it. The job must search with the [`StopHandle`] it is given (the
    /// `*_with` methods of [`Engine`]), which is raised after `cap` or when
    /// this future is dropped.
    async fn run<R, F>(
        self: &Arc<Self>,
        lane: Lane,
        permits: &Arc<Semaphore>,
        cap: Duration,
        job: F,
    ) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine, &StopHandle) -> R + Send + 'static,
    {
        let permit = permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::internal("engine pool closed"))?;
        let stop = StopHandle::default();
        let cancel = StopOnDrop(stop.clone());
        let engine = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let hash_mb = self.hash_mb;
        let (book, tables) = (self.book.clone(), self.tables.clone());
        let pool = self.clone();
        self.running[lane as usize].fetch_add(1, Ordering::SeqCst);
        self.started[lane as usize].fetch_add(1, Ordering::SeqCst);
        let running = Running(self.clone(), lane as usize);
        let job_stop = stop.clone();
        let mut handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _running = running;
            let mut engine = engine.unwrap_or_else(|| {
                let mut e = Engine::new(EngineOptions {
                    hash_mb,
                    ..EngineOptions::default()
                });
                e.set_book(book);
                // Installed at the first search after the tables are ready.
                e.set_tablebase_loading(tables);
                e
            });
            let out = job(&mut engine, &job_stop);
            pool.idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(engine);
            out
        });
        let out = tokio::select! {
            out = &mut handle => out,
            _ = tokio::time::sleep(cap) => {
                stop.stop();
                handle.await
            }
        };
        drop(cancel);
        out.map_err(|e| {
            tracing::error!("engine task failed: {e}");
            ApiError::internal("the engine failed")
        })
    }
}
