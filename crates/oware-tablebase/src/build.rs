//! The retrograde builder of one seed count.
//!
//! For a board `p` with `n` seeds on it, the builder computes two numbers,
//! the bounds `lo(p) ≤ hi(p)` documented in the crate root. They satisfy
//!
//! ```text
//! lo(p) = max over moves m of  exit_lo(m)               if m captures (or p has no moves: own row)
//!                              n - hi(child)            if m captures nothing
//! hi(p) = max over moves m of  exit_hi(m)  or  n - lo(child)
//! ```
//!
//! With infinite play (a cycle that never captures) counted as the worst
//! case for each bound, `lo` is the least and `hi` the greatest solution;
//! the cycle step ([`refine`]) lifts `lo` and lowers `hi` towards each other
//! where a player can keep a cycle on boards that R11 scores well for them,
//! and the result is still a solution. Captures lead to smaller
//! seed counts, already built, so only quiet moves link positions of the same
//! count. The builder processes thresholds `t = n, n-1, …, 1` in decreasing
//! order, like Dijkstra's algorithm with buckets: a position gets `lo = t`
//! the first time the mover can force `t` (an exit worth `t`, or a quiet move
//! to a child already held to `n - t`), and a position gets `hi = n - t` when
//! every move is known to give the mover at most `n - t` (a counter of quiet
//! moves not yet resolved reaches zero). Newly resolved positions are
//! propagated to their quiet predecessors ([`Position::for_each_quiet_predecessor`]),
//! in parallel frontiers, with atomic counters and compare-and-swap.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};

use oware_core::{Position, Side};
use rayon::prelude::*;

use crate::index::{self, Boards};
use crate::Level;

pub(crate) const PENDING: u8 = 0x80;
pub(crate) const NONE: u8 = 0x7F;
pub(crate) const CHUNK: u64 = 1 << 16;

/// What the builder reports while it works on one seed count: `done` of
/// `total` work units (a unit is one position in one of the three passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The seed count being built.
    pub seeds: usize,
    /// Units done.
    pub done: u64,
    /// Units in all for this seed count.
    pub total: u64,
}

pub(crate) fn atomic(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the same size and bit validity as u32 and an
    // alignment of 4 on every platform with 32-bit atomics (checked below);
    // the exclusive borrow guarantees no non-atomic access meanwhile.
    const _: () = assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>());
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

#[inline]
pub(crate) const fn word(cnt: u8, lo: u8, hi: u8) -> u32 {
    cnt as u32 | (lo as u32) << 8 | (hi as u32) << 16
}

#[inline]
pub(crate) const fn cnt_of(w: u32) -> u8 {
    w as u8
}

#[inline]
pub(crate) const fn lo_of(w: u32) -> u8 {
    (w >> 8) as u8
}

#[inline]
pub(crate) const fn hi_of(w: u32) -> u8 {
    (w >> 16) as u8
}

