//! `thaiboard match`: two UCI engines play each other (see the `arena`
//! crate for the match itself); this module reads the command line, prints
//! the live score and writes the PGN.

use crate::error::CliError;
use arena::stats::{EloEstimate, Sprt, SprtModel, SprtVerdict, Tally};
use arena::{
    Adjudication, DEFAULT_REPETITION, DrawRule, EngineSpec, Finished, GameReport, Limit,
    MatchConfig, Opening, ResignRule, TimeControl, finished_in_pgn, parse_openings,
    run_match_resumed,
};
use clap::{ArgAction, Args};
use games::GameKind;
use indicatif::{ProgressBar, ProgressStyle};
use records::WriteOptions;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The options of `thaiboard match`.
#[derive(Args, Debug)]
#[command(after_help = "ENGINES:\n  \
    Each --engine takes KEY=VALUE words: cmd=PROGRAM [ARGS] (split at spaces; default: this\n  \
    program's `thaiboard uci`), arg=ONE_ARG, name=NAME, dir=DIR, option.NAME=VALUE (a UCI\n  \
    option, e.g. option.Hash=64 or 'option.Skill Level=3'), and the limits tc=, movetime=,\n  \
    nodes=, depth= which override the match-wide ones for that engine.\n\n\
EXAMPLES:\n  \
    thaiboard match --engine name=full --engine name=depth2 depth=2 --tc 5+0.05 \\\n      \
    --variant makhos --openings data/openings/makhos.txt --pgn out.pdn\n  \
    thaiboard match --engine name=thaiboard \\\n      \
    --engine name=fsf 'cmd=node --no-experimental-fetch node_modules/fairy-stockfish-nnue.wasm/uci.js' \\\n      \
    --tc 10+0.1 --openings data/openings/makruk.epd --concurrency 1 --sprt elo0=0 elo1=50")]
pub struct MatchArgs {
    /// The game: makruk, cambodian (Ouk Chatrang) or makhos (Mak-hot).
    #[arg(long, default_value = "makruk", value_parser = clap::builder::PossibleValuesParser::new(GameKind::VARIANT_NAMES))]
    variant: String,
    /// Mak-hot rule option (`default` or `no-reverse`).
    #[arg(long)]
    rules: Option<String>,
    /// An engine as KEY=VALUE words (see ENGINES below); give exactly two.
    /// Scores are the first engine's.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append, required = true)]
    engines: Vec<String>,
    /// The `--engine` words grouped by occurrence (filled by [`with_groups`]).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// KEY=VALUE words for both engines (before each engine's own).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// Time control kept by the runner: `[MOVES/]BASE[+INC]` in seconds (`10+0.1`, `40/60`).
    #[arg(long, value_parser = parse_tc)]
    tc: Option<TimeControl>,
    /// Fixed time per move, in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Openings: FEN / EPD lines (Makruk), position texts (Mak-hot), or a
    /// PGN / PDN file; default: the start position only.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// At most this many plies of each PGN / PDN opening game.
    #[arg(long)]
    plies: Option<usize>,
    /// Shuffle the openings (with --seed, reproducibly).
    #[arg(long)]
    random_order: bool,
    /// Seed for --random-order (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Games to play (default: each opening twice, colours reversed).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<usize>,
    /// Pairs of games to play (each opening once with each colour).
    #[arg(long)]
    rounds: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game to this PGN / PDN file (replaced, unless --resume).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Continue a stopped match: the games already in the --pgn file (same
    /// engines, openings and seed) are counted, not played again, and the
    /// new ones are added to the file. Without the file, start afresh.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Resign adjudication: `movecount=N score=CP` (off by default).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Option<Vec<String>>,
    /// Draw adjudication: `movenumber=M movecount=N score=CP` (off by default).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Option<Vec<String>>,
    /// Draw a game after this many full moves (off by default).
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Makruk: draw a game when one position has occurred this many times
    /// (the rules have no repetition rule, and a bia nobody promotes keeps
    /// the counts from ending a game); 0 turns it off.
    #[arg(long, default_value_t = DEFAULT_REPETITION)]
    repetition: u32,
    /// Stop by SPRT (pentanomial GSPRT as fishtest's): `elo0=0 elo1=10
    /// alpha=0.05 beta=0.05 model=logistic` (or `model=normalized`, nElo).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// How far past zero a clock may run before the flag falls, in ms.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Seconds to wait for an engine to start, get ready, or move under a
    /// depth or node limit, before it loses as hung.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// The PGN `[Event]` tag.
    #[arg(long, default_value = "thaiboard match")]
    event: String,
}

/// Fills the per-`--engine` word groups, which clap's derive flattens,
/// from the `match` subcommand's matches.
pub fn with_groups(args: &mut MatchArgs, matches: &clap::ArgMatches) {
    args.engine_groups = matches
        .get_occurrences::<String>("engines")
        .map(|occ| occ.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default();
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    text.parse()
}

fn load_openings(args: &MatchArgs, kind: GameKind) -> Result<Vec<Opening>, CliError> {
    let mut openings = match &args.openings {
        None => vec![Opening::start(kind)],
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::input(format!("cannot read openings {}: {e}", path.display()))
            })?;
            parse_openings(kind, &text, args.plies)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?
        }
    };
    if args.random_order {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        arena::openings::shuffle(&mut openings, seed);
    }
    Ok(openings)
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    let kind = crate::game_kind(&args.variant, args.rules.as_deref())?;
    if args.engine_groups.len() != 2 {
        return Err(CliError::input(format!(
            "give exactly two --engine groups (got {})",
            args.engine_groups.len()
        )));
    }
    let mut specs = Vec::new();
    for (i, words) in args.engine_groups.iter().enumerate() {
        let all: Vec<&str> = args.each.iter().chain(words).map(String::as_str).collect();
        let spec = EngineSpec::parse(&all)
            .map_err(|e| CliError::input(format!("--engine {}: {e}", i + 1)))?;
        specs.push(spec);
    }
    if specs[0].name == specs[1].name {
        specs[1].name.push_str("-2");
    }
    let positive = |v: Option<u64>, flag: &str| -> Result<Option<u64>, CliError> {
        match v {
            Some(0) => Err(CliError::input(format!("{flag} must be at least 1"))),
            v => Ok(v),
        }
    };
    let limit = Limit {
        tc: args.tc,
        movetime: positive(args.movetime, "--movetime")?,
        nodes: positive(args.nodes, "--nodes")?,
        depth: positive(args.depth.map(u64::from), "--depth")?.map(|d| d as u32),
    };
    let openings = load_openings(args, kind)?;
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => r.saturating_mul(2),
        (None, None) => openings.len() * 2,
    };
    let sprt = match &args.sprt {
        None => None,
        Some(words) => {
            let (model, numbers): (Vec<&String>, Vec<&String>) =
                words.iter().partition(|w| w.starts_with("model="));
            let model = match model.last() {
                Some(w) => SprtModel::parse(&w["model=".len()..]).map_err(CliError::input)?,
                None => SprtModel::Logistic,
            };
            let numbers: Vec<String> = numbers.into_iter().cloned().collect();
            let v = arena::adjudicate::parse_numbers(
                "--sprt",
                &with_defaults(&numbers, &[("alpha", "0.05"), ("beta", "0.05")]),
                &["elo0", "elo1", "alpha", "beta"],
            )
            .map_err(CliError::input)?;
            Some(
                Sprt::new(v[0], v[1], v[2], v[3])
                    .map_err(CliError::input)?
                    .with_model(model),
            )
        }
    };
    let adjudication = Adjudication {
        resign: match &args.resign {
            Some(w) => Some(ResignRule::parse(w).map_err(CliError::input)?),
            None => None,
        },
        draw: match &args.draw {
            Some(w) => Some(DrawRule::parse(w).map_err(CliError::input)?),
            None => None,
        },
        max_moves: args.maxmoves,
        repetition: (args.repetition > 0).then_some(args.repetition),
    };
    let exe = std::env::current_exe()
        .map_err(|e| CliError::input(format!("cannot find this program's path: {e}")))?;
    let cfg = MatchConfig {
        kind,
        engines: [specs[0].clone(), specs[1].clone()],
        default_cmd: (exe.to_string_lossy().into_owned(), vec!["uci".to_string()]),
        limit,
        openings,
        games,
        concurrency: args.concurrency,
        adjudication,
        sprt,
        margin_ms: args.margin,
        move_timeout: Duration::from_secs(args.timeout.max(1)),
        event: args.event.clone(),
    };
    cfg.validate().map_err(CliError::input)?;
    Ok(cfg)
}

