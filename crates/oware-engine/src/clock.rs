//! The engine's clock, and on WebAssembly the host's stop request.
//!
//! Natively this is `std::time::Instant`, unchanged. On
//! `wasm32-unknown-unknown` the standard library has no clock
//! (`Instant::now` panics there), so the embedding (the `oware-wasm`
//! crate) hands the engine its host's clock and a stop check with
//! [`set_host`]: a function returning milliseconds (JavaScript's
//! `performance.now()`), and one telling whether the host asked the
//! running search to stop (a flag in shared memory that the page can set
//! while the worker is busy). The search reads both at the same points as
//! natively (every 1,024 nodes and after each iteration), so node counts
//! are the same on both.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::{set_host, Instant};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::sync::OnceLock;
    use std::time::Duration;

    struct Host {
        now_ms: fn() -> f64,
        should_stop: fn() -> bool,
    }

    static HOST: OnceLock<Host> = OnceLock::new();

    /// Installs the host's clock (milliseconds, monotonic) and stop check.
    /// The first call wins; without one, time stands still (time limits
    /// never expire: depth and node limits still work) and nothing stops.
    pub fn set_host(now_ms: fn() -> f64, should_stop: fn() -> bool) {
        let _ = HOST.set(Host {
            now_ms,
            should_stop,
        });
    }

    /// True when the host asked the running search to stop.
    pub(crate) fn host_stop() -> bool {
        HOST.get().is_some_and(|h| (h.should_stop)())
    }

    /// A moment on the host's clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(HOST.get().map_or(0.0, |h| (h.now_ms)()))
        }

        /// Time since `self` (zero if the host's clock went backwards).
        pub fn elapsed(&self) -> Duration {
            let ms = (Instant::now().0 - self.0).max(0.0);
            Duration::from_secs_f64(ms / 1000.0)
        }
    }
}

/// True when the host asked the running search to stop (always false
/// natively, where [`crate::StopHandle`] is the only way).
#[inline]
pub(crate) fn host_stop() -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        host::host_stop()
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        false
    }
}
