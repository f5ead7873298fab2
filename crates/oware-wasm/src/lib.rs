//! Oware Abapa in the browser: the rules (`oware-core`), the engine
//! (`oware-engine`: network, book, levels), the coach's analysis
//! (`oware-session`) and the endgame tables read from bytes, behind a small
//! JSON API ([`api`]), built for `wasm32-unknown-unknown` by
//! `scripts/build-wasm.sh`.
//!
//! # The glue (no wasm-bindgen)
//!
//! The module exports linear memory and five functions; the page's side is
//! `crates/oware-server/web/js/engine/wasm.js`:
//!
//! - `oware_input(len) -> ptr`: makes the input buffer `len` bytes long and
//!   returns where it is; the caller writes a request (UTF-8 JSON) or a
//!   table file there.
//! - `oware_call() -> len`: answers the request in the input buffer; the
//!   answer (UTF-8 JSON) is `len` bytes at `oware_output()`.
//! - `oware_output() -> ptr`: where the last answer is.
//! - `oware_add_table() -> count`: keeps the input buffer as the next table
//!   file (0, 1, 2, … seeds) for the next `{"op":"tables"}` request.
//!
//! It imports three functions from the module `env`:
//!
//! - `now_ms() -> f64`: a monotonic clock in milliseconds
//!   (`performance.now()`), the engine's clock for time limits;
//! - `should_stop() -> i32`: nonzero when the page asked the running search
//!   to stop (a flag in a `SharedArrayBuffer`), read every 1,024 nodes;
//! - `report(ptr, len)`: a completed search iteration, as JSON, for the page
//!   to show while the search goes on. It must not call back into the module.
//!
//! Natively the same API is [`api::State`] (the tests use it); the exports
//! exist too but nothing calls them.
//!
//! # Threads (the threads build only)
//!
//! `oware-threads.wasm` is built with atomics and imports a shared memory
//! (`env.memory`). The engine's parallel search ([`api::Request::Threads`])
//! runs its helpers on other instances of the same module over that memory,
//! one Web Worker each, since `std::thread` cannot start a thread on
//! `wasm32-unknown-unknown`. The first instance (the engine) calls
//! `oware_thread_memory(bytes, align) -> ptr` for each helper's stack and
//! thread-local block; the helper's worker instantiates the module, sets its
//! exported `__stack_pointer` to the top of its stack, calls
//! `__wasm_init_tls(block)` and then `oware_helper()`, which never returns:
//! it runs the engine's helper searches as they come. `oware_helpers()`
//! says how many are in that loop. When that loop traps, the helper's
//! worker calls `oware_helper_lost()`, and the engine no longer waits for
//! it (`oware_engine::threads`). `js/engine/wasm.js` is the other side.

pub mod api;

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static STATE: RefCell<Option<api::State>> = const { RefCell::new(None) };
}

