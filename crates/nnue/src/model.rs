//! The network in floating point: what the trainer fits and the quantiser
//! rounds into the engine's int16 [`Network`].
//!
//! Its shape is the engine's: [`INPUTS`] features per perspective into
//! [`HIDDEN`] units, clipped to 0..1, both perspectives (side to move
//! first) into one of [`OUTPUT_BUCKETS`] outputs. The output `y` is in
//! units of [`OUTPUT_SCALE`] centipawns.

use engine::eval::nnue::{
    Base, HIDDEN, INPUTS, KING_BUCKETS, Network, OUTPUT_BUCKETS, OUTPUT_SCALE, QA, QB,
    WEIGHT_CLIP_HUNDREDTHS,
};

/// Offsets of the parameter groups in [`Model::params`].
pub const FEATURE_WEIGHTS: usize = 0;
/// The feature biases' offset.
pub const FEATURE_BIASES: usize = FEATURE_WEIGHTS + INPUTS * HIDDEN;
/// The output weights' offset.
pub const OUTPUT_WEIGHTS: usize = FEATURE_BIASES + HIDDEN;
/// The output biases' offset.
pub const OUTPUT_BIASES: usize = OUTPUT_WEIGHTS + OUTPUT_BUCKETS * 2 * HIDDEN;
/// The factoriser's offset: one row of weights per (side, role, square)
/// shared by every khun bucket, trained alongside the bucketed rows and
/// added into them by [`Model::quantize`]. With little data, what a piece
/// is worth on a square is learnt once for all buckets.
pub const FACTOR_WEIGHTS: usize = OUTPUT_BIASES + OUTPUT_BUCKETS;
/// Rows of the factoriser: the inputs of one khun bucket.
pub const FACTORS: usize = INPUTS / KING_BUCKETS;
/// Number of parameters.
pub const PARAMS: usize = FACTOR_WEIGHTS + FACTORS * HIDDEN;

/// Weights are kept within this bound, so that quantised they fit the
/// engine's integers: a feature weight times [`QA`] summed over 32 pieces
/// plus the bias stays below 32,767 (int16), and the output layer's sum of
/// `2 * HIDDEN` products of at most `QA` and this times [`QB`] within
/// int32.
pub const WEIGHT_CLIP: f32 = WEIGHT_CLIP_HUNDREDTHS as f32 / 100.0;

/// The float network: every parameter in one vector (the layout of the
/// offsets above), so the optimiser treats them alike. A feature's
/// effective weights are its bucketed row plus its factoriser row.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The parameters.
    pub params: Vec<f32>,
    /// What the output is added to (the trainer fits the output to the
    /// target less the base's score; the engine adds it back).
    pub base: Base,
}

/// What a forward pass keeps for the backward pass.
pub struct Forward {
    /// The units of the side to move, then of the other side, before the
    /// clip.
    pub units: [f32; 2 * HIDDEN],
    /// The output bucket.
    pub bucket: usize,
    /// The output, in units of [`OUTPUT_SCALE`] centipawns.
    pub y: f32,
}

/// A small reproducible generator (initial weights, shuffling).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number uniform in `-span..span`.
    pub fn uniform(&mut self, span: f32) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * span
    }
}

impl Model {
    /// Small random weights from `seed`, zero biases.
    pub fn new(seed: u64) -> Model {
        let mut rng = Rng(seed);
        let mut params = vec![0.0; PARAMS];
        // About 30 features are on: their sum starts within +-0.3.
        for w in &mut params[FEATURE_WEIGHTS..FEATURE_BIASES] {
            *w = rng.uniform(0.05);
        }
        for w in &mut params[OUTPUT_WEIGHTS..OUTPUT_BIASES] {
            *w = rng.uniform(1.0 / (2 * HIDDEN) as f32);
        }
        Model {
            params,
            base: Base::Zero,
        }
    }

    /// The forward pass over the features on for the side to move (`us`)
    /// and the other side (`them`) in output bucket `bucket`.
    pub fn forward(&self, us: &[u16], them: &[u16], bucket: usize) -> Forward {
        let p = &self.params;
        let mut units = [0.0f32; 2 * HIDDEN];
        for (half, features) in [us, them].into_iter().enumerate() {
            let u = &mut units[half * HIDDEN..(half + 1) * HIDDEN];
            u.copy_from_slice(&p[FEATURE_BIASES..FEATURE_BIASES + HIDDEN]);
            for &f in features {
                let row = &p[FEATURE_WEIGHTS + f as usize * HIDDEN..][..HIDDEN];
                let shared = &p[factor_row(f)..][..HIDDEN];
                for ((a, w), v) in u.iter_mut().zip(row).zip(shared) {
                    *a += w + v;
                }
            }
        }
        let out = &p[OUTPUT_WEIGHTS + bucket * 2 * HIDDEN..][..2 * HIDDEN];
        let y = p[OUTPUT_BIASES + bucket]
            + units
                .iter()
                .zip(out)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        Forward { units, bucket, y }
    }

