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
//! **Exits.** A rank keeps, of every finished count, only the bytes of its
//! own range of that count (the same partition), in RAM, or mapped from
//! its range of the file when a memory budget is set. A capture whose
//! result lies in another rank's range becomes a request (`index << 6 |
//! seeds`, 8 bytes) to that rank, which answers with the byte (eight to a
//! word), in the order asked; the exits pass runs in slices, each with one
//! request and one answer exchange. An exit is merged by a maximum, so the
//! order of the answers does not matter either.
//!
//! The palette is the union of every rank's pairs (an all-gather of a
//! 49 × 49 bit set), in the same (lower, upper) order as the single build.
//! Each rank writes its bytes at its offset in the shared temporary file
//! and sends the CRC-32 of its part; rank 0 combines them into the file's
//! checksum, writes the header and renames the file. A count whose file is
//! already there and valid is kept (rank 0 checks it whole, each rank then
//! reads its range), so a build that lost a rank resumes from the last
//! count finished.
//!
//! Counts up to [`crate::REFINE_MAX_SEEDS`] (the cycle step, 0.5 M boards
//! in all) are built whole by rank 0 with the single-process builder and
//! held whole by every rank.
//!
//! **Memory budget** ([`DistOptions::memory_budget`]): when a count's
//! working arrays on a rank (4 bytes a board for the words, 1 for the
//! bytes) exceed it, they live in memory-mapped files of the build folder
//! instead of RAM (`src/spill.rs`).
//!
//! The transport is the [`Comm`] trait: the `oware` binary implements it
//! with MPI (feature `mpi`); the tests with threads in one process;
//! [`Solo`] is one process alone.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::Path;

use std::time::Instant;

use rayon::prelude::*;

use crate::build::{self, Propagator, CHUNK, PENDING};
use crate::index::Boards;
use crate::spill::Buf;
use crate::{file, index, BuildProgress, Bytes, Level, LevelStatus, TbError};

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
    /// and returns what the ranks sent to this one, concatenated in rank
    /// order, with the number of words from each rank.
    fn exchange(&self, out: Vec<Vec<u64>>) -> (Vec<u64>, Vec<usize>);
}

/// One process alone: the distributed builder on one rank (what `oware
/// tablebase build --memory-budget-mb` uses without an MPI launcher).
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Comm for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn barrier(&self) {}
    fn all_gather(&self, mine: &[u64]) -> Vec<u64> {
        mine.to_vec()
    }
    fn exchange(&self, out: Vec<Vec<u64>>) -> (Vec<u64>, Vec<usize>) {
        let from = out.iter().map(Vec::len).collect();
        (out.concat(), from)
    }
}

/// How the distributed builder may use memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistOptions {
    /// Bytes a rank may spend on a count's working arrays (4 bytes a board
    /// of its range for the words, 1 for the encoded bytes). Above it both
    /// are kept in memory-mapped files of the build folder instead of RAM.
    /// With a budget, the finished counts' ranges are also mapped from
    /// their files rather than copied into RAM. `None`: everything in RAM.
    pub memory_budget: Option<u64>,
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
    /// Exchange rounds of predecessor visits (all thresholds).
    pub rounds: u64,
    /// Exit look-ups sent to the rank that owns the board, all ranks
    /// together (8 bytes each, answered with one byte each).
    pub exit_requests: u64,
    /// Bytes sent between ranks, all ranks together: visits, exit requests
    /// and their answers.
    pub bytes: u64,
    /// Whether this rank kept its working arrays in mapped files (the
    /// memory budget was exceeded).
    pub spilled: bool,
}

