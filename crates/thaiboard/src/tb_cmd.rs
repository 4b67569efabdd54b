//! `thaiboard tb`: generate, probe and verify endgame tables (`thaiboard-tablebase`).

use crate::error::CliError;
use crate::output::write_out;
use clap::{Args, Subcommand};
use games::GameKind;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thaiboard_tablebase::TableFile;
use thaiboard_tablebase::makhos::{self, MakhosTables};
use thaiboard_tablebase::makruk;

/// The `tb` subcommands.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Generate every table up to a number of pieces; tables already written and verified
    /// are kept, so an interrupted run continues where it stopped.
    Gen(GenArgs),
    /// Print a position's value and every move's value.
    Probe(ProbeArgs),
    /// Check every table file in a directory against its checksums.
    Verify {
        /// The directory of table files.
        dir: PathBuf,
    },
}

/// Which tables.
#[derive(Args, Debug)]
pub struct VariantArgs {
    /// The game: makhos, makruk or cambodian (Makruk and Ouk Chatrang: 3 and 4 pieces,
    /// and five-piece pieces' honour without khon or bia).
    #[arg(long)]
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[arg(long)]
    pub rules: Option<String>,
}

/// `tb gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Largest number of pieces on the board (both sides).
    #[arg(long)]
    pieces: u32,
    /// Where to write the tables.
    #[arg(long)]
    out: PathBuf,
    /// Check tables move by move (wins, losses and draws against their moves' values):
    /// Makruk, every table generated, before it is written; Mak-hot, every table of the
    /// run, generated (before it is written) or already on disk.
    #[arg(long)]
    check: bool,
    /// Makruk, `--pieces 5`: only these five-piece tables (comma-separated names such as
    /// `KRRNvK`; the tables of fewer pieces are always made or kept).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
}

/// `tb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The directory of table files.
    #[arg(long)]
    tables: PathBuf,
    #[command(flatten)]
    variant: VariantArgs,
    /// The position (Mak-hot position text, or Makruk FEN with its counting fields).
    #[arg(long)]
    fen: String,
    /// Plies already on Mak-hot's no-progress count (no capture, no man move).
    #[arg(long, default_value_t = 0)]
    count: u32,
    /// Print the answer as the tablebase API's JSON.
    #[arg(long)]
    json: bool,
}

/// Most pieces `tb gen` accepts for Mak-hot: the largest set (the generator holds
/// in memory only the table it solves and the tables its zeroing moves reach).
const MAX_MAKHOS_PIECES: u32 = 7;

/// Runs a `tb` subcommand.
pub fn run(cmd: TbCommand) -> Result<(), CliError> {
    match cmd {
        TbCommand::Gen(args) => gen_tables(&args),
        TbCommand::Probe(args) => probe(&args),
        TbCommand::Verify { dir } => verify(&dir),
    }
}

/// The Makruk and Ouk Chatrang tables `tb gen` makes: every ending of three and four
/// pieces (khuns included), and of five the endings without khon or bia
/// (`makruk::plan`).
const MAX_MAKRUK_PIECES: u32 = 5;

fn kind(v: &VariantArgs) -> Result<GameKind, CliError> {
    crate::game_kind(&v.variant, v.rules.as_deref())
}

fn failure(message: impl Into<String>) -> CliError {
    CliError {
        message: message.into(),
        code: 1,
    }
}

