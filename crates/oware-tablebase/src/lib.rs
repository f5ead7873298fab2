//! Endgame tablebases for Oware Abapa: every board with at most N seeds,
//! solved by retrograde analysis.
//!
//! # What a value means
//!
//! The stores do not matter to the play that follows, so a table entry
//! belongs to a *board* (the twelve houses) and the side to move; boards are
//! seen from the mover (their row first), so one entry serves South and
//! North. The entry says how many of the `n` seeds still on the board the
//! side to move will end up with (by captures, and at the end by taking the
//! seeds of their own row under R9/R11) under perfect play of both sides,
//! each maximising their own final total.
//!
//! Repetition (R11) makes a game's outcome depend on its history, which a
//! table cannot store. So each entry holds two bounds, valid for a board
//! reached by a capture (or where a game starts) and, more generally, while
//! no board since the last capture has occurred twice:
//!
//! - `lower`: the mover can force at least this many;
//! - `upper`: the opponent can hold the mover to at most this many.
//!
//! Each is computed per threshold `t` as a nested fixpoint: a player forces
//! `t` by reaching an exit worth `t` (a capture into a smaller table, or the
//! end of the game), or by keeping the play from some point on among boards
//! where their own row is worth `t` (a row may also be empty: R11 cannot end
//! the game there). The winning strategies never visit another board twice,
//! so a board seen a third time is one of those, and R11 gives them `t`
//! there. For seed counts above [`REFINE_MAX_SEEDS`] the second way is not
//! used (cycles count as the worst case), which is cheaper and still sound.
//! When `lower == upper` (most boards: see docs/TABLEBASE.md) the value is
//! exact. Otherwise the result depends on where the players let the game
//! cycle, and [`TbValue::estimate`] gives the own-row split of R11 at this
//! position, clamped to the bounds.
//!
//! R10 (25 captured ends the game) is left out of the values: it cannot
//! change who wins, because stores only grow and a final total is at least
//! the store. So with `s` seeds in the mover's store, the mover wins when
//! `s + lower >= 25`, loses when `s + upper <= 23`, and draws when both
//! bounds equal `24 - s` ([`TbValue::result`]).
//!
//! # Use
//!
//! ```
//! use oware_tablebase::{Tablebase, TbResult};
//! use oware_core::Position;
//!
//! let tb = Tablebase::build_in_memory(6).unwrap();
//! // E10: North is empty and South cannot feed: South takes 2 and wins 25-23.
//! let pos: Position = "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S".parse().unwrap();
//! let v = tb.probe(&pos).unwrap();
//! assert_eq!((v.lower(), v.upper()), (2, 2));
//! assert_eq!(v.result(&pos), TbResult::Win);
//! assert!(tb.probe(&Position::start()).is_none()); // 48 seeds: not covered
//! ```
//!
//! Files are built by `oware tablebase build` ([`build_to_dir`]) and opened
//! with [`Tablebase::open`], which memory-maps them. The format is in
//! [`file`].

#![deny(missing_docs)]

pub mod background;
mod build;
#[cfg(unix)]
pub mod dist;
pub mod file;
pub mod index;
#[cfg(unix)]
mod spill;

use std::path::{Path, PathBuf};

use oware_core::{Move, Position};

pub use build::BuildProgress;

/// Seed counts the builder accepts (indices must fit in 32 bits).
pub const MAX_BUILD_SEEDS: usize = 30;

/// Seed counts up to this one are built with the cycle step (cycles scored
/// by R11); above it each bound scores a never-capturing cycle as the
/// worst case, which is sound and costs a third of the time. Measured: the
/// cycle step assigns boards at 2-10 seeds and none at 11-20, so the files
/// up to 20 seeds are byte-identical whether this is 10 or 20; the counts
/// above inherit the exact values through captures (docs/TABLEBASE.md).
/// Every file records the limit it was built with, and files built with
/// another limit are refused (their values would not match a rebuild).
pub const REFINE_MAX_SEEDS: usize = 10;

/// Where tables are built and looked for unless a directory is given: the
/// `tablebases` folder of the current directory.
pub const DEFAULT_DIR: &str = "tablebases";

/// The table built in memory by [`Tablebase::default_in_memory`]: a few
/// seconds on two cores.
pub const DEFAULT_SEEDS: usize = 12;

