//! Compact indexing: a bijection between the boards holding `n` seeds and
//! the integers `0..count(n)`.
//!
//! A board is normalised to its mover's view (the mover's six houses first,
//! then the opponent's), so the side to move needs no bit. A board of `n`
//! seeds in 12 houses is a composition of `n` into 12 parts; writing it as
//! `n` stars and 11 bars, the bar positions `s_j = h_0 + … + h_j + j`
//! (j = 0..11) form an 11-subset of `0..n+11`, ranked in the combinatorial
//! number system: `rank = Σ C(s_j, j + 1)`. There are `C(n + 11, 11)` boards.

use oware_core::{Position, Setup, Side};

/// Largest seed count the index supports (every board of the game).
pub const MAX_SEEDS: usize = 48;

const ROWS: usize = MAX_SEEDS + 12;

/// `BINOM[m][k]` = C(m, k) for k ≤ 12.
static BINOM: [[u64; 13]; ROWS] = binomials();

const fn binomials() -> [[u64; 13]; ROWS] {
    let mut t = [[0u64; 13]; ROWS];
    let mut m = 0;
    while m < ROWS {
        t[m][0] = 1;
        let mut k = 1;
        while k <= 12 {
            t[m][k] = if m == 0 {
                0
            } else {
                t[m - 1][k - 1] + t[m - 1][k]
            };
            k += 1;
        }
        m += 1;
    }
    t
}

/// Number of boards (from the mover's view) with exactly `seeds` seeds.
pub fn count(seeds: usize) -> u64 {
    assert!(seeds <= MAX_SEEDS, "at most {MAX_SEEDS} seeds");
    BINOM[seeds + 11][11]
}

/// Number of boards with at most `seeds` seeds.
pub fn count_up_to(seeds: usize) -> u64 {
    (0..=seeds).map(count).sum()
}

/// The board of `pos` from its mover's view: the mover's houses A..F (or
/// a..f) first, then the opponent's.
#[inline]
pub fn normalised_board(pos: &Position) -> [u8; 12] {
    let key = pos.key();
    let shift = if pos.to_move() == Side::South { 0 } else { 6 };
    let mut b = [0u8; 12];
    for (i, x) in b.iter_mut().enumerate() {
        *x = (key >> (8 * ((i + shift) % 12))) as u8;
    }
    b
}

/// The twelve houses of `pos` from its mover's view, one byte each (the
/// mover's A..F or a..f in bytes 0-5): [`normalised_board`] in one integer.
#[inline]
pub fn normalised_key(pos: &Position) -> u128 {
    const HOUSES: u128 = (1 << 96) - 1;
    let k = pos.key() & HOUSES;
    if pos.to_move() == Side::South {
        k
    } else {
        (k >> 48 | k << 48) & HOUSES
    }
}

/// `RANK_TERM[j][s]` = C(s + j, j + 1): the term of bar `j` when the first
/// `j + 1` houses hold `s` seeds.
static RANK_TERM: [[u64; MAX_SEEDS + 1]; 11] = rank_terms();

const fn rank_terms() -> [[u64; MAX_SEEDS + 1]; 11] {
    let mut t = [[0u64; MAX_SEEDS + 1]; 11];
    let mut j = 0;
    while j < 11 {
        let mut s = 0;
        while s <= MAX_SEEDS {
            t[j][s] = BINOM[s + j][j + 1];
            s += 1;
        }
        j += 1;
    }
    t
}

/// [`rank`] of a board given as a [`normalised_key`]: the running totals
/// of the houses come from one multiplication (every total is at most 48,
/// so no byte carries into the next).
#[inline]
pub fn rank_key(key: u128) -> u64 {
    const ONES: u128 = 0x0101_0101_0101_0101_0101_0101;
    let sums = key.wrapping_mul(ONES);
    let mut r = 0;
    for (j, term) in RANK_TERM.iter().enumerate() {
        r += term[(sums >> (8 * j)) as u8 as usize];
    }
    r
}

/// The board of a [`normalised_key`] as twelve counts.
#[inline]
pub fn board_of_key(key: u128) -> [u8; 12] {
    let mut b = [0u8; 12];
    b.copy_from_slice(&key.to_le_bytes()[..12]);
    b
}

/// The [`normalised_key`] of a board.
#[inline]
pub fn key_of_board(board: &[u8; 12]) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(board);
    u128::from_le_bytes(bytes)
}

/// Rank of a normalised board among the boards with the same seed count.
#[inline]
pub fn rank(board: &[u8; 12]) -> u64 {
    let mut s = 0usize;
    let mut r = 0u64;
    for (j, &h) in board[..11].iter().enumerate() {
        s += h as usize;
        r += BINOM[s + j][j + 1];
    }
    r
}

/// The normalised board of rank `index` among boards of `seeds` seeds;
/// `None` when `index >= count(seeds)`.
pub fn unrank(seeds: usize, index: u64) -> Option<[u8; 12]> {
    if seeds > MAX_SEEDS || index >= count(seeds) {
        return None;
    }
    let mut r = index;
    let mut s = [0usize; 11];
    let mut hi = seeds + 10; // largest possible s_10
    for j in (0..11).rev() {
        let mut x = hi;
        while BINOM[x][j + 1] > r {
            x -= 1;
        }
        r -= BINOM[x][j + 1];
        s[j] = x;
        hi = x.saturating_sub(1);
    }
    Some(board_from_bars(seeds, &s))
}

