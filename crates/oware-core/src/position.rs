//! Positions: an unvalidated [`Setup`], a validated [`Position`], and the
//! move rules R3–R10 on it.

use core::fmt;

use crate::types::{House, Move, MoveSet, Side};

mod retro;

/// Seeds in the game (R1).
pub const TOTAL_SEEDS: u32 = 48;
/// Captured seeds that win the game (R10).
pub const WINNING_STORE: u8 = 25;

/// An unvalidated position: anything that can be written down, whether or not
/// it could occur in a game. Turn it into a [`Position`] with
/// [`Position::from_setup`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// Seeds in each house, in sowing order (A–F, then a–f).
    pub houses: [u8; 12],
    /// Captured seeds, indexed by [`Side::index`] (South first).
    pub stores: [u8; 2],
    /// The player to move.
    pub to_move: Side,
}

impl Setup {
    /// The start position (R1): four seeds in every house, empty stores,
    /// South to move.
    pub const fn start() -> Setup {
        Setup {
            houses: [4; 12],
            stores: [0, 0],
            to_move: Side::South,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Houses and stores must hold 48 seeds in all (R1).
    WrongTotal {
        /// Seeds counted.
        total: u32,
    },
}

impl PositionError {
    /// A stable machine-readable code (`wrong_total`), for clients that
    /// translate errors.
    pub const fn code(&self) -> &'static str {
        match self {
            PositionError::WrongTotal { .. } => "wrong_total",
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::WrongTotal { total } => write!(
                f,
                "houses and stores hold {total} seeds in all; a position must hold exactly {TOTAL_SEEDS}"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game is already decided (a store holds 25 or more, or 24–24), or
    /// the player to move has no legal move at all.
    GameOver,
    /// The house belongs to the opponent (R3).
    NotYourHouse,
    /// The house is empty (R3).
    EmptyHouse,
    /// The opponent's row is empty and this move would leave it empty, while
    /// another move feeds it (R8).
    MustFeed,
}

impl IllegalMove {
    /// The rule id from docs/RULES.md that forbids the move.
    pub const fn rule(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "R9/R10",
            IllegalMove::NotYourHouse | IllegalMove::EmptyHouse => "R3",
            IllegalMove::MustFeed => "R8",
        }
    }

    /// A stable machine-readable code (`game_over`, `not_your_house`,
    /// `empty_house`, `must_feed`), for clients that translate errors.
    pub const fn code(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::NotYourHouse => "not_your_house",
            IllegalMove::EmptyHouse => "empty_house",
            IllegalMove::MustFeed => "must_feed",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::GameOver => "the game is over",
            IllegalMove::NotYourHouse => "that house belongs to the opponent",
            IllegalMove::EmptyHouse => "that house is empty",
            IllegalMove::MustFeed => {
                "the opponent's row is empty and this move does not feed it, while another move does"
            }
        })
    }
}

impl std::error::Error for IllegalMove {}

// The board is kept in one u128: byte i (0..12) is house i, byte 12 South's
// store, byte 13 North's store. No byte ever exceeds 48, so adding two such
// words never carries from one byte into the next, and a whole sowing is one
// table look-up and one addition.
const STORE_SHIFT: [u32; 2] = [96, 104];
const ROW_MASK: [u128; 2] = [0xFFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF << 48];
const HOUSES_MASK: u128 = (1u128 << 96) - 1;
const CLEAR_MASK: [u128; 12] = {
    let mut m = [0u128; 12];
    let mut i = 0;
    while i < 12 {
        m[i] = !(0xFF << (8 * i));
        i += 1;
    }
    m
};
const BYTE_MASK: [u128; 16] = {
    let mut m = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        m[i] = 0xFF << (8 * i);
        i += 1;
    }
    m
};

/// `SOW_ADD[h][n]`: what sowing `n` seeds from house `h` adds to each house
/// (R3, R4: the emptied house is skipped on every lap).
static SOW_ADD: [[u128; 64]; 12] = build_sow_tables().0;
/// `SOW_LAST[h][n]`: the house receiving the last of `n` seeds sown from `h`.
static SOW_LAST: [[u8; 64]; 12] = build_sow_tables().1;

