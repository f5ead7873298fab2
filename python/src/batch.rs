//! Many games played in Rust at once, returned as NumPy arrays: the batch
//! API for learning code that wants positions by the million.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use oware_core::{Game, Position, Side};
use oware_engine::levels::SplitMix;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::errors;
use crate::rules::{position_arg, REASONS};

/// The observation of a position from the side to move: its six houses
/// (A–F or a–f), the opponent's six, its store, the opponent's store.
pub fn observe(pos: &Position, out: &mut [u8]) {
    let me = pos.to_move();
    let setup = pos.setup();
    let (mine, theirs) = match me {
        Side::South => (&setup.houses[0..6], &setup.houses[6..12]),
        Side::North => (&setup.houses[6..12], &setup.houses[0..6]),
    };
    out[0..6].copy_from_slice(mine);
    out[6..12].copy_from_slice(theirs);
    out[12] = pos.store(me);
    out[13] = pos.store(me.opponent());
}

#[derive(Default)]
struct Chunk {
    observations: Vec<u8>,
    masks: Vec<bool>,
    to_move: Vec<u8>,
    actions: Vec<i8>,
    lengths: Vec<u32>,
    outcomes: Vec<i8>,
    reasons: Vec<i8>,
    totals: Vec<u8>,
}

/// The generator of game `i` of a batch seeded `seed`: the same games
/// whatever the number of threads.
fn game_rng(seed: u64, i: u64) -> SplitMix {
    let mut mix = SplitMix::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix::new(mix.next_u64())
}

/// The six flags of each 6-bit legal-move mask.
const MASK_BITS: [[bool; 6]; 64] = {
    let mut t = [[false; 6]; 64];
    let mut m = 0;
    while m < 64 {
        let mut b = 0;
        while b < 6 {
            t[m][b] = m & (1 << b) != 0;
            b += 1;
        }
        m += 1;
    }
    t
};

fn play_chunk(start: Position, games: std::ops::Range<u64>, seed: u64, max_plies: usize) -> Chunk {
    // Random games from the start average about 110 positions.
    let expect = (games.end - games.start) as usize * 128;
    let mut c = Chunk {
        observations: Vec::with_capacity(expect * 14),
        masks: Vec::with_capacity(expect * 6),
        to_move: Vec::with_capacity(expect),
        actions: Vec::with_capacity(expect),
        ..Chunk::default()
    };
    let mut obs = [0u8; 14];
    for i in games {
        let mut rng = game_rng(seed, i);
        let mut game = Game::new(start);
        let mut plies = 0u32;
        loop {
            let pos = *game.position();
            observe(&pos, &mut obs);
            c.observations.extend_from_slice(&obs);
            c.to_move.push(pos.to_move() as u8);
            let legal = game.legal_moves();
            c.masks.extend_from_slice(&MASK_BITS[legal.mask() as usize]);
            if legal.is_empty() || plies as usize >= max_plies {
                c.actions.push(-1);
                break;
            }
            let k = rng.below(legal.len() as u64) as usize;
            let mv = legal.into_iter().nth(k).expect("k < number of legal moves");
            c.actions.push(mv.house().rel() as i8);
            game.play(mv)
                .expect("a legal move of an unfinished game plays");
            plies += 1;
        }
        c.lengths.push(plies);
        match game.outcome() {
            Some(o) => {
                c.outcomes.push(match o.winner {
                    Some(Side::South) => 1,
                    Some(Side::North) => -1,
                    None => 0,
                });
                c.reasons.push(
                    REASONS
                        .iter()
                        .position(|r| *r == o.reason)
                        .map_or(-1, |x| x as i8),
                );
                c.totals.extend_from_slice(&o.totals);
            }
            None => {
                let pos = game.position();
                c.outcomes.push(0);
                c.reasons.push(-1);
                c.totals.push(pos.store(Side::South));
                c.totals.push(pos.store(Side::North));
            }
        }
    }
    c
}