/// Asks the kernel to back `v` with huge pages before it is first touched.
/// The propagation visits words at random over up to gigabytes; with 4 KiB
/// pages nearly every visit also misses the TLB. Only a hint: without
/// transparent huge pages (or off Linux) nothing changes.
pub(crate) fn advise_huge_pages(v: &mut [u32]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(v);
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: the range lies inside the allocation of `v`, which we
            // borrow exclusively; MADV_HUGEPAGE changes no contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Asks the processor to bring a board's word into the cache ahead of use.
#[inline(always)]
fn prefetch(cell: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint with no effect on memory or program
    // state; SSE is part of the x86_64 baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(cell.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}

/// Visits of predecessors waiting for their word to arrive in the cache.
const PIPELINE: usize = 32;

/// One thread's propagation of the positions it resolves at threshold `t`.
///
/// A newly resolved board's quiet predecessors are generated at once and
/// their words prefetched, but each visit (the atomic update) is made only
/// when the pipeline of [`PIPELINE`] visits is full, by which time the
/// word is usually in the cache: the random accesses overlap instead of
/// stalling one after another. Within a threshold every assignment has the
/// same value, so the order of the visits does not matter.
///
/// `state` holds the words of the boards `base..base + state.len()` (the
/// whole level, or one rank's part of it in the distributed build, see
/// [`crate::dist`]). A predecessor outside that range is not visited but
/// queued in `outbox` as `index << 1 | from_lo`, for the rank that owns it.
pub(crate) struct Propagator<'a> {
    n: u8,
    t: u8,
    state: &'a [AtomicU32],
    base: usize,
    /// Boards just given `lo = t` (normalised keys), whose predecessors are still to visit.
    pub(crate) resolved_lo: Vec<u128>,
    /// Boards just given `hi = n - t` (normalised keys).
    pub(crate) resolved_hi: Vec<u128>,
    /// Visits of predecessors owned elsewhere: `global index << 1 | from_lo`.
    pub(crate) outbox: Vec<u64>,
    ring: [(usize, u128, bool); PIPELINE],
    head: usize,
    len: usize,
    pub(crate) assigned: u64,
}

impl<'a> Propagator<'a> {
    pub(crate) fn new(n: u8, t: u8, state: &'a [AtomicU32], base: usize) -> Self {
        Propagator {
            n,
            t,
            state,
            base,
            resolved_lo: Vec::new(),
            resolved_hi: Vec::new(),
            outbox: Vec::new(),
            ring: [(0, 0, false); PIPELINE],
            head: 0,
            len: 0,
            assigned: 0,
        }
    }

    /// Gives board `p` (local index) the lower bound `t` if it is still pending.
    pub(crate) fn set_lo(&self, p: usize) -> bool {
        let t = self.t;
        self.state[p]
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                (lo_of(w) & PENDING != 0).then_some(w & !(0xFF << 8) | (t as u32) << 8)
            })
            .is_ok()
    }

    /// Gives board `p` (local index) the upper bound `n - t` if it is still pending.
    pub(crate) fn set_hi(&self, p: usize) -> bool {
        let v = self.n - self.t;
        self.state[p]
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                (hi_of(w) & PENDING != 0).then_some(w & !(0xFF << 16) | (v as u32) << 16)
            })
            .is_ok()
    }

    /// Propagates until nothing resolved is left.
    pub(crate) fn run(&mut self) {
        loop {
            let next = match self.resolved_lo.pop() {
                Some(b) => Some((b, true)),
                None => self.resolved_hi.pop().map(|b| (b, false)),
            };
            match next {
                Some((b, from_lo)) => {
                    self.assigned += 1;
                    for_each_pred(b, |q, qb| {
                        let local = q.wrapping_sub(self.base);
                        if local >= self.state.len() {
                            self.outbox.push((q as u64) << 1 | from_lo as u64);
                            return;
                        }
                        prefetch(&self.state[local]);
                        if self.len == PIPELINE {
                            self.visit_oldest();
                        }
                        self.ring[(self.head + self.len) % PIPELINE] = (local, qb, from_lo);
                        self.len += 1;
                    });
                }
                None if self.len > 0 => self.visit_oldest(),
                None => return,
            }
        }
    }

    /// Takes the oldest waiting visit out of the ring and makes it.
    fn visit_oldest(&mut self) {
        let op = self.ring[self.head];
        self.head = (self.head + 1) % PIPELINE;
        self.len -= 1;
        self.visit(op);
    }

    /// Visits predecessor `q` (local index, normalised key `qb`) of a board
    /// just resolved.
    #[inline]
    pub(crate) fn visit(&mut self, (q, qb, from_lo): (usize, u128, bool)) {
        if from_lo {
            // The child got lo = t: one more of q's quiet moves is resolved,
            // worth n - t to q's mover. The counter is the low byte and is
            // decremented once per move, so it never borrows.
            let old = self.state[q].fetch_sub(1, Ordering::Relaxed);
            if cnt_of(old) == 1 {
                let h = hi_of(old);
                if h & PENDING != 0 {
                    let u = h & !PENDING;
                    if (u == NONE || u <= self.n - self.t) && self.set_hi(q) {
                        self.resolved_hi.push(qb);
                    }
                }
            }
        } else if self.set_lo(q) {
            // The child got hi = n - t: q's mover can force t by moving there.
            self.resolved_lo.push(qb);
        }
    }
}

