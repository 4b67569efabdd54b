//! How well a network predicts its training labels, against the classical
//! evaluation: the yardstick for a network before any match. For each
//! position the float network's score, the quantised network's, and the
//! classical static evaluation's are compared with the search score the
//! position was labelled with.

use crate::data::Sample;
use crate::model::Model;
use engine::eval::nnue::{HIDDEN, Network, simd};

/// Sums for the agreement of one predictor with the search scores.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub n: u64,
    /// Sum of `|prediction - score|`.
    abs_error: f64,
    sum_x: f64,
    sum_y: f64,
    sum_xx: f64,
    sum_yy: f64,
    sum_xy: f64,
}

impl Agreement {
    /// Counts one position: the predictor's `x` against the search's `y`.
    pub fn add(&mut self, x: f64, y: f64) {
        self.n += 1;
        self.abs_error += (x - y).abs();
        self.sum_x += x;
        self.sum_y += y;
        self.sum_xx += x * x;
        self.sum_yy += y * y;
        self.sum_xy += x * y;
    }

    /// The mean absolute difference in centipawns (0 with no position).
    pub fn mean_abs_error(&self) -> f64 {
        self.abs_error / (self.n.max(1) as f64)
    }

    /// The slope of the least-squares line of the scores on the
    /// predictions (0 without spread): below 1, the scores are flatter
    /// than the predictions, as when labels come on another engine's
    /// centipawn scale.
    pub fn slope(&self) -> f64 {
        let n = self.n.max(1) as f64;
        let cov = self.sum_xy / n - self.sum_x / n * self.sum_y / n;
        let vx = self.sum_xx / n - (self.sum_x / n).powi(2);
        if vx <= 0.0 { 0.0 } else { cov / vx }
    }

    /// The correlation of predictions and scores (0 without spread).
    pub fn correlation(&self) -> f64 {
        let n = self.n.max(1) as f64;
        let cov = self.sum_xy / n - self.sum_x / n * self.sum_y / n;
        let vx = self.sum_xx / n - (self.sum_x / n).powi(2);
        let vy = self.sum_yy / n - (self.sum_y / n).powi(2);
        if vx <= 0.0 || vy <= 0.0 {
            0.0
        } else {
            cov / (vx * vy).sqrt()
        }
    }
}

/// The comparison over a set of records.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The float network against the search scores.
    pub network: Agreement,
    /// The classical static evaluation against the search scores.
    pub classical: Agreement,
    /// The mean of `|quantised - float|` in centipawns.
    pub quantisation_mean: f64,
    /// The largest `|quantised - float|` in centipawns.
    pub quantisation_max: f64,
}

/// The quantised network's score of a record's inputs, in centipawns from
/// the side to move's view (accumulators summed in full).
fn quantised_score(net: &Network, us: &[u16], them: &[u16], bucket: usize) -> i32 {
    let h = net.layout.hidden();
    let mut acc = [[0i16; HIDDEN]; 2];
    for (units, features) in acc.iter_mut().zip([us, them]) {
        let units = &mut units[..h];
        units.copy_from_slice(&net.feature_biases);
        for &f in features {
            for (u, w) in units.iter_mut().zip(net.feature_row(usize::from(f))) {
                *u = u.wrapping_add(*w);
            }
        }
    }
    net.output(simd::kernel(), &acc[0][..h], &acc[1][..h], bucket)
}

/// Compares `model` (and its quantisation) and the classical evaluation
/// with the search scores of `records`. Records whose board the rules
/// refuse are skipped for the classical evaluation only.
pub fn compare<R: Sample>(model: &Model, records: &[R]) -> Report {
    let net = model.quantize("check");
    let mut report = Report::default();
    let (mut us, mut them) = (Vec::with_capacity(32), Vec::with_capacity(32));
    let mut quant_sum = 0.0;
    for r in records {
        let bucket = r.inputs(&mut us, &mut them);
        let base = f64::from(r.base_score(model.base));
        let float = f64::from(model.centipawns(&us, &them, bucket)) + base;
        let quant = f64::from(quantised_score(&net, &us, &them, bucket)) + base;
        let score = f64::from(r.score());
        report.network.add(float, score);
        quant_sum += (quant - float).abs();
        report.quantisation_max = report.quantisation_max.max((quant - float).abs());
        if let Some(classical) = r.classical() {
            report.classical.add(f64::from(classical), score);
        }
    }
    report.quantisation_mean = quant_sum / (records.len().max(1) as f64);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Record;
    use engine::eval::{MakrukWeights, evaluate_makruk};
    use makruk::{Color, Position, Variant};

    #[test]
    fn agreement_sums() {
        let mut a = Agreement::default();
        for (x, y) in [(0.0, 10.0), (100.0, 90.0), (200.0, 230.0)] {
            a.add(x, y);
        }
        assert_eq!(a.n, 3);
        assert!((a.mean_abs_error() - 50.0 / 3.0).abs() < 1e-9);
        // x = (0, 100, 200), y = (10, 90, 230): cov 22000/3, var x
        // 20000/3, var y 24800/3; the correlation 0.98783...
        let want = 22_000.0 / (20_000.0f64 * 24_800.0).sqrt();
        assert!((want - 0.987_829_2).abs() < 1e-6);
        assert!((a.correlation() - want).abs() < 1e-9, "{}", a.correlation());
        assert_eq!(Agreement::default().correlation(), 0.0);
        // The slope: cov / var x = 22000 / 20000.
        assert!((a.slope() - 1.1).abs() < 1e-9, "{}", a.slope());
        assert_eq!(Agreement::default().slope(), 0.0);
    }

    #[test]
    fn a_record_gives_back_its_position() {
        let pos = Position::from_fen(
            Variant::Makruk,
            "r1sm1s1r/4k3/p1pnpnpp/1p1p4/4P3/PPPP1PPP/4K3/RNSM1SNR b - - 0 8",
        )
        .unwrap();
        let back = Record::new(&pos, 5, 1, 0).position().unwrap();
        assert_eq!(back.turn(), Color::Black);
        assert_eq!(back.occupied(), pos.occupied());
        let w = MakrukWeights::DEFAULT;
        assert_eq!(evaluate_makruk(&back, &w), evaluate_makruk(&pos, &w));
    }

    #[test]
    fn quantisation_is_measured() {
        let model = Model::new(3);
        let pos = Position::new(Variant::Makruk);
        let records = [Record::new(&pos, 40, 1, 0)];
        let report = compare(&model, &records);
        assert_eq!(report.network.n, 1);
        assert_eq!(report.classical.n, 1);
        assert!(report.quantisation_max < 5.0, "{report:?}");
    }
}
