//! The engine off the async threads: a fixed number of engines, each search
//! on a blocking thread, at most `threads` at once, with a bounded queue.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use oware_engine::{Engine, EngineOptions};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// A pool of engines shared by every game.
pub struct EnginePool {
    permits: Arc<Semaphore>,
    idle: Mutex<Vec<Engine>>,
    waiting: AtomicUsize,
    max_waiting: usize,
    threads: usize,
    hash_mb: usize,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once and queueing at most `max_waiting` more.
    pub fn new(threads: usize, max_waiting: usize, hash_mb: usize) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            idle: Mutex::new(Vec::new()),
            waiting: AtomicUsize::new(0),
            max_waiting,
            threads: threads.max(1),
            hash_mb,
        }
    }

    /// Runs `job` with an engine on a blocking thread. When `may_refuse`,
    /// fails with `busy` if the queue is full (requests); the computer's own
    /// moves always wait their turn.
    pub async fn run<R, F>(self: &Arc<Self>, may_refuse: bool, job: F) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine) -> R + Send + 'static,
    {
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting + self.threads
            && may_refuse
        {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::busy(
                "the engine is busy with other games; try again shortly",
            ));
        }
        let permit = self.permits.clone().acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let permit = permit.map_err(|_| ApiError::internal("engine pool closed"))?;
        let engine = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let hash_mb = self.hash_mb;
        let pool = self.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut engine = engine.unwrap_or_else(|| {
                Engine::new(EngineOptions {
                    hash_mb,
                    ..EngineOptions::default()
                })
            });
            let out = job(&mut engine);
            pool.idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(engine);
            out
        });
        handle.await.map_err(|e| {
            tracing::error!("engine task failed: {e}");
            ApiError::internal("the engine failed")
        })
    }
}
