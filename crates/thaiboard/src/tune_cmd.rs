//! `thaiboard tune`: Texel tuning of the evaluation weights (the work is
//! done by the `tune` crate; this module maps the command line onto it),
//! and SPSA of the search's parameters (`spsa_cmd`).

use crate::error::CliError;
use clap::builder::PossibleValuesParser;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use tune::driver::{fit_file, gen_file, match_files, run_file};
use tune::linear::FitOptions;
use tune::selfplay::PlayConfig;

/// How self-play games are played.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Nodes searched per move.
    #[arg(long, default_value_t = 1500)]
    nodes: u64,
    /// Random plies opening each game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl PlayArgs {
    fn config(&self) -> Result<PlayConfig, CliError> {
        if self.nodes == 0 || self.max_plies == 0 {
            return Err(CliError::input("--nodes and --max-plies must be positive"));
        }
        Ok(PlayConfig {
            nodes: self.nodes,
            random_plies: self.random_plies,
            max_plies: self.max_plies,
        })
    }
}

/// The tuning subcommands.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Play self-play games and write their quiet positions labelled with the
    /// game result (`RESULT POSITION` a line, RESULT 1, 0.5 or 0 for White);
    /// games unfinished after --max-plies are left out.
    Gen {
        /// The game: makruk or makhos.
        #[arg(long, default_value = "makruk", value_parser = PossibleValuesParser::new(["makruk", "makhos"]))]
        game: String,
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[command(flatten)]
        play: PlayArgs,
        /// The dataset file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the Makruk feature weights by gradient descent to scored
    /// positions (`CENTIPAWNS FEN` a line, White's view), e.g. a stronger
    /// engine's search scores; print the new `eval/makruk/fitted_weights.rs`.
    Fit {
        /// The scored positions.
        #[arg(long)]
        data: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 400)]
        epochs: u32,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 2.0)]
        rate: f64,
        /// Write the source here instead of printing it.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Fit the weights to a dataset (sigmoid scale K first, then local
    /// search on the mean squared error); print them as Rust source.
    Run {
        /// The game: makruk or makhos.
        #[arg(long, default_value = "makruk", value_parser = PossibleValuesParser::new(["makruk", "makhos"]))]
        game: String,
        /// The dataset (from `tune gen`).
        data: PathBuf,
        /// Start from these weights (a weight file) instead of the defaults.
        #[arg(long)]
        start: Option<PathBuf>,
        /// Hold these weights (names as in a weight file, or a group such
        /// as `material`), comma-separated.
        #[arg(long, value_delimiter = ',')]
        freeze: Vec<String>,
        /// The first step of the local search.
        #[arg(long, default_value_t = 8)]
        step: i32,
        /// At most this many passes over the weights.
        #[arg(long, default_value_t = 100)]
        passes: u32,
        /// Also write the weights as a weight file (for `tune match`).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play weights from a weight file against the defaults (or
    /// `--baseline`), pairs of games from one random opening each.
    Match {
        /// The game: makruk or makhos.
        #[arg(long, default_value = "makruk", value_parser = PossibleValuesParser::new(["makruk", "makhos"]))]
        game: String,
        /// The candidate weight file.
        candidate: PathBuf,
        /// The baseline weight file (default: the built-in weights).
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Pairs of games.
        #[arg(long, default_value_t = 50)]
        pairs: u64,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Tune the search's parameters by SPSA over real games (resumable: run
    /// the same command again).
    Spsa(crate::spsa_cmd::SpsaArgs),
}

/// Runs a tuning subcommand.
pub fn run(cmd: TuneCommand) -> Result<(), CliError> {
    let log = |s: String| eprintln!("{s}");
    match cmd {
        TuneCommand::Spsa(args) => crate::spsa_cmd::run(args)?,
        TuneCommand::Gen {
            game,
            games,
            play,
            out,
        } => {
            let s = gen_file(
                crate::game_kind(&game, None)?,
                games,
                &play.config()?,
                play.seed,
                &out,
                log,
            )
            .map_err(CliError::input)?;
            println!(
                "games {} positions {} white {} draws {} black {} unfinished {}",
                s.games, s.positions, s.results[0], s.results[1], s.results[2], s.unfinished
            );
        }
        TuneCommand::Fit {
            data,
            epochs,
            rate,
            out,
        } => {
            if epochs == 0 || !rate.is_finite() || rate <= 0.0 {
                return Err(CliError::input("--epochs and --rate must be positive"));
            }
            let options = FitOptions {
                epochs,
                rate,
                ..FitOptions::default()
            };
            let src = fit_file(&data, &options, log).map_err(CliError::input)?;
            match out {
                Some(p) => std::fs::write(&p, src)
                    .map_err(|e| CliError::input(format!("{}: {e}", p.display())))?,
                None => print!("{src}"),
            }
        }
        TuneCommand::Run {
            game,
            data,
            start,
            freeze,
            step,
            passes,
            out,
        } => {
            if step < 1 {
                return Err(CliError::input("--step must be at least 1"));
            }
            let src = run_file(
                crate::game_kind(&game, None)?,
                &data,
                start.as_deref(),
                &freeze,
                step,
                passes,
                out.as_deref(),
                log,
            )
            .map_err(CliError::input)?;
            print!("{src}");
        }
        TuneCommand::Match {
            game,
            candidate,
            baseline,
            pairs,
            play,
        } => {
            let m = match_files(
                crate::game_kind(&game, None)?,
                &candidate,
                baseline.as_deref(),
                pairs,
                &play.config()?,
                play.seed,
                log,
            )
            .map_err(CliError::input)?;
            println!(
                "games {} wins {} draws {} losses {} score {:.1}%",
                m.games(),
                m.wins,
                m.draws,
                m.losses,
                m.percent()
            );
        }
    }
    Ok(())
}
