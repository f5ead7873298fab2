//! Statistics of engine matches: Elo with error bars, the likelihood of
//! superiority (LOS), and the generalised sequential probability ratio test
//! (GSPRT) used to accept or reject a change.
//!
//! A match is a sample of independent *units*: single games (the trinomial
//! model: win 1, draw ½, loss 0), or, when each opening is played twice with
//! the colours swapped, game pairs (the pentanomial model: the pair's
//! points 0, ½, 1, 1½ or 2, halved so that a unit also scores in [0, 1]).
//! Pairs are the better unit. The two games of a pair share an opening, so
//! their results are correlated (a lopsided opening tends to be won by
//! whoever has its good side, in both games); treating them as independent
//! games overstates the variance, so trinomial error bars come out too wide
//! and an SPRT runs longer than it needs to.
//!
//! **Elo.** Logistic Elo: a score fraction s means an Elo difference
//! E = −400·log10(1/s − 1), and conversely s = 1/(1 + 10^(−E/400)). With n
//! units of mean m and per-unit variance v, the standard error of the mean
//! is √(v/n). The 95 % interval of the score, m ± 1.96·√(v/n), is mapped
//! through the same function; the Elo interval is therefore lopsided, and
//! its half-width is what gets printed after "±".
//!
//! **LOS.** The probability that engine 1 is the stronger, i.e. that the
//! true mean exceeds ½, with the sample mean taken as normal around it (flat
//! prior): Φ((m − ½)/√(v/n)).
//!
//! **SPRT.** The test weighs H0: Elo = elo0 against H1: Elo = elo1
//! (logistic), with error rates α (H1 accepted although H0 holds) and β
//! (the converse). After each unit it computes the log-likelihood ratio
//! LLR = ln(L(H1)/L(H0)) of the counts so far, and stops when the ratio
//! leaves Wald's interval: H1 once LLR ≥ ln((1−β)/α), H0 once
//! LLR ≤ ln(β/(1−α)).
//!
//! Each hypothesis fixes only the mean of a unit's result (s0 or s1, the
//! scores of elo0 and elo1), not its whole distribution (the draw rate is
//! unknown). The generalised test stands each hypothesis in with its most
//! likely distribution: among the distributions q over the outcomes x_i
//! whose mean Σ q_i·x_i is s, the one that maximises the log-likelihood
//! Σ n_i·ln q_i of the observed counts n_i. Setting the derivative of the
//! Lagrangian to zero gives q_i = p_i / (1 + λ·(x_i − s)), with p_i = n_i/n
//! the observed frequencies and λ the root of
//! Σ p_i·(x_i − s)/(1 + λ·(x_i − s)) = 0; the left side falls as λ grows,
//! so bisection finds the root. Then LLR = Σ n_i·ln(q1_i/q0_i). An outcome
//! never observed is given a tiny count, so that the constrained maximum
//! exists for every s strictly between 0 and 1.
//!
//! For small Elo differences the LLR is close to a normal approximation,
//! n·(s1 − s0)·(2m − s0 − s1)/(2v): the log ratio of two normal likelihoods
//! of the observed mean m, centred on s1 and on s0, with variance v/n. Both
//! are computed here ([`Sprt::llr`] and [`Sprt::llr_normal`]); matches use
//! the first.

use std::fmt;

/// The logistic Elo difference that corresponds to the score fraction `s`
/// (±∞ at 1 and 0).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score fraction of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Counts of the outcomes of a match's units.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `(outcome in [0, 1], count)` pairs.
    outcomes: Vec<(f64, u64)>,
}

/// Why a sample cannot give an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsError {
    /// No unit has been played.
    Empty,
    /// Every unit has the same result: there is no variance to measure with.
    NoVariance,
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::Empty => write!(f, "no games counted yet"),
            StatsError::NoVariance => write!(f, "every result is the same, so no error bar"),
        }
    }
}

impl std::error::Error for StatsError {}

impl Sample {
    /// Single games: engine 1's wins, draws and losses.
    pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Sample {
        Sample {
            outcomes: vec![(1.0, wins), (0.5, draws), (0.0, losses)],
        }
    }

    /// Game pairs: `counts[k]` pairs in which engine 1 scored k half-points
    /// (k = 0 for two losses … 4 for two wins).
    pub fn pentanomial(counts: [u64; 5]) -> Sample {
        Sample {
            outcomes: (0..5).map(|k| (k as f64 / 4.0, counts[k])).collect(),
        }
    }