fn board_from_bars(seeds: usize, s: &[usize; 11]) -> [u8; 12] {
    let mut b = [0u8; 12];
    let mut prev: isize = -1;
    for j in 0..11 {
        b[j] = (s[j] as isize - prev - 1) as u8;
        prev = s[j] as isize;
    }
    b[11] = (seeds as isize + 10 - prev) as u8;
    b
}

/// Iterates the boards of one seed count in index order, from any start:
/// cheaper than unranking each index.
#[derive(Clone, Debug)]
pub struct Boards {
    seeds: usize,
    s: [usize; 11],
    next: u64,
    end: u64,
}

impl Boards {
    /// Boards of `seeds` seeds with indices `start..end` (clamped to the count).
    pub fn range(seeds: usize, start: u64, end: u64) -> Boards {
        let end = end.min(count(seeds));
        let mut s = [0usize; 11];
        if start < end {
            let b = unrank(seeds, start).expect("start is in range");
            let mut acc = 0;
            for j in 0..11 {
                acc += b[j] as usize;
                s[j] = acc + j;
            }
        }
        Boards {
            seeds,
            s,
            next: start,
            end,
        }
    }
}

impl Iterator for Boards {
    type Item = (u64, [u8; 12]);
    #[inline]
    fn next(&mut self) -> Option<(u64, [u8; 12])> {
        if self.next >= self.end {
            return None;
        }
        let out = (self.next, board_from_bars(self.seeds, &self.s));
        self.next += 1;
        // Next 11-subset in colex order.
        let top = self.seeds + 11;
        let mut j = 0;
        while j < 11 {
            let limit = if j + 1 < 11 { self.s[j + 1] } else { top };
            if self.s[j] + 1 < limit {
                self.s[j] += 1;
                for (i, x) in self.s[..j].iter_mut().enumerate() {
                    *x = i;
                }
                break;
            }
            j += 1;
        }
        Some(out)
    }
}

/// A position with `board` (mover's view) and South to move, with stores
/// chosen so the game is not over by R10: the tablebase does not depend on
/// the stores, and oware-core needs some to hold 48 seeds in all.
#[inline]
pub fn position_of(board: &[u8; 12]) -> Position {
    let on_board: u32 = board.iter().map(|&x| x as u32).sum();
    let rest = (48 - on_board) as u8;
    let south = rest / 2;
    Position::from_setup(Setup {
        houses: *board,
        stores: [south, rest - south],
        to_move: Side::South,
    })
    .expect("48 seeds in all")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn key_rank_agrees_with_board_rank() {
        for n in [0, 1, 7, 12, 20] {
            for (i, b) in Boards::range(n, 0, 5000) {
                let key = key_of_board(&b);
                assert_eq!(rank_key(key), i);
                assert_eq!(board_of_key(key), b);
            }
        }
        let pos: Position = "1-2-3-4-5-6-7-0-0-0-0-0-5-15-N".parse().unwrap();
        assert_eq!(board_of_key(normalised_key(&pos)), normalised_board(&pos));
        assert_eq!(
            rank_key(normalised_key(&pos)),
            rank(&normalised_board(&pos))
        );
    }

    #[test]
    fn counts_match_the_issue() {
        assert_eq!(count(0), 1);
        assert_eq!(count(1), 12);
        assert_eq!(count(24), 417_225_900);
        assert_eq!(count_up_to(24), 1_251_677_700);
    }

    #[test]
    fn iteration_matches_ranks_for_small_counts() {
        for n in 0..=7 {
            let mut seen = 0u64;
            for (i, b) in Boards::range(n, 0, u64::MAX) {
                assert_eq!(b.iter().map(|&x| x as usize).sum::<usize>(), n);
                assert_eq!(rank(&b), i, "{b:?}");
                assert_eq!(unrank(n, i), Some(b));
                seen += 1;
            }
            assert_eq!(seen, count(n));
        }
        assert_eq!(unrank(3, count(3)), None);
    }

    #[test]
    fn iteration_from_the_middle() {
        let all: Vec<_> = Boards::range(9, 0, u64::MAX).collect();
        let mid: Vec<_> = Boards::range(9, 1000, 1100).collect();
        assert_eq!(&all[1000..1100], &mid[..]);
    }

    proptest! {
        #[test]
        fn rank_unrank_round_trip(houses in proptest::collection::vec(0u8..=4, 12)) {
            let mut b = [0u8; 12];
            b.copy_from_slice(&houses);
            let n: usize = b.iter().map(|&x| x as usize).sum();
            let r = rank(&b);
            prop_assert!(r < count(n));
            prop_assert_eq!(unrank(n, r), Some(b));
        }

        #[test]
        fn normalisation_puts_the_mover_first(houses in proptest::collection::vec(0u8..=3, 12), north in any::<bool>()) {
            let mut b = [0u8; 12];
            b.copy_from_slice(&houses);
            let p = position_of(&b);
            let q = if north { p.with_side_to_move(Side::North) } else { p };
            let nb = normalised_board(&q);
            for (i, &x) in nb.iter().enumerate() {
                let abs = if north { (i + 6) % 12 } else { i };
                prop_assert_eq!(x, b[abs]);
            }
        }
    }
}
