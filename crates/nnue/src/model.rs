//! The network in floating point: what the trainer fits and the quantiser
//! rounds into the engine's int16 [`Network`].
//!
//! Its shape is the engine's for the network's [`Layout`]: `inputs`
//! features per perspective into `hidden` units, clipped to 0..1, both
//! perspectives (side to move first) into one of `buckets` outputs. The
//! output `y` is in units of [`OUTPUT_SCALE`] centipawns.

use engine::eval::nnue::{
    Base, HIDDEN, KING_BUCKETS, Layout, Network, OUTPUT_SCALE, QA, QB, WEIGHT_CLIP_HUNDREDTHS,
};

/// Where each group of parameters starts in [`Model::params`], for a
/// layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The layout the shape is of.
    pub layout: Layout,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// The feature weights' offset (0): `inputs` rows of `hidden`.
    pub feature_weights: usize,
    /// The feature biases' offset.
    pub feature_biases: usize,
    /// The output weights' offset: `buckets` rows of `2 * hidden`.
    pub output_weights: usize,
    /// The output biases' offset.
    pub output_biases: usize,
    /// The factoriser's offset: one row of weights per (side, role,
    /// square) shared by every khun bucket of a Makruk network, trained
    /// alongside the bucketed rows and added into them by
    /// [`Model::quantize`]. With little data, what a piece is worth on a
    /// square is learnt once for all buckets. A Mak-hot network has no
    /// buckets of inputs and no factoriser.
    pub factor_weights: usize,
    /// Rows of the factoriser (0 without one).
    pub factors: usize,
    /// Number of parameters.
    pub params: usize,
}

impl Shape {
    /// The shape of `layout`'s networks.
    pub const fn of(layout: Layout) -> Shape {
        let (inputs, hidden, buckets) = (layout.inputs(), layout.hidden(), layout.buckets());
        let factors = match layout {
            Layout::Makruk => inputs / KING_BUCKETS,
            Layout::Makhos => 0,
        };
        let feature_biases = inputs * hidden;
        let output_weights = feature_biases + hidden;
        let output_biases = output_weights + buckets * 2 * hidden;
        let factor_weights = output_biases + buckets;
        Shape {
            layout,
            hidden,
            feature_weights: 0,
            feature_biases,
            output_weights,
            output_biases,
            factor_weights,
            factors,
            params: factor_weights + factors * hidden,
        }
    }

    /// The first parameter of the factoriser row of feature `f`, if the
    /// shape has a factoriser.
    #[inline]
    fn factor_row(&self, f: u16) -> Option<usize> {
        (self.factors > 0).then(|| self.factor_weights + (f as usize % self.factors) * self.hidden)
    }
}

/// Weights are kept within this bound, so that quantised they fit the
/// engine's integers: a feature weight times [`QA`] summed over 32 pieces
/// plus the bias stays below 32,767 (int16), and the output layer's sum of
/// `2 * hidden` products of at most `QA` and this times [`QB`] within
/// int32.
pub const WEIGHT_CLIP: f32 = WEIGHT_CLIP_HUNDREDTHS as f32 / 100.0;

/// The float network: every parameter in one vector (the layout of
/// [`Shape`]), so the optimiser treats them alike. A feature's effective
/// weights are its bucketed row plus its factoriser row.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Where the parameters are.
    pub shape: Shape,
    /// The parameters.
    pub params: Vec<f32>,
    /// What the output is added to (the trainer fits the output to the
    /// target less the base's score; the engine adds it back).
    pub base: Base,
}

/// What a forward pass keeps for the backward pass.
pub struct Forward {
    /// The units of the side to move (the first `hidden`), then of the
    /// other side (from [`HIDDEN`] on), before the clip.
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
    /// A Makruk network of small random weights from `seed`, zero biases.
    pub fn new(seed: u64) -> Model {
        Model::new_for(seed, Layout::Makruk)
    }

    /// A network of `layout`, small random weights from `seed`, zero
    /// biases.
    pub fn new_for(seed: u64, layout: Layout) -> Model {
        let shape = Shape::of(layout);
        let mut rng = Rng(seed);
        let mut params = vec![0.0; shape.params];
        // About 30 features are on: their sum starts within +-0.3.
        for w in &mut params[shape.feature_weights..shape.feature_biases] {
            *w = rng.uniform(0.05);
        }
        for w in &mut params[shape.output_weights..shape.output_biases] {
            *w = rng.uniform(1.0 / (2 * shape.hidden) as f32);
        }
        Model {
            shape,
            params,
            base: Base::Zero,
        }
    }