/// `words` with `key=value` added for each default key they lack.
fn with_defaults(words: &[String], defaults: &[(&str, &str)]) -> Vec<String> {
    let mut out = words.to_vec();
    for (k, v) in defaults {
        if !words
            .iter()
            .any(|w| w.split_once('=').is_some_and(|(wk, _)| wk == *k))
        {
            out.push(format!("{k}={v}"));
        }
    }
    out
}

fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        None => "n/a".to_string(),
        Some(e) if e.elo.is_infinite() => format!("{}inf", if e.elo > 0.0 { "+" } else { "-" }),
        // `+ 0.0` turns -0.0 into 0.0.
        Some(e) if e.error.is_infinite() => format!("{:+.1} +/- inf", e.elo + 0.0),
        Some(e) => format!("{:+.1} +/- {:.1}", e.elo + 0.0, e.error),
    }
}

/// A warning when a match of `games` games is too short for the SPRT to
/// reach either bound, whatever the results (logistic model).
pub fn sprt_reach(s: &Sprt, games: usize) -> Option<String> {
    let (h0, h1) = s.min_pairs()?;
    let pairs = games as u64 / 2;
    (pairs < h0.max(h1)).then(|| {
        format!(
            "Note: this SPRT needs at least {h0} pairs to accept H0 and {h1} to accept H1 \
             ({pairs} pairs in {games} games); widen elo0..elo1 or play more games"
        )
    })
}

