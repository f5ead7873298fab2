//! The opening book: values of every legal move in the positions of the
//! first plies, computed by our own search and backed up through the book.
//!
//! **What it holds.** From the start position, every position reached by
//! any move in the first [`BuildParams::full_plies`] plies (a person may
//! open with anything), then by the *plausible* moves only (within
//! [`BuildParams::margin`] centi-seeds of the best, at most
//! [`BuildParams::width`] of them) up to [`BuildParams::plies`] plies.
//! Each position's legal moves are all valued by a search to
//! [`BuildParams::depth`] (every move exactly, as [`crate::Engine::analyze`]
//! does), then the values are *backed up*: a move that leads to a book
//! position takes the negated best value of that position, recursively, so
//! the values near the root rest on searches many plies deeper than
//! [`BuildParams::depth`] (the leaves' depth plus their distance from the
//! root) instead of on one shallow search each.
//!
//! **Determinism.** Each position is searched by a fresh search on a fresh
//! table, so a book depends only on its parameters and the engine's code,
//! not on the number of threads or the order of work: two builds with the
//! same parameters give the same file.
//!
//! **The file** (all integers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `OWAREBK\n` |
//! | 4 | format version ([`VERSION`]) |
//! | 1, 1, 1, 1 | parameters: plies, full plies, depth, width |
//! | 2 | parameter: margin (centi-seeds) |
//! | 2 | reserved, zero |
//! | 4 | number of entries *n* |
//! | 28 × *n* | entries sorted by key: the position's key ([`Position::key`], 16 bytes), then the values of the moves of the side to move's houses A–F (or a–f) as `i16` in the search's score units, [`NO_VALUE`] for an illegal move |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! [`Book::from_bytes`] refuses a wrong magic, version, length or checksum
//! with a [`BookError`]; it never misreads another format.

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use oware_core::{Game, Move, Position};

use crate::search::{Score, Searcher};
use crate::{levels, Limits, StopHandle};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"OWAREBK\n";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// The value stored for a move that is not legal.
pub const NO_VALUE: i16 = i16::MIN;

const HEADER: usize = 8 + 4 + 4 + 2 + 2 + 4;
const ENTRY: usize = 16 + 12;

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read or written.
    Io(String),
    /// Not a book file (the first bytes are not [`MAGIC`]).
    NotABook,
    /// A book of another format version.
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The length does not match the header's entry count.
    Length {
        /// Bytes expected from the header.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the contents (a damaged file).
    Checksum {
        /// The checksum in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// Well-formed but impossible contents (unsorted or duplicate keys, a
    /// key that is not a position).
    Corrupt(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "book file: {e}"),
            BookError::NotABook => write!(f, "not an opening book file (bad magic bytes)"),
            BookError::Version { found } => write!(
                f,
                "opening book format version {found}, but this program reads version {VERSION}; rebuild it with `oware book build`"
            ),
            BookError::Length { expected, found } => write!(
                f,
                "opening book has {found} bytes, its header says {expected}: truncated or damaged"
            ),
            BookError::Checksum { stored, computed } => write!(
                f,
                "opening book checksum mismatch (stored {stored:08x}, computed {computed:08x}): damaged file"
            ),
            BookError::Corrupt(e) => write!(f, "opening book is corrupt: {e}"),
        }
    }
}

impl std::error::Error for BookError {}

/// How a book is built (stored in its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildParams {
    /// Positions up to this many plies from the start are in the book.
    pub plies: u8,
    /// In the first `full_plies` plies every legal move is followed.
    pub full_plies: u8,
    /// Depth of the search that values each position's moves.
    pub depth: u8,
    /// After `full_plies`, at most this many moves are followed per position.
    pub width: u8,
    /// After `full_plies`, only moves within this many centi-seeds of the
    /// best are followed.
    pub margin: u16,
}

impl Default for BuildParams {
    /// The parameters of the book shipped in the repository.
    fn default() -> Self {
        BuildParams {
            plies: 8,
            full_plies: 2,
            depth: 14,
            width: 3,
            margin: 60,
        }
    }
}

/// Progress of a book build, reported after each position is searched.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// The ply being searched.
    pub ply: u8,
    /// Positions searched so far (all plies).
    pub done: usize,
    /// Positions known so far: searched ones and those queued at this ply.
    pub known: usize,
}

