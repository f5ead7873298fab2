//! The distributed builder, with K ranks as threads of one process: its
//! files must equal the single-process build's byte for byte. (The MPI
//! transport is tested by scripts/test-mpi.sh.)

#![cfg(unix)]

use std::path::Path;
use std::sync::{Arc, Barrier, Mutex, OnceLock};

use oware_tablebase::dist::{
    build_to_dir_distributed, partition, Comm, DistLevelReport, DistOptions, Solo,
};
use oware_tablebase::{build_to_dir, file, LevelStatus, REFINE_MAX_SEEDS};

/// Counts 11 and up are split over the ranks (up to 10 rank 0 builds them,
/// and every rank holds them whole). The builds from an empty folder go up
/// to `N - 1`; 13 is the first count whose captures (of 2 seeds or more)
/// reach a split count, so its exits are asked of other ranks, and it is
/// built on top of the single-process files of the counts below.
const N: usize = 13;

struct Shared {
    barrier: Barrier,
    gather: Mutex<Vec<Vec<u64>>>,
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
}

/// A [`Comm`] between threads.
struct ThreadComm {
    rank: usize,
    size: usize,
    shared: Arc<Shared>,
}

impl Comm for ThreadComm {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn barrier(&self) {
        self.shared.barrier.wait();
    }
    fn all_gather(&self, mine: &[u64]) -> Vec<u64> {
        self.shared.gather.lock().unwrap()[self.rank] = mine.to_vec();
        self.barrier();
        let all = self.shared.gather.lock().unwrap().concat();
        self.barrier();
        all
    }
    fn exchange(&self, out: Vec<Vec<u64>>) -> (Vec<u64>, Vec<usize>) {
        assert_eq!(out.len(), self.size);
        {
            let mut mail = self.shared.mail.lock().unwrap();
            for (dest, v) in out.into_iter().enumerate() {
                mail[dest][self.rank] = v;
            }
        }
        self.barrier();
        // Emptied before the barrier: after it another rank may already be
        // in its next exchange, writing here.
        let mine = std::mem::replace(
            &mut self.shared.mail.lock().unwrap()[self.rank],
            vec![Vec::new(); self.size],
        );
        self.barrier();
        let from = mine.iter().map(Vec::len).collect();
        (mine.concat(), from)
    }
}

/// Runs the distributed build of 0..=`max` with `k` thread ranks; returns
/// rank 0's reports.
fn build_with(dir: &Path, max: usize, k: usize, options: DistOptions) -> Vec<DistLevelReport> {
    let shared = Arc::new(Shared {
        barrier: Barrier::new(k),
        gather: Mutex::new(vec![Vec::new(); k]),
        mail: Mutex::new(vec![vec![Vec::new(); k]; k]),
    });
    let handles: Vec<_> = (0..k)
        .map(|rank| {
            let comm = ThreadComm {
                rank,
                size: k,
                shared: shared.clone(),
            };
            let dir = dir.to_owned();
            std::thread::spawn(move || {
                let mut reports = Vec::new();
                build_to_dir_distributed(&dir, max, &comm, options, &|_| {}, &mut |r| {
                    reports.push(*r)
                })
                .unwrap();
                reports
            })
        })
        .collect();
    let mut all: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    all.swap_remove(0)
}

/// The single-process build of 0..=N, made once for all the tests.
fn single() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build_to_dir(dir.path(), N, &|_| {}, &mut |_, _| {}).unwrap();
        dir
    })
    .path()
}

/// A folder holding the single-process files of 0..=`max`.
fn copy_of_single(max: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for n in 0..=max {
        std::fs::copy(file::path_for(single(), n), file::path_for(dir.path(), n)).unwrap();
    }
    dir
}

