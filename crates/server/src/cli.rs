//! The server's command line, `thaiboard serve` (the `thaiboard-server`
//! binary takes the same options): parsed here once.

use crate::Config;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Options of `thaiboard serve`.
#[derive(Args, Debug, Clone)]
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
    /// How commits are made durable: `normal` (SQLite synchronous=NORMAL:
    /// safe from a process crash) or `full` (synchronous=FULL, or
    /// PostgreSQL synchronous_commit=on: safe from an OS crash or power
    /// loss too, fewer moves per second).
    #[arg(long, value_enum, default_value_t = crate::infra::db::Durability::Normal)]
    pub durability: crate::infra::db::Durability,
    /// Connections open at once in all, past which new ones are closed
    /// unread (default: from the open-file limit, which is raised to its
    /// hard limit at start: nine tenths of it less 256).
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Seconds between the pings each WebSocket is sent; a socket that
    /// answers none of two is closed (0: never pinged nor closed for it).
    #[arg(long, default_value_t = 30)]
    pub ws_ping_secs: u64,
    /// Mark cookies Secure (when the site is served over HTTPS, e.g. behind a proxy).
    #[arg(long)]
    pub secure_cookies: bool,
    /// The site's address as players reach it (e.g. https://thaiboard.example),
    /// for links in exports; default: the address each request was sent to.
    #[arg(long)]
    pub public_url: Option<String>,
    /// SMTP server for e-mail to correspondence players
    /// (smtp://[user:pass@]host[:port], plain SMTP to a relay); default: no mail.
    #[arg(long)]
    pub smtp: Option<String>,
    /// The sender of e-mail.
    #[arg(long, default_value = "thaiboard <noreply@localhost>")]
    pub mail_from: String,
    /// HTTP requests per second allowed per session, bursts of three times
    /// as many (0: no request limit at all, per session or per address).
    #[arg(long, default_value_t = 20.0)]
    pub rate_limit: f64,
    /// HTTP requests per second allowed per client address for requests
    /// without a live session (a café's players share it until they have
    /// sessions), bursts of three times as many.
    #[arg(long, default_value_t = 100.0)]
    pub address_rate_limit: f64,
    /// WebSocket messages per second allowed per user over all their
    /// sockets (0: no limit).
    #[arg(long, default_value_t = 40.0)]
    pub ws_user_rate: f64,
    /// A reverse proxy (CIDR or address, repeatable) whose X-Forwarded-For
    /// gives the client's address for the limits; from any other peer the
    /// header is ignored.
    #[arg(long = "trust-proxy", value_parser = crate::infra::proxy::parse_cidr)]
    pub trust_proxy: Vec<ipnet::IpNet>,
    /// Hold loopback clients (127.0.0.0/8, ::1) to no per-address cap
    /// (requests per second, connections, WebSockets, guest sessions): for `thaiboard loadtest
    /// --url`, whose players all come from one address. Never behind a
    /// proxy on the same machine, where every client looks like loopback.
    #[arg(long)]
    pub exempt_loopback: bool,
    /// Log one line per request on standard error (time, client address,
    /// method, path without the query, status, duration).
    #[arg(long)]
    pub access_log: bool,
    /// Engine searches (games against the computer) run at once; default:
    /// one fewer than the CPUs, at least 1; 0 pauses the computer's moves.
    #[arg(long)]
    pub engine_searches: Option<usize>,
    /// Threads of each full-strength engine search (the computer's top
    /// levels, the analysis board, game reviews), 1 to 64. Each search
    /// started at once takes this many cores.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub engine_threads: u16,
    /// Folder of endgame tables (`thaiboard tb gen`) served at `GET /api/tablebase`.
    #[arg(long)]
    pub tablebases: Option<PathBuf>,
    /// Days of leave each registered player may take a year (correspondence
    /// clocks stand still while a player is on leave).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i64).range(0..=366))]
    pub leave_days: i64,
}

