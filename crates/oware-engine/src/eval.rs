//! Static evaluation: a linear function of a few board features, from the
//! point of view of the side to move, in centi-seeds.
//!
//! The features are differences "side to move minus opponent". Their weights
//! ([`Weights::TUNED`]) were fitted on self-play data; `docs/ENGINE.md`
//! describes the method and the command that repeats it
//! (`oware tune`, see [`crate::tune`]).

use oware_core::{Position, Side};

/// Number of evaluation features.
pub const FEATURES: usize = 8;

/// Feature names, in the order of [`Features::values`] and [`Weights::w`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "store",
    "row_seeds",
    "kroo",
    "vulnerable",
    "threat",
    "mobility",
    "reach",
    "tempo",
];

/// Feature values of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// One value per feature, see [`FEATURE_NAMES`].
    pub values: [i32; FEATURES],
}

/// Evaluation weights, one per feature, in centi-seeds per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// One weight per feature, see [`FEATURE_NAMES`].
    pub w: [i32; FEATURES],
}

/// Why a weights string is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not one weight per feature.
    #[error("expected {FEATURES} comma-separated weights ({names}), got {got}", names = FEATURE_NAMES.join(","))]
    Count {
        /// How many were given.
        got: usize,
    },
    /// A weight is not an integer.
    #[error("weight {} ({}): '{text}' is not an integer", index + 1, FEATURE_NAMES[*index])]
    NotAnInteger {
        /// Its index (0-based).
        index: usize,
        /// The text given.
        text: String,
    },
}

impl Weights {
    /// Hand-set starting weights (before tuning); kept for comparisons.
    pub const INITIAL: Weights = Weights {
        w: [100, 5, 60, -25, -40, 10, 5, 10],
    };

    /// The weights fitted by `oware tune` (see `docs/ENGINE.md`).
    pub const TUNED: Weights = Weights {
        w: [100, 0, 67, -40, -32, 126, -74, -23],
    };
}

impl Weights {
    /// Parses a comma-separated list of the weights, e.g. `100,5,60,-25,-10,10,5,10`.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != FEATURES {
            return Err(WeightsError::Count { got: parts.len() });
        }
        let mut w = [0; FEATURES];
        for (i, p) in parts.iter().enumerate() {
            w[i] = p.parse().map_err(|_| WeightsError::NotAnInteger {
                index: i,
                text: p.to_string(),
            })?;
        }
        Ok(Weights { w })
    }
}

impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.w.iter().map(|x| x.to_string()).collect();
        f.write_str(&parts.join(","))
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

#[derive(Clone, Copy, Default)]
struct SideFeatures {
    row: i32,
    kroo: i32,
    vulnerable: i32,
    mobility: i32,
    reach: i32,
}

fn side_features(pos: &Position, side: Side) -> SideFeatures {
    let mut f = SideFeatures::default();
    for (rel, h) in side.houses().enumerate() {
        let n = pos.seeds(h) as i32;
        f.row += n;
        if n >= 12 {
            f.kroo += 1;
        }
        if n == 1 || n == 2 {
            f.vulnerable += 1;
        }
        if n != 0 {
            f.mobility += 1;
        }
        // Seeds that leave the row: a move from house `rel` reaches the
        // opponent's row once it holds more than 5 - rel seeds.
        if n > 5 - rel as i32 {
            f.reach += 1;
        }
    }
    f
}

impl Features {
    /// The features of `pos` for the side to move.
    pub fn of(pos: &Position) -> Features {
        let me = pos.to_move();
        let opp = me.opponent();
        let a = side_features(pos, me);
        let b = side_features(pos, opp);
        // The opponent's best capture if it were their move: what the mover
        // must defend against.
        let theirs = pos.with_side_to_move(opp);
        let before = theirs.store(opp);
        let threat = theirs
            .legal_moves()
            .into_iter()
            .map(|mv| theirs.play_unchecked(mv).store(opp) - before)
            .max()
            .unwrap_or(0) as i32;
        Features {
            values: [
                pos.store(me) as i32 - pos.store(opp) as i32,
                a.row - b.row,
                a.kroo - b.kroo,
                a.vulnerable - b.vulnerable,
                threat,
                a.mobility - b.mobility,
                a.reach - b.reach,
                1,
            ],
        }
    }
}

/// The static value of `pos` for the side to move, in centi-seeds.
///
/// ```
/// use oware_core::Position;
/// use oware_engine::eval::{evaluate, Weights};
/// // The start position is symmetric: only the tempo term remains.
/// assert_eq!(evaluate(&Position::start(), &Weights::TUNED), Weights::TUNED.w[7]);
/// ```
#[inline]
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let f = Features::of(pos);
    f.values
        .iter()
        .zip(weights.w.iter())
        .map(|(a, b)| a * b)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_is_antisymmetric_under_side_swap() {
        // Swapping the rows and the side to move must negate every feature but tempo.
        let pos: Position = "1-0-13-2-0-5-3-3-0-1-2-0-10-8-S".parse().unwrap();
        let s = pos.setup();
        let mut m = s;
        for i in 0..6 {
            m.houses[i] = s.houses[i + 6];
            m.houses[i + 6] = s.houses[i];
        }
        m.stores = [s.stores[1], s.stores[0]];
        m.to_move = Side::North;
        let mirror = Position::from_setup(m).unwrap();
        let a = Features::of(&pos);
        let b = Features::of(&mirror);
        assert_eq!(a, b);
        let swapped = pos.with_side_to_move(Side::North);
        let c = Features::of(&swapped);
        for i in (0..FEATURES - 1).filter(|&i| FEATURE_NAMES[i] != "threat") {
            assert_eq!(a.values[i], -c.values[i], "feature {}", FEATURE_NAMES[i]);
        }
    }

    #[test]
    fn store_lead_dominates() {
        let ahead: Position = "4-4-4-4-4-4-4-4-4-0-0-0-12-0-S".parse().unwrap();
        assert!(evaluate(&ahead, &Weights::TUNED) > 500);
        assert!(evaluate(&ahead.with_side_to_move(Side::North), &Weights::TUNED) < -500);
    }
}
