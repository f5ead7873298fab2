//! Tables that arrive while the program already runs: open them from a
//! directory, or build them (to the directory, or in memory) on a
//! background thread, and hand them over when they are ready.
//!
//! For programs that must start at once and play perfect endgames as soon
//! as they can: the terminal game (`oware play`), the web server. The
//! caller polls [`Loading::ready`] before each search (it never waits) and
//! gives the tables to its engine once they are there.
//!
//! ```no_run
//! use oware_tablebase::background::{load_or_build, Event};
//!
//! let loading = load_or_build(Some("tablebases".into()), 20, |e: Event| {
//!     if let Event::Ready { max_seeds, .. } = e {
//!         eprintln!("tables up to {max_seeds} seeds ready");
//!     }
//! });
//! // … later, before a search:
//! if let Some(tables) = loading.ready() {
//!     // engine.set_tablebase(Some(tables));
//! }
//! ```

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::{build_to_dir, BuildProgress, LevelStatus, Tablebase};

/// What the background loader reports, in order: at most one of `Opened`
/// or a build (`Building`/`Level` events, perhaps after `FallingBack`),
/// then `Ready` or `Failed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The directory already held valid files for enough seeds.
    Opened {
        /// The largest seed count in the files.
        max_seeds: usize,
    },
    /// Building a seed count: `done` of `total` work units (at most about
    /// two of these a second, plus one at the start of each seed count).
    Building {
        /// The seed count being built.
        seeds: usize,
        /// Units done.
        done: u64,
        /// Units for this seed count.
        total: u64,
    },
    /// A seed count is finished: built, or its valid file kept.
    Level {
        /// The seed count.
        seeds: usize,
        /// Built or kept.
        status: LevelStatus,
    },
    /// The directory could not be used (say, not writable); the tables are
    /// built in memory instead and will not persist.
    FallingBack {
        /// Why.
        reason: String,
    },
    /// The tables are ready: [`Loading::ready`] returns them from now on.
    Ready {
        /// The largest seed count covered.
        max_seeds: usize,
        /// Time from the call to ready.
        elapsed: Duration,
    },
    /// No tables: the program plays on without them.
    Failed {
        /// Why.
        reason: String,
    },
}

#[derive(Default)]
struct Slot {
    tables: Option<Arc<Tablebase>>,
    failed: Option<String>,
}

/// A handle on tables being loaded or built in the background. Cheap to
/// clone; every clone sees the same tables.
#[derive(Clone)]
pub struct Loading {
    shared: Arc<(Mutex<Slot>, Condvar)>,
}

impl std::fmt::Debug for Loading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let slot = self.lock();
        f.debug_struct("Loading")
            .field("ready", &slot.tables.as_ref().map(|t| t.max_seeds()))
            .field("failed", &slot.failed)
            .finish()
    }
}