    /// The number of units.
    pub fn units(&self) -> u64 {
        self.outcomes.iter().map(|&(_, c)| c).sum()
    }

    /// The mean result of a unit (engine 1's score fraction).
    pub fn mean(&self) -> f64 {
        let n = self.units() as f64;
        self.outcomes
            .iter()
            .map(|&(x, c)| x * c as f64)
            .sum::<f64>()
            / n
    }

    /// The variance of one unit's result (over the sample, dividing by n).
    pub fn variance(&self) -> f64 {
        let n = self.units() as f64;
        let m = self.mean();
        self.outcomes
            .iter()
            .map(|&(x, c)| c as f64 * (x - m).powi(2))
            .sum::<f64>()
            / n
    }

    /// Elo with its 95 % interval and the LOS.
    pub fn estimate(&self) -> Result<Estimate, StatsError> {
        if self.units() == 0 {
            return Err(StatsError::Empty);
        }
        let m = self.mean();
        let se = (self.variance() / self.units() as f64).sqrt();
        if se == 0.0 {
            return Err(StatsError::NoVariance);
        }
        Ok(Estimate {
            score: m,
            elo: elo_of_score(m),
            elo_low: elo_of_score(m - 1.959964 * se),
            elo_high: elo_of_score(m + 1.959964 * se),
            los: normal_cdf((m - 0.5) / se),
        })
    }
}

/// What a sample says about the Elo difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Engine 1's score fraction.
    pub score: f64,
    /// The Elo difference (engine 1 minus engine 2).
    pub elo: f64,
    /// Lower end of the 95 % interval (−∞ when it reaches a score of 0).
    pub elo_low: f64,
    /// Upper end of the 95 % interval (+∞ when it reaches a score of 1).
    pub elo_high: f64,
    /// Likelihood of superiority: the probability that engine 1 is stronger.
    pub los: f64,
}

