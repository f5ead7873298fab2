//! The retrograde builder of one seed count.
//!
//! For a board `p` with `n` seeds on it, the builder computes two numbers,
//! the bounds `lo(p) ≤ hi(p)` documented in the crate root. With infinite
//! play (a cycle that never captures) counted as the worst case for one
//! player, they satisfy
//!
//! ```text
//! lo(p) = max over moves m of  exit_lo(m)               if m captures (or p has no moves: own row)
//!                              n - hi(child)            if m captures nothing
//! hi(p) = max over moves m of  exit_hi(m)  or  n - lo(child)
//! ```
//!
//! `lo` is the least and `hi` the greatest solution. Captures lead to smaller
//! seed counts, already built, so only quiet moves link positions of the same
//! count. The builder processes thresholds `t = n, n-1, …, 1` in decreasing
//! order, like Dijkstra's algorithm with buckets: a position gets `lo = t`
//! the first time the mover can force `t` (an exit worth `t`, or a quiet move
//! to a child already held to `n - t`), and a position gets `hi = n - t` when
//! every move is known to give the mover at most `n - t` (a counter of quiet
//! moves not yet resolved reaches zero). Newly resolved positions are
//! propagated to their quiet predecessors ([`Position::for_each_quiet_predecessor`]),
//! in parallel frontiers, with atomic counters and compare-and-swap.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use oware_core::{Position, Side};
use rayon::prelude::*;

use crate::index::{self, Boards};
use crate::Level;

const PENDING: u8 = 0x80;
const NONE: u8 = 0x7F;
const CHUNK: u64 = 1 << 16;

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