/// The score lines printed after every game and at the end.
pub fn score_lines(names: [&str; 2], t: &Tally, sprt: Option<(&Sprt, f64)>) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            names[0],
            names[1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        ),
        format!(
            "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
            elo_text(t.trinomial()),
            t.los() * 100.0,
            t.draw_ratio() * 100.0
        ),
        format!(
            "Pairs (0, 1/2, 1, 3/2, 2 points): {:?}, pentanomial Elo: {}",
            t.penta,
            elo_text(t.pentanomial())
        ),
    ];
    if let Some((s, llr)) = sprt {
        let (lo, hi) = s.bounds();
        let state = match s.verdict(t) {
            SprtVerdict::H1 => " - H1 accepted",
            SprtVerdict::H0 => " - H0 accepted",
            SprtVerdict::Continue => "",
        };
        lines.push(format!(
            "SPRT: llr {llr:.3}, lbound {lo:.3}, ubound {hi:.3} (elo0 {}, elo1 {}, alpha {}, beta {}, {}){state}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.model.name()
        ));
    }
    lines
}

fn game_line(r: &GameReport) -> String {
    let white = r.record.tags.get("White").unwrap_or("?");
    let black = r.record.tags.get("Black").unwrap_or("?");
    format!(
        "Finished game {} ({white} vs {black}): {} {{{}}}",
        r.number,
        r.ending.result.as_str(),
        r.ending.reason
    )
}

/// The games of `path` a stopped run finished (none when the file does
/// not exist yet), checked against `cfg`.
fn resumed_games(cfg: &MatchConfig, path: &std::path::Path) -> Result<Vec<Finished>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CliError::input(format!(
                "cannot read PGN {} to resume: {e}",
                path.display()
            )));
        }
    };
    finished_in_pgn(cfg, &text)
        .map_err(|e| CliError::input(format!("cannot resume from {}: {e}", path.display())))
}