/// What is wrong with a table file, as the reader finds it (in the order
/// it checks, see [`file`]). Its `Display` is an English phrase; front ends
/// word each kind in their own language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// Shorter than the header.
    #[error(
        "{len} bytes: too short for a table header ({} bytes)",
        file::HEADER_LEN
    )]
    TooShort {
        /// The file's length.
        len: u64,
    },
    /// The magic bytes are not there: not a table file at all.
    #[error("not an Oware tablebase file (bad magic bytes)")]
    NotATable,
    /// Another version of the format.
    #[error("format version {found}; this program reads version {}", file::VERSION)]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Built with another cycle-step limit ([`REFINE_MAX_SEEDS`]): its
    /// values would not match a rebuild.
    #[error(
        "built with cycles scored by R11 up to {found} seeds; this program builds and reads \
         tables made with the limit {REFINE_MAX_SEEDS}: rebuild the tables"
    )]
    CycleLimit {
        /// The limit recorded in the file.
        found: usize,
    },
    /// The table of another seed count (a file renamed or out of order).
    #[error("holds the table of {found} seeds, expected {expected}")]
    OtherSeeds {
        /// The seed count in the file's header.
        found: usize,
        /// The seed count its name or place says.
        expected: usize,
    },
    /// The header's entry count is not the seed count's.
    #[error("header says {found} entries; {seeds} seeds have {expected}")]
    EntryCount {
        /// The entry count in the header.
        found: u64,
        /// The seed count.
        seeds: usize,
        /// The entry count of that seed count.
        expected: u64,
    },
    /// The file's length does not match its header: cut short or padded.
    #[error("{len} bytes, expected {expected} (truncated or padded)")]
    Size {
        /// The file's length.
        len: u64,
        /// The length its header implies.
        expected: u64,
    },
    /// The palette's length is not in 1..=256.
    #[error("palette length {len} is not in 1..=256")]
    PaletteLength {
        /// The length in the header.
        len: usize,
    },
    /// The checksum does not match the contents: the bytes were changed.
    #[error(
        "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is damaged"
    )]
    Checksum {
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// A palette entry is not a pair of bounds of the seed count.
    #[error("palette entry {slot} ({lower}, {upper}) is not a pair of bounds within 0..={seeds}")]
    PaletteEntry {
        /// The entry's slot.
        slot: usize,
        /// Its lower bound.
        lower: u8,
        /// Its upper bound.
        upper: u8,
        /// The seed count.
        seeds: usize,
    },
    /// A board's code names a palette slot past the palette's end.
    #[error("an entry names palette slot {slot}, but the palette has {palette}")]
    UnknownSlot {
        /// The slot named.
        slot: u8,
        /// The palette's length.
        palette: usize,
    },
    /// A table of more seeds than the game has (given in memory).
    #[error("a table of {seeds} seeds: the game has {}", index::MAX_SEEDS)]
    TooManySeeds {
        /// The seed count of the table.
        seeds: usize,
    },
}

/// Why a table could not be built, opened or used.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// A file is not a valid table: wrong magic, version, size, checksum...
    #[error("{path}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: Damage,
    },
    /// A level has more distinct (lower, upper) pairs than a byte can name.
    #[error(
        "{seeds} seeds: more than 256 distinct value pairs; cannot encode a byte per position"
    )]
    PaletteOverflow {
        /// The seed count.
        seeds: usize,
    },
    /// Another rank of a distributed build failed (it reports why).
    #[error("rank {rank} failed while building {seeds} seeds")]
    Remote {
        /// The rank that failed.
        rank: usize,
        /// The seed count being built.
        seeds: usize,
    },
    /// A seed count the builder does not support.
    #[error("cannot build {seeds} seeds: at most {MAX_BUILD_SEEDS}")]
    TooManySeeds {
        /// The seed count asked for.
        seeds: usize,
    },
}

/// The bytes of one level: owned (built in memory) or memory-mapped.
enum Bytes {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

/// One seed count's table: a byte per board, naming a (lower, upper) pair
/// in the level's palette.
pub(crate) struct Level {
    seeds: usize,
    bytes: Bytes,
    // Offset of the first entry in `bytes` (a file header precedes it).
    offset: usize,
    palette: Vec<(u8, u8)>,
}

impl Level {
    pub(crate) fn owned(seeds: usize, codes: Vec<u8>, palette: Vec<(u8, u8)>) -> Level {
        Level {
            seeds,
            bytes: Bytes::Owned(codes),
            offset: 0,
            palette,
        }
    }