// Rows are 64 wide so that `n & 63` needs no bounds check; counts never
// exceed 48, and columns 49..64 stay zero (never a valid sowing).
const fn build_sow_tables() -> ([[u128; 64]; 12], [[u8; 64]; 12]) {
    let mut add = [[0u128; 64]; 12];
    let mut last = [[0u8; 64]; 12];
    let mut h = 0;
    while h < 12 {
        let mut n = 1;
        while n <= 48 {
            let mut word = 0u128;
            let mut p = h;
            let mut k = 0;
            while k < n {
                p = (p + 1) % 12;
                if p == h {
                    p = (p + 1) % 12;
                }
                word += 1u128 << (8 * p);
                k += 1;
            }
            add[h][n] = word;
            last[h][n] = p as u8;
            n += 1;
        }
        last[h][0] = h as u8;
        h += 1;
    }
    (add, last)
}

#[inline(always)]
const fn byte(bits: u128, i: usize) -> u8 {
    // On wasm32 (the browser's engine) a 128-bit shift by an amount known
    // only at run time is a call into the compiler's runtime; there the
    // byte is read as an array element, one load. Natively the shift is a
    // few instructions in registers.
    #[cfg(target_arch = "wasm32")]
    {
        bits.to_le_bytes()[i & 15]
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        (bits >> (8 * i)) as u8
    }
}

/// A valid position: 48 seeds in all, and the player to move.
///
/// Positions are small `Copy` values; playing a move returns a new one
/// (copy-make).
///
/// ```
/// use oware_core::{Position, Move};
/// let start = Position::start();
/// let after = start.try_play(Move::from_letter('F').unwrap()).unwrap();
/// assert_eq!(after.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    bits: u128,
    to_move: Side,
}

/// What happened during one move, seed by seed: for animation, previews and
/// teaching. Produced by [`Position::trace`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveTrace {
    /// The move.
    pub mv: Move,
    /// The houses that received a seed, in order (one entry per seed).
    pub sown: Vec<House>,
    /// The house of the last seed.
    pub last: House,
    /// Houses captured and the seeds taken from each, in the order the
    /// capture examined them (from the last house backwards). Empty when the
    /// capture was cancelled by R7.
    pub captured: Vec<(House, u8)>,
    /// True when the capture would have taken every seed of the opponent's
    /// row and was cancelled (R7).
    pub grand_slam: bool,
    /// The position after the move.
    pub after: Position,
}

impl MoveTrace {
    /// Seeds captured by the move.
    pub fn captured_seeds(&self) -> u8 {
        self.captured.iter().map(|&(_, n)| n).sum()
    }
}

impl Position {
    /// The start position `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
    pub fn start() -> Position {
        Position::from_setup(Setup::start()).expect("the start position is valid")
    }

