//! The distributed builder: the same files, built by K cooperating
//! processes ("ranks") that each hold one part of a seed count.
//!
//! The boards of a seed count are split over the ranks by index, in K
//! contiguous ranges of equal size. Each rank keeps the 32-bit words of its
//! own range only and runs the single-process passes ([`crate::build`]) on
//! it: exits, then per threshold the seed scan and the propagation to quiet
//! predecessors. A predecessor owned by another rank is not visited but
//! queued (`index << 1 | kind`, 8 bytes); after each local propagation the
//! ranks swap their queues in one all-to-all exchange, visit what they
//! received (which may resolve more boards and queue more visits), and
//! repeat until a global sum says no rank queued anything. Then the next
//! threshold starts. Within a threshold every assignment has the same
//! value and the set of boards assigned is a least fixpoint, so the order
//! in which the visits arrive does not change it: the words at the end of
//! each threshold, and so the files, are those of the single-process build.
//!
//! The palette is the union of every rank's pairs (an all-gather of a
//! 49 × 49 bit set), in the same (lower, upper) order as the single build.
//! Each rank writes its bytes at its offset in the shared temporary file
//! and sends the CRC-32 of its part; rank 0 combines them into the file's
//! checksum, writes the header and renames the file. A count whose file is
//! already there and valid is kept, so a build that lost a rank resumes
//! from the last count finished.
//!
//! Counts up to [`crate::REFINE_MAX_SEEDS`] (the cycle step, 0.5 M boards
//! in all) are built whole by rank 0 with the single-process builder. Every
//! rank maps the files of the counts below the one being built, for the
//! exits (a shared file system; see docs/SOLVING.md for what a cluster
//! needs instead).
//!
//! The transport is the [`Comm`] trait: the `oware` binary implements it
//! with MPI (feature `mpi`); the tests with threads in one process.

use std::fs::{File, OpenOptions};
use std::path::Path;

use std::time::Instant;

use rayon::prelude::*;

use crate::build::{self, Propagator};
use crate::{file, index, BuildProgress, Level, LevelStatus, TbError};

/// The collective operations the distributed builder needs. Every rank
/// calls the same operations in the same order.
pub trait Comm {
    /// This process's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Waits until every rank has called it.
    fn barrier(&self);
    /// Every rank's `mine` (all the same length), in rank order.
    fn all_gather(&self, mine: &[u64]) -> Vec<u64>;
    /// Sends `out[r]` to rank `r`, for every `r` (`out.len() == size()`),
    /// and returns what the ranks sent to this one, concatenated.
    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<u64>;
}

/// What the distributed builder did for one seed count (the same on every
/// rank, except `local_*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistLevelReport {
    /// The seed count.
    pub seeds: usize,
    /// Kept (a valid file was there) or built.
    pub status: LevelStatus,
    /// Whether the count was split over the ranks (false: built whole by
    /// rank 0, or kept).
    pub partitioned: bool,
    /// Boards of the count.
    pub boards: u64,
    /// Boards of this rank's part.
    pub local_boards: u64,
    /// Wall time of the count on this rank, file written.
    pub seconds: f64,
    /// Predecessor visits sent between ranks, all ranks together (8 bytes each).
    pub messages: u64,
    /// Exchange rounds (all thresholds).
    pub rounds: u64,
}

/// What a distributed build did on this rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistSummary {
    /// Predecessor visits this rank sent to others.
    pub messages_sent: u64,
    /// The largest anonymous (private) resident memory seen at the end of a
    /// count's build, when both the words and the encoded bytes are held
    /// (Linux `RssAnon`; `None` elsewhere).
    pub peak_private_bytes: Option<u64>,
}

/// The first index of each rank's range, and the count at the end.
pub fn partition(count: u64, ranks: usize) -> Vec<u64> {
    (0..=ranks as u128)
        .map(|r| (count as u128 * r / ranks as u128) as u64)
        .collect()
}