impl Loading {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.shared.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A handle that is already ready with `tables` (for tests, or tables
    /// obtained otherwise).
    pub fn done(tables: Arc<Tablebase>) -> Loading {
        let l = Loading {
            shared: Arc::default(),
        };
        l.lock().tables = Some(tables);
        l
    }

    /// The tables if they are ready; never waits.
    pub fn ready(&self) -> Option<Arc<Tablebase>> {
        self.lock().tables.clone()
    }

    /// Why there will be no tables, once that is known.
    pub fn failure(&self) -> Option<String> {
        self.lock().failed.clone()
    }

    /// True once the tables are ready or have failed.
    pub fn is_finished(&self) -> bool {
        let slot = self.lock();
        slot.tables.is_some() || slot.failed.is_some()
    }

    /// Waits until the tables are ready (or failed), at most `timeout`;
    /// returns them if ready.
    pub fn wait(&self, timeout: Duration) -> Option<Arc<Tablebase>> {
        let (mutex, cond) = &*self.shared;
        let guard = mutex.lock().unwrap_or_else(|e| e.into_inner());
        let (slot, _) = cond
            .wait_timeout_while(guard, timeout, |s| s.tables.is_none() && s.failed.is_none())
            .unwrap_or_else(|e| e.into_inner());
        slot.tables.clone()
    }

    fn finish(&self, result: Result<Arc<Tablebase>, String>) {
        let (_, cond) = &*self.shared;
        {
            let mut slot = self.lock();
            match result {
                Ok(t) => slot.tables = Some(t),
                Err(e) => slot.failed = Some(e),
            }
        }
        cond.notify_all();
    }
}

/// Opens or builds the tables for every board of up to `max_seeds` seeds
/// on a background thread, and returns at once.
///
/// - With `dir`: valid files there covering `max_seeds` are opened
///   (memory-mapped, about a second); otherwise the missing seed counts
///   are built into `dir` ([`build_to_dir`]: resumable, valid files kept),
///   so the next start opens them. If `dir` cannot be used (not writable,
///   a damaged file), the tables are built in memory instead
///   ([`Event::FallingBack`]).
/// - Without `dir`: built in memory.
///
/// Building uses all cores (rayon's pool). `progress` is called on the
/// background thread. Measured: 20 seeds in about 70 s on two idle cores,
/// 226 MB of files (docs/TABLEBASE.md).
pub fn load_or_build(
    dir: Option<PathBuf>,
    max_seeds: usize,
    progress: impl Fn(Event) + Send + Sync + 'static,
) -> Loading {
    in_background(progress, move |progress| {
        load_or_build_now(dir.as_ref(), max_seeds, progress)
    })
}

/// Runs `work` on the tablebase thread, then reports `Ready` or `Failed`
/// and finishes the returned [`Loading`] with its result.
fn in_background<P, W>(progress: P, work: W) -> Loading
where
    P: Fn(Event) + Send + Sync + 'static,
    W: FnOnce(&P) -> Result<Arc<Tablebase>, String> + Send + 'static,
{
    let loading = Loading {
        shared: Arc::default(),
    };
    let handle = loading.clone();
    let spawned = std::thread::Builder::new()
        .name("oware-tablebase".into())
        .spawn(move || {
            let started = Instant::now();
            let result = work(&progress);
            match &result {
                Ok(t) => progress(Event::Ready {
                    max_seeds: t.max_seeds().unwrap_or(0),
                    elapsed: started.elapsed(),
                }),
                Err(e) => progress(Event::Failed { reason: e.clone() }),
            }
            handle.finish(result);
        });
    if let Err(e) = spawned {
        loading.finish(Err(format!("cannot start the tablebase thread: {e}")));
    }
    loading
}

/// For programs that must not write files uninvited (the terminal game):
/// opens the tables in `dir` if it holds any (whatever seed counts they
/// cover), else builds `max_seeds` in memory; on a background thread, like
/// [`load_or_build`], writing nothing.
pub fn open_or_build_in_memory(
    dir: PathBuf,
    max_seeds: usize,
    progress: impl Fn(Event) + Send + Sync + 'static,
) -> Loading {
    in_background(progress, move |progress| match Tablebase::open(&dir) {
        Ok(t) if t.max_seeds().is_some() => {
            progress(Event::Opened {
                max_seeds: t.max_seeds().unwrap_or(0),
            });
            Ok(Arc::new(t))
        }
        Ok(_) => load_or_build_now(None, max_seeds, progress),
        Err(e) => {
            progress(Event::FallingBack {
                reason: e.to_string(),
            });
            load_or_build_now(None, max_seeds, progress)
        }
    })
}

fn load_or_build_now(
    dir: Option<&PathBuf>,
    max_seeds: usize,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<Arc<Tablebase>, String> {
    let last = Mutex::new((usize::MAX, Instant::now()));
    let building = |p: BuildProgress| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.0 != p.seeds || last.1.elapsed() >= Duration::from_millis(500) {
            *last = (p.seeds, Instant::now());
            drop(last);
            progress(Event::Building {
                seeds: p.seeds,
                done: p.done,
                total: p.total,
            });
        }
    };
    if let Some(dir) = dir {
        match Tablebase::open(dir) {
            Ok(t) if t.max_seeds().is_some_and(|n| n >= max_seeds) => {
                progress(Event::Opened {
                    max_seeds: t.max_seeds().unwrap_or(0),
                });
                return Ok(Arc::new(t));
            }
            _ => {}
        }
        let mut on_level = |seeds: usize, status: LevelStatus| {
            progress(Event::Level { seeds, status });
        };
        let built = build_to_dir(dir, max_seeds, &building, &mut on_level)
            .and_then(|()| Tablebase::open(dir));
        match built {
            Ok(t) if t.max_seeds().is_some_and(|n| n >= max_seeds) => return Ok(Arc::new(t)),
            Ok(_) => progress(Event::FallingBack {
                reason: format!("{}: files missing after the build", dir.display()),
            }),
            Err(e) => progress(Event::FallingBack {
                reason: e.to_string(),
            }),
        }
    }
    Tablebase::build_in_memory_with_progress(max_seeds, &building)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events() -> (
        Arc<Mutex<Vec<Event>>>,
        impl Fn(Event) + Send + Sync + 'static,
    ) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        (log, move |e| sink.lock().unwrap().push(e))
    }

