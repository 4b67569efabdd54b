//! Texel tuning maths: the sigmoid that maps a score to an expected result,
//! the fit of its scale `K`, the mean squared error and a local search over
//! integer weights.

/// The expected result (1 win, 0.5 draw, 0 loss) of a centipawn score with
/// scale `k`: `1 / (1 + 10^(-k * score / 400))`.
pub fn sigmoid(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// The mean squared error between results and the sigmoid of scores (0 for
/// no samples).
pub fn mse(scores: &[i32], results: &[f64], k: f64) -> f64 {
    if scores.is_empty() {
        return 0.0;
    }
    let sum: f64 = scores
        .iter()
        .zip(results)
        .map(|(&s, &r)| {
            let d = r - sigmoid(f64::from(s), k);
            d * d
        })
        .sum();
    sum / scores.len() as f64
}

/// The scale `K` in `[0.01, 10]` minimising [`mse`] for fixed scores
/// (golden-section search; the error is unimodal in `K`).
pub fn fit_k(scores: &[i32], results: &[f64]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (mse(scores, results, c), mse(scores, results, d));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = mse(scores, results, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = mse(scores, results, d);
        }
    }
    (a + b) / 2.0
}

/// Progress of [`local_search`] after each pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// Pass number from 1.
    pub pass: u32,
    /// The step tried in this pass.
    pub step: i32,
    /// The error after the pass.
    pub error: f64,
    /// How many weights changed in the pass.
    pub changed: usize,
}

/// Minimises `error` over integer weights by coordinate descent (Texel's
/// local search): each tunable weight is moved by `+step` or `-step` while
/// that lowers the error; when a pass changes nothing the step halves, and
/// the search ends after a pass at step 1 that changes nothing or after
/// `max_passes`. Returns the best weights and their error.
pub fn local_search(
    start: &[i32],
    tunable: &[bool],
    first_step: i32,
    max_passes: u32,
    mut error: impl FnMut(&[i32]) -> f64,
    mut on_pass: impl FnMut(&Pass, &[i32]),
) -> (Vec<i32>, f64) {
    let mut best = start.to_vec();
    let mut best_err = error(&best);
    let mut step = first_step.max(1);
    for pass in 1..=max_passes {
        let mut changed = 0;
        for i in 0..best.len() {
            if !tunable.get(i).copied().unwrap_or(false) {
                continue;
            }
            for dir in [step, -step] {
                let mut improved = false;
                loop {
                    let mut trial = best.clone();
                    trial[i] += dir;
                    let e = error(&trial);
                    if e < best_err {
                        best = trial;
                        best_err = e;
                        improved = true;
                    } else {
                        break;
                    }
                }
                if improved {
                    changed += 1;
                    break;
                }
            }
        }
        on_pass(
            &Pass {
                pass,
                step,
                error: best_err,
                changed,
            },
            &best,
        );
        if changed == 0 {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    (best, best_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_is_a_symmetric_rising_curve() {
        assert!((sigmoid(0.0, 1.0) - 0.5).abs() < 1e-12);
        assert!((sigmoid(400.0, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        for s in [10.0, 100.0, 700.0] {
            assert!((sigmoid(s, 1.3) + sigmoid(-s, 1.3) - 1.0).abs() < 1e-12);
            assert!(sigmoid(s, 1.3) > sigmoid(s - 5.0, 1.3));
        }
        assert!(sigmoid(100.0, 2.0) > sigmoid(100.0, 1.0));
    }

    #[test]
    fn mse_of_exact_predictions_is_zero() {
        let scores = [-300, 0, 250];
        let results: Vec<f64> = scores.iter().map(|&s| sigmoid(s as f64, 0.8)).collect();
        assert!(mse(&scores, &results, 0.8) < 1e-20);
        assert!(mse(&scores, &results, 1.6) > 1e-4);
        assert_eq!(mse(&[], &[], 1.0), 0.0);
    }

    #[test]
    fn fit_k_recovers_the_scale_that_made_the_results() {
        let scores: Vec<i32> = (-40..=40).map(|i| i * 25).collect();
        for k in [0.35, 1.3, 2.7] {
            let results: Vec<f64> = scores.iter().map(|&s| sigmoid(s as f64, k)).collect();
            let fitted = fit_k(&scores, &results);
            assert!((fitted - k).abs() < 1e-3, "fitted {fitted}, wanted {k}");
        }
    }

    /// A linear "evaluation" with two features, and results made by known
    /// weights: the local search must find those weights from zero.
    #[test]
    fn local_search_finds_known_weights_and_lowers_the_error() {
        let truth = [37, -12, 5];
        let features: Vec<[i32; 3]> = (0..200)
            .map(|i| [(i * 7) % 11 - 5, (i * 5) % 13 - 6, 1])
            .collect();
        let eval = |w: &[i32], f: &[i32; 3]| -> i32 { w.iter().zip(f).map(|(a, b)| a * b).sum() };
        let results: Vec<f64> = features
            .iter()
            .map(|f| sigmoid(eval(&truth, f) as f64, 1.0))
            .collect();
        let error = |w: &[i32]| {
            let scores: Vec<i32> = features.iter().map(|f| eval(w, f)).collect();
            mse(&scores, &results, 1.0)
        };
        let start = [0, 0, 5];
        let start_err = error(&start);
        let mut errors = Vec::new();
        let (found, err) = local_search(&start, &[true, true, false], 16, 100, error, |p, _| {
            errors.push(p.error)
        });
        assert_eq!(found, truth.to_vec());
        assert!(err < 1e-12 && err < start_err);
        // Never worse from one pass to the next; the frozen weight stays.
        assert!(errors.windows(2).all(|w| w[1] <= w[0]));
        assert_eq!(found[2], 5);
    }
}