/// Builds the files for 0..=`max_seeds` seeds in `dir` with every rank of
/// `comm` (each rank calls this with the same arguments), keeping the files
/// already there and valid, like [`crate::build_to_dir`], whose files these
/// are byte for byte. `on_level` is called on every rank.
pub fn build_to_dir_distributed(
    dir: impl AsRef<Path>,
    max_seeds: usize,
    comm: &dyn Comm,
    progress: &(dyn Fn(BuildProgress) + Sync),
    on_level: &mut dyn FnMut(&DistLevelReport),
) -> Result<DistSummary, TbError> {
    let dir = dir.as_ref();
    if max_seeds > crate::MAX_BUILD_SEEDS {
        return Err(TbError::TooManySeeds { seeds: max_seeds });
    }
    if comm.rank() == 0 {
        std::fs::create_dir_all(dir).map_err(|source| TbError::Io {
            path: dir.to_owned(),
            source,
        })?;
    }
    comm.barrier();
    let mut summary = DistSummary::default();
    let mut levels: Vec<Level> = Vec::new();
    let refine_max = crate::REFINE_MAX_SEEDS;
    for n in 0..=max_seeds {
        let path = file::path_for(dir, n);
        let t0 = Instant::now();
        let count = index::count(n);
        // Every rank must agree on whether the count is to be built.
        let there = comm.all_gather(&[path.exists() as u64]);
        if there.iter().all(|&x| x == 1) {
            levels.push(file::open_level(&path, n)?);
            on_level(&DistLevelReport {
                seeds: n,
                status: LevelStatus::Kept,
                partitioned: false,
                boards: count,
                local_boards: 0,
                seconds: t0.elapsed().as_secs_f64(),
                messages: 0,
                rounds: 0,
            });
            continue;
        }
        let mut report = DistLevelReport {
            seeds: n,
            status: LevelStatus::Built,
            partitioned: n > refine_max,
            boards: count,
            local_boards: count,
            seconds: 0.0,
            messages: 0,
            rounds: 0,
        };
        if n <= refine_max {
            // Small counts with the cycle step: the single-process builder,
            // on rank 0.
            let r = if comm.rank() == 0 {
                let r = build::build_level(n, &levels, progress)
                    .and_then(|level| file::write_level(&path, &level));
                summary.peak_private_bytes = summary.peak_private_bytes.max(private_bytes());
                r
            } else {
                report.local_boards = 0;
                Ok(())
            };
            // Every rank learns whether rank 0 failed, so none waits for ever.
            let failed = comm.all_gather(&[r.is_err() as u64]);
            r?;
            if failed[0] != 0 {
                return Err(TbError::Remote { rank: 0, seeds: n });
            }
        } else {
            let part = partition(count, comm.size());
            let r = comm.rank();
            let (lo, hi) = (part[r], part[r + 1]);
            report.local_boards = hi - lo;
            let built = build_part(n, &levels, comm, &part, progress)?;
            summary.messages_sent += built.sent;
            summary.peak_private_bytes = summary.peak_private_bytes.max(built.private);
            report.messages = built.messages;
            report.rounds = built.rounds;
            write_part(&path, n, comm, lo, &built.codes, &built.palette)?;
        }
        levels.push(file::open_level(&path, n)?);
        report.seconds = t0.elapsed().as_secs_f64();
        on_level(&report);
    }
    Ok(summary)
}

/// Slices of each threshold's seed scan, each with its own exchange rounds:
/// bounds the queued visits to about 1/SLICES of a threshold's.
const SLICES: usize = 16;

/// One rank's part of a count, built.
struct Part {
    /// The bytes of the rank's boards.
    codes: Vec<u8>,
    /// The count's palette (the same on every rank).
    palette: build::Palette,
    /// Visits exchanged, all ranks together.
    messages: u64,
    /// Exchange rounds.
    rounds: u64,
    /// Visits this rank sent.
    sent: u64,
    /// The largest private memory seen.
    private: Option<u64>,
}