impl ServeArgs {
    /// The server configuration these options give.
    pub fn config(&self) -> Config {
        let defaults = Config::default();
        Config {
            bind: self.bind,
            database_url: self
                .database
                .clone()
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|s| !s.is_empty())),
            data_dir: self.data_dir.clone(),
            durability: self.durability,
            max_connections: self.max_connections,
            ws_ping_secs: self.ws_ping_secs,
            secure_cookies: self.secure_cookies,
            public_url: self
                .public_url
                .as_ref()
                .map(|u| u.trim_end_matches('/').to_string()),
            smtp_url: self.smtp.clone(),
            mail_from: self.mail_from.clone(),
            rate_per_sec: self.rate_limit,
            rate_burst: (self.rate_limit * 3.0).max(10.0),
            address_rate_per_sec: if self.rate_limit > 0.0 {
                self.address_rate_limit
            } else {
                0.0
            },
            address_rate_burst: (self.address_rate_limit * 3.0).max(10.0),
            ws_user_rate_per_sec: self.ws_user_rate,
            exempt_loopback: self.exempt_loopback,
            access_log: self.access_log,
            trusted_proxies: self.trust_proxy.clone(),
            engine_searches: self.engine_searches.unwrap_or(defaults.engine_searches),
            engine_threads: usize::from(self.engine_threads),
            tablebase_dir: self.tablebases.clone(),
            leave_days: self.leave_days,
            ..defaults
        }
    }

    /// Serves until interrupted; prints the address once it listens.
    pub fn run(&self) -> Result<(), String> {
        let config = self.config();
        let db = config.database_url();
        crate::serve_blocking(config, |addr| {
            let shown = db.split('@').next_back().unwrap_or(&db);
            println!(
                "thaiboard server: open http://{addr}/ in a browser (database: {shown}; Ctrl-C stops)"
            );
        })
        .map_err(|e| format!("server failed: {e}"))
    }
}

/// Where the database is, as `thaiboard serve` finds it.
#[derive(Args, Debug, Clone)]
pub struct DatabaseArgs {
    /// Database URL (default: $DATABASE_URL, else the SQLite file
    /// thaiboard.db in --data-dir).
    #[arg(long)]
    pub database: Option<String>,
    /// Folder of the default SQLite database file.
    #[arg(long, default_value = ".")]
    pub data_dir: PathBuf,
}

impl DatabaseArgs {
    /// The database URL these options name.
    pub fn url(&self) -> String {
        Config {
            database_url: self
                .database
                .clone()
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|s| !s.is_empty())),
            data_dir: self.data_dir.clone(),
            ..Config::default()
        }
        .database_url()
    }
}

pub(crate) fn block_on<T>(work: impl std::future::Future<Output = T>) -> Result<T, String> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(work))
}

/// Options of `thaiboard backup`.
#[derive(Args, Debug, Clone)]
pub struct BackupArgs {
    #[command(flatten)]
    /// The database to back up (the server may be running).
    pub db: DatabaseArgs,
    /// The new file to write (never overwritten).
    #[arg(long)]
    pub out: PathBuf,
}

impl BackupArgs {
    /// Writes the backup; prints what it holds.
    pub fn run(&self) -> Result<(), String> {
        let games = block_on(crate::infra::backup::backup(&self.db.url(), &self.out))??;
        println!("backup written to {} ({games} games)", self.out.display());
        Ok(())
    }
}

/// Options of `thaiboard restore`.
#[derive(Args, Debug, Clone)]
pub struct RestoreArgs {
    #[command(flatten)]
    /// The database to restore into (stop its server first).
    pub db: DatabaseArgs,
    /// The backup file (from `thaiboard backup`).
    #[arg(long)]
    pub from: PathBuf,
    /// Replace an existing database file.
    #[arg(long)]
    pub force: bool,
}

impl RestoreArgs {
    /// Restores the backup; prints what it held.
    pub fn run(&self) -> Result<(), String> {
        let url = self.db.url();
        let games = block_on(crate::infra::backup::restore(&self.from, &url, self.force))??;
        println!(
            "restored {} into {url} ({games} games)",
            self.from.display()
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    fn parse(words: &[&str]) -> Result<Config, String> {
        let words = std::iter::once("serve").chain(words.iter().copied());
        Serve::try_parse_from(words)
            .map(|s| s.args.config())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn engine_threads_reach_the_configuration_and_stay_in_range() {
        assert_eq!(parse(&[]).unwrap().engine_threads, 1);
        assert_eq!(parse(&["--engine-threads", "4"]).unwrap().engine_threads, 4);
        for bad in ["0", "65", "two"] {
            let err = parse(&["--engine-threads", bad]).unwrap_err();
            assert!(
                err.contains("--engine-threads") && err.contains(bad),
                "{bad}: {err}"
            );
        }
    }
}