    pub(crate) fn codes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Owned(v) => &v[self.offset..],
            Bytes::Mapped(m) => &m[self.offset..],
        }
    }

    #[inline]
    pub(crate) fn bounds(&self, index: u64) -> (u8, u8) {
        self.palette[self.codes()[index as usize] as usize]
    }
}

/// The table's verdict on a position, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbResult {
    /// The side to move wins with perfect play.
    Win,
    /// Perfect play draws (24-24).
    Draw,
    /// The side to move loses with perfect play.
    Loss,
    /// At least a draw; whether it is a win depends on repetition (R11).
    WinOrDraw,
    /// At most a draw; whether it is a loss depends on repetition (R11).
    DrawOrLoss,
    /// Anything can happen: the result depends on repetition (R11).
    Unresolved,
}

/// A table entry: bounds on the seeds of the board the side to move will end
/// up with (see the crate docs for exactly what they mean).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TbValue {
    seeds: u8,
    lower: u8,
    upper: u8,
    own_row: u8,
}

impl TbValue {
    /// Seeds on the board.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// Seeds of the board the mover can force, whatever repetition brings.
    pub fn lower(&self) -> u8 {
        self.lower
    }

    /// Seeds of the board the opponent can hold the mover to, whatever
    /// repetition brings.
    pub fn upper(&self) -> u8 {
        self.upper
    }

    /// True when the bounds meet: the value is exact.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The value if exact; otherwise the R11 own-row split at this position
    /// (the mover's row), clamped to the bounds.
    pub fn estimate(&self) -> u8 {
        self.own_row.clamp(self.lower, self.upper)
    }

    /// The result given the stores of `pos` (the position probed). A game
    /// already decided by R10 is judged on its stores.
    pub fn result(&self, pos: &Position) -> TbResult {
        let me = pos.to_move();
        let s = pos.store(me) as u32;
        if pos.is_decided() {
            let o = pos.store(me.opponent()) as u32;
            return if s > o {
                TbResult::Win
            } else if s < o {
                TbResult::Loss
            } else {
                TbResult::Draw
            };
        }
        let (lo, hi) = (s + self.lower as u32, s + self.upper as u32);
        if lo >= 25 {
            TbResult::Win
        } else if hi <= 23 {
            TbResult::Loss
        } else if lo == 24 && hi == 24 {
            TbResult::Draw
        } else if lo == 24 {
            TbResult::WinOrDraw
        } else if hi == 24 {
            TbResult::DrawOrLoss
        } else {
            TbResult::Unresolved
        }
    }

    /// The mover's final total (store plus the bounds' estimate) for `pos`.
    pub fn final_total(&self, pos: &Position) -> u8 {
        pos.store(pos.to_move()) + self.estimate()
    }
}

/// A move and what it is worth to the side to move, as bounds on the seeds
/// of the board (captured by the move included) the mover ends up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Seeds it captures at once.
    pub captured: u8,
    /// Lower bound on the mover's share of the board's seeds after it.
    pub lower: u8,
    /// Upper bound on the mover's share.
    pub upper: u8,
}

/// A set of tables: one per seed count, `0..=max_seeds`.
pub struct Tablebase {
    levels: Vec<Level>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebase(max_seeds: {:?})", self.max_seeds())
    }
}