/// Plays `n_games` games of uniformly random legal moves in Rust (on all
/// cores, the GIL released) under the full rules, and returns NumPy arrays:
///
/// - `observations` (P, 14) uint8, every position reached (P in all, the
///   final one of each game included) seen by the side to move: its houses,
///   the opponent's, its store, the opponent's store;
/// - `masks` (P, 6) bool, legal actions (house 0–5 of the mover's row);
/// - `to_move` (P,) uint8 (0 South, 1 North); `actions` (P,) int8, the
///   action played there (-1 at a game's last position);
/// - `offsets` (n_games + 1,) int64: game i's positions are
///   `offsets[i]:offsets[i+1]`; `lengths` (n_games,) plies played;
/// - `outcomes` (n_games,) int8: +1 South won, -1 North won, 0 draw or
///   unfinished; `reasons` (n_games,) int8: index into `END_REASONS`, -1
///   when `max_plies` cut the game short; `totals` (n_games, 2) uint8.
///
/// Games are reproducible from `seed`, whatever the number of threads.
#[pyfunction]
#[pyo3(signature = (n_games, *, seed=0, start=None, max_plies=None))]
pub fn play_random_games<'py>(
    py: Python<'py>,
    n_games: usize,
    seed: u64,
    start: Option<&Bound<'py, PyAny>>,
    max_plies: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let start = position_arg(start)?;
    if n_games > u32::MAX as usize {
        return Err(errors::bad_argument(
            "too_many_games",
            format!("at most {} games per batch, asked for {n_games}", u32::MAX),
        ));
    }
    let max_plies = max_plies.unwrap_or(usize::MAX);
    let n = n_games as u64;
    let chunk_size = (n / (rayon::current_num_threads() as u64 * 8)).clamp(1, 4096);
    let chunks: Vec<Chunk> = py.detach(|| {
        let starts: Vec<u64> = (0..n).step_by(chunk_size as usize).collect();
        starts
            .into_par_iter()
            .map(|a| play_chunk(start, a..(a + chunk_size).min(n), seed, max_plies))
            .collect()
    });
    let total: usize = chunks.iter().map(|c| c.to_move.len()).sum();
    let mut all = Chunk {
        observations: Vec::with_capacity(total * 14),
        masks: Vec::with_capacity(total * 6),
        to_move: Vec::with_capacity(total),
        actions: Vec::with_capacity(total),
        ..Chunk::default()
    };
    for c in chunks {
        all.observations.extend(c.observations);
        all.masks.extend(c.masks);
        all.to_move.extend(c.to_move);
        all.actions.extend(c.actions);
        all.lengths.extend(c.lengths);
        all.outcomes.extend(c.outcomes);
        all.reasons.extend(c.reasons);
        all.totals.extend(c.totals);
    }
    let positions = all.to_move.len();
    let mut offsets = Vec::with_capacity(n_games + 1);
    offsets.push(0i64);
    let mut acc = 0i64;
    for &l in &all.lengths {
        acc += l as i64 + 1;
        offsets.push(acc);
    }
    let shape = |v: Vec<u8>, cols: usize| {
        Array2::from_shape_vec((v.len() / cols, cols), v).expect("rows of equal length")
    };
    let d = PyDict::new(py);
    d.set_item("observations", shape(all.observations, 14).into_pyarray(py))?;
    d.set_item(
        "masks",
        Array2::from_shape_vec((positions, 6), all.masks)
            .expect("six mask bits a position")
            .into_pyarray(py),
    )?;
    d.set_item("to_move", PyArray1::from_vec(py, all.to_move))?;
    d.set_item("actions", PyArray1::from_vec(py, all.actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    d.set_item("lengths", PyArray1::from_vec(py, all.lengths))?;
    d.set_item("outcomes", PyArray1::from_vec(py, all.outcomes))?;
    d.set_item("reasons", PyArray1::from_vec(py, all.reasons))?;
    d.set_item("totals", shape(all.totals, 2).into_pyarray(py))?;
    Ok(d)
}

/// The observation of one position from the side to move (see
/// `play_random_games`), as a (14,) uint8 array.
#[pyfunction]
pub fn observation<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let pos = position_arg(Some(position))?;
    let mut obs = [0u8; 14];
    observe(&pos, &mut obs);
    Ok(PyArray1::from_vec(py, obs.to_vec()))
}
