//! The load generator: N simultaneous live games played through the real
//! HTTP, WebSocket and Bot API of a running server.
//!
//! Players are paired; each pair plays `games_per_pair` games at once over one
//! multi-game WebSocket per player (`/api/ws`), so 10,000 games need only
//! 1,000 connections. Each move is a random legal move sent after a random
//! think time around `think_ms`; its round trip is the time from sending it to
//! the server's acknowledgement (which comes after the database commit).
//!
//! With `bot_share`, that share of the games is played by bots over the
//! lichess-compatible Bot API instead, as lichess-bot plays: a bot account
//! with a `bot:play` token accepts challenges from a person, follows each game
//! on its ndjson game stream and posts its moves (computed from the streamed
//! moves with the rules crates); a bot move's round trip is the time from the
//! POST to its answer. Each bot plays [`bot::GAMES_PER_BOT`] games, a game
//! stream each, within the server's streams-per-token limit.
//!
//! With `pool_share`, that share of the games is made by quick pairing: a
//! crowd of players joins the pool of the run's game and clock and waits
//! for the server's matcher (`pool.rs`); the report gives the pairing
//! delays, from joining to hearing of the game.
//!
//! Every acknowledged move is kept ([`Report::acked`]); at the end the run
//! reads every game back from the server and counts the acknowledged moves
//! it does not hold ([`Report::lost`]: must be 0). The people's sockets
//! connect again after a server restart ([`player::RECONNECT_WINDOW`]); the
//! bots' game streams do not.

mod bot;
mod cpu;
mod player;
mod pool;

use cpu::cpu_reading;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Barrier, Semaphore};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Server address, e.g. `http://127.0.0.1:8080`.
    pub base: String,
    /// Games played at the same time.
    pub games: usize,
    /// Plies per game (then the side to move resigns).
    pub plies: usize,
    /// Mean think time per move, ms.
    pub think_ms: u64,
    /// Variant (`makruk`, `cambodian`, `makhos`).
    pub variant: String,
    /// Games per pair of players (one WebSocket per player).
    pub games_per_pair: usize,
    /// Live clock minutes per player.
    pub minutes: f64,
    /// Share of the games (0 to 1) in which Black is a bot over the Bot API.
    pub bot_share: f64,
    /// Share of the games (0 to 1) whose players enter through quick pairing
    /// (the pool of `variant` at `minutes`+0) instead of a challenge.
    pub pool_share: f64,
    /// Whose CPU time to report as the server's.
    pub server_cpu: ServerCpu,
    /// Read every game back at the end and check that it holds every
    /// acknowledged move.
    pub verify: bool,
}

/// Where the server's CPU time is read from (Linux `/proc`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ServerCpu {
    /// Not measured (a server on another machine).
    #[default]
    Unknown,
    /// Another process on this machine, by id.
    Process(u32),
    /// This process: the server is every thread not named with
    /// [`CLIENT_THREADS`] (the load generator's own runtime).
    ThisProcess,
}

/// Name prefix of the load generator's runtime threads (in-process runs).
pub const CLIENT_THREADS: &str = "tb-load";

impl Default for Options {
    fn default() -> Self {
        Options {
            base: "http://127.0.0.1:8080".into(),
            games: 100,
            plies: 20,
            think_ms: 1000,
            variant: "makruk".into(),
            games_per_pair: 20,
            minutes: 30.0,
            bot_share: 0.0,
            pool_share: 0.0,
            server_cpu: ServerCpu::Unknown,
            verify: true,
        }
    }
}

/// Figures of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games started.
    pub games: usize,
    /// Moves acknowledged.
    pub moves: usize,
    /// Commands refused or lost.
    pub errors: usize,
    /// A few error messages.
    pub error_samples: Vec<String>,
    /// Setup time (accounts, challenges, connections).
    pub setup: Duration,
    /// Play time.
    pub play: Duration,
    /// Moves sent over the Bot API (a part of `moves`).
    pub bot_moves: usize,
    /// Move round trips over the WebSocket, ms: 50th, 90th, 99th percentile and maximum.
    pub rtt_ms: [f64; 4],
    /// Bot API move round trips (POST to answer), ms, as `rtt_ms`.
    pub bot_rtt_ms: [f64; 4],
    /// Players paired by the pools (two per pool game).
    pub pool_pairings: usize,
    /// Pool pairing delays (joining to hearing of the game), ms, as `rtt_ms`.
    pub pool_delay_ms: [f64; 4],
    /// The server's CPU use during play, % of one core (when measured).
    pub server_cpu_pct: Option<f64>,
    /// The load generator's own CPU use during play, % of one core.
    pub client_cpu_pct: Option<f64>,
    /// The machine's load average (1, 5, 15 minutes) at the end.
    pub load_average: Option<String>,
    /// Times a player's socket connected again after it closed.
    pub reconnects: usize,
    /// Commands whose answer was lost when a socket closed (not errors:
    /// the game's snapshot afterwards says what became of them).
    pub unanswered: usize,
    /// Every move the server acknowledged, in the order the acks came.
    pub acked: Vec<AckedMove>,
    /// Acknowledged moves the server did not hold when read back at the end
    /// (`None`: not checked).
    pub lost: Option<usize>,
}

