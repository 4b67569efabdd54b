//! `thaiboard loadtest`: many simultaneous live games through the server's
//! real HTTP/WebSocket API, with move round trips, moves per second and CPU use.

use crate::error::CliError;
use clap::Args;
use loadtest::{LocalServer, Options, ServerCpu, run_blocking};

/// Options of `thaiboard loadtest`.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// A running server (e.g. http://127.0.0.1:8080, started with --rate-limit 0);
    /// default: start one in this process on a loopback port.
    #[arg(long)]
    pub url: Option<String>,
    /// The running server's process id, to report its CPU use (with --url).
    #[arg(long, requires = "url")]
    pub server_pid: Option<u32>,
    /// Database of the in-process server (default: a temporary SQLite file).
    #[arg(long, conflicts_with = "url")]
    pub database: Option<String>,
    /// Tokio worker threads of the in-process server (default: one per core).
    #[arg(long, conflicts_with = "url")]
    pub server_threads: Option<usize>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Plies per game (then the side to move resigns).
    #[arg(long, default_value_t = 20)]
    pub plies: usize,
    /// Mean think time per move in ms (each move waits 0.5 to 1.5 times this).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// Variant: makruk, cambodian or makhos.
    #[arg(long, default_value = "makruk")]
    pub variant: String,
    /// Games per pair of players (each player has one WebSocket).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub games_per_pair: u64,
    /// Live clock minutes per player.
    #[arg(long, default_value_t = 30.0)]
    pub minutes: f64,
    /// Share of the games (0 to 1) in which Black is a bot playing over the
    /// Bot API (an ndjson game stream per game, moves POSTed), as lichess-bot plays.
    #[arg(long, default_value_t = 0.0)]
    pub bot_share: f64,
    /// Share of the games (0 to 1) whose players enter through quick pairing
    /// (the pool of --variant at --minutes+0: 1, 3, 10 or 30 minutes) and
    /// wait for the server to pair them; the report gives the pairing delays.
    #[arg(long, default_value_t = 0.0)]
    pub pool_share: f64,
    /// Skip reading every game back at the end (by default each must hold
    /// every move the server acknowledged).
    #[arg(long)]
    pub no_verify: bool,
}

/// Runs the load test and prints its report; exit code 1 if any command
/// failed or an acknowledged move is missing when the games are read back.
pub fn loadtest(args: LoadtestArgs) -> Result<(), CliError> {
    let variant = crate::game_kind(&args.variant, None)?
        .variant_name()
        .to_string();
    if !(args.minutes.is_finite() && args.minutes > 0.0) {
        return Err(CliError::input("--minutes must be a positive number"));
    }
    if !(0.0..=1.0).contains(&args.bot_share) {
        return Err(CliError::input(format!(
            "--bot-share must be between 0 and 1, not {}",
            args.bot_share
        )));
    }
    if !(0.0..=1.0).contains(&args.pool_share) {
        return Err(CliError::input(format!(
            "--pool-share must be between 0 and 1, not {}",
            args.pool_share
        )));
    }
    let mut options = Options {
        games: args.games,
        plies: args.plies,
        think_ms: args.think_ms,
        variant,
        games_per_pair: args.games_per_pair as usize,
        minutes: args.minutes,
        bot_share: args.bot_share,
        pool_share: args.pool_share,
        verify: !args.no_verify,
        ..Options::default()
    };
    let local = match args.url {
        Some(url) => {
            options.base = url.trim_end_matches('/').to_string();
            options.server_cpu = args
                .server_pid
                .map_or(ServerCpu::Unknown, ServerCpu::Process);
            None
        }
        None => Some(LocalServer {
            database_url: args.database,
            worker_threads: args.server_threads,
        }),
    };
    let report = run_blocking(options, local).map_err(CliError::input)?;
    print!("{report}");
    if report.errors > 0 {
        return Err(CliError {
            message: format!("{} commands failed (see the report)", report.errors),
            code: 1,
        });
    }
    if let Some(lost) = report.lost.filter(|&n| n > 0) {
        return Err(CliError {
            message: format!("{lost} acknowledged moves are missing from the server's games"),
            code: 1,
        });
    }
    Ok(())
}