impl Estimate {
    /// Half the width of the 95 % interval (what follows "±").
    pub fn margin(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Why SPRT parameters are unusable.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtError(String);

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

/// The state of a running test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound was reached: H0 (elo0) accepted.
    H0,
    /// The upper bound was reached: H1 (elo1) accepted.
    H1,
}

/// The tiny count given to outcomes never observed (as fishtest does).
const UNSEEN: f64 = 1e-3;

impl Sprt {
    /// Checks and builds the test.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError(format!(
                "elo0 ({elo0}) must be below elo1 ({elo1})"
            )));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError(format!(
                    "{name} must lie strictly between 0 and 0.5, got {p}"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or
    /// above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of H1 against H0 (see the
    /// module text); 0 for an empty sample.
    pub fn llr(&self, sample: &Sample) -> f64 {
        if sample.units() == 0 {
            return 0.0;
        }
        let counts: Vec<(f64, f64)> = sample
            .outcomes
            .iter()
            .map(|&(x, c)| (x, if c == 0 { UNSEEN } else { c as f64 }))
            .collect();
        let n: f64 = counts.iter().map(|&(_, c)| c).sum();
        let p: Vec<(f64, f64)> = counts.iter().map(|&(x, c)| (x, c / n)).collect();
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let (l0, l1) = (multiplier(&p, s0), multiplier(&p, s1));
        counts
            .iter()
            .map(|&(x, c)| c * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln()))
            .sum()
    }

    /// The normal approximation of [`llr`](Self::llr); 0 without variance.
    pub fn llr_normal(&self, sample: &Sample) -> f64 {
        let n = sample.units() as f64;
        let v = if n > 0.0 { sample.variance() } else { 0.0 };
        if v == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * sample.mean() - s0 - s1) / (2.0 * v)
    }

    /// Whether the test has ended for this sample.
    pub fn verdict(&self, sample: &Sample) -> SprtVerdict {
        let llr = self.llr(sample);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The Lagrange multiplier λ of the most likely distribution with mean `s`
/// given the observed frequencies `p` (pairs of outcome and frequency, all
/// frequencies positive, outcomes spanning both sides of `s`): the root of
/// Σ p_i (x_i − s)/(1 + λ(x_i − s)), found by bisection where every
/// 1 + λ(x_i − s) stays positive.
fn multiplier(p: &[(f64, f64)], s: f64) -> f64 {
    let hi_x = p.iter().map(|&(x, _)| x).fold(f64::NEG_INFINITY, f64::max);
    let lo_x = p.iter().map(|&(x, _)| x).fold(f64::INFINITY, f64::min);
    // 1 + λ(x − s) > 0 for all x: −1/(hi_x − s) < λ < 1/(s − lo_x).
    let mut lo = -1.0 / (hi_x - s);
    let mut hi = 1.0 / (s - lo_x);
    let f = |l: f64| -> f64 {
        p.iter()
            .map(|&(x, q)| q * (x - s) / (1.0 + l * (x - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    // The reference values below were computed independently, in Python,
    // by `reference/stats_reference.py`: the normal distribution from
    // `statistics.NormalDist`, the constrained maximum by Newton's method
    // on λ rather than bisection.

    #[test]
    fn elo_and_score_are_inverse() {
        close(elo_of_score(0.75), 190.848501887865, 1e-9);
        close(score_of_elo(-100.0), 0.359935000197, 1e-9);
        for e in [-500.0, -3.0, 0.0, 42.0, 800.0] {
            close(elo_of_score(score_of_elo(e)), e, 1e-9);
        }
        close(normal_cdf(1.959964), 0.975, 1e-6);
        close(normal_cdf(-1.0), 0.158655253931, 1e-9);
    }

    #[test]
    fn trinomial_estimate() {
        let e = Sample::trinomial(30, 20, 10).estimate().unwrap();
        close(e.score, 0.666666666667, 1e-9);
        close(e.elo, 120.411998265592, 1e-6);
        close(e.elo_low, 50.641956463008, 1e-6);
        close(e.elo_high, 201.161731577946, 1e-6);
        close(e.los, 0.999733997247, 1e-9);
    }

    #[test]
    fn pentanomial_estimate() {
        let e = Sample::pentanomial([2, 5, 10, 8, 5]).estimate().unwrap();
        close(e.score, 0.575, 1e-12);
        close(e.elo, 52.511565855728, 1e-6);
        close(e.elo_low, -18.138864388696, 1e-6);
        close(e.elo_high, 127.824314993675, 1e-6);
        close(e.los, 0.927063375626, 1e-9);
    }

    #[test]
    fn degenerate_samples_are_errors() {
        assert_eq!(
            Sample::trinomial(0, 0, 0).estimate(),
            Err(StatsError::Empty)
        );
        assert_eq!(
            Sample::trinomial(7, 0, 0).estimate(),
            Err(StatsError::NoVariance)
        );
    }

    #[test]
    fn sprt_bounds_and_parameters() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = t.bounds();
        close(lo, -2.944438979166, 1e-9);
        close(hi, 2.944438979166, 1e-9);
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.6).is_err());
    }

    #[test]
    fn sprt_llr_trinomial() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let s = Sample::trinomial(300, 400, 260);
        close(t.llr(&s), 1.292715010613, 1e-6);
        close(t.llr_normal(&s), 1.295659355810, 1e-9);
        assert_eq!(t.verdict(&s), SprtVerdict::Continue);
    }

    #[test]
    fn sprt_llr_pentanomial() {
        let t = Sprt::new(-10.0, 30.0, 0.05, 0.1).unwrap();
        let s = Sample::pentanomial([10, 40, 80, 60, 30]);
        close(t.llr(&s), 9.392320669421, 1e-6);
        close(t.llr_normal(&s), 9.832491199466, 1e-9);
        close(t.bounds().0, -2.251291798606, 1e-9);
        close(t.bounds().1, 2.890371757896, 1e-9);
        assert_eq!(t.verdict(&s), SprtVerdict::H1);
        let bad = Sample::pentanomial([30, 60, 80, 40, 10]);
        close(t.llr(&bad), -13.894255051910, 1e-6);
        assert_eq!(t.verdict(&bad), SprtVerdict::H0);
    }

    #[test]
    fn sprt_handles_unseen_outcomes() {
        // Only wins so far: the LLR is finite and favours H1.
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let llr = t.llr(&Sample::trinomial(5, 0, 0));
        assert!(llr.is_finite() && llr > 0.0, "{llr}");
        assert_eq!(t.llr(&Sample::trinomial(0, 0, 0)), 0.0);
    }
}
