//! Endgame tablebase probing for the search: an adapter from
//! `oware-tablebase` to the search's [`Oracle`].
//!
//! A table entry gives bounds on the seeds of the board the side to move
//! ends up with, valid while no board since the last capture has occurred
//! twice (see `oware-tablebase`; the search checks that before probing).
//! With the stores they give bounds on the result: the search uses an exact
//! result as the node's value and a one-sided result (win-or-draw,
//! draw-or-loss) as a bound for a cut-off.

use std::sync::Arc;

use oware_core::Position;
pub use oware_tablebase::Tablebase;
use oware_tablebase::TbResult;

use crate::search::{Oracle, OracleValue};

impl Oracle for Arc<Tablebase> {
    fn probe(&self, pos: &Position) -> Option<OracleValue> {
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

/// Opens the tables in `dir` as an oracle for the search.
pub fn open(dir: &std::path::Path) -> Result<Arc<Tablebase>, String> {
    let tb = Tablebase::open(dir)
        .map_err(|e| format!("cannot open tablebases in {}: {e}", dir.display()))?;
    if tb.max_seeds().is_none() {
        return Err(format!("no tablebase files in {}", dir.display()));
    }
    Ok(Arc::new(tb))
}
