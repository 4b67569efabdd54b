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
//! SPRT over the pentanomial counts, as fishtest computes it (see
//! [`Sprt::llr`]); for moderate samples it is close to the normal
//! approximation `N (s1 - s0) (2 m - s0 - s1) / (2 v)` (`N` pairs, `m`
//! and `v` the mean and variance of a pair's score as a fraction of 2
//! points, `s0`, `s1` the expected scores at `elo0` and `elo1`).

/// The pair count given to empty pentanomial cells in the LLR.
const REGULARIZE: f64 = 1e-3;

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

/// The pentanomial distribution with mean pair score `s` (as a fraction of
/// 2 points) that is most likely to have produced the frequencies `q`:
/// `p_i = q_i / (1 + x (a_i - s))` with `x` found by bisection so that the
/// mean is `s` (the function of `x` is decreasing on its domain).
fn mle_with_mean(q: &[f64], s: f64) -> Vec<f64> {
    let a = |i: usize| i as f64 / (q.len() - 1) as f64;
    let mean_gap = |x: f64| -> f64 {
        q.iter()
            .enumerate()
            .map(|(i, qi)| {
                let d = a(i) - s;
                qi * d / (1.0 + x * d)
            })
            .sum()
    };
    // Every 1 + x d must stay positive: d ranges over [-s, 1 - s].
    let mut lo = -1.0 / (1.0 - s) + 1e-12;
    let mut hi = 1.0 / s - 1e-12;
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mean_gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = (lo + hi) / 2.0;
    q.iter()
        .enumerate()
        .map(|(i, qi)| qi / (1.0 + x * (a(i) - s)))
        .collect()
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

/// An SPRT of H0 "Elo = elo0" against H1 "Elo = elo1" (logistic Elo,
/// pentanomial model).
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
    /// Checks the parameters: `elo0 < elo1`, `0 < alpha, beta < 0.5`.
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
        })
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
    /// computes it. For each hypothesis the pentanomial distribution
    /// nearest the observed one with the hypothesis's expected score is
    /// found (maximum likelihood), and the LLR is `N * sum q_i ln(p1_i /
    /// p0_i)`. Empty cells count as 0.001 pairs so that a one-sided sample
    /// (every pair won) still has a distribution to compare.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = tally
            .penta
            .iter()
            .map(|&c| (c as f64).max(REGULARIZE))
            .collect();
        let n: f64 = counts.iter().sum();
        let q: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let p0 = mle_with_mean(&q, score_from_elo(self.elo0));
        let p1 = mle_with_mean(&q, score_from_elo(self.elo1));
        n * q
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(qi, (a, b))| qi * (b.ln() - a.ln()))
            .sum::<f64>()
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

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
    }
}
