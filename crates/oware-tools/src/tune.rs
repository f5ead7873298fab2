//! Fitting the evaluation weights on self-play data.
//!
//! 1. [`generate`]: self-play games from random openings, the engine at a
//!    fixed depth with a little softmax noise (so games differ), judged by
//!    the rules core. Every position where the side to move has no capture
//!    (a quiet position, where the static evaluation is meant to be right)
//!    is written with the final result for the side to move: 1, 0.5 or 0.
//! 2. [`fit`]: logistic regression of the result on the evaluation
//!    features (Newton's method, a small ridge penalty), P(win) =
//!    1 / (1 + e^-(b·f)); the weights are b scaled so that a seed in the
//!    store is worth 100.

use std::fmt::Write as _;

use oware_core::Position;

use crate::arena::Opening;
use crate::selfplay::{self, quiet, result_for};
use oware_engine::eval::{Features, Weights, FEATURES};
use oware_engine::levels::SplitMix;
use oware_engine::{Engine, EngineOptions};

/// One training sample: a position and the game's result for its mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// 1 win, 0.5 draw, 0 loss, for the side to move.
    pub result: f64,
}

/// Plays `games` self-play games at `depth` from random openings of
/// `plies` plies and returns their quiet positions with results. `each` is
/// called after every game.
pub fn generate(
    games: usize,
    depth: u32,
    plies: usize,
    seed: u64,
    each: &mut dyn FnMut(usize),
) -> Vec<Sample> {
    let openings = Opening::random(plies, games, seed);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    // The linear weights were fitted on games of the linear evaluation.
    engine.set_network(None);
    let mut rng = SplitMix::new(seed ^ 0xA5A5);
    let mut out = Vec::new();
    for (g, opening) in openings.iter().enumerate() {
        let game = selfplay::play(&mut engine, opening, depth, &mut rng, &mut |_, _| {});
        let winner = game.outcome().expect("over").winner;
        for pos in game.positions() {
            if pos.legal_moves().is_empty() || !quiet(pos) {
                continue;
            }
            out.push(Sample {
                pos: *pos,
                result: result_for(winner, pos),
            });
        }
        each(g + 1);
    }
    out
}

/// Writes samples one a line: position string, space, result.
pub fn write(samples: &[Sample]) -> String {
    let mut s = String::new();
    for x in samples {
        let _ = writeln!(s, "{} {}", x.pos, x.result);
    }
    s
}

/// Reads [`write`]'s format; the error names the bad line.
pub fn read(text: &str) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (p, r) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {}: expected 'POSITION RESULT'", i + 1))?;
        let pos: Position = p.parse().map_err(|e| format!("line {}: {e}", i + 1))?;
        let result: f64 = r
            .trim()
            .parse()
            .map_err(|_| format!("line {}: bad result '{r}'", i + 1))?;
        if !(0.0..=1.0).contains(&result) {
            return Err(format!("line {}: result {result} is not in 0..1", i + 1));
        }
        out.push(Sample { pos, result });
    }
    Ok(out)
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The weights, store = 100.
    pub weights: Weights,
    /// Mean log-loss with the fitted weights.
    pub loss: f64,
    /// Mean log-loss of the same model with `baseline` weights (best scale).
    pub baseline_loss: f64,
}

fn log_loss(samples: &[(Vec<f64>, f64)], beta: &[f64]) -> f64 {
    let mut total = 0.0;
    for (f, y) in samples {
        let z: f64 = f.iter().zip(beta).map(|(a, b)| a * b).sum();
        let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-9, 1.0 - 1e-9);
        total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    total / samples.len().max(1) as f64
}

/// Newton's method for ridge logistic regression.
fn newton(samples: &[(Vec<f64>, f64)], n: usize, ridge: f64) -> Vec<f64> {
    let mut beta = vec![0.0; n];
    for _ in 0..25 {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for (f, y) in samples {
            let z: f64 = f.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let w = p * (1.0 - p);
            for i in 0..n {
                grad[i] += (p - y) * f[i];
                for j in 0..n {
                    hess[i][j] += w * f[i] * f[j];
                }
            }
        }
        for i in 0..n {
            grad[i] += ridge * beta[i];
            hess[i][i] += ridge;
        }
        let step = solve(hess, grad);
        let mut max = 0.0f64;
        for i in 0..n {
            beta[i] -= step[i];
            max = max.max(step[i].abs());
        }
        if max < 1e-9 {
            break;
        }
    }
    beta
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        let pivot = a[c].clone();
        for r in 0..n {
            if r != c {
                let k = a[r][c] / d;
                for (x, y) in a[r][c..n].iter_mut().zip(&pivot[c..n]) {
                    *x -= k * y;
                }
                b[r] -= k * b[c];
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-12 {
                0.0
            } else {
                b[i] / a[i][i]
            }
        })
        .collect()
}

/// Fits the weights on `samples`, comparing with `baseline`.
pub fn fit(samples: &[Sample], baseline: &Weights) -> Fit {
    let data: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|s| {
            (
                Features::of(&s.pos)
                    .values
                    .iter()
                    .map(|&v| v as f64)
                    .collect(),
                s.result,
            )
        })
        .collect();
    let beta = newton(&data, FEATURES, 1e-3 * data.len() as f64 / 1000.0);
    let store = if beta[0].abs() > 1e-12 { beta[0] } else { 1.0 };
    let mut w = [0i32; FEATURES];
    for i in 0..FEATURES {
        w[i] = (100.0 * beta[i] / store).round() as i32;
    }
    // The baseline as one feature (its evaluation), with the best scale.
    let base: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|s| {
            (
                vec![oware_engine::eval::evaluate(&s.pos, baseline) as f64],
                s.result,
            )
        })
        .collect();
    let bscale = newton(&base, 1, 1e-6);
    Fit {
        weights: Weights { w },
        loss: log_loss(&data, &beta),
        baseline_loss: log_loss(&base, &bscale),
    }
}