/// A move the server acknowledged.
#[derive(Clone, Debug)]
pub struct AckedMove {
    /// The game.
    pub game: String,
    /// The number of moves made before it.
    pub ply: usize,
    /// The move, in engine form.
    pub uci: String,
    /// When its acknowledgement arrived.
    pub at: Instant,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "games: {}  moves: {}  errors: {}",
            self.games, self.moves, self.errors
        )?;
        writeln!(
            f,
            "setup: {:.1} s  play: {:.1} s  moves/s: {:.0}",
            self.setup.as_secs_f64(),
            self.play.as_secs_f64(),
            self.moves as f64 / self.play.as_secs_f64().max(1e-9)
        )?;
        let rtt = |[p50, p90, p99, max]: [f64; 4]| {
            format!("p50 {p50:.2}  p90 {p90:.2}  p99 {p99:.2}  max {max:.2}")
        };
        writeln!(f, "move round trip ms: {}", rtt(self.rtt_ms))?;
        if self.bot_moves > 0 {
            writeln!(
                f,
                "bot api moves: {}  round trip ms: {}",
                self.bot_moves,
                rtt(self.bot_rtt_ms)
            )?;
        }
        let pct = |p: Option<f64>| p.map_or("?".to_string(), |p| format!("{p:.0}%"));
        if self.pool_pairings > 0 {
            writeln!(
                f,
                "pool pairings: {}  delay ms: {}",
                self.pool_pairings,
                rtt(self.pool_delay_ms)
            )?;
        }
        writeln!(
            f,
            "cpu during play (100% = one core): server {}  load generator {}  load average {}",
            pct(self.server_cpu_pct),
            pct(self.client_cpu_pct),
            self.load_average.as_deref().unwrap_or("?")
        )?;
        writeln!(
            f,
            "reconnects: {}  answers lost to a reconnect: {}  acknowledged moves missing when read back: {}",
            self.reconnects,
            self.unanswered,
            self.lost
                .map_or("not checked".to_string(), |n| n.to_string())
        )?;
        for e in &self.error_samples {
            writeln!(f, "error: {e}")?;
        }
        Ok(())
    }
}

/// What the players and bots measure, shared between their tasks.
#[derive(Default)]
struct Stats {
    /// WebSocket move round trips, µs.
    rtts_us: Vec<u64>,
    /// Bot API move round trips, µs.
    bot_rtts_us: Vec<u64>,
    /// Pool pairing delays, µs.
    pool_delays_us: Vec<u64>,
    errors: usize,
    samples: Vec<String>,
    /// See [`Report::reconnects`].
    reconnects: usize,
    /// See [`Report::unanswered`].
    unanswered: usize,
    /// See [`Report::acked`].
    acked: Vec<AckedMove>,
}

impl Stats {
    fn error(&mut self, e: String) {
        self.errors += 1;
        if self.samples.len() < 5 {
            self.samples.push(e);
        }
    }
}

fn err<E: std::fmt::Display>(what: &str) -> impl FnOnce(E) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Sends `request` (a POST to `path`); the answer's JSON, or an error that
/// names the path and the status.
async fn answer(path: &str, request: reqwest::RequestBuilder) -> Result<serde_json::Value, String> {
    let resp = request.send().await.map_err(err(path))?;
    let status = resp.status();
    let v: serde_json::Value = resp.json().await.map_err(err(path))?;
    if !status.is_success() {
        return Err(format!("{path}: {status} {v}"));
    }
    Ok(v)
}

/// Percentiles 50, 90, 99 and 100 of round trips in µs, as ms.
fn percentiles(us: &mut [u64]) -> [f64; 4] {
    us.sort_unstable();
    [0.5, 0.9, 0.99, 1.0].map(|p| {
        if us.is_empty() {
            return 0.0;
        }
        let i = ((us.len() as f64 - 1.0) * p).round() as usize;
        us[i] as f64 / 1000.0
    })
}