    /// Validates a setup: the houses and stores must hold 48 seeds in all.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let total: u32 = setup
            .houses
            .iter()
            .chain(setup.stores.iter())
            .map(|&n| u32::from(n))
            .sum();
        if total != TOTAL_SEEDS {
            return Err(PositionError::WrongTotal { total });
        }
        let mut bits = 0u128;
        for (i, &n) in setup.houses.iter().enumerate() {
            bits |= u128::from(n) << (8 * i);
        }
        bits |= u128::from(setup.stores[0]) << STORE_SHIFT[0];
        bits |= u128::from(setup.stores[1]) << STORE_SHIFT[1];
        Ok(Position {
            bits,
            to_move: setup.to_move,
        })
    }

    /// The position as an editable setup.
    pub fn setup(&self) -> Setup {
        let mut houses = [0u8; 12];
        for (i, h) in houses.iter_mut().enumerate() {
            *h = byte(self.bits, i);
        }
        Setup {
            houses,
            stores: [self.store(Side::South), self.store(Side::North)],
            to_move: self.to_move,
        }
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds in a house.
    #[inline]
    pub fn seeds(&self, house: House) -> u8 {
        byte(self.bits, house.index())
    }

    /// Seeds captured by a side.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        #[cfg(target_arch = "wasm32")]
        {
            byte(self.bits, STORE_SHIFT[side.index()] as usize / 8)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            (self.bits >> STORE_SHIFT[side.index()]) as u8
        }
    }

    /// Seeds in a side's row.
    pub fn row_seeds(&self, side: Side) -> u8 {
        side.houses().map(|h| self.seeds(h)).sum()
    }

    /// True when a side's row is empty.
    #[inline]
    pub fn row_is_empty(&self, side: Side) -> bool {
        self.bits & ROW_MASK[side.index()] == 0
    }

    /// Seeds on the board (not captured).
    pub fn seeds_on_board(&self) -> u8 {
        House::ALL.iter().map(|&h| self.seeds(h)).sum()
    }

    /// A compact key of the whole position (houses, stores, side to move),
    /// equal for equal positions; for hashing in engines and databases.
    #[inline]
    pub fn key(&self) -> u128 {
        self.bits | (self.to_move as u128) << 112
    }

    /// The twelve houses and the side to move, without the stores: what R11
    /// compares.
    #[inline]
    pub fn board_key(&self) -> u128 {
        (self.bits & HOUSES_MASK) | (self.to_move as u128) << 112
    }

    /// The same houses and stores with the other player to move. Useful to
    /// engines (null-move ideas) and for R13's lost turn.
    pub fn with_side_to_move(&self, side: Side) -> Position {
        Position {
            bits: self.bits,
            to_move: side,
        }
    }

    /// True when R10 has decided the game: a store holds 25 or more, or both
    /// hold 24.
    #[inline]
    pub fn is_decided(&self) -> bool {
        let s = self.store(Side::South);
        let n = self.store(Side::North);
        s >= WINNING_STORE || n >= WINNING_STORE || (s == 24 && n == 24)
    }

    /// The legal moves (R3, R8). Empty when the game is over: decided by R10,
    /// or no move is possible (R9).
    #[inline]
    pub fn legal_moves(&self) -> MoveSet {
        if self.is_decided() {
            return MoveSet::empty(self.to_move);
        }
        MoveSet::from_mask(self.to_move, self.legal_mask())
    }

    #[inline(always)]
    fn legal_mask(&self) -> u8 {
        const HIGH: u64 = 0x8080_8080_8080;
        const LOW7: u64 = 0x7F7F_7F7F_7F7F;
        // Byte i of the row must hold at least 6 - i seeds to reach the
        // opponent's row: with 128 - (6 - i) added, its high bit says so.
        const FEED: u64 = 0x7F7E_7D7C_7B7A;
        let side = self.to_move;
        let row = (self.bits >> (48 * side.index())) as u64 & 0xFFFF_FFFF_FFFF;
        let must_feed = self.bits & ROW_MASK[side.opponent().index()] == 0;
        // Counts are at most 48, so no byte addition carries into the next.
        let high = if must_feed { row + FEED } else { row + LOW7 } & HIGH;
        // Gather the six high bits (bits 7, 15, ..., 47) into bits 0..5.
        ((high >> 7).wrapping_mul(0x0102_0408_1020) >> 40) as u8 & 0x3F
    }

    /// Why `mv` is illegal here, or `Ok(())`.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let legal = self.legal_moves();
        if legal.contains(mv) {
            return Ok(());
        }
        if legal.is_empty() {
            return Err(IllegalMove::GameOver);
        }
        if mv.side() != self.to_move {
            return Err(IllegalMove::NotYourHouse);
        }
        if self.seeds(mv.house()) == 0 {
            return Err(IllegalMove::EmptyHouse);
        }
        Err(IllegalMove::MustFeed)
    }

    /// True when `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Plays a move after checking it.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a legal move: sowing (R3, R4), capture (R5, R6) unless it would
    /// take the opponent's whole row (R7), and the turn passes (R2).
    ///
    /// The move must be one of [`legal_moves`](Self::legal_moves); for any
    /// other move the result is unspecified (but memory-safe, and it does not
    /// panic in release builds).
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        self.sow_and_capture(mv)
    }

    // Sowing and capture for any move of the side to move, the feeding rule
    // aside (previews describe forbidden moves too).
    #[inline(always)]
    fn sow_and_capture(&self, mv: Move) -> Position {
        let h = mv.house().index();
        let n = self.bits.to_le_bytes()[h] as usize & 63;
        let mut bits = (self.bits & CLEAR_MASK[h]) + SOW_ADD[h][n];
        let last = SOW_LAST[h][n] as usize & 15;
        let me = self.to_move;
        let opp = me.opponent();
        let start = 6 * opp.index();
        let cells = bits.to_le_bytes();
        // Evaluated without short-circuit: one predictable branch instead of
        // two data-dependent ones.
        let captures = (last.wrapping_sub(start) < 6) & (cells[last].wrapping_sub(2) < 2);
        if captures {
            let mut cap_mask = 0u128;
            let mut total = 0u32;
            let mut i = last;
            loop {
                let c = cells[i];
                if c.wrapping_sub(2) >= 2 {
                    break;
                }
                total += c as u32;
                cap_mask |= BYTE_MASK[i];
                if i == start {
                    break;
                }
                i = (i - 1) & 15;
            }
            // R7: a capture that would empty the opponent's row is cancelled.
            if bits & ROW_MASK[opp.index()] & !cap_mask != 0 {
                bits &= !cap_mask;
                bits += (total as u128) << STORE_SHIFT[me.index()];
            }
        }
        Position { bits, to_move: opp }
    }

    /// Plays a move after checking it, and reports what happened seed by seed.
    pub fn trace(&self, mv: Move) -> Result<MoveTrace, IllegalMove> {
        self.check(mv)?;
        let after = self.play_unchecked(mv);
        let h = mv.house();
        let n = self.seeds(h) as usize;
        let mut sown = Vec::with_capacity(n);
        let mut p = h;
        for _ in 0..n {
            p = p.next();
            if p == h {
                p = p.next();
            }
            sown.push(p);
        }
        let last = p;
        // Recompute the capture chain on the sown (pre-capture) board.
        let sown_board = Position {
            bits: (self.bits & !(0xFFu128 << (8 * h.index()))) + SOW_ADD[h.index()][n],
            to_move: self.to_move,
        };
        let mut chain = Vec::new();
        if last.owner() != self.to_move {
            let mut i = last.index();
            let start = 6 * last.owner().index();
            loop {
                let c = byte(sown_board.bits, i);
                if c != 2 && c != 3 {
                    break;
                }
                chain.push((House::ALL[i], c));
                if i == start {
                    break;
                }
                i -= 1;
            }
        }
        let took = after.store(self.to_move) - self.store(self.to_move);
        let grand_slam = !chain.is_empty() && took == 0;
        let captured = if grand_slam { Vec::new() } else { chain };
        Ok(MoveTrace {
            mv,
            sown,
            last,
            captured,
            grand_slam,
            after,
        })
    }

    /// Where the last seed of `mv` would land, and how many seeds it would
    /// capture, without checking legality beyond the house being non-empty.
    /// The tip "count where the last seed falls" of the rules, for previews.
    pub fn preview(&self, mv: Move) -> Option<(House, u8)> {
        let h = mv.house();
        let n = self.seeds(h) as usize;
        if n == 0 || mv.side() != self.to_move {
            return None;
        }
        let after = self.sow_and_capture(mv);
        Some((
            House::ALL[SOW_LAST[h.index()][n] as usize],
            after.store(self.to_move) - self.store(self.to_move),
        ))
    }

    /// The final totals if the game ended here with each player taking the
    /// seeds of their own row (R9, R11, R12), indexed by [`Side::index`].
    pub fn totals_with_own_rows(&self) -> [u8; 2] {
        [
            self.store(Side::South) + self.row_seeds(Side::South),
            self.store(Side::North) + self.row_seeds(Side::North),
        ]
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Perft: the number of legal move sequences of `depth` plies from `pos`.
/// A decided game (R10) or a position without moves (R9) has none;
/// repetition (R11) is ignored. Every move is made, leaves included.
///
/// ```
/// use oware_core::{perft, Position};
/// assert_eq!(perft(&Position::start(), 4), 1014);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    if depth == 1 {
        for mv in moves {
            // Make the leaf move for real: the benchmark measures move making.
            core::hint::black_box(pos.play_unchecked(mv));
            nodes += 1;
        }
        return nodes;
    }
    for mv in moves {
        nodes += perft(&pos.play_unchecked(mv), depth - 1);
    }
    nodes
}

/// Perft split by first move: the count under each legal move.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.play_unchecked(mv), depth - 1)))
        .collect()
}
