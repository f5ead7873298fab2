//! A small neural-network evaluation, quantised to integers.
//!
//! **Inputs** (all one-hot, seen from the side to move, so the same board
//! with the rows, the stores and the side to move exchanged has exactly the
//! same inputs and value): each of the twelve houses, the mover's A–F (or
//! a–f) then the opponent's, as its seed count 0..=15 or 16+ (17 inputs
//! each); the mover's store 0..=24 or 25+ and the opponent's (26 each); and
//! the seeds the opponent could capture if it were their move, 0..=14 or
//! 15+ (16 inputs; the linear evaluation's `threat`). [`INPUTS`] in all, of
//! which [`ACTIVE`] are set in every position.
//!
//! **Network:** one hidden layer of [`HIDDEN`] clipped-ReLU units (values
//! clipped to 0..=1) and one output, plus a linear term per input added to
//! the output (so the linear part of the value does not use up hidden
//! units). The output is a logit of the mover's result; times the scale it
//! becomes centi-seeds, the search's unit. The output weights and bias may
//! come in several *buckets* by the seeds on the board ([`bucket`]): the
//! hidden layer is shared, and each stage of the game reads it with its own
//! output (a network of one bucket is the format of version 1).
//!
//! **Quantisation:** first-layer weights and biases are `i16` in units of
//! 1/[`Q1`] (so a hidden unit is clipped to `0..=Q1`); output weights,
//! output bias and linear terms are `i32` centi-seeds in units of
//! 1/[`Q2`] (the output weights per unit of activation, i.e. per `Q1`).
//! A forward pass is [`ACTIVE`] additions of a [`HIDDEN`]-wide `i16`
//! vector into `i32` accumulators and one [`HIDDEN`]-term dot product:
//! no incremental update is needed.
//!
//! **The file** (integers little-endian), refused on any mismatch with a
//! [`NetError`]:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `OWARENN\n` |
//! | 4 | format version ([`VERSION`]) |
//! | 2, 2 | inputs ([`INPUTS`]), hidden units ([`HIDDEN`]) |
//! | 2, 2 | [`Q1`], [`Q2`] |
//! | 4 | version 1: zero (one bucket); version 2: the output buckets, 2..=[`MAX_BUCKETS`] |
//! | 2 × inputs × hidden | first-layer weights, `i16`, input-major |
//! | 2 × hidden | first-layer biases, `i16` |
//! | 4 × buckets × hidden | output weights, `i32`, bucket-major |
//! | 4 × buckets | output biases, `i32` |
//! | 4 × inputs | linear terms, `i32` |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! The shipped network (`nn/oware.nn`, embedded by [`Network::builtin`])
//! is trained by `scripts/train-nn.sh` (docs/ENGINE.md, "The network").

use std::path::Path;
use std::sync::{Arc, OnceLock};

use oware_core::{Position, Side};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"OWARENN\n";
/// The newest format version: this code reads 1 (one output) and 2
/// (output buckets), and writes a network of one bucket as version 1.
pub const VERSION: u32 = 2;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;
/// Hidden units.
pub const HIDDEN: usize = 32;
/// First-layer fixed-point unit (a hidden unit is clipped to `0..=Q1`).
pub const Q1: i32 = 2048;
/// Output fixed-point unit.
pub const Q2: i32 = 64;

// Values are kept well inside the search's heuristic range (below proven
// and table results).
const LIMIT: i32 = 20_000;

const HOUSE_BUCKETS: usize = 17;
const STORE_BUCKETS: usize = 26;
const THREAT_BUCKETS: usize = 16;
const STORES_AT: usize = 12 * HOUSE_BUCKETS;
const THREAT_AT: usize = STORES_AT + 2 * STORE_BUCKETS;
/// Number of inputs.
pub const INPUTS: usize = THREAT_AT + THREAT_BUCKETS;
/// Inputs set in every position.
pub const ACTIVE: usize = 12 + 2 + 1;

const HEADER: usize = 8 + 4 + 2 + 2 + 2 + 2 + 4;

/// Length in bytes of a network file with `buckets` output buckets.
pub const fn file_len(buckets: usize) -> usize {
    HEADER + 2 * INPUTS * HIDDEN + 2 * HIDDEN + 4 * buckets * (HIDDEN + 1) + 4 * INPUTS + 4
}