/// One group of games set up together: a pair of people, or a person and a bot.
#[derive(Clone, Copy)]
struct Group {
    /// Its index (in players' names).
    index: usize,
    /// Games it plays.
    games: usize,
    /// Whether Black is a bot.
    bot: bool,
    /// Whether the players come through the pools (one group of many players).
    pool: bool,
}

/// The groups of a run: bot groups of [`bot::GAMES_PER_BOT`] games for
/// `bot_share` of the games, one crowd through the pools for `pool_share`,
/// then pairs of people of `games_per_pair`.
fn groups(o: &Options) -> Vec<Group> {
    let share = |s: f64| ((o.games as f64) * s.clamp(0.0, 1.0)).round() as usize;
    let bot_games = share(o.bot_share);
    let pool_games = share(o.pool_share).min(o.games - bot_games);
    let mut out = Vec::new();
    if pool_games > 0 {
        out.push(Group {
            index: 0,
            games: pool_games,
            bot: false,
            pool: true,
        });
    }
    for (total, size, bot) in [
        (bot_games, bot::GAMES_PER_BOT, true),
        (
            o.games - bot_games - pool_games,
            o.games_per_pair.max(1),
            false,
        ),
    ] {
        let mut left = total;
        while left > 0 {
            let games = size.min(left);
            out.push(Group {
                index: out.len(),
                games,
                bot,
                pool: false,
            });
            left -= games;
        }
    }
    out
}

/// Runs the load test against the server at `o.base`.
pub async fn run(o: Options) -> Result<Report, String> {
    if o.pool_share > 0.0 {
        pool::clock_of(&o)?;
    }
    let started = Instant::now();
    let stats = Arc::new(Mutex::new(Stats::default()));
    let groups = groups(&o);
    let run_id = thaiboard_server::util::random_id(5);
    let setup_gate = Arc::new(Semaphore::new(16));
    let begin = Arc::new(Barrier::new(groups.len() + 1));
    let mut tasks = Vec::new();
    for group in groups {
        let (o, stats, gate, begin) = (o.clone(), stats.clone(), setup_gate.clone(), begin.clone());
        let prefix = format!("{run_id}{}", group.index);
        tasks.push(tokio::spawn(async move {
            let setup = async {
                let _permit = gate.acquire().await.map_err(err("setup gate"))?;
                if group.pool {
                    pool::set_up(&o, &prefix, group.games, &stats)
                        .await
                        .map(Setup::Pair)
                } else if group.bot {
                    bot::set_up(&o, &prefix, group.games, &stats)
                        .await
                        .map(Setup::Bot)
                } else {
                    player::set_up_pair(&o, &prefix, group.games, &stats)
                        .await
                        .map(Setup::Pair)
                }
            }
            .await;
            begin.wait().await;
            match setup {
                Ok(Setup::Pair(pair)) => pair.play(&o, &stats).await,
                Ok(Setup::Bot(games)) => games.play(&o, &stats).await,
                Err(e) => stats.lock().unwrap().error(format!("setup: {e}")),
            }
        }));
    }
    begin.wait().await;
    let setup = started.elapsed();
    let play_start = Instant::now();
    let cpu_start = cpu_reading(&o.server_cpu);
    for t in tasks {
        let _ = t.await;
    }
    let play = play_start.elapsed();
    let cpu_end = cpu_reading(&o.server_cpu);
    let share = |a: Option<f64>, b: Option<f64>| -> Option<f64> {
        Some((b? - a?) / play.as_secs_f64().max(1e-9) * 100.0)
    };
    let mut st = std::mem::take(&mut *stats.lock().unwrap());
    let lost = if o.verify {
        Some(verify(&o.base, &st.acked, None).await?)
    } else {
        None
    };
    let bot_moves = st.bot_rtts_us.len();
    let pool_pairings = st.pool_delays_us.len();
    Ok(Report {
        games: o.games,
        pool_pairings,
        pool_delay_ms: percentiles(&mut st.pool_delays_us),
        moves: st.rtts_us.len() + bot_moves,
        bot_moves,
        errors: st.errors,
        error_samples: st.samples.clone(),
        setup,
        play,
        rtt_ms: percentiles(&mut st.rtts_us),
        bot_rtt_ms: percentiles(&mut st.bot_rtts_us),
        server_cpu_pct: share(cpu_start.0, cpu_end.0),
        client_cpu_pct: share(cpu_start.1, cpu_end.1),
        load_average: std::fs::read_to_string("/proc/loadavg")
            .ok()
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
        reconnects: st.reconnects,
        unanswered: st.unanswered,
        acked: st.acked,
        lost,
    })
}

