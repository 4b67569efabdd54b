//! Match statistics: Elo difference with a 95% error margin, the
//! likelihood of superiority, and the sequential probability ratio test.
//!
//! Two models are used, as fastchess and fishtest do:
//!
//! - **Trinomial** (each game a win, draw or loss, games independent):
//!   the live Elo line, [`Tally::trinomial`].
//! - **Pentanomial** (each colour-reversed pair of games scores 0, ½, 1,
//!   1½ or 2 points): [`Tally::pentanomial`] and the SPRT. Pairs share an
//!   opening, so their games are not independent; the pentanomial model
//!   accounts for that and gives tighter, honest error bars.
//!
//! Elo is the logistic scale: a score `s` is `-400 log10(1/s - 1)` Elo.
//! The SPRT log-likelihood ratio is Michel Van den Bergh's generalized
//! SPRT over the pentanomial counts, as fishtest computes it, with the
//! bounds read as logistic or normalized Elo (see [`Sprt::llr`],
//! [`SprtModel`]); for moderate samples it is close to the normal
//! approximation `N (s1 - s0) (2 m - s0 - s1) / (2 v)` (`N` pairs, `m`
//! and `v` the mean and variance of a pair's score as a fraction of 2
//! points, `s0`, `s1` the expected scores at `elo0` and `elo1`).

/// The count given to empty cells in the LLR, as fishtest's
/// `regularize` does: without it a one-sided sample (every pair won) has
/// cells of probability zero and no log-likelihood.
const REGULARIZE: f64 = 1e-3;

/// Bisection steps of the secular equation (each halves the interval;
/// the loop also stops once the midpoint no longer moves).
const BISECTIONS: usize = 200;

/// Fixed-point steps of the t-value MLE, as fishtest takes.
const T_VALUE_STEPS: usize = 10;

/// The t-value MLE stops when no cell moves by more than this.
const T_VALUE_TOLERANCE: f64 = 1e-9;

/// Normalized Elo per unit of t-value per game: `800 / ln 10`.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference for an expected score `s` (0 < s < 1);
/// infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score at a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Solves the secular equation `sum q_i b_i / (1 + x b_i) = 0` for `x`
/// and returns `p_i = q_i / (1 + x b_i)`: the distribution nearest `q`
/// (maximum likelihood) under one linear constraint `sum p_i b_i = 0`
/// (Van den Bergh, "support_MLE_multinomial", Proposition 1.1). The
/// function of `x` decreases on `(-1 / max b, -1 / min b)`, so bisection
/// finds the root; only midpoints are evaluated, never the poles. `None`
/// when the `b_i` do not straddle zero (no distribution meets the
/// constraint).
fn secular_mle(q: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let bmin = b.iter().copied().fold(f64::INFINITY, f64::min);
    let bmax = b.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(bmin < 0.0 && bmax > 0.0) {
        return None;
    }
    let gap = |x: f64| -> f64 {
        q.iter()
            .zip(b)
            .map(|(qi, bi)| qi * bi / (1.0 + x * bi))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / bmax, -1.0 / bmin);
    for _ in 0..BISECTIONS {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = (lo + hi) / 2.0;
    Some(
        q.iter()
            .zip(b)
            .map(|(qi, bi)| qi / (1.0 + x * bi))
            .collect(),
    )
}

/// The scores of the cells of a frequency list: 0 to 1 in equal steps.
fn cell_score(i: usize, cells: usize) -> f64 {
    i as f64 / (cells - 1) as f64
}

/// Mean and variance of the distribution `p` over the cell scores.
fn moments(p: &[f64]) -> (f64, f64) {
    let mean: f64 = p
        .iter()
        .enumerate()
        .map(|(i, pi)| pi * cell_score(i, p.len()))
        .sum();
    let var = p
        .iter()
        .enumerate()
        .map(|(i, pi)| pi * (cell_score(i, p.len()) - mean).powi(2))
        .sum();
    (mean, var)
}

/// The distribution nearest `q` whose mean score is `s` (fishtest's
/// `MLE_expected`).
fn mle_with_mean(q: &[f64], s: f64) -> Vec<f64> {
    let b: Vec<f64> = (0..q.len()).map(|i| cell_score(i, q.len()) - s).collect();
    secular_mle(q, &b).unwrap_or_else(|| q.to_vec())
}

/// The distribution nearest `q` whose t-value `(mean - 1/2) / sd` is `t`
/// (fishtest's `MLE_t_value`: a fixed point from the uniform
/// distribution, each step a secular equation).
fn mle_with_t(q: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / q.len() as f64; q.len()];
    for _ in 0..T_VALUE_STEPS {
        let (mean, var) = moments(&p);
        let sd = var.sqrt();
        if sd <= 0.0 {
            break;
        }
        let b: Vec<f64> = (0..q.len())
            .map(|i| {
                let a = cell_score(i, q.len());
                a - 0.5 - t * sd * (1.0 + ((mean - a) / sd).powi(2)) / 2.0
            })
            .collect();
        let Some(next) = secular_mle(q, &b) else {
            break;
        };
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < T_VALUE_TOLERANCE {
            break;
        }
    }
    p
}

