//! The tuning commands over files (`thaiboard tune gen|run|match`), for the
//! command line and the release example alike. Progress goes to `log`.

use super::data::{Dataset, freeze, load, tune, weights_from_text, weights_to_text};
use super::params::Tunable;
use super::selfplay::{GenStats, MatchStats, PlayConfig, SelfPlay, generate, play_match};
use engine::{MakhosGame, MakrukGame};
use games::GameKind;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;

/// Writes a dataset of `games` self-play games to `out`.
pub fn gen_file(
    game: GameKind,
    games: u64,
    cfg: &PlayConfig,
    seed: u64,
    out: &Path,
    log: impl FnMut(String),
) -> Result<GenStats, String> {
    match game {
        GameKind::Makruk(_) => gen_with::<MakrukGame>(games, cfg, seed, out, log),
        GameKind::Makhos(_) => gen_with::<MakhosGame>(games, cfg, seed, out, log),
    }
}

fn gen_with<G: SelfPlay>(
    games: u64,
    cfg: &PlayConfig,
    seed: u64,
    out: &Path,
    mut log: impl FnMut(String),
) -> Result<GenStats, String>
where
    G::Weights: Default,
{
    let file = File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    let weights: &'static G::Weights = Box::leak(Box::new(G::Weights::default()));
    let stats = generate::<G>(weights, games, cfg, seed, &mut w, |s| {
        if s.games % 50 == 0 {
            log(format!(
                "games {} positions {} (+{} ={} -{}) unfinished {}",
                s.games, s.positions, s.results[0], s.results[1], s.results[2], s.unfinished
            ));
        }
    })
    .and_then(|s| w.flush().map(|_| s))
    .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(stats)
}

fn read_weights<W: Tunable + Default>(path: Option<&Path>) -> Result<W, String> {
    match path {
        None => Ok(W::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            weights_from_text(&text).map_err(|e| format!("{}: {e}", p.display()))
        }
    }
}

/// Tunes from a dataset file (starting from `start`, or the defaults, the
/// weights named in `frozen` held) and returns the new weights as Rust
/// source; `out` receives them as a weight file for `match`.
#[allow(clippy::too_many_arguments)]
pub fn run_file(
    game: GameKind,
    data: &Path,
    start: Option<&Path>,
    frozen: &[String],
    first_step: i32,
    max_passes: u32,
    out: Option<&Path>,
    log: impl FnMut(String),
) -> Result<String, String> {
    match game {
        GameKind::Makruk(_) => run_with::<engine::eval::MakrukWeights>(
            data, start, frozen, first_step, max_passes, out, log,
        ),
        GameKind::Makhos(_) => run_with::<engine::eval::MakhosWeights>(
            data, start, frozen, first_step, max_passes, out, log,
        ),
    }
}