/// Games read back at once by [`verify`].
const VERIFY_AT_ONCE: usize = 16;

/// Reads the games of `acked` from the server at `base` and counts the
/// acknowledged moves (those acknowledged before `before`, when given) that
/// it does not hold at their ply. An error if a game cannot be read.
pub async fn verify(
    base: &str,
    acked: &[AckedMove],
    before: Option<Instant>,
) -> Result<usize, String> {
    let mut by_game: std::collections::HashMap<&str, Vec<&AckedMove>> = Default::default();
    for m in acked.iter().filter(|m| before.is_none_or(|t| m.at < t)) {
        by_game.entry(m.game.as_str()).or_default().push(m);
    }
    let http = reqwest::Client::new();
    let gate = Arc::new(Semaphore::new(VERIFY_AT_ONCE));
    let mut checks = Vec::new();
    for (game, moves) in by_game {
        let (http, gate, url) = (
            http.clone(),
            gate.clone(),
            format!("{base}/api/games/{game}"),
        );
        let moves: Vec<(usize, String)> = moves.iter().map(|m| (m.ply, m.uci.clone())).collect();
        checks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(err("verify gate"))?;
            let view = answer(&url, http.get(&url)).await?;
            let held: Vec<&str> = view["actions"]
                .as_array()
                .ok_or_else(|| format!("{url}: no actions in the game"))?
                .iter()
                .filter(|a| a["kind"] == "move")
                .filter_map(|a| a["uci"].as_str())
                .collect();
            Ok::<usize, String>(
                moves
                    .iter()
                    .filter(|(ply, uci)| held.get(*ply) != Some(&uci.as_str()))
                    .count(),
            )
        }));
    }
    let mut lost = 0;
    for c in checks {
        lost += c.await.map_err(err("verify task"))??;
    }
    Ok(lost)
}

/// A group, set up and ready to play.
enum Setup {
    Pair(player::SocketGames),
    Bot(bot::BotGames),
}

/// A server started inside the load generator's process.
#[derive(Clone, Debug, Default)]
pub struct LocalServer {
    /// Database URL; `None`: a new SQLite file in a temporary folder, removed afterwards.
    pub database_url: Option<String>,
    /// Tokio worker threads of the server (default: one per core).
    pub worker_threads: Option<usize>,
}

/// Runs the load test on a runtime of its own (threads named
/// [`CLIENT_THREADS`]); with `local`, first starts a server in this process
/// on a loopback port, on a separate runtime, and reports its CPU use.
/// Call from outside any Tokio runtime.
pub fn run_blocking(mut o: Options, local: Option<LocalServer>) -> Result<Report, String> {
    let mut temp_dir = None;
    let server_runtime = match local {
        None => None,
        Some(local) => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.enable_all().thread_name("tb-server");
            if let Some(n) = local.worker_threads {
                builder.worker_threads(n.max(1));
            }
            let runtime = builder.build().map_err(err("server runtime"))?;
            let url = match local.database_url {
                Some(url) => url,
                None => {
                    let dir = std::env::temp_dir().join(format!(
                        "thaiboard-loadtest-{}",
                        thaiboard_server::util::random_id(8)
                    ));
                    std::fs::create_dir_all(&dir).map_err(err("temporary folder"))?;
                    let url = format!("sqlite://{}", dir.join("loadtest.db").display());
                    temp_dir = Some(dir);
                    url
                }
            };
            let config = thaiboard_server::Config {
                bind: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
                database_url: Some(url),
                // Every player connects from 127.0.0.1: the per-address caps
                // (requests, connections, sockets, guests) would stop them.
                // Every other limit (per socket, per user) stays as served.
                exempt_loopback: true,
                // Accounts are made in bulk here; their password hashing is not what is measured.
                argon2_memory_kib: 1024,
                ..Default::default()
            };
            let server = runtime
                .block_on(thaiboard_server::Server::start(config))
                .map_err(err("server"))?;
            o.base = format!("http://{}", server.addr);
            o.server_cpu = ServerCpu::ThisProcess;
            Some((runtime, server))
        }
    };
    let client = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name(CLIENT_THREADS)
        .build()
        .map_err(err("load generator runtime"))?;
    let report = client.block_on(run(o));
    drop(client);
    if let Some((runtime, server)) = server_runtime {
        server.abort();
        runtime.shutdown_timeout(Duration::from_secs(5));
    }
    if let Some(dir) = temp_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    report
}
