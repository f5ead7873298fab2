//! The transposition table: buckets of four 16-byte entries (one cache line),
//! replaced by depth and age.

/// How a stored score bounds the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Slot {
    check: u64,
    score: i16,
    depth: u8,
    // bits 0-1 bound (0 empty), bits 2-7 generation
    flags: u8,
    best: u8, // house index + 1, 0 = none
    _pad: [u8; 3],
}

const BUCKET: usize = 4;

#[derive(Clone, Copy, Default)]
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
    generation: u8,
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
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, h: u64) -> usize {
        (h >> 40) as usize & self.mask
    }

    #[inline]
    pub fn probe(&self, h: u64) -> Option<Hit> {
        let b = &self.buckets[self.index(h)];
        for s in &b.0 {
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
    pub fn store(&mut self, h: u64, score: i32, depth: u32, bound: Bound, best: Option<u8>) {
        let generation = self.generation;
        let idx = self.index(h);
        let b = &mut self.buckets[idx];
        // Same position: overwrite (keeping an old best move if none is given).
        // Otherwise the victim is the shallowest entry, entries of old
        // searches counting as much shallower.
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.0.iter().enumerate() {
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
        let s = &mut b.0[victim];
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
        *s = Slot {
            check: h,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            flags: bound_bits | (generation << 2),
            best: best.map_or(keep_best, |m| m + 1),
            _pad: [0; 3],
        };
    }

    /// Permille of the first 1000 buckets' slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.0 {
                if s.flags & 3 != 0 && s.flags >> 2 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
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