fn gen_makruk(variant: ::makruk::Variant, args: &GenArgs) -> Result<(), CliError> {
    if !(3..=MAX_MAKRUK_PIECES).contains(&args.pieces) {
        return Err(CliError::input(format!(
            "--pieces {}: Makruk tables exist for 3 to {MAX_MAKRUK_PIECES} pieces",
            args.pieces
        )));
    }
    let (mut run, left_out) = makruk::plan(variant, args.pieces);
    if !args.only.is_empty() {
        let known: Vec<String> = run
            .iter()
            .filter(|m| m.pieces() == 5)
            .map(|m| m.name())
            .collect();
        if let Some(unknown) = args.only.iter().find(|n| !known.contains(n)) {
            return Err(CliError::input(format!(
                "--only {unknown}: not a five-piece table this run makes ({})",
                known.join(", ")
            )));
        }
        run.retain(|m| m.pieces() < 5 || args.only.contains(&m.name()));
    }
    let five: Vec<String> = run
        .iter()
        .filter(|m| m.pieces() == 5)
        .map(|m| m.name())
        .collect();
    if args.pieces == 5 {
        eprintln!(
            "five pieces: generating {} ({}), folded index (white khun in a1-d1-d4)",
            five.len(),
            five.join(", ")
        );
        eprintln!(
            "five pieces: skipping {} materials with a khon or a bia (no generator for them yet; three rueas or three mas the rules never allow)",
            left_out.len()
        );
    }
    let started = Instant::now();
    let mut generated = 0;
    let mut bytes = 0;
    let total = run.len();
    makruk::generate_tables(variant, &run, &args.out, args.check, |step| {
        let [won, drawn, lost] = step.white_to_move;
        let all = (won + drawn + lost).max(1) as f64;
        let checked = match step.checked {
            Some((n, secs)) => format!("; consistent ({n} positions, {secs:.1} s)"),
            None => String::new(),
        };
        eprintln!(
            "[{}/{}] {:<7} {} {:>7.1} s {:>10} bytes  White to move: won {:5.1}%, drawn {:5.1}%, lost {:5.1}% (no count); longest win {:>3} plies, longest stored {:>3}{}{checked}",
            step.number,
            step.total,
            step.material.name(),
            if step.skipped { "kept     " } else { "generated" },
            step.seconds,
            step.bytes,
            100.0 * won as f64 / all,
            100.0 * drawn as f64 / all,
            100.0 * lost as f64 / all,
            step.longest,
            step.longest_stored,
            if step.wide { " (two-byte entries)" } else { "" },
        );
        generated += usize::from(!step.skipped);
        bytes += step.bytes;
    })
    .map_err(|e| failure(e.to_string()))?;
    write_out(&format!(
        "{total} tables in {} ({generated} generated), {bytes} bytes, {:.1} s\n",
        args.out.display(),
        started.elapsed().as_secs_f64()
    ))
}

fn gen_tables(args: &GenArgs) -> Result<(), CliError> {
    let rules = match kind(&args.variant)? {
        GameKind::Makhos(rules) => rules,
        GameKind::Makruk(variant) => return gen_makruk(variant, args),
    };
    if !(2..=MAX_MAKHOS_PIECES).contains(&args.pieces) {
        return Err(CliError::input(format!(
            "--pieces {}: Mak-hot tables have 2 to {MAX_MAKHOS_PIECES} pieces",
            args.pieces
        )));
    }
    let started = Instant::now();
    let report = makhos::generate(&args.out, rules, args.pieces, args.check, |step| {
        let total = (step.wins + step.draws + step.losses).max(1) as f64;
        let checked = match step.checked {
            Some((n, secs)) => format!("; consistent ({n} positions, {secs:.1} s)"),
            None => String::new(),
        };
        eprintln!(
            "[{}/{}] {:<10} {} {:>8.2} s {:>10} bytes; distances {:>8.2} s {:>10} bytes  win {:5.1}% draw {:5.1}% loss {:5.1}%{checked}",
            step.number,
            step.total,
            step.material.to_string(),
            if step.skipped {
                "kept     "
            } else {
                "generated"
            },
            step.seconds,
            step.bytes,
            step.dtw_seconds,
            step.dtw_bytes,
            100.0 * step.wins as f64 / total,
            100.0 * step.draws as f64 / total,
            100.0 * step.losses as f64 / total,
        );
    })
    .map_err(|e| failure(e.to_string()))?;
    let bytes: u64 = report.iter().map(|s| s.bytes + s.dtw_bytes).sum();
    write_out(&format!(
        "{} tables ({} generated) with their distances in {}, {bytes} bytes, {:.1} s\n",
        report.len(),
        report.iter().filter(|s| !s.skipped).count(),
        args.out.display(),
        started.elapsed().as_secs_f64()
    ))
}

