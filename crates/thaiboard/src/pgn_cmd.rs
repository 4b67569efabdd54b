//! `thaiboard pgn`: check, convert and sum up game records (PGN for Makruk and Ouk
//! Chatrang, PDN for Mak-hot; the kind of each game comes from its tags).

use crate::error::CliError;
use crate::record_files::{open, problem_line};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use records::{GameResult, Letters, Reader, SquareStyle, WriteOptions, replay, write_game};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

/// Files at least this long get a progress bar (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// The `pgn` subcommands.
#[derive(Subcommand, Debug)]
pub enum PgnCommand {
    /// Replay every game: one line per problem (file:line:column, game
    /// number, move), notes where the automatic rules would have ended a
    /// game, and a summary. Exit code 1 if any game is broken.
    Check(CheckArgs),
    /// Rewrite records in export format, in the chosen notation. Broken
    /// games are reported on standard error and left out (exit code 1).
    Convert(ConvertArgs),
    /// Sum up a match from one player's side: score and Elo (pairs from
    /// rounds 2k-1 and 2k), how the games ended, draws from a lead of
    /// +2.00, time and depth a move by move number. Broken games are
    /// reported on standard error and left out (exit code 1).
    Stats(crate::pgn_stats::StatsArgs),
}

/// Options of `pgn check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The record files (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Leave out the notes on automatic rule ends.
    #[arg(long)]
    pub no_notes: bool,
}

/// Makruk piece letters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LettersArg {
    /// Fairy-Stockfish letters: M for met, S for khon, `c6=M`.
    Fsf,
    /// SchemingMind letters: Q for met, B for khon, promotion with no suffix.
    Schemingmind,
}

/// How Mak-hot moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SquaresArg {
    /// PDN numbers: `22-18`, `25x18x9`.
    Numeric,
    /// Algebraic squares: `c3-d4`, `c3xe5xc7`.
    Algebraic,
}

/// Options of `pgn convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Makruk piece letters.
    #[arg(long, value_enum, default_value = "fsf")]
    pub letters: LettersArg,
    /// Mak-hot squares.
    #[arg(long, value_enum, default_value = "numeric")]
    pub squares: SquaresArg,
    /// Where to write (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The record file (`-` for standard input).
    pub file: PathBuf,
}

/// Runs a `pgn` subcommand.
pub fn run(cmd: PgnCommand) -> Result<(), CliError> {
    match cmd {
        PgnCommand::Check(args) => check(&args),
        PgnCommand::Convert(args) => convert(&args),
        PgnCommand::Stats(args) => crate::pgn_stats::stats(&args),
    }
}

fn progress(len: Option<u64>) -> Option<ProgressBar> {
    let len = len?;
    if len < PROGRESS_MIN_BYTES || !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({eta})")
    {
        bar.set_style(style);
    }
    Some(bar)
}

#[derive(Default)]
struct Tally {
    games: usize,
    ok: usize,
    broken: usize,
    unreadable: usize,
}

fn check(args: &CheckArgs) -> Result<(), CliError> {
    let mut tally = Tally::default();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let io_err = |e: io::Error| CliError {
        message: format!("cannot write the report: {e}"),
        code: 2,
    };
    for path in &args.files {
        let (src, len) = match open(path) {
            Ok(x) => x,
            Err(e) => {
                tally.unreadable += 1;
                writeln!(out, "{}: cannot read: {e}", path.display()).map_err(io_err)?;
                continue;
            }
        };
        let bar = progress(len);
        let mut reader = Reader::new(src);
        while let Some(item) = reader.read_game() {
            tally.games += 1;
            let line = match item {
                Ok(game) => {
                    tally.ok += 1;
                    let r = replay(&game);
                    let mut notes = Vec::new();
                    if let Some(end) = &r.rule_end {
                        notes.push(end.to_string());
                    }
                    if let Some(decided) = r.decided_result() {
                        if game.result != GameResult::Unknown && decided != game.result {
                            notes.push(format!(
                                "the result {} differs from the final position ({}: {decided})",
                                game.result,
                                r.state_name()
                            ));
                        }
                    }
                    let prefix =
                        format!("{}: game {}: note: ", path.display(), reader.games_read());
                    (!args.no_notes && !notes.is_empty()).then(|| {
                        notes
                            .iter()
                            .map(|n| format!("{prefix}{n}"))
                            .collect::<Vec<_>>()
                            .join("\n")
                    })
                }
                Err(e) => {
                    tally.broken += 1;
                    Some(problem_line(path, &e))
                }
            };
            if let Some(line) = line {
                match &bar {
                    Some(b) => b.suspend(|| writeln!(out, "{line}")),
                    None => writeln!(out, "{line}"),
                }
                .map_err(io_err)?;
            }
            if let Some(b) = &bar {
                if tally.games % 64 == 0 {
                    b.set_position(reader.bytes_read());
                    b.set_message(format!("{} games", tally.games));
                }
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
    writeln!(
        out,
        "{} games, {} ok, {} with errors",
        tally.games, tally.ok, tally.broken
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    if tally.broken > 0 || tally.unreadable > 0 {
        return Err(CliError {
            message: match tally.unreadable {
                0 => format!("{} broken game(s)", tally.broken),
                n => format!("{} broken game(s), {n} unreadable file(s)", tally.broken),
            },
            code: 1,
        });
    }
    Ok(())
}

fn convert(args: &ConvertArgs) -> Result<(), CliError> {
    let opts = WriteOptions {
        letters: match args.letters {
            LettersArg::Fsf => Letters::Fsf,
            LettersArg::Schemingmind => Letters::SchemingMind,
        },
        squares: match args.squares {
            SquaresArg::Numeric => SquareStyle::Numeric,
            SquaresArg::Algebraic => SquareStyle::Algebraic,
        },
        ..WriteOptions::default()
    };
    let (src, len) = open(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let mut sink: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(BufWriter::new(File::create(p).map_err(|e| {
            CliError::input(format!("cannot create {}: {e}", p.display()))
        })?)),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let io_err = |e: io::Error| CliError {
        message: format!("cannot write: {e}"),
        code: 2,
    };
    let bar = progress(len);
    let mut reader = Reader::new(src);
    let mut broken = 0usize;
    let mut games = 0usize;
    while let Some(item) = reader.read_game() {
        games += 1;
        match item {
            Ok(game) => write_game(&mut sink, &game, &opts).map_err(io_err)?,
            Err(e) => {
                broken += 1;
                let line = problem_line(&args.file, &e);
                match &bar {
                    Some(b) => b.suspend(|| eprintln!("{line}")),
                    None => eprintln!("{line}"),
                }
            }
        }
        if let Some(b) = &bar {
            if games % 64 == 0 {
                b.set_position(reader.bytes_read());
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    sink.flush().map_err(io_err)?;
    if broken > 0 {
        return Err(CliError {
            message: format!("{broken} broken game(s) left out"),
            code: 1,
        });
    }
    Ok(())
}