/// Builds the level of `n` seeds, given every level below it
/// (`lower[k].seeds == k`).
// `p` in the pending-board scan is the board's index for the propagator as
// well as for `state`, so an iterator would not make it shorter.
#[allow(clippy::needless_range_loop)]
pub(crate) fn build_level(
    n: usize,
    lower: &[Level],
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Level, crate::TbError> {
    assert!(lower.len() >= n, "levels below {n} are needed");
    assert!(n <= crate::MAX_BUILD_SEEDS);
    let count = index::count(n);
    let total_units = 3 * count;
    let reporter = Reporter::new(n, total_units, progress);
    let report = |k: u64| reporter.add(k);
    let trace = std::env::var_os("OWARE_TB_TRACE").is_some();
    let t0 = std::time::Instant::now();
    let (mut prop_time, mut rounds, mut props) = (0f64, 0u64, 0u64);
    let len = count as usize;
    // One word per board: the counter of unresolved quiet moves in bits
    // 0-7, `lo` in bits 8-15 and `hi` in bits 16-23 (each with the PENDING
    // flag until final). Keeping the three together makes every visit of a
    // predecessor one cache miss instead of two or three.
    let mut words = vec![0u32; len];
    advise_huge_pages(&mut words);

    // Pass 1: exits (captures, end of game) and the number of quiet moves.
    exits_pass(n, lower, &mut words, 0, &report);

    let pass1 = t0.elapsed().as_secs_f64();
    let state = atomic(&mut words);
    let (mut refinements, mut cycle_boards) = (0u64, 0u64);
    let refinement: Option<(Vec<AtomicU8>, Vec<AtomicU8>)> =
        (n <= crate::REFINE_MAX_SEEDS).then(|| {
            (
                (0..len).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
                (0..len).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
            )
        });
    let n8 = n as u8;

    for t in (1..=n8).rev() {
        // Seeds of this threshold: exits worth exactly t to the mover, and
        // positions whose quiet moves are all resolved and whose best exit
        // gives the mover n - t. Each seed is propagated at once by the
        // thread that found it: a threshold costs one pass and one
        // synchronisation, whatever the length of its cascades.
        let ts = std::time::Instant::now();
        let (assigned, _) = seed_pass(n, t, state, 0, 0..len, &report);
        props += assigned;
        rounds += 1;
        if let Some((z, zc)) = &refinement {
            // Cycles scored by R11: boards from which the player can keep
            // every cycle on boards where their own row is worth t.
            loop {
                let found = refine(n, t, state, z, zc);
                props += found;
                refinements += 1;
                cycle_boards += found;
                if found == 0 {
                    break;
                }
            }
        }
        prop_time += ts.elapsed().as_secs_f64();
    }
    if trace {
        eprintln!(
            "[{n} seeds] exits {pass1:.2}s, thresholds {prop_time:.2}s ({rounds} passes, {refinements} cycle passes finding {cycle_boards} boards, {props} assignments), total {:.2}s",
            t0.elapsed().as_secs_f64()
        );
    }
    // Never resolved: the mover cannot force anything above 0 (lo = 0) or the
    // opponent cannot hold the mover below n (hi = n). Then encode the pairs.
    let used = used_pairs(n, &words);
    let (palette, code) = make_palette(n, &used)?;
    let codes = encode(n, &words, &code);
    drop(words);
    reporter.finish();
    Ok(Level::owned(n, codes, palette))
}

/// Pass 1 of [`build_level`] over the boards `base..base + words.len()`:
/// each word gets the board's exits (captures, end of game) and its number
/// of quiet moves.
/// Counts the work units done on a level of `n` seeds (of `total`) and
/// reports the running count to `progress`; shared by every worker.
pub(crate) struct Reporter<'a> {
    n: usize,
    total: u64,
    done: AtomicU64,
    progress: &'a (dyn Fn(BuildProgress) + Sync),
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(
        n: usize,
        total: u64,
        progress: &'a (dyn Fn(BuildProgress) + Sync),
    ) -> Reporter<'a> {
        Reporter {
            n,
            total,
            done: AtomicU64::new(0),
            progress,
        }
    }

    /// `k` more units done.
    pub(crate) fn add(&self, k: u64) {
        let d = self.done.fetch_add(k, Ordering::Relaxed) + k;
        (self.progress)(BuildProgress {
            seeds: self.n,
            done: d.min(self.total),
            total: self.total,
        });
    }

    /// The level is done: reports the units no pass counted.
    pub(crate) fn finish(&self) {
        self.add(self.total.saturating_sub(self.done.load(Ordering::Relaxed)));
    }
}

