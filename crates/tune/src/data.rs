//! Datasets of labelled positions, weight files, and the tuning run.

use super::fit::{Pass, fit_k, local_search, mse};
use super::params::Tunable;
use std::io::BufRead;

/// Labelled positions: each position with the result of the game it was
/// taken from, from White's view (1 win, 0.5 draw, 0 loss).
pub struct Dataset<W: Tunable> {
    /// The positions.
    pub positions: Vec<W::Position>,
    /// The results, one per position.
    pub results: Vec<f64>,
}

/// Parses a dataset: one position a line, `RESULT POSITION` (RESULT is `1`,
/// `0.5` or `0` for White, POSITION a Makruk FEN or a Mak-hot position
/// text); blank lines and lines starting with `#` are skipped. Errors name
/// the line.
pub fn load<W: Tunable>(reader: impl BufRead) -> Result<Dataset<W>, String> {
    let mut data = Dataset {
        positions: Vec::new(),
        results: Vec::new(),
    };
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (result, pos) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {}: expected `RESULT POSITION`", i + 1))?;
        let result: f64 = match result {
            "1" | "1.0" => 1.0,
            "0.5" => 0.5,
            "0" | "0.0" => 0.0,
            other => {
                return Err(format!(
                    "line {}: result `{other}` is not 1, 0.5 or 0",
                    i + 1
                ));
            }
        };
        let pos = W::parse_position(pos.trim()).map_err(|e| format!("line {}: {e}", i + 1))?;
        data.positions.push(pos);
        data.results.push(result);
    }
    Ok(data)
}

/// The White-view scores of every position with `w`.
pub fn scores<W: Tunable>(w: &W, data: &Dataset<W>) -> Vec<i32> {
    data.positions.iter().map(|p| w.white_eval(p)).collect()
}

/// Weights as text: `name value` a line, in vector order.
pub fn weights_to_text<W: Tunable>(w: &W) -> String {
    W::names()
        .iter()
        .zip(w.to_vec())
        .map(|(n, v)| format!("{n} {v}\n"))
        .collect()
}

/// Reads weights written by [`weights_to_text`]; every name must appear
/// once. Errors name the line or the missing weight.
pub fn weights_from_text<W: Tunable>(text: &str) -> Result<W, String> {
    let names = W::names();
    let mut values: Vec<Option<i32>> = vec![None; names.len()];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, value) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {}: expected `NAME VALUE`", i + 1))?;
        let idx = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("line {}: unknown weight `{name}`", i + 1))?;
        let v: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("line {}: `{}` is not an integer", i + 1, value.trim()))?;
        if values[idx].replace(v).is_some() {
            return Err(format!("line {}: `{name}` given twice", i + 1));
        }
    }
    let mut v = Vec::with_capacity(names.len());
    for (n, x) in names.iter().zip(values) {
        v.push(x.ok_or_else(|| format!("weight `{n}` missing"))?);
    }
    W::from_slice(&v).ok_or_else(|| "wrong number of weights".to_string())
}

/// The outcome of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneReport<W> {
    /// The fitted sigmoid scale (with the starting weights).
    pub k: f64,
    /// The error of the starting weights.
    pub start_error: f64,
    /// The error of the tuned weights.
    pub end_error: f64,
    /// The tuned weights.
    pub weights: W,
}

/// The tunable mask of `W` with the named weights held as they are: a name
/// is a weight (`man_rank[4]`, `mg.material.ruea`) or a group (`man_rank`,
/// `mg.material`, `eg.psqt.ma`). Unknown names are an error.
pub fn freeze<W: Tunable>(names: &[String]) -> Result<Vec<bool>, String> {
    let all = W::names();
    let mut mask = W::tunable();
    for n in names {
        let mut hit = false;
        for (i, w) in all.iter().enumerate() {
            if w == n
                || w.strip_prefix(n.as_str())
                    .is_some_and(|r| r.starts_with('[') || r.starts_with('.'))
            {
                mask[i] = false;
                hit = true;
            }
        }
        if !hit {
            return Err(format!("unknown weight `{n}`"));
        }
    }
    Ok(mask)
}

/// The largest weight magnitude the tuner tries.
pub const MAX_WEIGHT: i32 = 5000;