    /// The score in centipawns, side to move's view.
    pub fn centipawns(&self, us: &[u16], them: &[u16], bucket: usize) -> f32 {
        self.forward(us, them, bucket).y * OUTPUT_SCALE as f32
    }

    /// Adds to `grad` the gradient of the loss for a forward pass `f`
    /// whose loss has derivative `dy` in the output.
    pub fn backward(&self, us: &[u16], them: &[u16], f: &Forward, dy: f32, grad: &mut [f32]) {
        let p = &self.params;
        let out_at = OUTPUT_WEIGHTS + f.bucket * 2 * HIDDEN;
        grad[OUTPUT_BIASES + f.bucket] += dy;
        let mut dunits = [0.0f32; 2 * HIDDEN];
        for (j, &a) in f.units.iter().enumerate() {
            grad[out_at + j] += dy * a.clamp(0.0, 1.0);
            if a > 0.0 && a < 1.0 {
                dunits[j] = dy * p[out_at + j];
            }
        }
        for (half, features) in [us, them].into_iter().enumerate() {
            let d = &dunits[half * HIDDEN..(half + 1) * HIDDEN];
            for (g, x) in grad[FEATURE_BIASES..FEATURE_BIASES + HIDDEN]
                .iter_mut()
                .zip(d)
            {
                *g += x;
            }
            for &feature in features {
                for at in [
                    FEATURE_WEIGHTS + feature as usize * HIDDEN,
                    factor_row(feature),
                ] {
                    for (g, x) in grad[at..at + HIDDEN].iter_mut().zip(d) {
                        *g += x;
                    }
                }
            }
        }
    }

    /// Keeps every effective weight within [`WEIGHT_CLIP`] (biases are
    /// free): output weights within it, bucketed and factoriser rows within
    /// half of it each.
    pub fn clip(&mut self) {
        for (range, bound) in [
            (FEATURE_WEIGHTS..FEATURE_BIASES, WEIGHT_CLIP / 2.0),
            (FACTOR_WEIGHTS..PARAMS, WEIGHT_CLIP / 2.0),
            (OUTPUT_WEIGHTS..OUTPUT_BIASES, WEIGHT_CLIP),
        ] {
            for w in &mut self.params[range] {
                *w = w.clamp(-bound, bound);
            }
        }
    }

    /// The engine's network: feature weights and biases times [`QA`],
    /// output weights times [`QB`], output biases times `QA * QB`, each
    /// rounded to the nearest integer (and saturated to its type).
    pub fn quantize(&self, description: &str) -> Network {
        let p = &self.params;
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32768.0, 32767.0) as i16;
        Network {
            feature_weights: (0..INPUTS * HIDDEN)
                .map(|i| {
                    let shared = p[factor_row((i / HIDDEN) as u16) + i % HIDDEN];
                    q16(p[FEATURE_WEIGHTS + i] + shared, QA)
                })
                .collect(),
            feature_biases: p[FEATURE_BIASES..OUTPUT_WEIGHTS]
                .iter()
                .map(|&b| q16(b, QA))
                .collect(),
            output_weights: p[OUTPUT_WEIGHTS..OUTPUT_BIASES]
                .iter()
                .map(|&w| q16(w, QB))
                .collect(),
            output_biases: p[OUTPUT_BIASES..FACTOR_WEIGHTS]
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
            base: self.base,
            description: description.to_string(),
        }
    }
}

/// The first parameter of the factoriser row of feature `f`.
#[inline]
fn factor_row(f: u16) -> usize {
    FACTOR_WEIGHTS + (f as usize % FACTORS) * HIDDEN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backward_pass_matches_finite_differences() {
        let mut m = Model::new(5);
        // Biases that put some units inside the clip's linear range.
        for b in &mut m.params[FEATURE_BIASES..OUTPUT_WEIGHTS] {
            *b = 0.4;
        }
        let us = [3u16, 700, 1500];
        let them = [10u16, 900];
        let f = m.forward(&us, &them, 2);
        let mut grad = vec![0.0; PARAMS];
        m.backward(&us, &them, &f, 1.0, &mut grad);
        let probe = [
            FEATURE_WEIGHTS + 700 * HIDDEN + 5,
            FEATURE_WEIGHTS + 900 * HIDDEN + 17,
            FEATURE_BIASES + 9,
            OUTPUT_WEIGHTS + 2 * 2 * HIDDEN + 40,
            OUTPUT_BIASES + 2,
            factor_row(700) + 5,
            factor_row(900 + FACTORS as u16) + 17,
        ];
        for i in probe {
            let h = 1e-2;
            let mut plus = m.clone();
            plus.params[i] += h;
            let mut minus = m.clone();
            minus.params[i] -= h;
            let numeric =
                (plus.forward(&us, &them, 2).y - minus.forward(&us, &them, 2).y) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-3,
                "parameter {i}: {numeric} numeric, {} analytic",
                grad[i]
            );
        }
    }
}
