//! Gradient fit of the Makruk feature weights ([`engine::eval::TermWeights`])
//! to scored positions: each position is reduced once to its feature trace
//! and game phase, then Adam minimises the squared error between
//! `sigmoid(eval)` and `sigmoid(target)` over the whole set.
//!
//! The targets are centipawn scores from White's view: the scores of a
//! stronger engine's short searches (distillation), or game results mapped
//! to ±`RESULT_CP`. `thaiboard tune fit` drives it.

use crate::Tunable;
use engine::eval::makruk::terms;
use engine::eval::{
    MakrukWeights, TermWeights, Trace, makruk_cannot_mate, makruk_phase, makruk_trace,
};
use makruk::{Color, Position, Variant};
use std::io::BufRead;

/// One scored position, reduced to what the fit needs.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Features with their net White-minus-Black counts.
    pub features: Vec<(u16, i16)>,
    /// Middlegame share of the blend, 0.0 to 1.0.
    pub mg_share: f32,
    /// The target score from White's view, in centipawns.
    pub target: f32,
}

/// Options of a fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Passes over the whole set.
    pub epochs: u32,
    /// Adam step size, in centipawns.
    pub rate: f64,
    /// Scale of the sigmoid: win probability `1 / (1 + 10^(-cp / scale))`.
    pub scale: f64,
    /// L2 pull of every weight toward its starting value, per position.
    pub l2: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 400,
            rate: 2.0,
            scale: 400.0,
            l2: 1e-7,
        }
    }
}

/// Why a position of a scored file was left out of the fit.
fn skip_reason(pos: &Position, target: i32) -> Option<&'static str> {
    if target.abs() > 3000 {
        return Some("score beyond 3000");
    }
    if makruk_cannot_mate(pos, Color::White) || makruk_cannot_mate(pos, Color::Black) {
        return Some("material that cannot mate");
    }
    if pos.by_color(Color::White).count() <= 2 || pos.by_color(Color::Black).count() <= 2 {
        return Some("bare khun (mop-up)");
    }
    None
}

/// Reduces `pos` scored `target` (White's view) to a sample.
pub fn sample(pos: &Position, target: i32) -> Sample {
    let mut trace = Trace::default();
    makruk_trace(pos, &mut trace);
    trace.compact();
    Sample {
        features: trace.features,
        mg_share: makruk_phase(pos) as f32 / terms::PHASE_MAX as f32,
        target: target as f32,
    }
}

/// Reads `<centipawns from White's view> <FEN>` lines; positions the linear
/// terms do not decide (see `skip_reason`) are counted, not loaded.
/// Returns the samples and the number skipped.
pub fn load(reader: impl BufRead) -> Result<(Vec<Sample>, usize), String> {
    let mut samples = Vec::new();
    let mut skipped = 0;
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (score, fen) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {}: expected `<score> <fen>`", n + 1))?;
        let target: i32 = score
            .parse()
            .map_err(|_| format!("line {}: bad score {score:?}", n + 1))?;
        let pos = Position::from_fen(Variant::Makruk, fen.trim())
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        if skip_reason(&pos, target).is_some() {
            skipped += 1;
            continue;
        }
        samples.push(sample(&pos, target));
    }
    Ok((samples, skipped))
}

fn sigmoid(cp: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / scale))
}

/// The blended linear score of `s` under float weights (`mg`, `eg`).
fn predict(s: &Sample, mg: &[f64], eg: &[f64]) -> f64 {
    let (mut m, mut e) = (0.0, 0.0);
    for &(f, n) in &s.features {
        m += mg[f as usize] * n as f64;
        e += eg[f as usize] * n as f64;
    }
    let p = s.mg_share as f64;
    m * p + e * (1.0 - p)
}