/// The files of 0..=`max` in `b` equal the single-process ones, and `b`
/// holds no other file (temporary or spilled).
fn assert_same_files(b: &Path, max: usize) {
    let a = single();
    for n in 0..=max {
        let x = std::fs::read(file::path_for(a, n)).unwrap();
        let y = std::fs::read(file::path_for(b, n)).unwrap();
        assert!(x == y, "{n} seeds: files differ");
    }
    let names = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    let mut expected = names(a);
    expected.truncate(max + 1);
    assert_eq!(expected, names(b), "no other files (temporary ones) left");
}

#[test]
fn distributed_files_equal_the_single_process_build_and_resume() {
    let max = N - 1;
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let dir = tempfile::tempdir().unwrap();
        let reports = build_with(dir.path(), max, k, DistOptions::default());
        assert_same_files(dir.path(), max);
        assert_eq!(reports.len(), max + 1);
        for r in &reports {
            assert_eq!(r.status, LevelStatus::Built);
            assert_eq!(r.partitioned, r.seeds > REFINE_MAX_SEEDS);
            if r.partitioned {
                let part = partition(r.boards, k);
                assert_eq!(r.local_boards, part[1] - part[0]);
                // Predecessors cross ranks exactly when there are several;
                // captures from 12 seeds or fewer reach only whole counts.
                assert_eq!(r.messages > 0, k > 1, "{} seeds, {k} ranks", r.seeds);
                assert_eq!(r.exit_requests, 0);
                assert!(!r.spilled);
            }
        }
        dirs.push(dir);
    }
    // A rank died while the 3-rank build wrote its last count: the file is
    // missing and a temporary file is left half written. Two ranks resume.
    let dir = dirs[2].path();
    let last = file::path_for(dir, max);
    std::fs::remove_file(&last).unwrap();
    std::fs::write(last.with_extension("otb.tmp"), b"partial").unwrap();
    let reports = build_with(dir, max, 2, DistOptions::default());
    let built: Vec<usize> = reports
        .iter()
        .filter(|r| r.status == LevelStatus::Built)
        .map(|r| r.seeds)
        .collect();
    assert_eq!(built, vec![max]);
    assert_same_files(dir, max);
}

#[test]
fn exits_are_asked_of_the_owner_and_a_tiny_budget_spills() {
    // On the single-process files of 0..N-1 (each rank reads its range of
    // the split ones), count N with 2 ranks, then with 3 ranks and a 1-byte
    // budget (everything spilled, the lower ranges mapped), then alone
    // (`Solo`, as `oware tablebase build --memory-budget-mb` runs without
    // mpirun) with the same budget.
    let tiny = DistOptions {
        memory_budget: Some(1),
    };
    for (k, options) in [(2, DistOptions::default()), (3, tiny)] {
        let dir = copy_of_single(N - 1);
        let reports = build_with(dir.path(), N, k, options);
        let r = reports.last().unwrap();
        assert_eq!((r.seeds, r.status), (N, LevelStatus::Built));
        assert!(r.exit_requests > 0, "{k} ranks");
        assert!(r.bytes > 8 * (r.messages + r.exit_requests));
        assert_eq!(r.spilled, options.memory_budget.is_some());
        // No spill file is left: each is unlinked once mapped.
        assert_same_files(dir.path(), N);
    }
    let dir = copy_of_single(N - 1);
    let mut last = None;
    build_to_dir_distributed(dir.path(), N, &Solo, tiny, &|_| {}, &mut |r| {
        last = Some(*r)
    })
    .unwrap();
    let r = last.unwrap();
    assert_eq!(
        (r.seeds, r.status, r.spilled),
        (N, LevelStatus::Built, true)
    );
    assert_eq!(r.exit_requests, 0);
    assert_same_files(dir.path(), N);
}

#[test]
fn partition_covers_every_index_once() {
    for (count, k) in [(0, 1), (7, 3), (1_352_078, 2), (417_225_900, 64)] {
        let p = partition(count, k);
        assert_eq!(p.len(), k + 1);
        assert_eq!((p[0], p[k]), (0, count));
        assert!(p
            .windows(2)
            .all(|w| w[0] <= w[1] && w[1] - w[0] <= count / k as u64 + 1));
    }
}