pub(crate) fn exits_pass(
    n: usize,
    lower: &[Level],
    words: &mut [u32],
    base: u64,
    report: &(dyn Fn(u64) + Sync),
) {
    words
        .par_chunks_mut(CHUNK as usize)
        .enumerate()
        .for_each(|(i, chunk)| {
            let start = base + i as u64 * CHUNK;
            let end = start + chunk.len() as u64;
            for (i, board) in Boards::range(n, start, end) {
                let (l, h, c) = exits(n, &board, lower);
                chunk[(i - start) as usize] = word(c, PENDING | l, PENDING | h);
            }
            report(end - start);
        });
}

/// The seeds of threshold `t` among the boards `base + scan` (local
/// indices `scan` of `state`, which holds the boards `base..base +
/// state.len()`; see [`build_level`]), each propagated at once by the thread that found
/// it. Returns the boards assigned and the visits of predecessors outside
/// the range (see [`Propagator`]).
pub(crate) fn seed_pass(
    n: usize,
    t: u8,
    state: &[AtomicU32],
    base: usize,
    scan: std::ops::Range<usize>,
    report: &(dyn Fn(u64) + Sync),
) -> (u64, Vec<u64>) {
    let n8 = n as u8;
    let count = scan.len() as u64;
    (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let start = scan.start + (c * CHUNK) as usize;
            let end = scan.start + ((c + 1) * CHUNK).min(count) as usize;
            let mut prop = Propagator::new(n8, t, state, base);
            let key = |p: usize| {
                index::key_of_board(&index::unrank(n, (base + p) as u64).expect("in range"))
            };
            for (p, cell) in state.iter().enumerate().take(end).skip(start) {
                let w = cell.load(Ordering::Relaxed);
                if lo_of(w) == PENDING | t && prop.set_lo(p) {
                    prop.resolved_lo.push(key(p));
                }
                let w = cell.load(Ordering::Relaxed);
                let h = hi_of(w);
                if h & PENDING != 0
                    && h != PENDING | NONE
                    && n8 - (h & !PENDING) == t
                    && cnt_of(w) == 0
                    && prop.set_hi(p)
                {
                    prop.resolved_hi.push(key(p));
                }
                prop.run();
            }
            report(prop.assigned);
            (prop.assigned, prop.outbox)
        })
        .reduce(
            || (0, Vec::new()),
            |(a, mut x), (b, mut y)| {
                x.append(&mut y);
                (a + b, x)
            },
        )
}

/// A level's (lower, upper) pairs, in code order.
pub(crate) type Palette = Vec<(u8, u8)>;

/// A pair table: `[lower][upper]`.
pub(crate) type Pairs<T> = [[T; 49]; 49];

/// The final (lower, upper) of a word: a bound never resolved is 0 for
/// `lower` (the mover cannot force anything) and `n` for `upper`.
#[inline]
fn finals(n: usize, w: u32) -> (usize, usize) {
    let (l, h) = (lo_of(w), hi_of(w));
    let l = if l & PENDING != 0 { 0 } else { l };
    let h = if h & PENDING != 0 { n as u8 } else { h };
    (l as usize, h as usize)
}