impl Tablebase {
    /// Opens the tables in `dir` (files `oware-tb-NN.otb`, see [`file`]),
    /// memory-mapped: seed counts 0, 1, 2, … as far as they go without a
    /// gap. Every file found is checked (header, size, checksum); a corrupt
    /// or mismatched file is an error, not skipped. A directory without
    /// tables gives an empty tablebase.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TbError> {
        let dir = dir.as_ref();
        let mut levels = Vec::new();
        for n in 0..=index::MAX_SEEDS {
            let path = file::path_for(dir, n);
            if !path.exists() {
                break;
            }
            levels.push(file::open_level(&path, n)?);
        }
        Ok(Tablebase { levels })
    }

    /// The tables from the bytes of their files (see [`file`]), already in
    /// memory: `files[n]` is the file of `n` seeds, from 0 without a gap.
    /// Every file is checked as [`open`](Self::open) checks it; a damaged
    /// one is refused with the reason, named by its usual file name.
    pub fn from_bytes(files: Vec<Vec<u8>>) -> Result<Tablebase, TbError> {
        if files.len() > index::MAX_SEEDS + 1 {
            let n = index::MAX_SEEDS + 1;
            return Err(TbError::Corrupt {
                path: PathBuf::from(file::file_name(n)),
                reason: Damage::TooManySeeds { seeds: n },
            });
        }
        let mut levels = Vec::with_capacity(files.len());
        for (n, data) in files.into_iter().enumerate() {
            let name = PathBuf::from(file::file_name(n));
            levels.push(file::level_from_bytes(&name, data, n)?);
        }
        Ok(Tablebase { levels })
    }

    /// Builds the tables for 0..=`max_seeds` seeds in memory (all cores).
    pub fn build_in_memory(max_seeds: usize) -> Result<Tablebase, TbError> {
        Tablebase::build_in_memory_with_progress(max_seeds, &|_| {})
    }

    /// [`build_in_memory`](Self::build_in_memory) with a progress callback.
    pub fn build_in_memory_with_progress(
        max_seeds: usize,
        progress: &(dyn Fn(BuildProgress) + Sync),
    ) -> Result<Tablebase, TbError> {
        if max_seeds > MAX_BUILD_SEEDS {
            return Err(TbError::TooManySeeds { seeds: max_seeds });
        }
        let mut levels = Vec::new();
        for n in 0..=max_seeds {
            let level = build::build_level(n, &levels, progress)?;
            levels.push(level);
        }
        Ok(Tablebase { levels })
    }

    /// The default in-memory table of [`DEFAULT_SEEDS`] seeds.
    pub fn default_in_memory() -> Tablebase {
        Tablebase::build_in_memory(DEFAULT_SEEDS)
            .expect("the default table fits a byte per position")
    }

    /// The file of the table of `seeds` seeds (see [`file`]), as
    /// `oware tablebase build` writes it, or `None` beyond the tables: what
    /// the server sends a browser, which reads it with
    /// [`from_bytes`](Self::from_bytes).
    pub fn file_bytes(&self, seeds: usize) -> Option<Vec<u8>> {
        self.levels.get(seeds).map(file::level_bytes)
    }

    /// The largest seed count covered, or `None` for an empty tablebase.
    pub fn max_seeds(&self) -> Option<usize> {
        self.levels.len().checked_sub(1)
    }

    /// The table entry of `pos`, or `None` when its seeds on the board are
    /// more than the tables cover.
    pub fn probe(&self, pos: &Position) -> Option<TbValue> {
        let n = pos.seeds_on_board() as usize;
        let level = self.levels.get(n)?;
        let (lower, upper) = level.bounds(index::rank_key(index::normalised_key(pos)));
        Some(TbValue {
            seeds: n as u8,
            lower,
            upper,
            own_row: pos.row_seeds(pos.to_move()),
        })
    }

    /// Every legal move of `pos` with its value from the tables, in move
    /// order; `None` when `pos` is not covered. Empty when the game is over.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<MoveValue>> {
        let n = pos.seeds_on_board();
        self.levels.get(n as usize)?;
        let me = pos.to_move();
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let after = pos.play_unchecked(mv);
            let captured = after.store(me) - pos.store(me);
            let child = self.probe(&after)?;
            let rest = n - captured;
            out.push(MoveValue {
                mv,
                captured,
                lower: captured + rest - child.upper,
                upper: captured + rest - child.lower,
            });
        }
        Some(out)
    }

    /// The moves that keep the value of `pos`: the highest lower bound, and
    /// among those the highest upper bound. For an exact value these are
    /// exactly the moves that keep it. `None` when `pos` is not covered;
    /// empty when the game is over.
    ///
    /// A best move may be quiet and lead round a cycle; the side that is
    /// ahead should prefer captures, and a search with the game's history
    /// should choose among best moves (see the crate docs).
    pub fn best_moves(&self, pos: &Position) -> Option<Vec<Move>> {
        let values = self.move_values(pos)?;
        let best = values.iter().map(|v| (v.lower, v.upper)).max();
        Some(
            values
                .iter()
                .filter(|v| Some((v.lower, v.upper)) == best)
                .map(|v| v.mv)
                .collect(),
        )
    }
}