/// Runs `thaiboard match`.
pub fn run(args: MatchArgs) -> Result<(), CliError> {
    let cfg = config(&args)?;
    let done = match (&args.pgn, args.resume) {
        (Some(path), true) => resumed_games(&cfg, path)?,
        _ => Vec::new(),
    };
    let mut pgn = match &args.pgn {
        Some(path) => {
            let mut open = std::fs::OpenOptions::new();
            if args.resume {
                open.append(true).create(true);
            } else {
                open.write(true).create(true).truncate(true);
            }
            Some(open.open(path).map_err(|e| {
                CliError::input(format!("cannot write PGN {}: {e}", path.display()))
            })?)
        }
        None => None,
    };
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let bar = std::io::stdout().is_terminal().then(|| {
        let bar = ProgressBar::new(cfg.games as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:20} {pos}/{len} {elapsed} (eta {eta}) {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let say = |line: &str| match &bar {
        Some(b) => b.println(line),
        None => println!("{line}"),
    };
    say(&format!(
        "Match {} vs {}: {} games of {}, {} opening(s), concurrency {}",
        names[0],
        names[1],
        cfg.games,
        cfg.kind.variant_name(),
        cfg.openings.len(),
        cfg.concurrency
    ));
    if let Some(line) = cfg.sprt.as_ref().and_then(|s| sprt_reach(s, cfg.games)) {
        say(&line);
    }
    if args.resume {
        let won = done.iter().filter(|f| f.points2 == 2).count();
        let lost = done.iter().filter(|f| f.points2 == 0).count();
        say(&format!(
            "Resuming: {} finished game(s) in the PGN ({won} - {lost} - {}), {} to play",
            done.len(),
            done.len() - won - lost,
            cfg.games - done.len()
        ));
    }
    if let Some(b) = &bar {
        b.inc(done.len() as u64);
    }
    let mut write_error = None;
    let stop = AtomicBool::new(false);
    let summary = run_match_resumed(&cfg, &done, &stop, |report, tally, llr| {
        say(&game_line(report));
        if let Some(file) = &mut pgn {
            let text = records::game_to_string(&report.record, &WriteOptions::default());
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                write_error.get_or_insert(e.to_string());
            }
        }
        let lines = score_lines(names, tally, cfg.sprt.as_ref().zip(llr));
        match &bar {
            Some(b) => {
                b.inc(1);
                b.set_message(format!(
                    "{}-{}-{} [{:.3}] Elo {}",
                    tally.wins,
                    tally.losses,
                    tally.draws,
                    tally.score(),
                    elo_text(tally.trinomial())
                ));
            }
            None => {
                for l in lines {
                    println!("{l}");
                }
            }
        }
    })
    .map_err(|e| CliError {
        message: e,
        code: 1,
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    println!("Final result:");
    for l in score_lines(
        names,
        &summary.tally,
        cfg.sprt.as_ref().zip(summary.sprt.map(|(_, llr)| llr)),
    ) {
        println!("{l}");
    }
    if summary.stopped_early {
        println!("SPRT decided: the match stopped early");
    } else if let Some((SprtVerdict::Continue, _)) = summary.sprt {
        println!("SPRT undecided: the games ran out first");
    }
    if let Some(e) = write_error {
        return Err(CliError {
            message: format!("writing the PGN failed: {e}"),
            code: 1,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_lines_read_well() {
        let t = Tally {
            wins: 10,
            losses: 5,
            draws: 3,
            penta: [0, 1, 4, 3, 1],
        };
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let lines = score_lines(["a", "b"], &t, Some((&s, 0.5)));
        assert_eq!(lines[0], "Score of a vs b: 10 - 5 - 3  [0.639] 18");
        assert!(
            lines[1].starts_with("Elo difference: +99.1 +/- 165.5, LOS: 90.2 %"),
            "{}",
            lines[1]
        );
        assert!(
            lines[3].starts_with("SPRT: llr 0.500, lbound -2.944, ubound 2.944"),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn even_scores_have_no_sign() {
        let t = Tally {
            draws: 2,
            penta: [0, 0, 1, 0, 0],
            ..Tally::default()
        };
        let lines = score_lines(["a", "b"], &t, None);
        assert_eq!(
            lines[1],
            "Elo difference: +0.0 +/- inf, LOS: 50.0 %, DrawRatio: 100.0 %"
        );
    }

    #[test]
    fn short_matches_are_warned() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(
            sprt_reach(&s, 200).as_deref(),
            Some(
                "Note: this SPRT needs at least 101 pairs to accept H0 and 104 to accept H1 \
                 (100 pairs in 200 games); widen elo0..elo1 or play more games"
            )
        );
        assert_eq!(sprt_reach(&s, 208), None);
        assert_eq!(sprt_reach(&s.with_model(SprtModel::Normalized), 200), None);
    }

    #[test]
    fn sprt_defaults() {
        let w = with_defaults(
            &["elo0=0".into(), "elo1=5".into(), "alpha=0.1".into()],
            &[("alpha", "0.05"), ("beta", "0.05")],
        );
        assert_eq!(w, ["elo0=0", "elo1=5", "alpha=0.1", "beta=0.05"]);
    }
}