    /// The forward pass over the features on for the side to move (`us`)
    /// and the other side (`them`) in output bucket `bucket`.
    pub fn forward(&self, us: &[u16], them: &[u16], bucket: usize) -> Forward {
        let (p, s, h) = (&self.params, &self.shape, self.shape.hidden);
        let mut units = [0.0f32; 2 * HIDDEN];
        for (half, features) in [us, them].into_iter().enumerate() {
            let u = &mut units[half * HIDDEN..half * HIDDEN + h];
            u.copy_from_slice(&p[s.feature_biases..s.feature_biases + h]);
            for &f in features {
                let row = &p[s.feature_weights + f as usize * h..][..h];
                for (a, w) in u.iter_mut().zip(row) {
                    *a += w;
                }
                if let Some(at) = s.factor_row(f) {
                    for (a, v) in u.iter_mut().zip(&p[at..at + h]) {
                        *a += v;
                    }
                }
            }
        }
        let out = &p[s.output_weights + bucket * 2 * h..][..2 * h];
        let y = p[s.output_biases + bucket]
            + units[..h]
                .iter()
                .chain(&units[HIDDEN..HIDDEN + h])
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
        let (p, s, h) = (&self.params, &self.shape, self.shape.hidden);
        let out_at = s.output_weights + f.bucket * 2 * h;
        grad[s.output_biases + f.bucket] += dy;
        let mut dunits = [0.0f32; 2 * HIDDEN];
        for half in 0..2 {
            for j in 0..h {
                let (a, w) = (f.units[half * HIDDEN + j], out_at + half * h + j);
                grad[w] += dy * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dunits[half * HIDDEN + j] = dy * p[w];
                }
            }
        }
        for (half, features) in [us, them].into_iter().enumerate() {
            let d = &dunits[half * HIDDEN..half * HIDDEN + h];
            for (g, x) in grad[s.feature_biases..s.feature_biases + h]
                .iter_mut()
                .zip(d)
            {
                *g += x;
            }
            for &feature in features {
                let rows = [
                    Some(s.feature_weights + feature as usize * h),
                    s.factor_row(feature),
                ];
                for at in rows.into_iter().flatten() {
                    for (g, x) in grad[at..at + h].iter_mut().zip(d) {
                        *g += x;
                    }
                }
            }
        }
    }

    /// The ranges of the feature and factoriser weights (those weight
    /// decay shrinks).
    pub fn feature_ranges(&self) -> [std::ops::Range<usize>; 2] {
        let s = &self.shape;
        [
            s.feature_weights..s.feature_biases,
            s.factor_weights..s.params,
        ]
    }

    /// Keeps every effective weight within [`WEIGHT_CLIP`] (biases are
    /// free): output weights within it, bucketed and factoriser rows within
    /// half of it each (all of it without a factoriser).
    pub fn clip(&mut self) {
        let s = self.shape;
        let feature_bound = if s.factors > 0 {
            WEIGHT_CLIP / 2.0
        } else {
            WEIGHT_CLIP
        };
        let [features, factors] = self.feature_ranges();
        for (range, bound) in [
            (features, feature_bound),
            (factors, WEIGHT_CLIP / 2.0),
            (s.output_weights..s.output_biases, WEIGHT_CLIP),
        ] {
            for w in &mut self.params[range] {
                *w = w.clamp(-bound, bound);
            }
        }
    }

    /// The float network of an engine's network (each integer over its
    /// scale, the factoriser at zero), to train on from where it is:
    /// quantised again it gives `net` back. A network of another shape
    /// than its layout's is refused.
    pub fn from_network(net: &Network) -> Result<Model, String> {
        let s = Shape::of(net.layout);
        let sizes = [
            (net.feature_weights.len(), s.feature_biases),
            (
                net.feature_biases.len(),
                s.output_weights - s.feature_biases,
            ),
            (net.output_weights.len(), s.output_biases - s.output_weights),
            (net.output_biases.len(), s.factor_weights - s.output_biases),
        ];
        if sizes.iter().any(|(have, want)| have != want) {
            return Err(format!(
                "the network's shape is not a {} network's",
                net.layout.name()
            ));
        }
        let mut params = Vec::with_capacity(s.params);
        params.extend(
            net.feature_weights
                .iter()
                .map(|&w| f32::from(w) / QA as f32),
        );
        params.extend(net.feature_biases.iter().map(|&b| f32::from(b) / QA as f32));
        params.extend(net.output_weights.iter().map(|&w| f32::from(w) / QB as f32));
        params.extend(
            net.output_biases
                .iter()
                .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32),
        );
        params.resize(s.params, 0.0);
        Ok(Model {
            shape: s,
            params,
            base: net.base,
        })
    }

    /// The engine's network: feature weights and biases times [`QA`],
    /// output weights times [`QB`], output biases times `QA * QB`, each
    /// rounded to the nearest integer (and saturated to its type).
    pub fn quantize(&self, description: &str) -> Network {
        let (p, s, h) = (&self.params, &self.shape, self.shape.hidden);
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32768.0, 32767.0) as i16;
        Network {
            layout: s.layout,
            feature_weights: (0..s.feature_biases)
                .map(|i| {
                    let shared = s.factor_row((i / h) as u16).map_or(0.0, |at| p[at + i % h]);
                    q16(p[s.feature_weights + i] + shared, QA)
                })
                .collect(),
            feature_biases: p[s.feature_biases..s.output_weights]
                .iter()
                .map(|&b| q16(b, QA))
                .collect(),
            output_weights: p[s.output_weights..s.output_biases]
                .iter()
                .map(|&w| q16(w, QB))
                .collect(),
            output_biases: p[s.output_biases..s.factor_weights]
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
            base: self.base,
            description: description.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the analytic gradient of `m` against finite differences at
    /// parameters `probe`, for one position's features and bucket.
    fn check_gradient(m: &Model, us: &[u16], them: &[u16], bucket: usize, probe: &[usize]) {
        let f = m.forward(us, them, bucket);
        let mut grad = vec![0.0; m.shape.params];
        m.backward(us, them, &f, 1.0, &mut grad);
        for &i in probe {
            assert!(grad[i] != 0.0, "parameter {i} has no gradient to check");
            let h = 1e-2;
            let mut plus = m.clone();
            plus.params[i] += h;
            let mut minus = m.clone();
            minus.params[i] -= h;
            let numeric =
                (plus.forward(us, them, bucket).y - minus.forward(us, them, bucket).y) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-3,
                "parameter {i}: {numeric} numeric, {} analytic",
                grad[i]
            );
        }
    }

    /// A model whose biases put some units inside the clip's linear range.
    fn model(layout: Layout) -> Model {
        let mut m = Model::new_for(5, layout);
        let s = m.shape;
        for b in &mut m.params[s.feature_biases..s.output_weights] {
            *b = 0.4;
        }
        m
    }

    #[test]
    fn a_network_read_back_into_floats_quantises_to_itself() {
        for layout in [Layout::Makruk, Layout::Makhos] {
            let mut m = model(layout);
            let s = m.shape;
            // Factoriser rows are folded into the bucketed rows.
            for w in &mut m.params[s.factor_weights..] {
                *w = 0.01;
            }
            for b in &mut m.params[s.output_biases..s.factor_weights] {
                *b = 0.37;
            }
            m.base = Base::Classical;
            if layout == Layout::Makhos {
                m.base = Base::Zero;
            }
            let net = m.quantize("x");
            let back = Model::from_network(&net).unwrap();
            assert_eq!(back.base, m.base);
            assert_eq!(back.quantize("x"), net, "{}", layout.name());
            let mut short = net.clone();
            short.output_biases.pop();
            assert!(Model::from_network(&short).is_err());
        }
    }

    #[test]
    fn the_backward_pass_matches_finite_differences() {
        let m = model(Layout::Makruk);
        let s = m.shape;
        let h = s.hidden;
        let probe = [
            s.feature_weights + 700 * h + 5,
            s.feature_weights + 900 * h + 17,
            s.feature_biases + 9,
            s.output_weights + 2 * 2 * h + 40,
            s.output_weights + 2 * 2 * h + h + 3,
            s.output_biases + 2,
            s.factor_row(700).unwrap() + 5,
            s.factor_row(900 + s.factors as u16).unwrap() + 17,
        ];
        check_gradient(&m, &[3, 700, 1500], &[10, 900], 2, &probe);
    }

    #[test]
    fn the_mak_hot_backward_pass_matches_finite_differences() {
        let m = model(Layout::Makhos);
        let s = m.shape;
        let h = s.hidden;
        assert_eq!((s.factors, s.params), (0, s.factor_weights));
        let probe = [
            s.feature_weights + 100 * h + 5,
            s.feature_weights + 7 * h + 100,
            s.feature_biases + 9,
            s.output_weights + 3 * 2 * h + 40,
            s.output_weights + 3 * 2 * h + h + 3,
            s.output_biases + 3,
        ];
        check_gradient(&m, &[3, 100, 127], &[7, 64], 3, &probe);
    }
}