/// Mean squared error of `weights` over `samples`.
pub fn error(samples: &[Sample], weights: &TermWeights, scale: f64) -> f64 {
    let mg: Vec<f64> = weights.mg.iter().map(|&x| x as f64).collect();
    let eg: Vec<f64> = weights.eg.iter().map(|&x| x as f64).collect();
    samples
        .iter()
        .map(|s| {
            let d = sigmoid(predict(s, &mg, &eg), scale) - sigmoid(s.target as f64, scale);
            d * d
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Fits the feature weights of `start` to `samples`; `log` receives a line
/// every few epochs. Weights [`MakrukWeights::tunable`] marks as frozen keep
/// their starting values.
pub fn fit(
    samples: &[Sample],
    start: &TermWeights,
    options: &FitOptions,
    mut log: impl FnMut(String),
) -> TermWeights {
    let n = terms::COUNT;
    let mask = MakrukWeights::tunable();
    let free: Vec<f64> = (0..2 * n)
        .map(|i| if mask[i] { 1.0 } else { 0.0 })
        .collect();
    let origin: Vec<f64> = start
        .mg
        .iter()
        .chain(start.eg.iter())
        .map(|&x| x as f64)
        .collect();
    let mut w = origin.clone();
    let (mut m1, mut m2) = (vec![0.0; 2 * n], vec![0.0; 2 * n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let k = std::f64::consts::LN_10 / options.scale;
    let count = samples.len().max(1) as f64;
    for epoch in 1..=options.epochs {
        let mut grad = vec![0.0; 2 * n];
        let mut loss = 0.0;
        let (mg, eg) = w.split_at(n);
        for s in samples {
            let y = sigmoid(s.target as f64, options.scale);
            let p = sigmoid(predict(s, mg, eg), options.scale);
            let d = p - y;
            loss += d * d;
            // d(loss)/d(score) = 2 d * p (1 - p) * k
            let g = 2.0 * d * p * (1.0 - p) * k;
            let share = s.mg_share as f64;
            for &(f, c) in &s.features {
                let f = f as usize;
                grad[f] += g * c as f64 * share;
                grad[n + f] += g * c as f64 * (1.0 - share);
            }
        }
        for i in 0..2 * n {
            let g = grad[i] / count + options.l2 * (w[i] - origin[i]);
            m1[i] = b1 * m1[i] + (1.0 - b1) * g;
            m2[i] = b2 * m2[i] + (1.0 - b2) * g * g;
            let mh = m1[i] / (1.0 - b1.powi(epoch as i32));
            let vh = m2[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= free[i] * options.rate * mh / (vh.sqrt() + eps);
        }
        if epoch == 1 || epoch % 50 == 0 || epoch == options.epochs {
            log(format!("epoch {epoch} error {:.6}", loss / count));
        }
    }
    let round = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    let mut out = start.clone();
    for i in 0..n {
        out.mg[i] = round(w[i]);
        out.eg[i] = round(w[n + i]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::Makruk, fen).unwrap()
    }

    #[test]
    fn loading_skips_what_the_linear_terms_do_not_decide() {
        let text = "# comment\n\
            35 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n\
            900 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n\
            9999 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1\n";
        let (samples, skipped) = load(text.as_bytes()).unwrap();
        assert_eq!(samples.len(), 1);
        assert_eq!(skipped, 2);
        assert_eq!(samples[0].target, 35.0);
        assert_eq!(samples[0].mg_share, 1.0);
        let err = load("x rnsmksnr/8/8/8/8/8/8/RNSKMSNR w - - 0 1".as_bytes()).unwrap_err();
        assert!(err.contains("line 1: bad score"), "{err}");
        let err = load("12 not-a-fen".as_bytes()).unwrap_err();
        assert!(err.starts_with("line 1: "), "{err}");
    }

    #[test]
    fn the_trace_reproduces_the_linear_evaluation() {
        let w = &MakrukWeights::DEFAULT.terms;
        let mg: Vec<f64> = w.mg.iter().map(|&x| x as f64).collect();
        let eg: Vec<f64> = w.eg.iter().map(|&x| x as f64).collect();
        for fen in [
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "r1s1k2r/2m4n/2pppps1/pp6/P1PKP1P1/1P1P2SN/1S6/RN2M3 b - - 0 18",
            "1n3mk1/1s1r4/p1p1p3/P7/2P4S/3P4/K2N4/S2RM3 w - - 3 34",
        ] {
            let p = pos(fen);
            let s = sample(&p, 0);
            let exact = engine::eval::linear_white(&p, w) as f64;
            assert!((predict(&s, &mg, &eg) - exact).abs() <= 1.0, "{fen}");
        }
    }

    #[test]
    fn fitting_learns_a_material_edge() {
        // Positions where White is a ruea up are scored +500, their
        // mirror images -500: the fit must raise the ruea's value from a
        // deliberately low start and lower the error.
        let mut samples = Vec::new();
        for (fen, target) in [
            ("rnsmksn1/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", 500),
            (
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN1 b - - 0 1",
                -500,
            ),
            ("1nsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1", 500),
            (
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/1NSKMSNR w - - 0 1",
                -500,
            ),
        ] {
            samples.push(sample(&pos(fen), target));
        }
        let mut start = MakrukWeights::DEFAULT.terms.clone();
        let ruea = terms::MATERIAL + 4;
        start.mg[ruea] = 100;
        start.eg[ruea] = 100;
        let options = FitOptions {
            epochs: 300,
            rate: 5.0,
            ..FitOptions::default()
        };
        let before = error(&samples, &start, options.scale);
        let fitted = fit(&samples, &start, &options, |_| {});
        let after = error(&samples, &fitted, options.scale);
        assert!(after < before / 4.0, "{before} -> {after}");
        // The edge is learnt: the ruea-up position now scores well above
        // its start (the ruea's material and square weights share it).
        let mg: Vec<f64> = fitted.mg.iter().map(|&x| x as f64).collect();
        let eg: Vec<f64> = fitted.eg.iter().map(|&x| x as f64).collect();
        assert!(predict(&samples[0], &mg, &eg) > 350.0);
        // A ruea's value with eight bias a side: its material weight plus
        // its share of the balance against the bias (the fit may put the
        // edge in either).
        let balance = terms::IMBALANCE_OWN_BIAS + 3;
        let against = terms::IMBALANCE_THEIR_BIAS + 3;
        let value =
            |w: &TermWeights| w.mg[ruea] as i32 + 8 * (w.mg[balance] as i32 + w.mg[against] as i32);
        assert!(
            value(&fitted) > value(&start) + 50,
            "{} -> {}",
            value(&start),
            value(&fitted)
        );
        // Frozen weights stay put.
        assert_eq!(fitted.mg[terms::MATERIAL], start.mg[terms::MATERIAL]);
    }
}
