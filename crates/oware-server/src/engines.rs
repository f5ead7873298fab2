//! The engine off the async threads: a fixed number of engines, each search
//! on a blocking thread, at most `threads` at once, with a bounded queue.
//!
//! Every search gets its own [`StopHandle`], raised when
//! - its time cap runs out (whatever limits the request asked for), or
//! - the request that wanted it goes away (the client disconnected and the
//!   handler's future was dropped),
//!
//! so no client can keep a core busy beyond the cap or after leaving. A
//! request dropped while it waits in the queue gives its place back.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oware_engine::book::Book;
use oware_engine::{Engine, EngineOptions, StopHandle};
use oware_tablebase::background::Loading;
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// A pool of engines shared by every game.
pub struct EnginePool {
    permits: Arc<Semaphore>,
    idle: Mutex<Vec<Engine>>,
    /// Requests inside [`run`](Self::run) that do not hold a permit yet,
    /// plus those that do (so the queue limit counts the running ones).
    waiting: AtomicUsize,
    max_waiting: usize,
    threads: usize,
    hash_mb: usize,
    /// Searches running now (for tests and health).
    running: AtomicUsize,
    /// The opening book every engine plays.
    book: Option<Arc<Book>>,
    /// The endgame tables, once built or opened.
    tables: Option<Loading>,
}

/// A place in the queue, given back however the request ends.
struct QueuePlace<'a>(&'a AtomicUsize);

impl Drop for QueuePlace<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
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
struct Running(Arc<EnginePool>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl EnginePool {
    /// A pool running at most `threads` searches at once and queueing at most `max_waiting` more.
    pub fn new(
        threads: usize,
        max_waiting: usize,
        hash_mb: usize,
        book: Option<Arc<Book>>,
        tables: Option<Loading>,
    ) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            idle: Mutex::new(Vec::new()),
            waiting: AtomicUsize::new(0),
            max_waiting,
            threads: threads.max(1),
            hash_mb,
            running: AtomicUsize::new(0),
            book,
            tables,
        }
    }

    /// Requests waiting for an engine or running one.
    pub fn queued(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// The largest seed count of the endgame tables, once they are ready.
    pub fn tablebase_seeds(&self) -> Option<usize> {
        self.tables.as_ref()?.ready()?.max_seeds()
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Runs `job` with an engine on a blocking thread. The job must search
    /// with the [`StopHandle`] it is given (the `*_with` methods of
    /// [`Engine`]), which is raised after `cap` or when this future is
    /// dropped. When `may_refuse`, fails with `busy` if the queue is full
    /// (requests); the computer's own moves always wait their turn.
    pub async fn run<R, F>(
        self: &Arc<Self>,
        may_refuse: bool,
        cap: Duration,
        job: F,
    ) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine, &StopHandle) -> R + Send + 'static,
    {
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        let place = QueuePlace(&self.waiting);
        if may_refuse && ahead >= self.max_waiting + self.threads {
            return Err(ApiError::busy(
                "the engine is busy with other games; try again shortly",
            ));
        }
        let permit = self
            .permits
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
        self.running.fetch_add(1, Ordering::SeqCst);
        let running = Running(self.clone());
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
        drop(place);
        out.map_err(|e| {
            tracing::error!("engine task failed: {e}");
            ApiError::internal("the engine failed")
        })
    }
}