    #[test]
    fn builds_in_memory_and_reports() {
        let (log, sink) = events();
        let loading = load_or_build(None, 6, sink);
        let tb = loading
            .wait(Duration::from_secs(60))
            .expect("six seeds build");
        assert_eq!(tb.max_seeds(), Some(6));
        assert!(loading.is_finished());
        assert!(loading.ready().is_some());
        let log = log.lock().unwrap();
        assert!(matches!(
            log.last(),
            Some(Event::Ready { max_seeds: 6, .. })
        ));
        assert!(log.iter().any(|e| matches!(e, Event::Building { .. })));
    }

    #[test]
    fn builds_to_a_directory_then_opens_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        let (log, sink) = events();
        let first = load_or_build(Some(path.clone()), 5, sink);
        assert_eq!(
            first.wait(Duration::from_secs(60)).unwrap().max_seeds(),
            Some(5)
        );
        assert!(log.lock().unwrap().contains(&Event::Level {
            seeds: 5,
            status: LevelStatus::Built
        }));
        // The second start opens the files instead of building.
        let (log, sink) = events();
        let second = load_or_build(Some(path), 5, sink);
        assert_eq!(
            second.wait(Duration::from_secs(60)).unwrap().max_seeds(),
            Some(5)
        );
        let log = log.lock().unwrap();
        assert_eq!(log[0], Event::Opened { max_seeds: 5 });
        assert!(!log.iter().any(|e| matches!(e, Event::Building { .. })));
    }

    #[test]
    fn a_damaged_directory_falls_back_to_memory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(crate::file::path_for(dir.path(), 0), b"not a table").unwrap();
        let (log, sink) = events();
        let loading = load_or_build(Some(dir.path().to_path_buf()), 4, sink);
        assert_eq!(
            loading.wait(Duration::from_secs(60)).unwrap().max_seeds(),
            Some(4)
        );
        assert!(log
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, Event::FallingBack { .. })));
    }

    #[test]
    fn open_or_build_in_memory_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (_, sink) = events();
        let loading = open_or_build_in_memory(dir.path().to_path_buf(), 4, sink);
        assert_eq!(
            loading.wait(Duration::from_secs(60)).unwrap().max_seeds(),
            Some(4)
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // With files there, it opens them, whatever they cover.
        let (_, sink) = events();
        load_or_build(Some(dir.path().to_path_buf()), 3, sink).wait(Duration::from_secs(60));
        let (log, sink) = events();
        let loading = open_or_build_in_memory(dir.path().to_path_buf(), 6, sink);
        assert_eq!(
            loading.wait(Duration::from_secs(60)).unwrap().max_seeds(),
            Some(3)
        );
        assert_eq!(log.lock().unwrap()[0], Event::Opened { max_seeds: 3 });
    }

    #[test]
    fn too_many_seeds_fails_without_tables() {
        let (log, sink) = events();
        let loading = load_or_build(None, crate::MAX_BUILD_SEEDS + 1, sink);
        assert!(loading.wait(Duration::from_secs(10)).is_none());
        assert!(loading.is_finished());
        assert!(loading.failure().is_some());
        assert!(matches!(
            log.lock().unwrap().last(),
            Some(Event::Failed { .. })
        ));
    }
}
