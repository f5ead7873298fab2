//! Where a parallel search's helpers run.
//!
//! Natively each helper of a search ([`crate::Engine::set_threads`]) runs
//! on a thread of its own (`std::thread::spawn`). On
//! `wasm32-unknown-unknown` the standard library cannot start a thread, even
//! in a build with shared memory and atomics: the host starts them (one Web
//! Worker each, instantiating the same module over the same memory), and
//! the embedding (the `oware-wasm` crate) hands the engine a function that
//! gives a job to one of them with [`set_spawner`], and how many there are.
//! Without one the engine searches on one thread there.

/// A helper's search: it owns what it needs and reports back through a
/// channel, so the engine waits for it without borrowing across threads.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use super::Job;
    use std::sync::OnceLock;

    struct Spawner {
        spawn: fn(Job),
        helpers: fn() -> usize,
    }

    static SPAWNER: OnceLock<Spawner> = OnceLock::new();

    /// Installs the host's threads: `spawn` runs a job on one of them,
    /// `helpers` says how many are waiting for jobs. The first call wins.
    pub fn set_spawner(spawn: fn(Job), helpers: fn() -> usize) {
        let _ = SPAWNER.set(Spawner { spawn, helpers });
    }

    pub(crate) fn max_threads() -> usize {
        1 + SPAWNER.get().map_or(0, |s| (s.helpers)())
    }

    pub(crate) fn spawn(job: Job) {
        // Without a spawner `max_threads` is 1 and no job is made; were
        // one made, dropping it drops its channel, so nobody waits for it.
        if let Some(s) = SPAWNER.get() {
            (s.spawn)(job);
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::set_spawner;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use host::{max_threads, spawn};

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