/// One model of [`compare`]: its name, its number of parameters and its
/// mean log-loss on the training and on the held-out samples.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelLoss {
    /// What the model is.
    pub name: &'static str,
    /// Parameters fitted.
    pub params: usize,
    /// Mean log-loss on the samples it was fitted on.
    pub train: f64,
    /// Mean log-loss on the held-out samples (every fifth).
    pub test: f64,
}

// The inputs of each model compared by `compare`.
fn model_inputs(kind: usize, pos: &Position) -> Vec<f64> {
    let f: Vec<f64> = Features::of(pos).values.iter().map(|&v| v as f64).collect();
    match kind {
        // The engine's linear evaluation.
        0 => f,
        // Tapered: each weight blends between the opening (48 seeds on the
        // board) and the ending (none), a classic cheap non-linearity.
        1 => {
            let phase = pos.seeds_on_board() as f64 / 48.0;
            f.iter()
                .copied()
                .chain(f.iter().map(|v| v * phase))
                .collect()
        }
        // The linear features plus the board itself, each house of the
        // mover (then of the opponent) as indicators of its seed count in
        // buckets 0, 1-2, 3-5, 6-11, 12+: what a network's first layer
        // sees, without its hidden layer.
        _ => {
            let me = pos.to_move();
            let mut x = f;
            for side in [me, me.opponent()] {
                for h in side.houses() {
                    let n = pos.seeds(h);
                    let bucket = match n {
                        0 => 0,
                        1..=2 => 1,
                        3..=5 => 2,
                        6..=11 => 3,
                        _ => 4,
                    };
                    for b in 0..5 {
                        x.push(if b == bucket { 1.0 } else { 0.0 });
                    }
                }
            }
            x
        }
    }
}

/// Fits three models of the result on the same samples (every fifth held
/// out) and reports their log-loss: the linear evaluation, a tapered one,
/// and the linear one with the board's seed counts as extra inputs. A
/// measure of how much an evaluation beyond linear can gain before
/// building one (docs/ENGINE.md, "Beyond linear").
pub fn compare(samples: &[Sample]) -> Vec<ModelLoss> {
    let names = ["linear (8)", "tapered (16)", "linear + board buckets (68)"];
    (0..names.len())
        .map(|kind| {
            let data: Vec<(Vec<f64>, f64)> = samples
                .iter()
                .map(|s| (model_inputs(kind, &s.pos), s.result))
                .collect();
            let (test, train): (Vec<_>, Vec<_>) =
                data.into_iter().enumerate().partition(|(i, _)| i % 5 == 4);
            let train: Vec<_> = train.into_iter().map(|(_, d)| d).collect();
            let test: Vec<_> = test.into_iter().map(|(_, d)| d).collect();
            let n = train.first().map_or(0, |d| d.0.len());
            let beta = newton(&train, n, 1e-3 * train.len() as f64 / 1000.0);
            ModelLoss {
                name: names[kind],
                params: n,
                train: log_loss(&train, &beta),
                test: log_loss(&test, &beta),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_planted_model() {
        // Results drawn from a known logistic model of the store difference
        // and row seeds: the fit must find their ratio.
        let mut rng = SplitMix::new(3);
        let mut samples = Vec::new();
        for _ in 0..4000 {
            let mut houses = [0u8; 12];
            let mut left = 48u8;
            let a = rng.below(20) as u8;
            let b = rng.below(20) as u8;
            left -= a + b;
            while left > 0 {
                houses[rng.below(12) as usize] += 1;
                left -= 1;
            }
            let setup = oware_core::Setup {
                houses,
                stores: [a, b],
                to_move: oware_core::Side::South,
            };
            let pos = Position::from_setup(setup).unwrap();
            let f = Features::of(&pos).values;
            let z = 0.2 * f[0] as f64 + 0.05 * f[1] as f64;
            let p = 1.0 / (1.0 + (-z).exp());
            samples.push(Sample {
                pos,
                result: if rng.next_f64() < p { 1.0 } else { 0.0 },
            });
        }
        let fit = fit(&samples, &Weights::INITIAL);
        assert_eq!(fit.weights.w[0], 100);
        assert!((fit.weights.w[1] - 25).abs() <= 8, "{:?}", fit.weights);
        assert!(fit.loss <= fit.baseline_loss + 1e-9);
        let text = write(&samples[..3]);
        assert_eq!(read(&text).unwrap(), samples[..3].to_vec());
        assert!(read("4-4-4 1").unwrap_err().contains("line 1"));
    }

    #[test]
    fn generates_labelled_quiet_positions() {
        let s = generate(2, 2, 2, 5, &mut |_| {});
        assert!(s.len() > 10);
        assert!(s
            .iter()
            .all(|x| quiet(&x.pos) && [0.0, 0.5, 1.0].contains(&x.result)));
    }

    #[test]
    fn compare_fits_every_model_and_richer_models_fit_training_data_better() {
        let samples = generate(6, 3, 4, 5, &mut |_| {});
        let models = compare(&samples);
        assert_eq!(models.len(), 3);
        assert!(models
            .iter()
            .all(|m| m.train.is_finite() && m.test.is_finite()));
        // Nested models: more inputs never fit the training data worse
        // (up to the ridge penalty).
        assert!(models[1].train <= models[0].train + 1e-3, "{models:?}");
        assert!(models[2].train <= models[0].train + 1e-3, "{models:?}");
    }
}