/// An Elo estimate from a sample.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference (infinite when one side scored everything).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo (infinite when unknown:
    /// a score of 0 or 1 inside the interval, or a sample with no spread).
    pub error: f64,
}

/// Mean and variance of a discrete sample: `(value, count)` pairs.
fn mean_var(sample: &[(f64, u64)]) -> Option<(f64, f64, u64)> {
    let n: u64 = sample.iter().map(|&(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean = sample.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / nf;
    let var = sample
        .iter()
        .map(|&(x, c)| c as f64 * (x - mean) * (x - mean))
        .sum::<f64>()
        / nf;
    Some((mean, var, n))
}

fn estimate(sample: &[(f64, u64)]) -> Option<EloEstimate> {
    let (mean, var, n) = mean_var(sample)?;
    let sd = (var / n as f64).sqrt();
    let lo = mean - Z95 * sd;
    let hi = mean + Z95 * sd;
    // No spread (all draws, or every pair alike) says nothing about the
    // error yet: report it as unknown rather than zero.
    let error = if var <= 0.0 || lo <= 0.0 || hi >= 1.0 {
        f64::INFINITY
    } else {
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    };
    Some(EloEstimate {
        elo: elo_from_score(mean),
        error,
    })
}

/// The results of a match from the first engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u64,
    /// Games it lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Completed pairs by total score in half points: index 0 = 0 points,
    /// 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
    pub penta: [u64; 5],
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Completed pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// The first engine's score as a fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
        }
    }

    /// Adds one game: `points2` is the first engine's score in half points
    /// (0 loss, 1 draw, 2 win).
    pub fn add_game(&mut self, points2: u8) {
        match points2 {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// Adds a completed pair whose two games scored `half_points` (0 to 4).
    pub fn add_pair(&mut self, half_points: u8) {
        self.penta[usize::from(half_points.min(4))] += 1;
    }

    /// Elo ± 95% from the games as independent trinomial trials.
    pub fn trinomial(&self) -> Option<EloEstimate> {
        estimate(&[(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)])
    }

    /// Elo ± 95% from the pairs (pentanomial model).
    pub fn pentanomial(&self) -> Option<EloEstimate> {
        estimate(&self.penta_sample())
    }

    fn penta_sample(&self) -> [(f64, u64); 5] {
        let mut s = [(0.0, 0); 5];
        for (i, slot) in s.iter_mut().enumerate() {
            *slot = (i as f64 / 4.0, self.penta[i]);
        }
        s
    }

    /// The likelihood of superiority: the probability that the first
    /// engine is the stronger, from wins and losses (draws carry no
    /// information). 0.5 with no decisive game.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// The share of drawn games (0 with no games).
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }
}

/// How `elo0` and `elo1` of an SPRT are read (fishtest's two models).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SprtModel {
    /// Logistic Elo: the hypotheses fix the expected score
    /// `1 / (1 + 10^(-elo / 400))` (fishtest's `LLR_logistic`).
    #[default]
    Logistic,
    /// Normalized Elo: the hypotheses fix the t-value `(score - 1/2) /
    /// sd` of a game, `nelo / (800 / ln 10)` (fishtest's `LLR_normalized`;
    /// for pairs the t-value of a pair is `sqrt 2` times that of a game).
    /// The same nElo asks for the same number of games whatever the draw
    /// rate.
    Normalized,
}

impl SprtModel {
    /// The model named `logistic` or `normalized`.
    pub fn parse(name: &str) -> Result<SprtModel, String> {
        match name {
            "logistic" => Ok(SprtModel::Logistic),
            "normalized" => Ok(SprtModel::Normalized),
            _ => Err(format!(
                "SPRT: unknown model '{name}' (logistic or normalized)"
            )),
        }
    }

    /// The model's name as [`SprtModel::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        }
    }
}

/// An SPRT of H0 "Elo = elo0" against H1 "Elo = elo1" (pentanomial
/// model, Elo read by [`SprtModel`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// How the Elo bounds are read.
    pub model: SprtModel,
}

/// What the SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is not stronger than `elo0`.
    H0,
    /// Go on playing.
    Continue,
}