/// Which (lower, upper) pairs occur among `words` (in parallel).
pub(crate) fn used_pairs(n: usize, words: &[u32]) -> Pairs<bool> {
    words
        .par_chunks(CHUNK as usize)
        .map(|c| {
            let mut used = [[false; 49]; 49];
            for &w in c {
                let (l, h) = finals(n, w);
                used[l][h] = true;
            }
            used
        })
        .reduce(
            || [[false; 49]; 49],
            |mut a, b| {
                for (x, y) in a.iter_mut().flatten().zip(b.iter().flatten()) {
                    *x |= *y;
                }
                a
            },
        )
}

/// The palette of the pairs `used` (in (lower, upper) order) and each
/// pair's code.
pub(crate) fn make_palette(
    n: usize,
    used: &Pairs<bool>,
) -> Result<(Palette, Pairs<u8>), crate::TbError> {
    let mut palette = Vec::new();
    let mut code = [[0u8; 49]; 49];
    for l in 0..=n {
        for h in l..=n {
            if used[l][h] {
                if palette.len() == 256 {
                    return Err(crate::TbError::PaletteOverflow { seeds: n });
                }
                code[l][h] = palette.len() as u8;
                palette.push((l as u8, h as u8));
            }
        }
    }
    Ok((palette, code))
}

/// The byte of every word: its pair's palette code (in parallel).
pub(crate) fn encode(n: usize, words: &[u32], code: &Pairs<u8>) -> Vec<u8> {
    let mut out = vec![0u8; words.len()];
    encode_into(n, words, code, &mut out);
    out
}

/// [`encode`] into `out` (`out.len() == words.len()`).
pub(crate) fn encode_into(n: usize, words: &[u32], code: &Pairs<u8>, out: &mut [u8]) {
    out.par_chunks_mut(CHUNK as usize)
        .zip(words.par_chunks(CHUNK as usize))
        .for_each(|(o, w)| {
            for (b, &w) in o.iter_mut().zip(w) {
                let (l, h) = finals(n, w);
                *b = code[l][h];
            }
        });
}

const ZA: u8 = 1;
const ZB: u8 = 2;