/// One book move and its value for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its backed-up value.
    pub score: Score,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: u128,
    values: [i16; 6],
}

/// An opening book: for each position in it, the value of every legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    params: BuildParams,
    // Sorted by key, for binary search.
    entries: Vec<Entry>,
}

/// The book file shipped with the engine (built by `oware book build` with
/// the default parameters).
static BUILTIN: &[u8] = include_bytes!("../book/oware.book");

impl Book {
    /// The book shipped with the engine, read once.
    pub fn builtin() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        BOOK.get_or_init(|| {
            // Checked by a test: a damaged file cannot be shipped unnoticed.
            Arc::new(Book::from_bytes(BUILTIN).expect("the shipped opening book is valid"))
        })
        .clone()
    }

    /// The parameters it was built with.
    pub fn params(&self) -> BuildParams {
        self.params
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a book without positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book moves of `pos`, best first (ties in house order), or `None`
    /// when the position is not in the book. Only legal moves are returned.
    pub fn moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        let key = pos.key();
        let i = self.entries.binary_search_by_key(&key, |e| e.key).ok()?;
        let entry = &self.entries[i];
        let legal = pos.legal_moves();
        let mut out: Vec<BookMove> = legal
            .into_iter()
            .filter_map(|mv| {
                let v = entry.values[mv.house().rel()];
                (v != NO_VALUE).then_some(BookMove {
                    mv,
                    score: Score(v as i32),
                })
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.score));
        (!out.is_empty()).then_some(out)
    }

    /// The move to play in `game` from the book, if its position is in it:
    /// the best with `temperature` 0, else drawn by a softmax over the
    /// values (a move worse by `temperature` centi-seeds is `e` times less
    /// likely), seeded by `seed`, the position and the ply number.
    pub fn choose(&self, game: &Game, temperature: u32, seed: u64) -> Option<BookMove> {
        if game.is_over() {
            return None;
        }
        let moves = self.moves(game.position())?;
        let analysis: Vec<crate::MoveAnalysis> = moves
            .iter()
            .map(|m| crate::MoveAnalysis {
                mv: m.mv,
                score: m.score,
                pv: vec![m.mv],
            })
            .collect();
        let i = levels::pick(&analysis, temperature, seed ^ 0xB00C, game);
        Some(moves[i])
    }

    /// Reads a book from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        if bytes.len() < HEADER + 4 {
            return Err(BookError::Length {
                expected: HEADER + 4,
                found: bytes.len(),
            });
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version { found: version });
        }
        let count = u32_at(20) as usize;
        let expected = HEADER + ENTRY * count + 4;
        if bytes.len() != expected {
            return Err(BookError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[..expected - 4];
        let stored = u32_at(expected - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(BookError::Checksum { stored, computed });
        }
        let params = BuildParams {
            plies: bytes[12],
            full_plies: bytes[13],
            depth: bytes[14],
            width: bytes[15],
            margin: u16::from_le_bytes([bytes[16], bytes[17]]),
        };
        let mut entries = Vec::with_capacity(count);
        for chunk in body[HEADER..].chunks_exact(ENTRY) {
            let key = u128::from_le_bytes(chunk[..16].try_into().expect("16 bytes"));
            let mut values = [0i16; 6];
            for (i, v) in values.iter_mut().enumerate() {
                *v = i16::from_le_bytes([chunk[16 + 2 * i], chunk[17 + 2 * i]]);
            }
            if let Some(prev) = entries.last().map(|e: &Entry| e.key) {
                if prev >= key {
                    return Err(BookError::Corrupt(format!(
                        "entry {} is out of order",
                        entries.len()
                    )));
                }
            }
            entries.push(Entry { key, values });
        }
        Ok(Book { params, entries })
    }

    /// The book's bytes, in the format described in the module text.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len() + 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let p = self.params;
        out.extend_from_slice(&[p.plies, p.full_plies, p.depth, p.width]);
        out.extend_from_slice(&p.margin.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            for v in e.values {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes =
            std::fs::read(path).map_err(|e| BookError::Io(format!("{}: {e}", path.display())))?;
        Book::from_bytes(&bytes)
    }

    /// Writes the book to `path` atomically (a temporary file renamed).
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let io = |e: std::io::Error| BookError::Io(format!("{}: {e}", path.display()));
        let tmp = path.with_extension("book.tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// Builds a book with `params` on `threads` threads, reporting progress
/// after each position. Stops early (returning what is done, values backed
/// up) if `stop` is raised.
pub fn build(
    params: &BuildParams,
    threads: usize,
    stop: &StopHandle,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Book {
    use std::collections::HashMap;

    // Key -> (position, values of houses A-F of the mover, children by house).
    let mut searched: HashMap<u128, ([i16; 6], [Option<u128>; 6])> = HashMap::new();
    let mut frontier = vec![Position::start()];
    let mut queued = std::collections::HashSet::new();
    let done = AtomicUsize::new(0);
    for ply in 0..=params.plies {
        if frontier.is_empty() || stop.is_stopped() {
            break;
        }
        let known = done.load(Ordering::Relaxed) + frontier.len();
        let values = search_all(&frontier, params.depth, threads, stop, &|| {
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(BuildProgress {
                ply,
                done: d,
                known,
            });
        });
        let mut next = Vec::new();
        for (pos, vals) in frontier.iter().zip(values) {
            let Some(vals) = vals else { continue };
            let mut children = [None; 6];
            if ply < params.plies {
                for mv in follow(pos, &vals, ply, params) {
                    let child = pos.play_unchecked(mv);
                    if child.legal_moves().is_empty() {
                        continue;
                    }
                    let key = child.key();
                    children[mv.house().rel()] = Some(key);
                    if !searched.contains_key(&key) && queued.insert(key) {
                        next.push(child);
                    }
                }
            }
            searched.insert(pos.key(), (vals, children));
        }
        // A stable order: the build is the same whatever the thread count.
        next.sort_by_key(|p| p.key());
        frontier = next;
    }
    back_up(searched, params)
}

// The moves whose positions go into the book at `ply`.
fn follow(pos: &Position, vals: &[i16; 6], ply: u8, params: &BuildParams) -> Vec<Move> {
    let mut moves: Vec<(i16, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| (vals[mv.house().rel()], mv))
        .filter(|(v, _)| *v != NO_VALUE)
        .collect();
    if ply < params.full_plies {
        return moves.into_iter().map(|(_, m)| m).collect();
    }
    moves.sort_by_key(|(v, m)| (std::cmp::Reverse(*v), m.house().rel()));
    let best = moves.first().map_or(0, |m| m.0 as i32);
    moves
        .into_iter()
        .filter(|(v, _)| best - (*v as i32) <= params.margin as i32)
        .take(params.width as usize)
        .map(|(_, m)| m)
        .collect()
}

// Values of every legal move of each position (None where stopped).
fn search_all(
    positions: &[Position],
    depth: u8,
    threads: usize,
    stop: &StopHandle,
    tick: &(dyn Fn() + Sync),
) -> Vec<Option<[i16; 6]>> {
    let next = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<[i16; 6]>>> = positions
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut searcher = Searcher::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= positions.len() || stop.is_stopped() {
                        break;
                    }
                    // A fresh table for each position: the values depend on
                    // the position only.
                    searcher.clear();
                    let game = Game::new(positions[i]);
                    let limits = Limits::depth(depth as u32);
                    let (moves, _) = searcher.analyze(&game, &limits, stop, &mut |_| {});
                    if stop.is_stopped() {
                        break;
                    }
                    let mut vals = [NO_VALUE; 6];
                    for m in moves {
                        vals[m.mv.house().rel()] = clamp(m.score.0);
                    }
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(vals);
                    tick();
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

fn clamp(v: i32) -> i16 {
    v.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
}

// Negamax of the searched values through the book's own positions.
fn back_up(
    searched: std::collections::HashMap<u128, ([i16; 6], [Option<u128>; 6])>,
    params: &BuildParams,
) -> Book {
    use std::collections::HashMap;
    let mut best: HashMap<u128, i16> = HashMap::new();
    let mut values: HashMap<u128, [i16; 6]> = HashMap::new();
    // Depth-first with an explicit stack; a position on the stack (a cycle
    // through repeated boards, which cannot happen this early but costs
    // nothing to guard) keeps its searched values.
    fn visit(
        key: u128,
        searched: &HashMap<u128, ([i16; 6], [Option<u128>; 6])>,
        best: &mut HashMap<u128, i16>,
        values: &mut HashMap<u128, [i16; 6]>,
        on_path: &mut std::collections::HashSet<u128>,
    ) -> Option<i16> {
        if let Some(b) = best.get(&key) {
            return Some(*b);
        }
        let (vals, children) = searched.get(&key)?;
        if !on_path.insert(key) {
            return None;
        }
        let mut vals = *vals;
        for (i, child) in children.iter().enumerate() {
            if let Some(c) = child {
                if let Some(b) = visit(*c, searched, best, values, on_path) {
                    vals[i] = clamp(-(b as i32));
                }
            }
        }
        on_path.remove(&key);
        let b = vals.iter().copied().filter(|v| *v != NO_VALUE).max()?;
        best.insert(key, b);
        values.insert(key, vals);
        Some(b)
    }
    let mut on_path = std::collections::HashSet::new();
    let mut keys: Vec<u128> = searched.keys().copied().collect();
    keys.sort_unstable();
    for k in &keys {
        visit(*k, &searched, &mut best, &mut values, &mut on_path);
    }
    let mut entries: Vec<Entry> = values
        .into_iter()
        .map(|(key, values)| Entry { key, values })
        .collect();
    entries.sort_by_key(|e| e.key);
    Book {
        params: *params,
        entries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Book {
        let params = BuildParams {
            plies: 2,
            full_plies: 1,
            depth: 3,
            width: 2,
            margin: 50,
        };
        build(&params, 2, &StopHandle::default(), &|_| {})
    }

    #[test]
    fn build_covers_the_first_plies_and_backs_up_values() {
        let book = tiny();
        let start = Position::start();
        let moves = book.moves(&start).expect("the start is in the book");
        assert_eq!(moves.len(), 6);
        // Every reply to every first move is in the book (full ply 0).
        for m in &moves {
            let child = start.play_unchecked(m.mv);
            let replies = book.moves(&child).expect("every first move is followed");
            // Backed up: the move's value is minus the reply's best.
            assert_eq!(m.score, -replies[0].score, "{}", m.mv);
        }
        // Best first.
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
        // Positions at ply 2 are, those at ply 3 are not.
        let first = start.play_unchecked(moves[0].mv);
        let second = book
            .moves(&first)
            .unwrap()
            .iter()
            .map(|m| first.play_unchecked(m.mv))
            .find(|p| book.moves(p).is_some())
            .expect("some reply is followed");
        for m in book.moves(&second).unwrap() {
            assert!(book.moves(&second.play_unchecked(m.mv)).is_none());
        }
    }

    #[test]
    fn builds_are_the_same_on_any_number_of_threads() {
        let params = BuildParams {
            plies: 2,
            full_plies: 1,
            depth: 3,
            width: 2,
            margin: 50,
        };
        let one = build(&params, 1, &StopHandle::default(), &|_| {});
        let three = build(&params, 3, &StopHandle::default(), &|_| {});
        assert_eq!(one, three);
    }

    #[test]
    fn file_round_trip_and_typed_refusals() {
        let book = tiny();
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);

        let mut v = bytes.clone();
        v[8] = 2;
        assert_eq!(Book::from_bytes(&v), Err(BookError::Version { found: 2 }));

        let mut v = bytes.clone();
        let last = v.len() - 10;
        v[last] ^= 1;
        assert!(matches!(
            Book::from_bytes(&v),
            Err(BookError::Checksum { .. })
        ));

        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 1]),
            Err(BookError::Length { .. })
        ));
        assert_eq!(Book::from_bytes(b"hello"), Err(BookError::NotABook));
    }

    #[test]
    fn the_shipped_book_is_valid_and_plays_legal_moves() {
        let book = Book::builtin();
        let game = Game::new(Position::start());
        assert_eq!(book.params(), BuildParams::default());
        let m = book.choose(&game, 0, 1).expect("the start is in the book");
        assert!(game.legal_moves().contains(m.mv));
        assert_eq!(m, book.moves(game.position()).unwrap()[0]);
    }

    #[test]
    fn variety_is_seeded() {
        let book = tiny();
        let game = Game::new(Position::start());
        let picks: std::collections::HashSet<Move> = (0..200)
            .map(|s| book.choose(&game, 300, s).unwrap().mv)
            .collect();
        assert!(picks.len() > 1, "a high temperature varies the move");
        assert_eq!(book.choose(&game, 300, 5), book.choose(&game, 300, 5));
    }
}
