//! Endgame tablebase probing for the search: an adapter from
//! `oware-tablebase` to the search's [`Oracle`].
//!
//! A table entry gives bounds on the seeds of the board the side to move
//! ends up with, valid while no board since the last capture has occurred
//! twice (see `oware-tablebase`; the search checks that before probing).
//! With the stores they give bounds on the result: the search uses an exact
//! result as the node's value and a one-sided result (win-or-draw,
//! draw-or-loss) as a bound for a cut-off.
//!
//! Tablebase support is the cargo feature `tablebase` (on by default).
//! Without it, `oware-tablebase` (and its rayon and memmap2) is not built:
//! [`Tablebase`] is then a type with no values, and opening or building
//! tables fails with [`TablebaseError::Disabled`].

use std::path::PathBuf;
use std::sync::Arc;

use oware_core::Position;
#[cfg(feature = "tablebase")]
pub use oware_tablebase::Tablebase;

use crate::search::{Oracle, OracleValue};

/// Why tables could not be opened or built.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// The directory's files could not be read.
    #[cfg(feature = "tablebase")]
    #[error("cannot open tablebases in {}: {source}", dir.display())]
    Open {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: oware_tablebase::TbError,
    },
    /// The directory holds no table files.
    #[error("no tablebase files in {}", dir.display())]
    Empty {
        /// The directory.
        dir: PathBuf,
    },
    /// Building tables failed.
    #[cfg(feature = "tablebase")]
    #[error(transparent)]
    Build(#[from] oware_tablebase::TbError),
    /// The engine was built without the `tablebase` feature.
    #[error("this engine was built without tablebase support (cargo feature `tablebase`)")]
    Disabled,
}

#[cfg(feature = "tablebase")]
impl Oracle for Arc<Tablebase> {
    fn probe(&self, pos: &Position) -> Option<OracleValue> {
        use oware_tablebase::TbResult;
        let v = Tablebase::probe(self, pos)?;
        let (lower, upper) = match v.result(pos) {
            TbResult::Win => (1, 1),
            TbResult::Draw => (0, 0),
            TbResult::Loss => (-1, -1),
            TbResult::WinOrDraw => (0, 1),
            TbResult::DrawOrLoss => (-1, 0),
            TbResult::Unresolved => (-1, 1),
        };
        let me = pos.to_move();
        Some(OracleValue {
            lower,
            upper,
            store: pos.store(me),
            opp_store: pos.store(me.opponent()),
        })
    }

    fn max_seeds(&self) -> u8 {
        Tablebase::max_seeds(self).map_or(0, |n| n.min(48) as u8)
    }
}

/// A legal move and what the tables say it is worth to the side to move:
/// bounds on the seeds of the board (its own capture included) the mover
/// ends up with (`oware_tablebase::MoveValue`, available with or without
/// the `tablebase` feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableMove {
    /// The move.
    pub mv: oware_core::Move,
    /// Seeds it captures at once.
    pub captured: u8,
    /// Lower bound on the mover's share of the board's seeds after it.
    pub lower: u8,
    /// Upper bound on the mover's share.
    pub upper: u8,
}

/// Every legal move of `pos` valued by `tables`, in move order; `None`
/// when the tables do not cover `pos`.
#[cfg(feature = "tablebase")]
pub fn move_values(tables: &Tablebase, pos: &Position) -> Option<Vec<TableMove>> {
    Some(
        tables
            .move_values(pos)?
            .into_iter()
            .map(|v| TableMove {
                mv: v.mv,
                captured: v.captured,
                lower: v.lower,
                upper: v.upper,
            })
            .collect(),
    )
}

/// Without the `tablebase` feature there are no tables to ask.
#[cfg(not(feature = "tablebase"))]
pub fn move_values(tables: &Tablebase, _pos: &Position) -> Option<Vec<TableMove>> {
    match *tables {}
}

/// Opens the tables in `dir` as an oracle for the search.
#[cfg(feature = "tablebase")]
pub fn open(dir: &std::path::Path) -> Result<Arc<Tablebase>, TablebaseError> {
    let tb = Tablebase::open(dir).map_err(|source| TablebaseError::Open {
        dir: dir.to_path_buf(),
        source,
    })?;
    if tb.max_seeds().is_none() {
        return Err(TablebaseError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    Ok(Arc::new(tb))
}

/// Builds the tables of up to `max_seeds` seeds in memory.
#[cfg(feature = "tablebase")]
pub fn build_in_memory(max_seeds: usize) -> Result<Tablebase, TablebaseError> {
    Ok(Tablebase::build_in_memory(max_seeds)?)
}

/// Without the `tablebase` feature: no tables can exist.
#[cfg(not(feature = "tablebase"))]
#[derive(Debug)]
pub enum Tablebase {}

#[cfg(not(feature = "tablebase"))]
impl Tablebase {
    /// The largest seed count covered (never called: there are no tables).
    pub fn max_seeds(&self) -> Option<usize> {
        match *self {}
    }
}

#[cfg(not(feature = "tablebase"))]
impl Oracle for Arc<Tablebase> {
    fn probe(&self, _pos: &Position) -> Option<OracleValue> {
        match **self {}
    }

    fn max_seeds(&self) -> u8 {
        match **self {}
    }
}

/// Opens the tables in `dir`: always refused without the `tablebase` feature.
#[cfg(not(feature = "tablebase"))]
pub fn open(_dir: &std::path::Path) -> Result<Arc<Tablebase>, TablebaseError> {
    Err(TablebaseError::Disabled)
}

/// Builds tables in memory: always refused without the `tablebase` feature.
#[cfg(not(feature = "tablebase"))]
pub fn build_in_memory(_max_seeds: usize) -> Result<Tablebase, TablebaseError> {
    Err(TablebaseError::Disabled)
}