/// What a distributed build did on this rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistSummary {
    /// Bytes this rank sent to others (visits, exit requests and answers).
    pub bytes_sent: u64,
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
    options: DistOptions,
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
    // Every finished count as this rank holds it: whole up to the cycle
    // step's limit, else this rank's range only (`firsts`: its first index).
    let mut levels: Vec<Level> = Vec::new();
    let mut firsts: Vec<u64> = Vec::new();
    let refine_max = crate::REFINE_MAX_SEEDS;
    let map_lower = options.memory_budget.is_some();
    for n in 0..=max_seeds {
        let path = file::path_for(dir, n);
        let t0 = Instant::now();
        let count = index::count(n);
        let part = partition(count, comm.size());
        let r = comm.rank();
        let (lo, hi) = (part[r], part[r + 1]);
        // Every rank must agree on whether the count is to be built.
        let there = comm.all_gather(&[path.exists() as u64]);
        if there.iter().all(|&x| x == 1) {
            if n <= refine_max {
                levels.push(file::open_level(&path, n)?);
                firsts.push(0);
            } else {
                // Rank 0 checks the whole file; each rank then takes its range.
                let checked = if r == 0 {
                    file::open_level(&path, n).map(drop)
                } else {
                    Ok(())
                };
                agree(comm, n, checked)?;
                levels.push(load_range(&path, n, lo, hi, map_lower)?);
                firsts.push(lo);
            }
            on_level(&DistLevelReport {
                seeds: n,
                status: LevelStatus::Kept,
                partitioned: false,
                boards: count,
                local_boards: 0,
                seconds: t0.elapsed().as_secs_f64(),
                messages: 0,
                rounds: 0,
                exit_requests: 0,
                bytes: 0,
                spilled: false,
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
            exit_requests: 0,
            bytes: 0,
            spilled: false,
        };
        if n <= refine_max {
            // Small counts with the cycle step: the single-process builder,
            // on rank 0.
            let built = if r == 0 {
                let b = build::build_level(n, &levels, progress)
                    .and_then(|level| file::write_level(&path, &level));
                summary.peak_private_bytes = summary.peak_private_bytes.max(private_bytes());
                b
            } else {
                report.local_boards = 0;
                Ok(())
            };
            agree(comm, n, built)?;
            levels.push(file::open_level(&path, n)?);
            firsts.push(0);
        } else {
            report.local_boards = hi - lo;
            let built = build_part(n, &levels, &firsts, comm, &part, dir, options, progress)?;
            summary.bytes_sent += built.bytes_sent;
            summary.peak_private_bytes = summary.peak_private_bytes.max(built.private);
            report.messages = built.messages;
            report.rounds = built.rounds;
            report.exit_requests = built.exit_requests;
            report.bytes = built.bytes;
            report.spilled = built.codes.is_spilled();
            write_part(&path, n, comm, lo, &built.codes, &built.palette)?;
            // Keep this rank's range of the count for the exits of the
            // counts above.
            levels.push(match built.codes.into_vec() {
                Some(codes) if !map_lower => Level::owned(n, codes, built.palette),
                _ => load_range(&path, n, lo, hi, true)?,
            });
            firsts.push(lo);
        }
        report.seconds = t0.elapsed().as_secs_f64();
        on_level(&report);
    }
    Ok(summary)
}

/// Every rank learns whether any rank failed (`r` is this rank's outcome),
/// so none waits for ever in a collective.
fn agree(comm: &dyn Comm, n: usize, r: Result<(), TbError>) -> Result<(), TbError> {
    let failed = comm.all_gather(&[r.is_err() as u64]);
    r?;
    match failed.iter().position(|&f| f != 0) {
        Some(rank) => Err(TbError::Remote { rank, seeds: n }),
        None => Ok(()),
    }
}

/// The boards `lo..hi` of the file of `n` seeds (checked whole by rank 0)
/// and its palette: read into RAM, or mapped (`map`).
fn load_range(path: &Path, n: usize, lo: u64, hi: u64, map: bool) -> Result<Level, TbError> {
    let io = |source| TbError::Io {
        path: path.to_owned(),
        source,
    };
    let f = File::open(path).map_err(io)?;
    let mut h = [0u8; file::HEADER_LEN];
    f.read_exact_at(&mut h, 0).map_err(io)?;
    let plen = u32::from_le_bytes(h[24..28].try_into().expect("4 bytes")) as usize;
    let palette = (0..plen.min(256))
        .map(|i| (h[64 + 2 * i], h[65 + 2 * i]))
        .collect();
    let len = (hi - lo) as usize;
    let at = file::HEADER_LEN as u64 + lo;
    let bytes = if map && len > 0 {
        // SAFETY: read-only, and the builder replaces files by rename, never
        // in place (as for `file::open_level`).
        Bytes::Mapped(
            unsafe { memmap2::MmapOptions::new().offset(at).len(len).map(&f) }.map_err(io)?,
        )
    } else {
        let mut v = vec![0u8; len];
        f.read_exact_at(&mut v, at).map_err(io)?;
        Bytes::Owned(v)
    };
    Ok(Level {
        seeds: n,
        bytes,
        offset: 0,
        palette,
    })
}

/// Slices of each threshold's seed scan, each with its own exchange rounds:
/// bounds the queued visits to about 1/SLICES of a threshold's.
const SLICES: usize = 16;

/// One rank's part of a count, built.
struct Part {
    /// The bytes of the rank's boards.
    codes: Buf<u8>,
    /// The count's palette (the same on every rank).
    palette: build::Palette,
    /// Visits exchanged, all ranks together.
    messages: u64,
    /// Exchange rounds of visits.
    rounds: u64,
    /// Exit look-ups sent between ranks, all ranks together.
    exit_requests: u64,
    /// Bytes exchanged, all ranks together.
    bytes: u64,
    /// Bytes this rank sent.
    bytes_sent: u64,
    /// The largest private memory seen.
    private: Option<u64>,
}

/// Builds this rank's part of the count of `n` seeds.
#[allow(clippy::too_many_arguments)]
fn build_part(
    n: usize,
    lower: &[Level],
    firsts: &[u64],
    comm: &dyn Comm,
    part: &[u64],
    dir: &Path,
    options: DistOptions,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Part, TbError> {
    let r = comm.rank();
    let (lo, hi) = (part[r], part[r + 1]);
    let len = (hi - lo) as usize;
    let total_units = 3 * len as u64;
    let reporter = build::Reporter::new(n, total_units, progress);
    let report = |k: u64| reporter.add(k);
    let spill = options.memory_budget.is_some_and(|b| 5 * len as u64 > b);
    let spill_path = |what: &str| dir.join(format!(".oware-tb-{n:02}.rank{r}.{what}"));
    let mut words: Buf<u32> = Buf::zeroed(len, spill.then(|| spill_path("words")).as_deref())?;
    if !words.is_spilled() {
        build::advise_huge_pages(&mut words);
    }
    let exits = exits_pass(n, lower, firsts, &mut words, lo, comm, &report);
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
                    let dest = owner(part, q);
                    out[dest].push(m);
                }
                let (received, _) = comm.exchange(out);
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
    let mut codes: Buf<u8> = Buf::zeroed(len, spill.then(|| spill_path("bytes")).as_deref())?;
    build::encode_into(n, &words, &code, &mut codes);
    // The peak of the count: the words and the bytes are both held.
    let private = private.max(private_bytes());
    drop(words);
    Ok(Part {
        codes,
        palette,
        messages,
        rounds,
        exit_requests: exits.requests,
        bytes: 8 * (messages + exits.words),
        bytes_sent: 8 * (sent + exits.words_sent),
        private,
    })
}

/// The rank whose range of `part` holds index `q`.
#[inline]
fn owner(part: &[u64], q: u64) -> usize {
    part.partition_point(|&s| s <= q) - 1
}

/// What the distributed exits pass exchanged.
struct ExitTraffic {
    /// Look-ups sent between ranks, all ranks together.
    requests: u64,
    /// Words sent (requests and packed answers), all ranks together.
    words: u64,
    /// Words this rank sent.
    words_sent: u64,
}

/// Pass 1 over this rank's boards `lo..lo + words.len()`: each word gets
/// the board's exits and its number of quiet moves, as in
/// [`build::exits_pass`], but a capture whose result is in another rank's
/// range is asked of that rank. In [`SLICES`] slices, each with one
/// exchange of requests and one of answers.
fn exits_pass(
    n: usize,
    lower: &[Level],
    firsts: &[u64],
    words: &mut [u32],
    lo: u64,
    comm: &dyn Comm,
    report: &(dyn Fn(u64) + Sync),
) -> ExitTraffic {
    let (rank, ranks) = (comm.rank(), comm.size());
    // The owners' ranges of every partitioned count below n (None: whole here).
    let parts: Vec<Option<Vec<u64>>> = (0..n)
        .map(|m| (m > crate::REFINE_MAX_SEEDS).then(|| partition(index::count(m), ranks)))
        .collect();
    let len = words.len();
    let (mut asked_sent, mut answers_sent) = (0u64, 0u64);
    for slice in 0..SLICES {
        let scan = len * slice / SLICES..len * (slice + 1) / SLICES;
        let base = lo + scan.start as u64;
        // Per chunk: the requests for each rank (`index << 6 | seeds`) and,
        // in the same order, the local board waiting for each answer
        // (`local index << 6 | seeds`).
        type Asks = (Vec<Vec<u64>>, Vec<Vec<u64>>);
        let asks: Vec<Asks> = words[scan.clone()]
            .par_chunks_mut(CHUNK as usize)
            .enumerate()
            .map(|(c, chunk)| {
                let start = base + c as u64 * CHUNK;
                let end = start + chunk.len() as u64;
                let mut req = vec![Vec::new(); ranks];
                let mut wait = vec![Vec::new(); ranks];
                for (i, board) in Boards::range(n, start, end) {
                    let local = i - lo;
                    let (l, h, cnt) = build::exits_with(n, &board, |m, q| match &parts[m] {
                        None => Some(lower[m].bounds(q)),
                        Some(p) => {
                            let o = owner(p, q);
                            if o == rank {
                                Some(lower[m].bounds(q - firsts[m]))
                            } else {
                                req[o].push(q << 6 | m as u64);
                                wait[o].push(local << 6 | m as u64);
                                None
                            }
                        }
                    });
                    chunk[(i - start) as usize] = build::word(cnt, PENDING | l, PENDING | h);
                }
                report(end - start);
                (req, wait)
            })
            .collect();
        let mut out = vec![Vec::new(); ranks];
        let mut waits = vec![Vec::new(); ranks];
        for (req, wait) in asks {
            for (d, (q, w)) in req.into_iter().zip(wait).enumerate() {
                out[d].extend(q);
                waits[d].extend(w);
            }
        }
        asked_sent += out.iter().map(|v| v.len() as u64).sum::<u64>();
        let (asked, from) = comm.exchange(out);
        // Answer each rank's requests in its order: the byte, eight a word.
        let mut answers = Vec::with_capacity(ranks);
        let mut at = 0;
        for k in from {
            let mine = &asked[at..at + k];
            at += k;
            answers.push(
                mine.par_chunks(8)
                    .map(|c| {
                        c.iter().enumerate().fold(0u64, |w, (j, &q)| {
                            let m = (q & 63) as usize;
                            let code = lower[m].codes()[((q >> 6) - firsts[m]) as usize];
                            w | (code as u64) << (8 * j)
                        })
                    })
                    .collect::<Vec<u64>>(),
            );
        }
        drop(asked);
        answers_sent += answers.iter().map(|v| v.len() as u64).sum::<u64>();
        let (answered, from) = comm.exchange(answers);
        let mut at = 0;
        for (wait, k) in waits.iter().zip(from) {
            debug_assert_eq!(k, wait.len().div_ceil(8));
            for (j, &p) in wait.iter().enumerate() {
                let code = (answered[at + j / 8] >> (8 * (j % 8))) as u8;
                let m = (p & 63) as usize;
                let local = (p >> 6) as usize;
                let bounds = lower[m].palette[code as usize];
                words[local] = build::merge_exit(n, words[local], bounds);
            }
            at += k;
        }
    }
    let all = comm.all_gather(&[asked_sent, answers_sent]);
    ExitTraffic {
        requests: all.chunks(2).map(|c| c[0]).sum(),
        words: all.iter().sum(),
        words_sent: asked_sent + answers_sent,
    }
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
    let step = |r: Result<(), TbError>| agree(comm, n, r);
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
        let f = OpenOptions::new().write(true).open(&tmp).map_err(io)?;
        f.write_all_at(codes, file::HEADER_LEN as u64 + lo)
            .map_err(io)?;
        f.sync_all().map_err(io)?;
        Ok(())
    })())?;
    let parts = comm.all_gather(&[crc as u64, codes.len() as u64]);
    step(if comm.rank() == 0 {
        (|| {
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