/// Sizes the input buffer to `len` bytes (zeroed) and returns its address.
#[no_mangle]
pub extern "C" fn oware_input(len: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn oware_output() -> *const u8 {
    OUTPUT.with(|b| b.borrow().as_ptr())
}

/// Answers the request in the input buffer; returns the answer's length.
#[no_mangle]
pub extern "C" fn oware_call() -> usize {
    let request = INPUT.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let answer = match String::from_utf8(request) {
        Ok(text) => with_state(|s| s.handle(&text, &mut host::report)),
        Err(_) => {
            r#"{"ok":false,"code":"malformed","message":"the request is not UTF-8"}"#.to_string()
        }
    };
    OUTPUT.with(|b| {
        let mut b = b.borrow_mut();
        *b = answer.into_bytes();
        b.len()
    })
}

/// Keeps the input buffer as the next table file; returns how many wait.
#[no_mangle]
pub extern "C" fn oware_add_table() -> usize {
    let bytes = INPUT.with(|b| std::mem::take(&mut *b.borrow_mut()));
    with_state(|s| s.add_table(bytes))
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
mod pool {
    use oware_engine::threads::{Job, Pool};
    use std::collections::VecDeque;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex, PoisonError};

    static JOBS: Mutex<VecDeque<Job>> = Mutex::new(VecDeque::new());
    static WAKE: Condvar = Condvar::new();
    static HELPERS: AtomicUsize = AtomicUsize::new(0);
    static LOST: AtomicUsize = AtomicUsize::new(0);

    /// Gives the engine the helper workers.
    pub fn install() {
        oware_engine::threads::set_pool(Pool {
            spawn,
            helpers,
            lost: || LOST.load(Ordering::Acquire),
            reclaim,
        });
    }

    fn spawn(job: Job) {
        JOBS.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(job);
        WAKE.notify_one();
    }

    fn helpers() -> usize {
        HELPERS.load(Ordering::Acquire)
    }

    fn reclaim() {
        let left = std::mem::take(&mut *JOBS.lock().unwrap_or_else(PoisonError::into_inner));
        // Dropped outside the lock: each hands its helper back.
        drop(left);
    }

    /// Memory for a helper's stack or thread-local block, never freed (a
    /// helper lives as long as the page).
    #[no_mangle]
    pub extern "C" fn oware_thread_memory(bytes: usize, align: usize) -> *mut u8 {
        match std::alloc::Layout::from_size_align(bytes.max(1), align.max(16)) {
            // SAFETY: the layout's size is not zero.
            Ok(layout) => unsafe { std::alloc::alloc_zeroed(layout) },
            Err(_) => std::ptr::null_mut(),
        }
    }

    /// How many helpers wait for jobs or run one.
    #[no_mangle]
    pub extern "C" fn oware_helpers() -> usize {
        helpers()
    }

    /// A helper worker's loop: runs the engine's helper searches, forever.
    /// Its stack and thread-local block must be set first.
    #[no_mangle]
    pub extern "C" fn oware_helper() {
        HELPERS.fetch_add(1, Ordering::AcqRel);
        loop {
            let job = {
                let mut jobs = JOBS.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    match jobs.pop_front() {
                        Some(job) => break job,
                        None => jobs = WAKE.wait(jobs).unwrap_or_else(PoisonError::into_inner),
                    }
                }
            };
            job();
        }
    }

    /// Called by a helper's worker when its `oware_helper` loop trapped
    /// (js/engine/wasm.js, `runHelper`): the helper is gone, and a search it
    /// ran never gets its searcher back, so the engine must not wait for it.
    /// Only atomics: the trapped thread may have left anything else half
    /// done.
    #[no_mangle]
    pub extern "C" fn oware_helper_lost() {
        HELPERS.fetch_sub(1, Ordering::AcqRel);
        LOST.fetch_add(1, Ordering::AcqRel);
    }
}

fn with_state<R>(f: impl FnOnce(&mut api::State) -> R) -> R {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let state = s.get_or_insert_with(|| {
            host::install();
            api::State::new()
        });
        f(state)
    })
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    #[link(wasm_import_module = "env")]
    extern "C" {
        fn now_ms() -> f64;
        fn should_stop() -> i32;
        #[link_name = "report"]
        fn report_import(ptr: *const u8, len: usize);
    }

    fn now() -> f64 {
        // SAFETY: an import without arguments that returns a number.
        unsafe { now_ms() }
    }

    fn stop_requested() -> bool {
        // SAFETY: as above.
        unsafe { should_stop() != 0 }
    }

    /// Gives the engine the host's clock and stop flag.
    pub fn install() {
        oware_engine::clock::set_host(now, stop_requested);
        #[cfg(target_feature = "atomics")]
        super::pool::install();
    }

    /// Hands an iteration's report to the page.
    pub fn report(text: &str) {
        // SAFETY: the host reads `len` bytes at `ptr` before returning,
        // while `text` is alive.
        unsafe { report_import(text.as_ptr(), text.len()) }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod host {
    /// Natively the engine has its own clock.
    pub fn install() {}

    /// Natively nobody listens.
    pub fn report(_text: &str) {}
}