fn atomic(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8,
    // and the exclusive borrow guarantees no non-atomic access meanwhile.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// Builds the level of `n` seeds, given every level below it
/// (`lower[k].seeds == k`).
pub(crate) fn build_level(
    n: usize,
    lower: &[Level],
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Level, crate::TbError> {
    assert!(lower.len() >= n, "levels below {n} are needed");
    assert!(n <= crate::MAX_BUILD_SEEDS);
    let count = index::count(n);
    let total_units = 3 * count;
    let done = AtomicU64::new(0);
    let report = |k: u64| {
        let d = done.fetch_add(k, Ordering::Relaxed) + k;
        progress(BuildProgress { seeds: n, done: d.min(total_units), total: total_units });
    };
    let trace = std::env::var_os("OWARE_TB_TRACE").is_some();
    let t0 = std::time::Instant::now();
    let (mut prop_time, mut rounds, mut props) = (0f64, 0u64, 0u64);
    let len = count as usize;
    let mut lo = vec![0u8; len];
    let mut hi = vec![0u8; len];
    let mut cnt = vec![0u8; len];

    // Pass 1: exits (captures, end of game) and the number of quiet moves.
    {
        type Chunk<'a> = (u64, &'a mut [u8], &'a mut [u8], &'a mut [u8]);
        let chunks: Vec<Chunk> = lo
            .chunks_mut(CHUNK as usize)
            .zip(hi.chunks_mut(CHUNK as usize))
            .zip(cnt.chunks_mut(CHUNK as usize))
            .enumerate()
            .map(|(i, ((a, b), c))| (i as u64 * CHUNK, a, b, c))
            .collect();
        chunks.into_par_iter().for_each(|(start, lo, hi, cnt)| {
            let end = start + lo.len() as u64;
            for (i, board) in Boards::range(n, start, end) {
                let k = (i - start) as usize;
                let (l, h, c) = exits(n, &board, lower);
                lo[k] = PENDING | l;
                hi[k] = PENDING | h;
                cnt[k] = c;
            }
            report(end - start);
        });
    }

    let pass1 = t0.elapsed().as_secs_f64();
    let lo_a = atomic(&mut lo);
    let hi_a = atomic(&mut hi);
    let cnt_a = atomic(&mut cnt);
    let n8 = n as u8;

    for t in (1..=n8).rev() {
        // Seeds of this threshold: exits worth exactly t to the mover, and
        // positions whose quiet moves are all resolved and whose best exit
        // gives the mover n - t. Each seed is propagated at once, depth
        // first, by the thread that found it: a threshold costs one pass and
        // one synchronisation, whatever the length of its cascades.
        let ts = std::time::Instant::now();
        let assigned: u64 = (0..count.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let start = (c * CHUNK) as usize;
                let end = ((c + 1) * CHUNK).min(count) as usize;
                let mut st_lo: Vec<u64> = Vec::new();
                let mut st_hi: Vec<u64> = Vec::new();
                let mut assigned = 0u64;
                for p in start..end {
                    let l = lo_a[p].load(Ordering::Relaxed);
                    if l == PENDING | t && lo_a[p].compare_exchange(l, t, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                        st_lo.push(pack(&index::unrank(n, p as u64).expect("in range")));
                    }
                    let h = hi_a[p].load(Ordering::Relaxed);
                    if h & PENDING != 0
                        && h != PENDING | NONE
                        && n8 - (h & !PENDING) == t
                        && cnt_a[p].load(Ordering::Relaxed) == 0
                        && hi_a[p].compare_exchange(h, n8 - t, Ordering::Relaxed, Ordering::Relaxed).is_ok()
                    {
                        st_hi.push(pack(&index::unrank(n, p as u64).expect("in range")));
                    }
                    while let Some(x) = st_lo.pop().map(|x| (x, true)).or_else(|| st_hi.pop().map(|x| (x, false))) {
                        assigned += 1;
                        match x {
                            // lo = t: each quiet predecessor has one more move
                            // resolved, worth n - t to its mover.
                            (b, true) => for_each_pred(b, |q, qb| {
                                if cnt_a[q].fetch_sub(1, Ordering::Relaxed) == 1 {
                                    let h = hi_a[q].load(Ordering::Relaxed);
                                    if h & PENDING != 0 {
                                        let u = h & !PENDING;
                                        if (u == NONE || u <= n8 - t)
                                            && hi_a[q].compare_exchange(h, n8 - t, Ordering::Relaxed, Ordering::Relaxed).is_ok()
                                        {
                                            st_hi.push(qb);
                                        }
                                    }
                                }
                            }),
                            // hi = n - t: each quiet predecessor can force t
                            // by moving here.
                            (b, false) => for_each_pred(b, |r, rb| {
                                let l = lo_a[r].load(Ordering::Relaxed);
                                if l & PENDING != 0 && lo_a[r].compare_exchange(l, t, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                                    st_lo.push(rb);
                                }
                            }),
                        }
                    }
                }
                report(assigned);
                assigned
            })
            .sum();
        props += assigned;
        rounds += 1;
        prop_time += ts.elapsed().as_secs_f64();
    }
    if trace {
        eprintln!(
            "[{n} seeds] exits {pass1:.2}s, thresholds {prop_time:.2}s ({rounds} passes, {props} assignments), total {:.2}s",
            t0.elapsed().as_secs_f64()
        );
    }

    // Never resolved: the mover cannot force anything above 0 (lo = 0) or the
    // opponent cannot hold the mover below n (hi = n). Then encode the pairs.
    let mut used = [[false; 49]; 49];
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        if *l & PENDING != 0 {
            *l = 0;
        }
        if *h & PENDING != 0 {
            *h = n8;
        }
        used[*l as usize][*h as usize] = true;
    }
    drop(cnt);
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
    lo.par_chunks_mut(CHUNK as usize).zip(hi.par_chunks(CHUNK as usize)).for_each(|(l, h)| {
        for (a, &b) in l.iter_mut().zip(h) {
            *a = code[*a as usize][b as usize];
        }
    });
    let rest = total_units.saturating_sub(done.load(Ordering::Relaxed));
    report(rest);
    Ok(Level::owned(n, lo, palette))
}

/// The exits of a board: best lower bound and best upper bound over moves
/// that end the level (captures, or the end of the game), as `NONE` when
/// there are none, and the number of quiet moves.
fn exits(n: usize, board: &[u8; 12], lower: &[Level]) -> (u8, u8, u8) {
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
        let (cl, ch) = lower[rest].bounds(index::rank(&index::normalised_board(&child)));
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

/// Calls `f(index, packed board)` for every quiet predecessor of the
/// packed board `packed` (both from their mover's view).
#[inline]
fn for_each_pred(packed: u64, mut f: impl FnMut(usize, u64)) {
    let pos: Position = index::position_of(&unpack(packed));
    pos.for_each_quiet_predecessor(|_, q| {
        let b = index::normalised_board(&q);
        f(index::rank(&b) as usize, pack(&b))
    });
}

/// A board in 60 bits: five per house (at most 30 seeds are built).
#[inline]
fn pack(b: &[u8; 12]) -> u64 {
    b.iter().enumerate().fold(0u64, |acc, (i, &x)| acc | (x as u64) << (5 * i))
}

#[inline]
fn unpack(p: u64) -> [u8; 12] {
    let mut b = [0u8; 12];
    for (i, x) in b.iter_mut().enumerate() {
        *x = (p >> (5 * i)) as u8 & 31;
    }
    b
}

/// The largest byte in `codes` (in parallel).
pub(crate) fn max_code(codes: &[u8]) -> u8 {
    codes.par_chunks(1 << 20).map(|c| c.iter().copied().max().unwrap_or(0)).max().unwrap_or(0)
}