fn probe_makruk(variant: ::makruk::Variant, args: &ProbeArgs) -> Result<(), CliError> {
    let pos = ::makruk::Position::from_fen(variant, &args.fen)
        .map_err(|e| CliError::input(format!("--fen '{}': {e}", args.fen)))?;
    let tables =
        makruk::MakrukTables::open(&args.tables, variant).map_err(|e| failure(e.to_string()))?;
    let answer = tables.answer(&pos).map_err(|e| failure(e.to_string()))?;
    let answer = answer.ok_or_else(|| {
        failure(format!(
            "position outside the tables: {} has {} {} tables (3 and 4 pieces; 5: pieces' honour without khon or bia, where generated)",
            args.tables.display(),
            tables.len(),
            variant
        ))
    })?;
    if args.json {
        let text = serde_json::to_string(&answer).map_err(|e| failure(e.to_string()))?;
        return write_out(&format!("{text}\n"));
    }
    // Distance to mate, or to the end of the phase, without the count (positive: the
    // side named wins).
    let mate = |dtm: Option<i32>, dtc: Option<i32>| match (dtm, dtc) {
        (Some(d), _) => format!(" (DTM {d:+})"),
        (None, Some(d)) => format!(" (DTC {d:+})"),
        _ => String::new(),
    };
    let count = match answer.plies_left {
        Some(left) => format!("the count leaves {left} plies"),
        None => "no count running".to_string(),
    };
    let mut out = format!(
        "{}{}; {count}\n",
        answer.category,
        mate(answer.dtm, answer.dtc)
    );
    for m in &answer.moves {
        out.push_str(&format!(
            "{:<8} {:<5} for the opponent{}\n",
            m.san,
            m.category,
            mate(m.dtm, m.dtc)
        ));
    }
    write_out(&out)
}

fn probe(args: &ProbeArgs) -> Result<(), CliError> {
    let rules = match kind(&args.variant)? {
        GameKind::Makhos(rules) => rules,
        GameKind::Makruk(variant) => return probe_makruk(variant, args),
    };
    let pos: ::makhos::Position = args
        .fen
        .parse()
        .map_err(|e| CliError::input(format!("--fen '{}': {e}", args.fen)))?;
    let tables = MakhosTables::open(&args.tables, rules).map_err(|e| failure(e.to_string()))?;
    let answer = makhos::answer(&tables, &pos, args.count).map_err(|e| failure(e.to_string()))?;
    if args.json {
        let text = serde_json::to_string(&answer).map_err(|e| failure(e.to_string()))?;
        return write_out(&format!("{text}\n"));
    }
    let distance = |dtz: Option<i32>, dtw: Option<i32>| match (dtz, dtw) {
        (Some(z), Some(w)) => format!(
            " (end of the game: {} plies; next capture or man move: {} plies)",
            w.abs(),
            z.abs()
        ),
        (Some(z), None) => format!(" (next capture or man move: {} plies)", z.abs()),
        _ => String::new(),
    };
    let mut out = format!(
        "{} for {} at count {}{}\n",
        answer.category,
        pos.turn().name(),
        args.count,
        distance(answer.dtz, answer.dtw)
    );
    for m in &answer.moves {
        out.push_str(&format!(
            "{:<12} {:<5} for the opponent{}\n",
            m.san,
            m.category,
            distance(m.dtz, m.dtw)
        ));
    }
    write_out(&out)
}

fn verify(dir: &Path) -> Result<(), CliError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| failure(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == makhos::EXTENSION))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(failure(format!("{}: no table files", dir.display())));
    }
    let mut out = String::new();
    let mut bad = 0;
    for path in &paths {
        match TableFile::open(path).and_then(|f| f.verify()) {
            Ok(()) => out.push_str(&format!("ok      {}\n", path.display())),
            Err(e) => {
                bad += 1;
                out.push_str(&format!("FAILED  {e}\n"));
            }
        }
    }
    out.push_str(&format!("{} files, {bad} failed\n", paths.len()));
    write_out(&out)?;
    if bad > 0 {
        return Err(failure(format!(
            "{bad} of {} table files failed",
            paths.len()
        )));
    }
    Ok(())
}