/// The output bucket of a position with `seeds` on the board, for a
/// network of `buckets` buckets: the range 0..=48 cut into equal parts
/// (8 buckets: 0-6, 7-12, 13-18, 19-24, 25-30, 31-36, 37-42, 43-48).
#[inline]
pub fn bucket(buckets: usize, seeds: u32) -> usize {
    (seeds as usize * buckets / 49).min(buckets - 1)
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("network file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Not a network file (the first bytes are not [`MAGIC`]).
    #[error("not an evaluation network file (bad magic bytes)")]
    NotANetwork,
    /// A network of another format version.
    #[error(
        "evaluation network format version {found}, but this program reads versions 1 to {VERSION}"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Another shape or fixed-point scale than this code's inputs and layers.
    #[error("evaluation network of shape {inputs}x{hidden} (Q {q1}/{q2}), but this program uses {INPUTS}x{HIDDEN} (Q {Q1}/{Q2})")]
    Shape {
        /// Inputs in the file.
        inputs: u16,
        /// Hidden units in the file.
        hidden: u16,
        /// First-layer unit in the file.
        q1: u16,
        /// Output unit in the file.
        q2: u16,
    },
    /// A version-2 file whose number of output buckets is out of range.
    #[error(
        "evaluation network with {found} output buckets, but this program reads 2 to {MAX_BUCKETS}"
    )]
    Buckets {
        /// The buckets in the file.
        found: u32,
    },
    /// The length is not the one the header implies.
    #[error("evaluation network has {found} bytes, expected {expected}: truncated or damaged")]
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the contents (a damaged file).
    #[error("evaluation network checksum mismatch (stored {stored:08x}, computed {computed:08x}): damaged file")]
    Checksum {
        /// The checksum in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
}

/// The indices of the inputs set in `pos`, in a fixed order: the twelve
/// houses, the two stores, the threat.
pub fn active_inputs(pos: &Position) -> [u16; ACTIVE] {
    let me = pos.to_move();
    let opp = me.opponent();
    let mut out = [0u16; ACTIVE];
    let mut k = 0;
    for side in [me, opp] {
        for h in side.houses() {
            let n = (pos.seeds(h) as usize).min(HOUSE_BUCKETS - 1);
            out[k] = (k * HOUSE_BUCKETS + n) as u16;
            k += 1;
        }
    }
    out[12] = (STORES_AT + (pos.store(me) as usize).min(STORE_BUCKETS - 1)) as u16;
    out[13] = (STORES_AT + STORE_BUCKETS + (pos.store(opp) as usize).min(STORE_BUCKETS - 1)) as u16;
    out[14] = (THREAT_AT + (threat(pos, opp) as usize).min(THREAT_BUCKETS - 1)) as u16;
    out
}

// The most the opponent could capture if it were their move.
fn threat(pos: &Position, opp: Side) -> u8 {
    let theirs = pos.with_side_to_move(opp);
    let before = theirs.store(opp);
    theirs
        .legal_moves()
        .into_iter()
        .map(|mv| theirs.play_unchecked(mv).store(opp) - before)
        .max()
        .unwrap_or(0)
}