/// Builds this rank's part of the count of `n` seeds.
fn build_part(
    n: usize,
    lower: &[Level],
    comm: &dyn Comm,
    part: &[u64],
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Part, TbError> {
    let r = comm.rank();
    let (lo, hi) = (part[r], part[r + 1]);
    let len = (hi - lo) as usize;
    let total_units = 3 * len as u64;
    let reporter = build::Reporter::new(n, total_units, progress);
    let report = |k: u64| reporter.add(k);
    let mut words = vec![0u32; len];
    build::advise_huge_pages(&mut words);
    build::exits_pass(n, lower, &mut words, lo, &report);
    let state = build::atomic(&mut words);
    let (mut messages, mut rounds, mut sent) = (0u64, 0u64, 0u64);
    let mut private = None;
    let n8 = n as u8;
    let ranks = comm.size();
    for t in (1..=n8).rev() {
        // The seed scan in slices, each followed by its exchange rounds, so
        // the queues hold the remote visits of a slice, not of the whole
        // range (the threshold's result is a fixpoint: the order of seeds and
        // visits does not change it). Every rank runs the same slices.
        for slice in 0..SLICES {
            let scan = len * slice / SLICES..len * (slice + 1) / SLICES;
            let (_, mut outbox) = build::seed_pass(n, t, state, lo as usize, scan, &report);
            loop {
                let total: u64 = comm
                    .all_gather(&[0, outbox.len() as u64])
                    .chunks(2)
                    .map(|c| c[1])
                    .sum();
                if total == 0 {
                    break;
                }
                messages += total;
                rounds += 1;
                sent += outbox.len() as u64;
                let mut out = vec![Vec::new(); ranks];
                for m in std::mem::take(&mut outbox) {
                    let q = m >> 1;
                    let dest = part.partition_point(|&s| s <= q) - 1;
                    out[dest].push(m);
                }
                let received = comm.exchange(out);
                outbox = received
                    .par_chunks(4096)
                    .map(|ms| {
                        let mut prop = Propagator::new(n8, t, state, lo as usize);
                        for &m in ms {
                            let q = m >> 1;
                            let board = index::unrank(n, q).expect("in range");
                            prop.visit((
                                (q - lo) as usize,
                                index::key_of_board(&board),
                                m & 1 != 0,
                            ));
                            prop.run();
                        }
                        report(prop.assigned);
                        prop.outbox
                    })
                    .reduce(Vec::new, |mut a, mut b| {
                        a.append(&mut b);
                        a
                    });
                // Messages received and queued are held now, with the words.
                private = private.max(private_bytes());
            }
        }
    }
    // The palette: the union of every rank's pairs.
    let used = build::used_pairs(n, &words);
    let mut bits = [0u64; 49 * 49 / 64 + 1];
    for (i, &u) in used.iter().flatten().enumerate() {
        bits[i / 64] |= (u as u64) << (i % 64);
    }
    let all = comm.all_gather(&bits);
    let mut union = [[false; 49]; 49];
    for (i, u) in union.iter_mut().flatten().enumerate() {
        *u = all
            .chunks(bits.len())
            .any(|b| b[i / 64] >> (i % 64) & 1 != 0);
    }
    let (palette, code) = build::make_palette(n, &union)?;
    let codes = build::encode(n, &words, &code);
    // The peak of the count: the words and the bytes are both held.
    let private = private.max(private_bytes());
    Ok(Part {
        codes,
        palette,
        messages,
        rounds,
        sent,
        private,
    })
}

/// Writes this rank's bytes into the count's file; rank 0 writes the
/// header with the checksum combined from every part and renames the file.
fn write_part(
    path: &Path,
    n: usize,
    comm: &dyn Comm,
    lo: u64,
    codes: &[u8],
    palette: &[(u8, u8)],
) -> Result<(), TbError> {
    let tmp = path.with_extension("otb.tmp");
    let io = |source| TbError::Io {
        path: tmp.clone(),
        source,
    };
    let header = file::header_bytes(n, palette);
    let step = |r: Result<(), TbError>| -> Result<(), TbError> {
        // Every rank learns whether any failed, so none waits for ever.
        let failed = comm.all_gather(&[r.is_err() as u64]);
        r?;
        match failed.iter().position(|&f| f != 0) {
            Some(rank) => Err(TbError::Remote { rank, seeds: n }),
            None => Ok(()),
        }
    };
    step(if comm.rank() == 0 {
        (|| {
            let f = File::create(&tmp).map_err(io)?;
            f.set_len(file::HEADER_LEN as u64 + index::count(n))
                .map_err(io)?;
            Ok(())
        })()
    } else {
        Ok(())
    })?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(codes);
    let crc = crc.finalize();
    step((|| {
        use std::os::unix::fs::FileExt;
        let f = OpenOptions::new().write(true).open(&tmp).map_err(io)?;
        f.write_all_at(codes, file::HEADER_LEN as u64 + lo)
            .map_err(io)?;
        f.sync_all().map_err(io)?;
        Ok(())
    })())?;
    let parts = comm.all_gather(&[crc as u64, codes.len() as u64]);
    step(if comm.rank() == 0 {
        (|| {
            use std::os::unix::fs::FileExt;
            let mut h = header;
            let mut whole = crc32fast::Hasher::new();
            whole.update(&h);
            for p in parts.chunks(2) {
                whole.combine(&crc32fast::Hasher::new_with_initial_len(p[0] as u32, p[1]));
            }
            h[32..36].copy_from_slice(&whole.finalize().to_le_bytes());
            let f = OpenOptions::new().write(true).open(&tmp).map_err(io)?;
            f.write_all_at(&h, 0).map_err(io)?;
            f.sync_all().map_err(io)?;
            drop(f);
            std::fs::rename(&tmp, path).map_err(|source| TbError::Io {
                path: path.to_owned(),
                source,
            })
        })()
    } else {
        Ok(())
    })
}

/// This process's anonymous resident memory (Linux `RssAnon`), if known.
pub fn private_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