fn run_with<W: Tunable + Default>(
    data: &Path,
    start: Option<&Path>,
    frozen: &[String],
    first_step: i32,
    max_passes: u32,
    out: Option<&Path>,
    mut log: impl FnMut(String),
) -> Result<String, String> {
    let start: W = read_weights(start)?;
    let mask = freeze::<W>(frozen)?;
    let file = File::open(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let set: Dataset<W> =
        load(BufReader::new(file)).map_err(|e| format!("{}: {e}", data.display()))?;
    if set.results.is_empty() {
        return Err(format!("{}: no positions", data.display()));
    }
    log(format!("{} positions", set.results.len()));
    let report = tune(&set, &start, &mask, first_step, max_passes, |p, _| {
        log(format!(
            "pass {} step {} error {:.6} changed {}",
            p.pass, p.step, p.error, p.changed
        ))
    });
    log(format!(
        "K {:.4} error {:.6} -> {:.6}",
        report.k, report.start_error, report.end_error
    ));
    if let Some(p) = out {
        std::fs::write(p, weights_to_text(&report.weights))
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(report.weights.to_rust())
}

/// Plays `pairs` pairs of games, `candidate` weights against `baseline`
/// (the defaults when `None`); the score is the candidate's.
pub fn match_files(
    game: GameKind,
    candidate: &Path,
    baseline: Option<&Path>,
    pairs: u64,
    cfg: &PlayConfig,
    seed: u64,
    log: impl FnMut(String),
) -> Result<MatchStats, String> {
    match game {
        GameKind::Makruk(_) => match_with::<MakrukGame>(candidate, baseline, pairs, cfg, seed, log),
        GameKind::Makhos(_) => match_with::<MakhosGame>(candidate, baseline, pairs, cfg, seed, log),
    }
}

fn match_with<G: SelfPlay>(
    candidate: &Path,
    baseline: Option<&Path>,
    pairs: u64,
    cfg: &PlayConfig,
    seed: u64,
    mut log: impl FnMut(String),
) -> Result<MatchStats, String>
where
    G::Weights: Default,
{
    // The weights live as long as the process (the games borrow them).
    let a: &'static G::Weights = Box::leak(Box::new(read_weights(Some(candidate))?));
    let b: &'static G::Weights = Box::leak(Box::new(read_weights(baseline)?));
    Ok(play_match::<G>(a, b, pairs, cfg, seed, |s| {
        if s.games() % 10 == 0 {
            log(format!(
                "games {} +{} ={} -{} score {:.1}%",
                s.games(),
                s.wins,
                s.draws,
                s.losses,
                s.percent()
            ));
        }
    }))
}

/// Fits the Makruk feature weights to a scored file (`<centipawns from
/// White's view> <FEN>` a line, e.g. from a stronger engine's searches),
/// starting from the engine's weights, holding out every tenth position to
/// report the error on positions the fit did not see. Returns the source of
/// `eval/makruk/fitted_weights.rs`.
pub fn fit_file(
    data: &Path,
    options: &crate::linear::FitOptions,
    mut log: impl FnMut(String),
) -> Result<String, String> {
    use crate::linear::{error, fit, load};
    let file = File::open(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let (samples, skipped) =
        load(BufReader::new(file)).map_err(|e| format!("{}: {e}", data.display()))?;
    if samples.len() < 10 {
        return Err(format!(
            "{}: too few positions ({})",
            data.display(),
            samples.len()
        ));
    }
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, s) in samples.into_iter().enumerate() {
        if i % 10 == 9 {
            held.push(s)
        } else {
            train.push(s)
        }
    }
    log(format!(
        "{} positions to fit, {} held out, {skipped} skipped",
        train.len(),
        held.len()
    ));
    let start = engine::eval::MakrukWeights::DEFAULT.terms;
    log(format!(
        "start: error {:.6} held-out {:.6}",
        error(&train, &start, options.scale),
        error(&held, &start, options.scale)
    ));
    let fitted = fit(&train, &start, options, &mut log);
    log(format!(
        "end: error {:.6} held-out {:.6}",
        error(&train, &fitted, options.scale),
        error(&held, &fitted, options.scale)
    ));
    Ok(crate::params::makruk_weights_source(&fitted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen_run_and_match_over_files() {
        let dir = std::env::temp_dir().join(format!("thaiboard-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("makhos.txt");
        let cfg = PlayConfig {
            nodes: 200,
            random_plies: 4,
            max_plies: 200,
        };
        let stats = gen_file(GameKind::MAKHOS, 3, &cfg, 5, &data, |_| {}).unwrap();
        assert_eq!(stats.games, 3);
        let weights = dir.join("w.txt");
        let src = run_file(
            GameKind::MAKHOS,
            &data,
            None,
            &[],
            4,
            2,
            Some(&weights),
            |_| {},
        )
        .unwrap();
        assert!(src.contains("pub const DEFAULT: MakhosWeights"));
        let m = match_files(GameKind::MAKHOS, &weights, None, 1, &cfg, 3, |_| {}).unwrap();
        assert_eq!(m.games(), 2);
        let missing = dir.join("missing.txt");
        let err = run_file(GameKind::MAKHOS, &missing, None, &[], 4, 2, None, |_| {}).unwrap_err();
        assert!(err.contains("missing.txt"));
        assert!("chess".parse::<GameKind>().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