/// The cycle step of threshold `t` (see the crate docs, "Repetition").
///
/// After the attractor pass of threshold `t`, some boards are still open
/// because play can go round in circles without a capture. R11 then ends
/// the game at a board seen three times, each side taking its own row.
/// Call "player X" the one whose total is at stake. Node A(b) is board `b`
/// with X to move (is `lo(b) >= t`?), node B(b) board `b` with X's
/// opponent to move (is `hi(b) <= n - t`?). A node is *safe* when X's own
/// row there is worth at least `t` (or a row is empty, so R11 cannot end
/// the game there). This computes the greatest set Z of open, safe nodes
/// in which X can keep the play for ever: every A node of Z has a quiet
/// move into Z (or to a board already won for X), every B node of Z has
/// only quiet moves into Z or to boards won for X, and no exit worth more
/// than `n - t` to the opponent. Z is won for X at threshold `t`: either
/// the play leaves Z into a won board, or it stays in Z, and any board
/// seen three times is then a safe one. The attractor pass runs again
/// from the new boards; the caller repeats until Z is empty (a nested
/// fixpoint: "reach a win, or from some point on stay safe").
///
/// Passes: (1) mark the candidates of each node kind; (2) drop a B
/// candidate with a quiet move to an open A node that is not a candidate;
/// (3) count, for each A candidate, its quiet moves to B candidates, and
/// drop those with none; (4) cascade the drops through the quiet
/// predecessors with atomic counters; (5) assign what is left and
/// propagate. Returns the number of boards assigned.
fn refine(n: usize, t: u8, state: &[AtomicU32], z: &[AtomicU8], zc: &[AtomicU8]) -> u64 {
    let n8 = n as u8;
    let count = state.len() as u64;
    let chunks = count.div_ceil(CHUNK);
    let open_lo = |i: usize| lo_of(state[i].load(Ordering::Relaxed)) & PENDING != 0;
    // (1) Candidates.
    (0..chunks).into_par_iter().for_each(|c| {
        for (i, b) in Boards::range(n, c * CHUNK, (c + 1) * CHUNK) {
            let i = i as usize;
            let w = state[i].load(Ordering::Relaxed);
            let own: u8 = b[..6].iter().sum();
            let any_row_empty = own == 0 || own == n8;
            let mut f = 0;
            if lo_of(w) & PENDING != 0 && (any_row_empty || own >= t) {
                f |= ZA;
            }
            let h = hi_of(w);
            if h & PENDING != 0
                && (any_row_empty || n8 - own >= t)
                && (h == PENDING | NONE || h & !PENDING <= n8 - t)
            {
                f |= ZB;
            }
            z[i].store(f, Ordering::Relaxed);
        }
    });
    // (2) B candidates: every quiet move must stay in Z or reach a board
    // whose lower bound is set (at least t by now).
    (0..chunks).into_par_iter().for_each(|c| {
        for (i, b) in Boards::range(n, c * CHUNK, (c + 1) * CHUNK) {
            let i = i as usize;
            if z[i].load(Ordering::Relaxed) & ZB == 0 {
                continue;
            }
            let mut stays = true;
            for_each_quiet_child(&b, |d| {
                if open_lo(d) && z[d].load(Ordering::Relaxed) & ZA == 0 {
                    stays = false;
                }
            });
            if !stays {
                z[i].fetch_and(!ZB, Ordering::Relaxed);
            }
        }
    });
    // (3) A candidates: count the quiet moves into B candidates. (A move to
    // a board whose upper bound is set would have won already.)
    let dropped: Vec<u128> = (0..chunks)
        .into_par_iter()
        .flat_map_iter(|c| {
            let mut dropped = Vec::new();
            for (i, b) in Boards::range(n, c * CHUNK, (c + 1) * CHUNK) {
                let i = i as usize;
                if z[i].load(Ordering::Relaxed) & ZA == 0 {
                    continue;
                }
                let mut k = 0u8;
                for_each_quiet_child(&b, |d| {
                    if z[d].load(Ordering::Relaxed) & ZB != 0 {
                        k += 1;
                    }
                });
                zc[i].store(k, Ordering::Relaxed);
                if k == 0 {
                    z[i].fetch_and(!ZA, Ordering::Relaxed);
                    dropped.push(index::key_of_board(&b));
                }
            }
            dropped
        })
        .collect();
    // (4) Cascade: a dropped A node drops the B candidates that move to it;
    // a dropped B node takes one move away from the A candidates moving to
    // it, and drops those left with none.
    dropped.par_chunks(1024).for_each(|seeds| {
        let mut stack: Vec<(u128, bool)> = seeds.iter().map(|&k| (k, true)).collect();
        while let Some((key, was_a)) = stack.pop() {
            if was_a {
                for_each_pred(key, |q, qk| {
                    if z[q].fetch_and(!ZB, Ordering::Relaxed) & ZB != 0 {
                        stack.push((qk, false));
                    }
                });
            } else {
                for_each_pred(key, |p, pk| {
                    if z[p].load(Ordering::Relaxed) & ZA != 0
                        && zc[p].fetch_sub(1, Ordering::Relaxed) == 1
                        && z[p].fetch_and(!ZA, Ordering::Relaxed) & ZA != 0
                    {
                        stack.push((pk, true));
                    }
                });
            }
        }
    });
    // (5) What is left is won for X at threshold t.
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut prop = Propagator::new(n8, t, state, 0);
            for (i, b) in Boards::range(n, c * CHUNK, (c + 1) * CHUNK) {
                let i = i as usize;
                let f = z[i].load(Ordering::Relaxed);
                if f & ZA != 0 && prop.set_lo(i) {
                    prop.resolved_lo.push(index::key_of_board(&b));
                }
                if f & ZB != 0 && prop.set_hi(i) {
                    prop.resolved_hi.push(index::key_of_board(&b));
                }
                prop.run();
            }
            prop.assigned
        })
        .sum()
}

