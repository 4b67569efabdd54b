//! `thaiboard serve`: the game server with the web board.

use crate::error::CliError;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Options of `thaiboard serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Database URL: `sqlite://FILE` or `postgres://USER:PASS@HOST/DB`
    /// (default: $DATABASE_URL, else the SQLite file thaiboard.db in --data-dir).
    #[arg(long)]
    pub database: Option<String>,
    /// Folder of the default SQLite database file.
    #[arg(long, default_value = ".")]
    pub data_dir: PathBuf,
    /// Mark cookies Secure (when the site is served over HTTPS, e.g. behind a proxy).
    #[arg(long)]
    pub secure_cookies: bool,
    /// HTTP requests per second allowed per client IP (0: no limit).
    #[arg(long, default_value_t = 20.0)]
    pub rate_limit: f64,
    /// Engine searches (games against the computer) run at once; default:
    /// one fewer than the CPUs, at least 1; 0 pauses the computer's moves.
    #[arg(long)]
    pub engine_searches: Option<usize>,
}

/// Starts the server and serves until interrupted.
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    let database_url = args
        .database
        .or_else(|| std::env::var("DATABASE_URL").ok().filter(|s| !s.is_empty()));
    let config = thaiboard_server::Config {
        bind: args.bind,
        database_url,
        data_dir: args.data_dir,
        secure_cookies: args.secure_cookies,
        rate_per_sec: args.rate_limit,
        rate_burst: (args.rate_limit * 3.0).max(10.0),
        ..Default::default()
    };
    let config = thaiboard_server::Config {
        engine_searches: args.engine_searches.unwrap_or(config.engine_searches),
        ..config
    };
    let db = config.database_url();
    thaiboard_server::serve_blocking(config, |addr| {
        let shown = db.split('@').next_back().unwrap_or(&db);
        println!(
            "thaiboard server: open http://{addr}/ in a browser (database: {shown}; Ctrl-C stops)"
        );
    })
    .map_err(|e| CliError::input(format!("server failed: {e}")))
}
