//! The transposition table: buckets of four 16-byte entries (one cache line),
//! replaced by depth and age. It is shared by the threads of a parallel
//! search: entries are atomic words, checked on probing (see [`Slot`]).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One entry: two words, written and read without locks so that several
/// search threads can share the table (Lazy SMP). `data` packs the score
/// (bits 0-15), depth (16-23), flags (24-31: bits 0-1 the bound, 0 for
/// empty, bits 2-7 the generation) and best move (32-39: house index + 1,
/// 0 for none); `key` holds the position hash XOR `data`, so an entry torn
/// by two threads writing at once fails the check on probing instead of
/// giving another position's data.
#[derive(Default)]
#[repr(C)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// An entry's fields, unpacked.
#[derive(Clone, Copy)]
struct Entry {
    check: u64,
    score: i16,
    depth: u8,
    flags: u8,
    best: u8,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.key.load(Ordering::Relaxed) ^ data;
        Entry {
            check,
            score: data as u16 as i16,
            depth: (data >> 16) as u8,
            flags: (data >> 24) as u8,
            best: (data >> 32) as u8,
        }
    }

    #[inline]
    fn save(&self, e: Entry) {
        let data = e.score as u16 as u64
            | (e.depth as u64) << 16
            | (e.flags as u64) << 24
            | (e.best as u64) << 32;
        self.key.store(e.check ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.key.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

const BUCKET: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
    /// House index of the best move, if stored.
    pub best: Option<u8>,
}

pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

/// Mixes a 112-bit position key into 64 bits (a multiply-xorshift finaliser).
#[inline]
pub(crate) fn hash(key: u128) -> u64 {
    let lo = key as u64;
    let hi = (key >> 64) as u64;
    let mut h = lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}

impl Table {
    /// A table of at most `mb` MiB (rounded down to a power of two buckets).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = 1usize;
        while n * 2 * std::mem::size_of::<Bucket>() <= bytes {
            n *= 2;
        }
        Table {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            mask: n - 1,
            generation: AtomicU8::new(0),
        }
    }

    pub fn clear(&self) {
        self.buckets
            .iter()
            .for_each(|b| b.0.iter().for_each(Slot::clear));
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, h: u64) -> usize {
        (h >> 40) as usize & self.mask
    }

    #[inline]
    pub fn probe(&self, h: u64) -> Option<Hit> {
        let b = &self.buckets[self.index(h)];
        for s in b.0.iter().map(Slot::load) {
            if s.check == h && s.flags & 3 != 0 {
                let bound = match s.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(Hit {
                    score: s.score as i32,
                    depth: s.depth as u32,
                    bound,
                    best: (s.best != 0).then(|| s.best - 1),
                });
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, h: u64, score: i32, depth: u32, bound: Bound, best: Option<u8>) {
        let generation = self.generation.load(Ordering::Relaxed);
        let b = &self.buckets[self.index(h)];
        // Same position: overwrite (keeping an old best move if none is given).
        // Otherwise the victim is the shallowest entry, entries of old
        // searches counting as much shallower.
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.0.iter().map(Slot::load).enumerate() {
            if s.check == h || s.flags & 3 == 0 {
                victim = i;
                break;
            }
            let age = ((generation as i32 - (s.flags >> 2) as i32) & 63) * 8;
            let value = s.depth as i32 - age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let s = b.0[victim].load();
        let keep_best = if s.check == h && best.is_none() {
            s.best
        } else {
            0
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        b.0[victim].save(Entry {
            check: h,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            flags: bound_bits | (generation << 2),
            best: best.map_or(keep_best, |m| m + 1),
        });
    }

    /// Permille of the first 1000 buckets' slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(250);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in b.0.iter().map(Slot::load) {
                if s.flags & 3 != 0 && s.flags >> 2 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

/// The moves a thread of a parallel search is searching now, keyed by the
/// position's hash and the move (a simplified ABDADA). A thread that meets,
/// past a node's first move, a move another thread is in the middle of
/// searches its other moves first and comes back to it at the end, when
/// its value is usually in the transposition table; so the threads split
/// a node's moves between them instead of searching the same ones twice.
/// A slot holds one key or 0; two keys meeting in a slot only make one
/// thread defer a move it need not have, or not defer one it could have.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

const BUSY_SLOTS: usize = 1 << 12;

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The key of move `rel` (0-5) from the position of hash `h`: never 0.
    #[inline]
    pub(crate) fn key(h: u64, rel: u8) -> u64 {
        let k = (h ^ (rel as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(17);
        k | 1
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 7) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some thread is searching this move now.
    #[inline]
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the move as being searched.
    #[inline]
    pub(crate) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks the move, unless another key took its slot since.
    #[inline]
    pub(crate) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_moves_are_marked_until_left_and_a_newer_key_keeps_its_slot() {
        let b = Busy::new();
        let h = hash(0x1234_5678_9abc_def0_1122_3344_5566_7788);
        let keys: Vec<u64> = (0..6).map(|rel| Busy::key(h, rel)).collect();
        assert!(keys.iter().all(|&k| k != 0));
        for (i, &k) in keys.iter().enumerate() {
            assert!(keys[..i].iter().all(|&o| o != k), "moves share a key");
        }
        assert!(!b.is_busy(keys[2]));
        b.enter(keys[2]);
        assert!(b.is_busy(keys[2]));
        assert!(!b.is_busy(keys[3]));
        b.leave(keys[2]);
        assert!(!b.is_busy(keys[2]));
        // Another key in the same slot: leaving the first one keeps it.
        let other = (1u64..)
            .map(|x| Busy::key(hash(x as u128), 0))
            .find(|&k| k != keys[2] && std::ptr::eq(b.slot(k), b.slot(keys[2])))
            .unwrap();
        b.enter(keys[2]);
        b.enter(other);
        b.leave(keys[2]);
        assert!(b.is_busy(other) && !b.is_busy(keys[2]));
    }

    #[test]
    fn stores_and_finds() {
        let t = Table::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let h = hash(12345);
        assert!(t.probe(h).is_none());
        t.store(h, -321, 7, Bound::Lower, Some(3));
        let hit = t.probe(h).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.best),
            (-321, 7, Bound::Lower, Some(3))
        );
        t.store(h, 5, 8, Bound::Exact, None);
        let hit = t.probe(h).unwrap();
        assert_eq!((hit.score, hit.best), (5, Some(3)));
        t.clear();
        assert!(t.probe(h).is_none());
    }

    #[test]
    fn hash_spreads_close_keys() {
        assert_ne!(hash(1) >> 40, hash(2) >> 40);
    }
}