/// Calls `f(index)` for the board reached by every quiet move of `board`
/// (its mover's view), normalised to the next mover's view.
#[inline]
fn for_each_quiet_child(board: &[u8; 12], mut f: impl FnMut(usize)) {
    let pos = index::position_of(board);
    let store = pos.store(Side::South);
    for mv in pos.legal_moves() {
        let child = pos.play_unchecked(mv);
        if child.store(Side::South) == store {
            f(index::rank_key(index::normalised_key(&child)) as usize);
        }
    }
}

/// The exits of a board: best lower bound and best upper bound over moves
/// that end the level (captures, or the end of the game), as `NONE` when
/// there are none, and the number of quiet moves.
pub(crate) fn exits(n: usize, board: &[u8; 12], lower: &[Level]) -> (u8, u8, u8) {
    exits_with(n, board, |rest, i| Some(lower[rest].bounds(i)))
}

/// [`exits`], with the bounds of a capture's result (seed count, index)
/// from `look`, which may answer `None` (the caller looks it up later and
/// merges it with [`merge_exit`]).
#[inline]
pub(crate) fn exits_with(
    n: usize,
    board: &[u8; 12],
    mut look: impl FnMut(usize, u64) -> Option<(u8, u8)>,
) -> (u8, u8, u8) {
    let pos = index::position_of(board);
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // R9: each player takes the seeds of their own row.
        let own = pos.row_seeds(Side::South);
        return (own, own, 0);
    }
    let store = pos.store(Side::South);
    let (mut l, mut h, mut c) = (NONE, NONE, 0u8);
    for mv in moves {
        let child = pos.play_unchecked(mv);
        let captured = child.store(Side::South) - store;
        if captured == 0 {
            c += 1;
            continue;
        }
        let rest = n - captured as usize;
        let Some((cl, ch)) = look(rest, index::rank_key(index::normalised_key(&child))) else {
            continue;
        };
        let el = captured + rest as u8 - ch;
        let eh = captured + rest as u8 - cl;
        if l == NONE || el > l {
            l = el;
        }
        if h == NONE || eh > h {
            h = eh;
        }
    }
    (l, h, c)
}

/// Merges into word `w` (made by [`exits_pass`]) an exit of a board of `n`
/// seeds to a capture whose result, of the remaining seeds, has the bounds
/// `(cl, ch)`: the captured seeds plus the rest are always `n`.
#[inline]
#[cfg_attr(not(unix), allow(dead_code))] // used by the distributed build (unix)
pub(crate) fn merge_exit(n: usize, w: u32, (cl, ch): (u8, u8)) -> u32 {
    let (el, eh) = (n as u8 - ch, n as u8 - cl);
    let (l, h) = (lo_of(w) & !PENDING, hi_of(w) & !PENDING);
    let l = if l == NONE || el > l { el } else { l };
    let h = if h == NONE || eh > h { eh } else { h };
    word(cnt_of(w), PENDING | l, PENDING | h)
}

/// Calls `f(index, normalised key)` for every quiet predecessor of the
/// board with normalised key `key`.
#[inline]
fn for_each_pred(key: u128, mut f: impl FnMut(usize, u128)) {
    let pos: Position = index::position_of(&index::board_of_key(key));
    pos.for_each_quiet_predecessor(|_, q| {
        let k = index::normalised_key(&q);
        f(index::rank_key(k) as usize, k)
    });
}

/// The largest byte in `codes` (in parallel).
pub(crate) fn max_code(codes: &[u8]) -> u8 {
    codes
        .par_chunks(1 << 20)
        .map(|c| c.iter().copied().max().unwrap_or(0))
        .max()
        .unwrap_or(0)
}
