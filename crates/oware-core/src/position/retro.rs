//! Retrograde move generation ("un-moves"), for endgame tablebase builders.
//!
//! A tablebase builder works backwards: when the value of a position becomes
//! known it visits every position that can reach it in one move. Captures
//! change the seed count, so builders only need the predecessors through
//! moves that capture nothing; those are what [`Position::for_each_quiet_predecessor`]
//! enumerates. The rules stay in one place: every candidate is confirmed by
//! playing the move forwards with the ordinary rules (R3-R8).

use super::{byte, Position, SOW_ADD};
use crate::types::{House, Move};

// The high bit of each of the twelve house bytes.
const HOUSE_HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080;

impl Position {
    /// Calls `f(mv, before)` for every position `before` (with the other
    /// player to move and the same stores) in which `mv` is legal, captures
    /// nothing, and leads to `self`.
    ///
    /// A move that captures nothing leaves its house empty and adds seeds
    /// to the following houses, so the candidates are: an empty house of the
    /// player who just moved, and a seed count whose sowing `self` can
    /// contain. Each candidate is checked by playing it forwards, which also
    /// rejects moves the feeding rule (R8) forbids and moves that would have
    /// captured; a grand slam (R7) captures nothing and is reported.
    ///
    /// ```
    /// use oware_core::Position;
    /// let after: Position = "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N".parse().unwrap();
    /// let mut found = Vec::new();
    /// after.for_each_quiet_predecessor(|mv, before| found.push((mv, before.to_string())));
    /// assert!(found.contains(&("F".parse().unwrap(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".to_string())));
    /// ```
    pub fn for_each_quiet_predecessor<F: FnMut(Move, Position)>(&self, mut f: F) {
        let prev = self.to_move.opponent();
        for rel in 0..6 {
            let h = 6 * prev.index() + rel;
            if byte(self.bits, h) != 0 {
                continue;
            }
            let mv = Move::new(House::ALL[h]);
            for (k, &add) in SOW_ADD[h].iter().enumerate().take(49).skip(1) {
                // Bytes never exceed 48, so with each house byte's high bit set
                // a subtraction borrows across bytes only if some house lacks
                // the seeds the sowing would have put there.
                if ((self.bits | HOUSE_HIGH_BITS) - add) & HOUSE_HIGH_BITS != HOUSE_HIGH_BITS {
                    // Sowing more seeds adds at least as much to every house.
                    break;
                }
                let bits = self.bits - add + ((k as u128) << (8 * h));
                let before = Position {
                    bits,
                    to_move: prev,
                };
                if before.legal_mask() & (1 << rel) != 0
                    && !before.is_decided()
                    && before.sow_and_capture(mv).bits == self.bits
                {
                    f(mv, before);
                }
            }
        }
    }

    /// The predecessors of [`for_each_quiet_predecessor`](Self::for_each_quiet_predecessor), collected.
    pub fn quiet_predecessors(&self) -> Vec<(Move, Position)> {
        let mut out = Vec::new();
        self.for_each_quiet_predecessor(|mv, p| out.push((mv, p)));
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Setup, Side};
    use proptest::prelude::*;

    fn position_strategy() -> impl Strategy<Value = Position> {
        (
            proptest::collection::vec(0u8..5, 12),
            0u8..=1,
            any::<bool>(),
        )
            .prop_map(|(houses, split, north)| {
                let mut h = [0u8; 12];
                h.copy_from_slice(&houses);
                let on_board: u8 = h.iter().sum();
                let rest = 48 - on_board;
                // Keep the game undecided (R10) so moves exist.
                let south = rest / 2 + split.min(rest % 2);
                let setup = Setup {
                    houses: h,
                    stores: [south, rest - south],
                    to_move: if north { Side::North } else { Side::South },
                };
                Position::from_setup(setup).unwrap()
            })
    }

    proptest! {
        // Every quiet move leads to a position that lists its origin as a predecessor.
        #[test]
        fn quiet_moves_are_found_backwards(pos in position_strategy()) {
            for mv in pos.legal_moves() {
                let after = pos.play_unchecked(mv);
                let quiet = after.store(pos.to_move()) == pos.store(pos.to_move());
                let preds = after.quiet_predecessors();
                prop_assert_eq!(preds.contains(&(mv, pos)), quiet, "{} {} -> {}", pos, mv, after);
            }
        }

        // Every predecessor really reaches the position by a legal quiet move.
        #[test]
        fn predecessors_play_forwards(pos in position_strategy()) {
            for (mv, before) in pos.quiet_predecessors() {
                prop_assert!(before.is_legal(mv), "{} {} illegal", before, mv);
                prop_assert_eq!(before.try_play(mv).unwrap(), pos);
                prop_assert_eq!(before.store(Side::South), pos.store(Side::South));
            }
        }
    }

    #[test]
    fn e1_start_is_a_predecessor_of_e1() {
        let after: Position = "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N".parse().unwrap();
        let preds = after.quiet_predecessors();
        // F with any of 1..=48 seeds: every sowing, laps included, fits in this board.
        assert!(
            preds.contains(&("F".parse().unwrap(), Position::start())),
            "{preds:?}"
        );
        assert_eq!(preds.len(), 48);
    }

    #[test]
    fn lapping_sowing_is_undone() {
        // E5: 12 seeds from A go round the board, skipping A.
        let before: Position = "12-0-0-0-0-0-1-1-1-1-1-1-15-15-S".parse().unwrap();
        let after = before.try_play("A".parse().unwrap()).unwrap();
        assert!(after.quiet_predecessors().iter().any(|&(_, p)| p == before));
    }
}