/// A quantised network (see the module text).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    // One row of output weights and one bias per bucket.
    w2: Vec<[i32; HIDDEN]>,
    b2: Vec<i32>,
    lin: Vec<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x{})", self.w2.len())
    }
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// The network shipped in the repository (`nn/oware.nn`), read once.
    pub fn builtin() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        Arc::clone(NET.get_or_init(|| {
            Arc::new(
                Network::from_bytes(include_bytes!("../nn/oware.nn"))
                    .expect("the shipped network is checked by the tests"),
            )
        }))
    }

    /// Reads a network file's bytes, refusing anything but this format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(NetError::NotANetwork);
        }
        if bytes.len() < HEADER {
            return Err(NetError::Length {
                expected: file_len(1),
                found: bytes.len(),
            });
        }
        let version = le_u32(bytes, 8);
        let buckets = match (version, le_u32(bytes, 20)) {
            (1, _) => 1,
            (2, n) if (2..=MAX_BUCKETS as u32).contains(&n) => n as usize,
            (2, n) => return Err(NetError::Buckets { found: n }),
            (v, _) => return Err(NetError::Version { found: v }),
        };
        let len = file_len(buckets);
        let (inputs, hidden, q1, q2) = (
            le_u16(bytes, 12),
            le_u16(bytes, 14),
            le_u16(bytes, 16),
            le_u16(bytes, 18),
        );
        if (inputs as usize, hidden as usize, q1 as i32, q2 as i32) != (INPUTS, HIDDEN, Q1, Q2) {
            return Err(NetError::Shape {
                inputs,
                hidden,
                q1,
                q2,
            });
        }
        if bytes.len() != len {
            return Err(NetError::Length {
                expected: len,
                found: bytes.len(),
            });
        }
        let body = &bytes[..len - 4];
        let stored = le_u32(bytes, len - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut at = HEADER;
        let i16_at = |at: &mut usize| {
            let v = i16::from_le_bytes([bytes[*at], bytes[*at + 1]]);
            *at += 2;
            v
        };
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        for row in w1.iter_mut() {
            for w in row.iter_mut() {
                *w = i16_at(&mut at);
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in b1.iter_mut() {
            *b = i16_at(&mut at);
        }
        let i32_at = |at: &mut usize| {
            let v = le_u32(bytes, *at) as i32;
            *at += 4;
            v
        };
        let mut w2 = vec![[0i32; HIDDEN]; buckets];
        for w in w2.iter_mut().flatten() {
            *w = i32_at(&mut at);
        }
        let b2 = (0..buckets).map(|_| i32_at(&mut at)).collect();
        let lin = (0..INPUTS).map(|_| i32_at(&mut at)).collect();
        Ok(Network {
            w1,
            b1,
            w2,
            b2,
            lin,
        })
    }

    /// The output buckets (1: one output for every stage of the game).
    pub fn buckets(&self) -> usize {
        self.w2.len()
    }

    /// The file's bytes (the inverse of [`from_bytes`](Self::from_bytes)):
    /// version 1 for one bucket, else version 2.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(file_len(buckets));
        out.extend_from_slice(&MAGIC);
        let (version, field) = if buckets == 1 {
            (1u32, 0u32)
        } else {
            (2, buckets as u32)
        };
        out.extend_from_slice(&version.to_le_bytes());
        for v in [INPUTS as u16, HIDDEN as u16, Q1 as u16, Q2 as u16] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&field.to_le_bytes());
        for row in &self.w1 {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.b1 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in self.w2.iter().flatten().chain(&self.b2).chain(&self.lin) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// The value of `pos` for the side to move, in centi-seeds.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let active = active_inputs(pos);
        let k = bucket(self.buckets(), pos.seeds_on_board() as u32);
        let mut linear = self.b2[k] as i64;
        for &i in &active {
            linear += self.lin[i as usize] as i64;
        }
        let out = linear * Q1 as i64 + self.hidden_sum(&active, &self.w2[k]);
        // Round to the nearest centi-seed.
        let unit = (Q1 * Q2) as i64;
        ((out + unit / 2).div_euclid(unit) as i32).clamp(-LIMIT, LIMIT)
    }

    /// The hidden layer's part of the output, before rounding: the sum
    /// over the units of `clamp(b1 + Σ w1[i], 0, Q1) × w2`, exactly (the
    /// accumulators are `i32`, the products `i64`, as in
    /// [`hidden_sum_portable`](Self::hidden_sum_portable), so every build
    /// gives the same value and the searches the same nodes).
    #[inline]
    fn hidden_sum(&self, active: &[u16; ACTIVE], w2: &[i32; HIDDEN]) -> i64 {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            self.hidden_sum_simd128(active, w2)
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            self.hidden_sum_portable(active, w2)
        }
    }

    /// [`hidden_sum`](Self::hidden_sum) in plain Rust (natively the
    /// compiler puts it in the CPU's vector units by itself).
    #[cfg_attr(
        all(target_arch = "wasm32", target_feature = "simd128"),
        allow(dead_code)
    )]
    #[inline]
    fn hidden_sum_portable(&self, active: &[u16; ACTIVE], w2: &[i32; HIDDEN]) -> i64 {
        let mut acc = [0i32; HIDDEN];
        for (a, &b) in acc.iter_mut().zip(&self.b1) {
            *a = b as i32;
        }
        for &i in active {
            let row = &self.w1[i as usize];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w as i32;
            }
        }
        let mut out = 0i64;
        for (&a, &w) in acc.iter().zip(w2) {
            out += a.clamp(0, Q1) as i64 * w as i64;
        }
        out
    }

    /// [`hidden_sum`](Self::hidden_sum) in WebAssembly's 128-bit vectors:
    /// each row of eight `i16` weights widened to two vectors of four
    /// `i32` and added to eight accumulators of four units; clamped with
    /// `i32x4` minimum and maximum; multiplied by the output weights into
    /// `i64` lanes (`i64x2.extmul`, exact).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline]
    fn hidden_sum_simd128(&self, active: &[u16; ACTIVE], w2: &[i32; HIDDEN]) -> i64 {
        use core::arch::wasm32::*;
        const V: usize = HIDDEN / 4;
        // Eight i16 from a row, as one vector (one v128.load).
        #[inline(always)]
        fn i16s(w: &[i16]) -> v128 {
            let w: &[i16; 8] = w.try_into().expect("8 lanes");
            i16x8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
        }
        #[inline(always)]
        fn i32s(w: &[i32]) -> v128 {
            let w: &[i32; 4] = w.try_into().expect("4 lanes");
            i32x4(w[0], w[1], w[2], w[3])
        }
        let mut acc = [i32x4_splat(0); V];
        for (k, pair) in acc.chunks_exact_mut(2).enumerate() {
            let b = i16s(&self.b1[8 * k..8 * k + 8]);
            pair[0] = i32x4_extend_low_i16x8(b);
            pair[1] = i32x4_extend_high_i16x8(b);
        }
        for &i in active {
            let row = &self.w1[i as usize];
            for (k, pair) in acc.chunks_exact_mut(2).enumerate() {
                let w = i16s(&row[8 * k..8 * k + 8]);
                pair[0] = i32x4_add(pair[0], i32x4_extend_low_i16x8(w));
                pair[1] = i32x4_add(pair[1], i32x4_extend_high_i16x8(w));
            }
        }
        let zero = i32x4_splat(0);
        let top = i32x4_splat(Q1);
        let mut sum = i64x2_splat(0);
        for (k, &a) in acc.iter().enumerate() {
            let a = i32x4_min(i32x4_max(a, zero), top);
            let w = i32s(&w2[4 * k..4 * k + 4]);
            sum = i64x2_add(sum, i64x2_extmul_low_i32x4(a, w));
            sum = i64x2_add(sum, i64x2_extmul_high_i32x4(a, w));
        }
        i64x2_extract_lane::<0>(sum) + i64x2_extract_lane::<1>(sum)
    }

    /// The same network evaluated in floating point from its integer
    /// weights, without intermediate rounding (for tests and tools).
    pub fn evaluate_f64(&self, pos: &Position) -> f64 {
        let active = active_inputs(pos);
        let k = bucket(self.buckets(), pos.seeds_on_board() as u32);
        let mut linear = self.b2[k] as f64;
        let mut hidden: Vec<f64> = self.b1.iter().map(|&b| b as f64 / Q1 as f64).collect();
        for &i in &active {
            for (h, &w) in hidden.iter_mut().zip(&self.w1[i as usize]) {
                *h += w as f64 / Q1 as f64;
            }
            linear += self.lin[i as usize] as f64;
        }
        let mut out = linear / Q2 as f64;
        for (h, &w) in hidden.iter().zip(&self.w2[k]) {
            out += h.clamp(0.0, 1.0) * w as f64 / Q2 as f64;
        }
        out.clamp(-LIMIT as f64, LIMIT as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::SplitMix;

    fn mirror(pos: &Position) -> Position {
        let s = pos.setup();
        let mut m = s;
        for i in 0..6 {
            m.houses[i] = s.houses[i + 6];
            m.houses[i + 6] = s.houses[i];
        }
        m.stores = [s.stores[1], s.stores[0]];
        m.to_move = s.to_move.opponent();
        Position::from_setup(m).unwrap()
    }

    // Random legal positions: random seed counts with random stores.
    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = SplitMix::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let captured = rng.below(40) as u8;
            let a = rng.below(captured as u64 + 1) as u8;
            let mut houses = [0u8; 12];
            for _ in 0..48 - captured {
                houses[rng.below(12) as usize] += 1;
            }
            let setup = oware_core::Setup {
                houses,
                stores: [a, captured - a],
                to_move: if rng.below(2) == 0 {
                    Side::South
                } else {
                    Side::North
                },
            };
            if let Ok(p) = Position::from_setup(setup) {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn inputs_are_in_range_distinct_and_mirror_invariant() {
        for pos in random_positions(500, 1) {
            let a = active_inputs(&pos);
            assert!(a.iter().all(|&i| (i as usize) < INPUTS));
            assert!(a.windows(2).all(|w| w[0] < w[1]), "{a:?}");
            assert_eq!(a, active_inputs(&mirror(&pos)));
        }
    }

    #[test]
    fn the_shipped_network_is_valid_and_mirror_invariant() {
        let net = Network::builtin();
        assert_eq!(net.to_bytes(), include_bytes!("../nn/oware.nn").to_vec());
        for pos in random_positions(300, 2) {
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirror(&pos)));
        }
        // A big store lead is good for the mover, and bad for the other side.
        let ahead: Position = "4-4-4-4-4-4-4-4-4-0-0-0-12-0-S".parse().unwrap();
        assert!(net.evaluate(&ahead) > 300, "{}", net.evaluate(&ahead));
        assert!(net.evaluate(&ahead.with_side_to_move(Side::North)) < -300);
    }

    #[test]
    fn integer_inference_matches_the_float_model_it_was_trained_as() {
        // nn/reference.txt: positions and the trainer's float-model value
        // (before quantisation), written by scripts/train-nn.py.
        let net = Network::builtin();
        let text = include_str!("../nn/reference.txt");
        let mut seen = [0usize; MAX_BUCKETS];
        let mut n = 0;
        let mut worst = 0.0f64;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (p, v) = line.split_once(' ').unwrap();
            let pos: Position = p.parse().unwrap();
            let float: f64 = v.trim().parse().unwrap();
            seen[bucket(net.buckets(), pos.seeds_on_board() as u32)] += 1;
            let int = net.evaluate(&pos) as f64;
            let exact = net.evaluate_f64(&pos);
            // Integer arithmetic: within rounding of the same weights.
            assert!((int - exact).abs() <= 0.5 + 1e-9, "{pos}: {int} vs {exact}");
            // Quantisation of the weights: a few centi-seeds.
            let err = (int - float).abs();
            worst = worst.max(err);
            assert!(err <= 6.0 + 0.02 * float.abs(), "{pos}: {int} vs {float}");
            n += 1;
        }
        assert!(n >= 100, "{n} reference positions");
        assert!(worst > 0.0 || n > 0);
        // The reference positions reach most of the output buckets, so a
        // cut of the game other than the trainer's (`bucket_of` in
        // scripts/train-nn.py) would show.
        assert!(net.buckets() > 1);
        assert!(seen.iter().filter(|&&c| c > 0).count() >= 6, "{seen:?}");
    }

    // A one-bucket network (format version 1) made from the shipped one:
    // its first bucket's output alone.
    fn one_bucket() -> Network {
        let mut net = (*Network::builtin()).clone();
        net.w2.truncate(1);
        net.b2.truncate(1);
        net
    }

    #[test]
    fn every_refusal_is_typed() {
        // The shipped network has output buckets (version 2); it reads back,
        // and a flipped bit in its linear terms or a file cut short is
        // refused.
        let shipped = Network::builtin().to_bytes();
        assert_eq!(
            Network::from_bytes(&shipped).as_ref(),
            Ok(&*Network::builtin())
        );
        assert_eq!(le_u32(&shipped, 8), 2);
        let mut v = shipped.clone();
        let at = v.len() - 10;
        v[at] ^= 1;
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::Checksum { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&shipped[..shipped.len() - 4 * 8]),
            Err(NetError::Length { .. })
        ));
        let good = one_bucket().to_bytes();
        assert_eq!(le_u32(&good, 8), 1);
        assert_eq!(Network::from_bytes(&good), Ok(one_bucket()));
        assert_eq!(Network::from_bytes(b"hello"), Err(NetError::NotANetwork));
        assert_eq!(
            Network::from_bytes(b"OWAREBK\n0000000000000000000000"),
            Err(NetError::NotANetwork)
        );
        assert!(matches!(
            Network::from_bytes(&good[..10]),
            Err(NetError::Length { .. })
        ));
        let mut v = good.clone();
        v[8] = 3;
        assert_eq!(Network::from_bytes(&v), Err(NetError::Version { found: 3 }));
        // Version 2 names its buckets, 2 to MAX_BUCKETS.
        let mut v = good.clone();
        v[8] = 2;
        assert_eq!(Network::from_bytes(&v), Err(NetError::Buckets { found: 0 }));
        v[20] = MAX_BUCKETS as u8 + 1;
        assert_eq!(
            Network::from_bytes(&v),
            Err(NetError::Buckets {
                found: MAX_BUCKETS as u32 + 1
            })
        );
        v[20] = 8;
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::Length { expected, .. }) if expected == file_len(8)
        ));
        let mut v = good.clone();
        v[14] = 64;
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::Shape { hidden: 64, .. })
        ));
        assert!(matches!(
            Network::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Length { .. })
        ));
        let mut v = good.clone();
        v.push(0);
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::Length { .. })
        ));
        let mut v = good.clone();
        v[HEADER + 7] ^= 1;
        assert!(matches!(
            Network::from_bytes(&v),
            Err(NetError::Checksum { .. })
        ));
        assert!(matches!(
            Network::load(Path::new("/nonexistent/oware.nn")),
            Err(NetError::Io { .. })
        ));
        // Each refusal says what is wrong.
        assert!(NetError::Version { found: 3 }
            .to_string()
            .contains("version 3"));
    }

    // A network of `buckets` output buckets made from a one-bucket one:
    // each bucket's output weights and bias scaled by its own factor.
    fn bucketed(buckets: usize) -> Network {
        let mut net = one_bucket();
        let (w2, b2) = (net.w2[0], net.b2[0]);
        net.w2 = (0..buckets)
            .map(|k| w2.map(|w| w * (k as i32 + 1)))
            .collect();
        net.b2 = (0..buckets).map(|k| b2 * (k as i32 + 1)).collect();
        net
    }

    #[test]
    fn buckets_cut_the_game_by_the_seeds_on_the_board() {
        assert_eq!(
            (0..=48).map(|n| bucket(8, n)).collect::<Vec<_>>(),
            [
                vec![0; 7],
                vec![1; 6],
                vec![2; 6],
                vec![3; 6],
                vec![4; 6],
                vec![5; 6],
                vec![6; 6],
                vec![7; 6]
            ]
            .concat()
        );
        assert!((0..=48).all(|n| bucket(1, n) == 0));
        assert!((0..=48).all(|n| bucket(MAX_BUCKETS, n) < MAX_BUCKETS));
    }

    #[test]
    fn a_bucketed_network_reads_back_and_evaluates_with_its_stage_output() {
        let net = bucketed(8);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(8));
        assert_eq!(le_u32(&bytes, 8), 2);
        assert_eq!(le_u32(&bytes, 20), 8);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.buckets(), 8);
        // A one-bucket network is still written as version 1.
        let plain = one_bucket();
        assert_eq!(le_u32(&plain.to_bytes(), 8), 1);
        for pos in random_positions(300, 3) {
            let k = bucket(8, pos.seeds_on_board() as u32);
            // The shared part (the linear terms) is the shipped network's;
            // the hidden part and the bias are scaled by the bucket's factor.
            let active = active_inputs(&pos);
            let lin: i64 = active.iter().map(|&i| plain.lin[i as usize] as i64).sum();
            let unit = (Q1 * Q2) as i64;
            let want = ((lin + plain.b2[0] as i64 * (k as i64 + 1)) * Q1 as i64
                + plain.hidden_sum(&active, &plain.w2[0]) * (k as i64 + 1)
                + unit / 2)
                .div_euclid(unit)
                .clamp(-LIMIT as i64, LIMIT as i64) as i32;
            assert_eq!(back.evaluate(&pos), want, "{pos}");
            assert_eq!(back.evaluate(&pos), back.evaluate(&mirror(&pos)));
            assert!((back.evaluate(&pos) as f64 - back.evaluate_f64(&pos)).abs() <= 0.5 + 1e-9);
        }
    }
}