impl Sprt {
    /// A logistic-Elo SPRT; checks `elo0 < elo1`, `0 < alpha, beta < 0.5`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT: {name} ({v}) must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Logistic,
        })
    }

    /// The same test with the Elo bounds read by `model`.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// The lower and upper LLR bounds: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs counted so far (0 with no
    /// pair): the generalized SPRT of Michel Van den Bergh as fishtest
    /// computes it (`LLR_logistic`, `LLR_normalized`). For each
    /// hypothesis the pentanomial distribution nearest the observed one
    /// `q` that meets the hypothesis (its expected score, or its
    /// t-value) is found by maximum likelihood, and the LLR is `N * sum
    /// q_i ln(p1_i / p0_i)`. Empty cells count as 0.001 pairs.
    ///
    /// The test is generalized: the unseen cells are free, so each pair
    /// moves the LLR by a bounded step. Under the logistic model a lost
    /// pair moves it by at most `ln((1 - s1) / (1 - s0))` and a won pair
    /// by at most `ln(s1 / s0)` (`s0`, `s1` the expected scores), which
    /// [`Sprt::min_pairs`] turns into the fewest pairs a verdict needs.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = tally
            .penta
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let n: f64 = counts.iter().sum();
        let q: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&q, score_from_elo(self.elo0)),
                mle_with_mean(&q, score_from_elo(self.elo1)),
            ),
            SprtModel::Normalized => {
                let per_pair = std::f64::consts::SQRT_2 / NELO_PER_T;
                (
                    mle_with_t(&q, self.elo0 * per_pair),
                    mle_with_t(&q, self.elo1 * per_pair),
                )
            }
        };
        n * q
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(qi, (a, b))| qi * (b.ln() - a.ln()))
            .sum::<f64>()
    }

    /// The fewest pairs after which the logistic test can accept H0 (all
    /// pairs lost) and H1 (all pairs won): the bound over the largest
    /// step a pair can move the LLR. `None` for the normalized model,
    /// whose step depends on the sample. A match of fewer pairs than
    /// these cannot end by the SPRT.
    pub fn min_pairs(&self) -> Option<(u64, u64)> {
        if self.model != SprtModel::Logistic {
            return None;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let (lo, hi) = self.bounds();
        let down = ((1.0 - s1) / (1.0 - s0)).ln();
        let up = (s1 / s0).ln();
        Some(((lo / down).ceil() as u64, (hi / up).ceil() as u64))
    }

    /// The verdict for the pairs counted so far.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} is not {b}");
    }

    #[test]
    fn elo_of_scores() {
        close(elo_from_score(0.5), 0.0, 1e-12);
        // 3:1 odds is 400 log10(3) Elo.
        close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
        close(elo_from_score(0.25), -190.848_501_887_865, 1e-9);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        close(score_from_elo(elo_from_score(0.6)), 0.6, 1e-12);
    }

    #[test]
    fn erf_values() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(1.0), 0.842_700_792_949_715, 2e-7);
        close(erf(-0.5), -0.520_499_877_813_047, 2e-7);
    }

    #[test]
    fn trinomial_elo_and_los() {
        // 10 wins, 5 losses, 3 draws: s = 11.5/18; values from the formulas
        // computed by hand (Python) to double precision.
        let mut t = Tally::default();
        for _ in 0..10 {
            t.add_game(2);
        }
        for _ in 0..5 {
            t.add_game(0);
        }
        for _ in 0..3 {
            t.add_game(1);
        }
        close(t.score(), 0.638_888_888_888_888_8, 1e-12);
        let e = t.trinomial().unwrap();
        close(e.elo, 99.113_793_484_302_42, 1e-6);
        close(e.error, 165.5114270679, 1e-6);
        // LOS = (1 + erf(5 / sqrt(30))) / 2
        close(t.los(), 0.901_647_198_770_526_6, 1e-6);
        close(t.draw_ratio(), 3.0 / 18.0, 1e-12);
    }

    #[test]
    fn empty_and_one_sided_tallies() {
        let mut t = Tally::default();
        assert!(t.trinomial().is_none());
        assert_eq!(t.los(), 0.5);
        t.add_game(2);
        t.add_game(2);
        let e = t.trinomial().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.error, f64::INFINITY);
    }

    #[test]
    fn pentanomial_and_llr() {
        // Pairs: 1 at 0, 3 at ½, 10 at 1, 4 at 1½, 2 at 2 points:
        // m = 0.5375, v = 0.05796875; LLR for [0, 10] by hand.
        let t = Tally {
            penta: [1, 3, 10, 4, 2],
            ..Tally::default()
        };
        assert_eq!(t.pairs(), 20);
        let e = t.pentanomial().unwrap();
        close(e.elo, 26.106_692_605_036_62, 1e-6);
        close(e.error, 74.8952764799, 1e-6);
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // The GSPRT value (computed by hand in Python with the same
        // algorithm), close to the normal approximation's 0.150434.
        close(sprt.llr(&t), 0.148_356_269_118_565_2, 1e-6);
        let (lo, hi) = sprt.bounds();
        close(lo, -2.944_438_979_166_440_4, 1e-12);
        close(hi, 2.944_438_979_166_440_4, 1e-12);
        assert_eq!(sprt.verdict(&t), SprtVerdict::Continue);
    }

    #[test]
    fn sprt_decides_lopsided_samples() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let strong = Tally {
            penta: [0, 10, 100, 300, 200],
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&strong), SprtVerdict::H1);
        let weak = Tally {
            penta: [200, 300, 100, 10, 0],
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&weak), SprtVerdict::H0);
        // Every pair won: the LLR grows with the evidence, not at once.
        let sweep = |n| Tally {
            penta: [0, 0, 0, 0, n],
            ..Tally::default()
        };
        let wide = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
        close(wide.llr(&sweep(1)), 0.418_890_124_288_742_45, 1e-6);
        close(sprt.llr(&sweep(10)), 0.283_737_482_839_743_2, 1e-6);
        assert_eq!(wide.verdict(&sweep(1)), SprtVerdict::Continue);
        assert_eq!(wide.verdict(&sweep(20)), SprtVerdict::H1);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        // 50 drawn pairs: leaning to H0, not yet decided.
        let flat = Tally {
            penta: [0, 0, 50, 0, 0],
            ..Tally::default()
        };
        close(sprt.llr(&flat), -1.452_044_952_441_816_4, 1e-6);
        let e = flat.pentanomial().unwrap();
        assert_eq!((e.elo, e.error), (0.0, f64::INFINITY));
    }

    /// Values of fishtest's `LLR_logistic` and `LLR_normalized`
    /// (`server/fishtest/stats/LLRcalc.py`), computed with a Python port
    /// of that module (bisection in place of scipy's `brentq`).
    #[test]
    fn llr_matches_fishtest() {
        let tally = |penta| Tally {
            penta,
            ..Tally::default()
        };
        let logistic = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let wide = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
        let normalized = logistic.with_model(SprtModel::Normalized);
        let cases: [([u64; 5], f64, f64, f64); 5] = [
            (
                [1, 3, 10, 4, 2],
                0.148_356_269_119,
                -7.144_651_583_272,
                0.109_096_222_437,
            ),
            (
                [98, 2, 0, 0, 0],
                -2.919_676_374_631,
                -73.292_568_681_703,
                -4.131_585_952_331,
            ),
            (
                [14, 42, 34, 7, 3],
                -2.424_733_445_282,
                -67.108_124_318_872,
                -2.044_753_978_700,
            ),
            (
                [0, 0, 0, 0, 10],
                0.283_737_482_840,
                4.184_294_161_027,
                0.398_671_463_314,
            ),
            (
                [0, 0, 50, 0, 0],
                -1.452_044_952_442,
                -36.637_202_183_256,
                -0.078_193_892_708,
            ),
        ];
        for (penta, l, w, n) in cases {
            let t = tally(penta);
            close(logistic.llr(&t), l, 1e-6);
            close(wide.llr(&t), w, 1e-6);
            close(normalized.llr(&t), n, 1e-6);
        }
    }

    /// A pair moves the logistic LLR by at most `ln((1 - s1) / (1 -
    /// s0))` down: with bounds 0 and 10 Elo, 100 lost pairs (a 200-game
    /// match) end at -2.920, short of -2.944, however one-sided.
    #[test]
    fn a_verdict_needs_enough_pairs() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(sprt.min_pairs(), Some((101, 104)));
        let lost = |n| Tally {
            penta: [n, 0, 0, 0, 0],
            ..Tally::default()
        };
        close(sprt.llr(&lost(100)), -2.919_705_946_292, 1e-6);
        assert_eq!(sprt.verdict(&lost(100)), SprtVerdict::Continue);
        close(sprt.llr(&lost(101)), -2.948_902_413_591, 1e-6);
        assert_eq!(sprt.verdict(&lost(101)), SprtVerdict::H0);
        // The normalized model moves further per one-sided pair.
        let normalized = sprt.with_model(SprtModel::Normalized);
        close(normalized.llr(&lost(100)), -4.152_107_217_152, 1e-6);
        assert_eq!(normalized.verdict(&lost(100)), SprtVerdict::H0);
        assert_eq!(normalized.min_pairs(), None);
    }

    #[test]
    fn sprt_models_by_name() {
        assert_eq!(SprtModel::parse("normalized"), Ok(SprtModel::Normalized));
        assert_eq!(SprtModel::parse("logistic"), Ok(SprtModel::Logistic));
        assert!(SprtModel::parse("bayes").is_err());
        assert_eq!(SprtModel::Normalized.name(), "normalized");
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
    }
}