/// What [`build_to_dir`] did for one seed count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelStatus {
    /// A valid file was already there; it was kept.
    Kept,
    /// The level was built and written.
    Built,
}

/// Builds the files for 0..=`max_seeds` seeds in `dir`, skipping seed
/// counts whose file is already there and valid (resumable). Each file is
/// written to a temporary name and renamed when complete. A file that is
/// there but corrupt is an error (delete it to rebuild).
pub fn build_to_dir(
    dir: impl AsRef<Path>,
    max_seeds: usize,
    progress: &(dyn Fn(BuildProgress) + Sync),
    on_level: &mut dyn FnMut(usize, LevelStatus),
) -> Result<(), TbError> {
    let dir = dir.as_ref();
    if max_seeds > MAX_BUILD_SEEDS {
        return Err(TbError::TooManySeeds { seeds: max_seeds });
    }
    std::fs::create_dir_all(dir).map_err(|source| TbError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut levels: Vec<Level> = Vec::new();
    for n in 0..=max_seeds {
        let path = file::path_for(dir, n);
        if path.exists() {
            levels.push(file::open_level(&path, n)?);
            on_level(n, LevelStatus::Kept);
            continue;
        }
        let level = build::build_level(n, &levels, progress)?;
        file::write_level(&path, &level)?;
        // Map the file just written: checks it and frees the build memory.
        drop(level);
        levels.push(file::open_level(&path, n)?);
        on_level(n, LevelStatus::Built);
    }
    Ok(())
}

/// What [`check_consistency`] found wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConsistencyError {
    /// The tables have no level for this seed count.
    #[error("no table for {0} seeds")]
    NoTable(usize),
    /// An entry disagrees with its moves.
    #[error("{position}: stored bounds {}..={} but its moves give {}..={}", stored.0, stored.1, moves.0, moves.1)]
    Mismatch {
        /// The position.
        position: Position,
        /// The stored lower and upper bounds.
        stored: (u8, u8),
        /// The bounds its moves give.
        moves: (u8, u8),
    },
}

/// Checks, on up to `sample` boards of `seeds` seeds spread over the index
/// range, that each entry agrees with its moves: the lower bound is the best
/// of the moves' lower bounds and the upper bound the best of their upper
/// bounds (a board without moves: both are the mover's row, R9). Returns
/// the number of boards checked, how many have an exact value, and for how
/// many the result is decided (win, draw or loss) with the captured seeds
/// split evenly; or a description of the first mismatch.
pub fn check_consistency(
    tb: &Tablebase,
    seeds: usize,
    sample: u64,
) -> Result<(u64, u64, u64), ConsistencyError> {
    if tb.levels.get(seeds).is_none() {
        return Err(ConsistencyError::NoTable(seeds));
    }
    let count = index::count(seeds);
    let step = count.div_ceil(sample.max(1)).max(1);
    let mut checked = 0;
    let mut exact = 0;
    let mut decided = 0;
    let mut i = 0;
    while i < count {
        let board = index::unrank(seeds, i).expect("in range");
        let pos = index::position_of(&board);
        let v = tb.probe(&pos).expect("covered");
        let moves = tb.move_values(&pos).expect("covered");
        let (lo, hi) = if moves.is_empty() {
            let own = pos.row_seeds(pos.to_move());
            (own, own)
        } else {
            (
                moves.iter().map(|m| m.lower).max().unwrap(),
                moves.iter().map(|m| m.upper).max().unwrap(),
            )
        };
        if (lo, hi) != (v.lower(), v.upper()) {
            return Err(ConsistencyError::Mismatch {
                position: pos,
                stored: (v.lower(), v.upper()),
                moves: (lo, hi),
            });
        }
        checked += 1;
        exact += v.is_exact() as u64;
        decided += matches!(
            v.result(&pos),
            TbResult::Win | TbResult::Draw | TbResult::Loss
        ) as u64;
        i += step;
    }
    Ok((checked, exact, decided))
}
