//! Where a parallel search's helpers run.
//!
//! Natively each helper of a search ([`crate::Engine::set_threads`]) runs
//! on a thread of its own (`std::thread::spawn`). On
//! `wasm32-unknown-unknown` the standard library cannot start a thread, even
//! in a build with shared memory and atomics: the host starts them (one Web
//! Worker each, instantiating the same module over the same memory), and
//! the embedding (the `oware-wasm` crate) hands the engine its [`Pool`] of
//! them with [`set_pool`]. Without one the engine searches on one thread
//! there.
//!
//! A host's thread can be lost: its instance traps (a panic aborts there:
//! nothing unwinds, so a helper's job never hands its searcher back) or
//! its worker ends. The pool counts the losses it hears of
//! ([`Pool::lost`]); the engine stops waiting for helpers that will never
//! come back, so a search still answers.

/// A helper's search: it owns what it needs and reports back through a
/// channel, so the engine waits for it without borrowing across threads.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// The host's threads, as the embedding gives them to the engine (on
/// WebAssembly; natively the engine starts its own).
#[derive(Clone, Copy, Debug)]
pub struct Pool {
    /// Queues a job for the next thread that is free.
    pub spawn: fn(Job),
    /// How many threads wait for jobs or run one.
    pub helpers: fn() -> usize,
    /// How many threads were lost so far (trapped, or their worker ended
    /// and said so): a job one of them ran is never handed back.
    pub lost: fn() -> usize,
    /// Drops the jobs that no thread has taken yet (their helpers are
    /// handed back at once).
    pub reclaim: fn(),
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use super::{Job, Pool};
    use std::sync::OnceLock;

    static POOL: OnceLock<Pool> = OnceLock::new();

    /// Installs the host's threads. The first call wins.
    pub fn set_pool(pool: Pool) {
        let _ = POOL.set(pool);
    }

    pub(crate) fn max_threads() -> usize {
        1 + POOL.get().map_or(0, |p| (p.helpers)())
    }

    pub(crate) fn spawn(job: Job) {
        // Without a pool `max_threads` is 1 and no job is made; were one
        // made, dropping it hands its helper back, so nobody waits for it.
        if let Some(p) = POOL.get() {
            (p.spawn)(job);
        }
    }

    pub(crate) fn lost() -> usize {
        POOL.get().map_or(0, |p| (p.lost)())
    }

    pub(crate) fn reclaim() {
        if let Some(p) = POOL.get() {
            (p.reclaim)();
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::set_pool;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use host::{lost, max_threads, reclaim, spawn};

/// The most search threads this build can run: unlimited natively; on
/// WebAssembly one plus the host's helpers.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn max_threads() -> usize {
    usize::MAX
}

/// Runs `job` on a thread of its own.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn spawn(job: Job) {
    std::thread::spawn(job);
}

/// Natively no thread is lost: a helper that panics unwinds, which hands
/// its searcher back.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn lost() -> usize {
    0
}

/// Natively every job has a thread of its own from the start.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn reclaim() {}

/// How the engine waits for its helpers once its own search has ended and
/// told them to stop (each reads its flag every 1,024 nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaitPolicy {
    /// How long to sleep between looks at the lost count; `None`: wait for
    /// every helper, however long (natively, where none is lost).
    pub slice: Option<std::time::Duration>,
    /// The longest wait for a helper that is neither back nor known to be
    /// lost (a worker that ended without a word) before its search is
    /// given up: a helper that still runs then only hands its searcher back
    /// to nobody, and the next search has a new one.
    pub grace: std::time::Duration,
}

/// The wait for this build's helpers: on WebAssembly a look every
/// millisecond and at most 250 ms for a silent helper (a live one answers
/// a stop within milliseconds, tens under heavy load); natively, until
/// they are back.
pub(crate) fn wait_policy() -> WaitPolicy {
    if cfg!(all(target_arch = "wasm32", target_os = "unknown")) {
        WaitPolicy {
            slice: Some(std::time::Duration::from_millis(1)),
            grace: std::time::Duration::from_millis(250),
        }
    } else {
        WaitPolicy {
            slice: None,
            grace: std::time::Duration::MAX,
        }
    }
}