/// Texel tuning: fits `K` with the starting weights, then minimises the
/// mean squared error of `sigmoid(K * eval)` against the results by local
/// search over the tunable weights.
///
/// `tunable` says which weights may change (usually [`Tunable::tunable`],
/// see [`freeze`]).
pub fn tune<W: Tunable>(
    data: &Dataset<W>,
    start: &W,
    tunable: &[bool],
    first_step: i32,
    max_passes: u32,
    mut on_pass: impl FnMut(&Pass, &W),
) -> TuneReport<W> {
    let k = fit_k(&scores(start, data), &data.results);
    // Weights beyond a few thousand centipawns are never right and could
    // overflow the evaluation: they count as infinitely bad.
    let error = |v: &[i32]| match W::from_slice(v) {
        Some(w) if v.iter().all(|x| x.abs() <= MAX_WEIGHT) => {
            mse(&scores(&w, data), &data.results, k)
        }
        _ => f64::INFINITY,
    };
    let start_vec = start.to_vec();
    let start_error = error(&start_vec);
    let (best, end_error) = local_search(
        &start_vec,
        tunable,
        first_step,
        max_passes,
        error,
        |p, v| {
            if let Some(w) = W::from_slice(v) {
                on_pass(p, &w);
            }
        },
    );
    TuneReport {
        k,
        start_error,
        end_error,
        weights: W::from_slice(&best).unwrap_or_else(|| start.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::{MakhosWeights, MakrukWeights};

    #[test]
    fn datasets_parse_and_bad_lines_are_named() {
        let text = "# comment\n1 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n\n0.5 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n";
        let d = load::<MakrukWeights>(text.as_bytes()).unwrap();
        assert_eq!(d.results, vec![1.0, 0.5]);
        assert_eq!(d.positions.len(), 2);
        let e = load::<MakrukWeights>("1 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n2 x\n".as_bytes());
        assert!(e.err().unwrap().starts_with("line 2: result `2`"));
        let e = load::<MakhosWeights>("0 W:Wa1:Bz9\n".as_bytes());
        assert!(e.err().unwrap().starts_with("line 1: "));
        let e = load::<MakhosWeights>("0\n".as_bytes());
        assert!(e.err().unwrap().contains("RESULT POSITION"));
    }

    #[test]
    fn weight_files_round_trip_and_reject_bad_text() {
        let text = weights_to_text(&MakhosWeights::DEFAULT);
        assert_eq!(
            weights_from_text::<MakhosWeights>(&text).unwrap(),
            MakhosWeights::DEFAULT
        );
        let missing: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(
            weights_from_text::<MakhosWeights>(&missing)
                .unwrap_err()
                .contains("`man` missing")
        );
        assert!(
            weights_from_text::<MakhosWeights>("queen 9\n")
                .unwrap_err()
                .contains("unknown weight `queen`")
        );
        assert!(
            weights_from_text::<MakhosWeights>("man x\n")
                .unwrap_err()
                .contains("not an integer")
        );
    }

    /// Positions whose results favour a higher king value: the tuner must
    /// raise it and lower the error.
    #[test]
    fn tuning_moves_a_weight_toward_the_results() {
        // White has a king against men; White wins these games.
        let lines = [
            "1 W:WKd4:Bb8,d8",
            "1 B:WKe5:Bb8,h8",
            "1 W:WKc3:Ba7,c7",
            "0 W:Wc3,e3:BKd6",
            "0 B:Wa1,g3:BKe7",
            "0.5 W:Wc3:Bf6",
            "0.5 B:Wc3:Bf6",
        ];
        let data = load::<MakhosWeights>(lines.join("\n").as_bytes()).unwrap();
        let mut start = MakhosWeights::DEFAULT;
        start.king = 150;
        let report = tune(&data, &start, &MakhosWeights::tunable(), 16, 50, |_, _| {});
        assert!(report.end_error < report.start_error);
        assert!(report.weights.king > 150, "{:?}", report.weights);
        assert_eq!(report.weights.man, 100);
        // Frozen, the king value stays where it started.
        let mask = freeze::<MakhosWeights>(&["king".to_string()]).unwrap();
        let report = tune(&data, &start, &mask, 16, 50, |_, _| {});
        assert_eq!(report.weights.king, 150);
    }

    #[test]
    fn freeze_names_weights_and_groups() {
        let mask = freeze::<MakrukWeights>(&["mg.material".into(), "eg.tempo".into()]).unwrap();
        let names = MakrukWeights::names();
        let mut frozen = 0;
        for (n, t) in names.iter().zip(&mask) {
            if n.starts_with("mg.material.") || n == "eg.tempo" {
                assert!(!t, "{n}");
                frozen += 1;
            }
        }
        assert_eq!(frozen, 8);
        assert!(mask[names.iter().position(|n| n == "mg.psqt.ma.f3").unwrap()]);
        assert!(mask[names.iter().position(|n| n == "eg.material.ruea").unwrap()]);
        assert!(mask[names.iter().position(|n| n == "mg.tempo").unwrap()]);
        let mask = freeze::<MakhosWeights>(&["man_rank".into()]).unwrap();
        assert!(
            !mask[MakhosWeights::names()
                .iter()
                .position(|n| n == "man_rank[3]")
                .unwrap()]
        );
        assert!(
            freeze::<MakrukWeights>(&["queen".into()])
                .unwrap_err()
                .contains("`queen`")
        );
    }
}
