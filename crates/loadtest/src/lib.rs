//! The load generator: N simultaneous live games played through the real
//! HTTP and WebSocket API of a running server.
//!
//! Players are paired; each pair plays `games_per_pair` games at once over one
//! multi-game WebSocket per player (`/api/ws`), so 10,000 games need only
//! 1,000 connections. Each move is a random legal move sent after a random
//! think time around `think_ms`; its round trip is the time from sending it to
//! the server's acknowledgement (which comes after the database commit).

use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

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
    /// Whose CPU time to report as the server's.
    pub server_cpu: ServerCpu,
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
            server_cpu: ServerCpu::Unknown,
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
    /// Move round trips, ms: 50th, 90th, 99th percentile and maximum.
    pub rtt_ms: [f64; 4],
    /// The server's CPU use during play, % of one core (when measured).
    pub server_cpu_pct: Option<f64>,
    /// The load generator's own CPU use during play, % of one core.
    pub client_cpu_pct: Option<f64>,
    /// The machine's load average (1, 5, 15 minutes) at the end.
    pub load_average: Option<String>,
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
        writeln!(
            f,
            "move round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            self.rtt_ms[0], self.rtt_ms[1], self.rtt_ms[2], self.rtt_ms[3]
        )?;
        let pct = |p: Option<f64>| p.map_or("?".to_string(), |p| format!("{p:.0}%"));
        writeln!(
            f,
            "cpu during play (100% = one core): server {}  load generator {}  load average {}",
            pct(self.server_cpu_pct),
            pct(self.client_cpu_pct),
            self.load_average.as_deref().unwrap_or("?")
        )?;
        for e in &self.error_samples {
            writeln!(f, "error: {e}")?;
        }
        Ok(())
    }
}

/// CPU seconds (user + system) in a `/proc/.../stat` line.
fn stat_cpu_seconds(stat: &str) -> Option<f64> {
    // Fields after the command name (which may hold spaces) in parentheses:
    // state is the 3rd field, utime the 14th, stime the 15th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux ABI Rust supports.
    Some((utime + stime) as f64 / 100.0)
}

/// CPU seconds used so far by process `pid`.
fn process_cpu(pid: u32) -> Option<f64> {
    stat_cpu_seconds(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// CPU seconds used so far by this process's threads, split into
/// (named [`CLIENT_THREADS`], all others).
fn own_threads_cpu() -> Option<(f64, f64)> {
    let (mut client, mut other) = (0.0, 0.0);
    for entry in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue; // the thread ended
        };
        let cpu = stat_cpu_seconds(&stat).unwrap_or(0.0);
        let name = stat.split_once('(').map(|(_, r)| r).unwrap_or_default();
        if name.starts_with(CLIENT_THREADS) {
            client += cpu;
        } else {
            other += cpu;
        }
    }
    Some((client, other))
}

/// A reading of (server, load generator) CPU seconds.
fn cpu_reading(source: &ServerCpu) -> (Option<f64>, Option<f64>) {
    match source {
        ServerCpu::Unknown => (None, process_cpu(std::process::id())),
        ServerCpu::Process(pid) => (process_cpu(*pid), process_cpu(std::process::id())),
        ServerCpu::ThisProcess => match own_threads_cpu() {
            Some((client, server)) => (Some(server), Some(client)),
            None => (None, None),
        },
    }
}

#[derive(Default)]
struct Stats {
    rtts_us: Vec<u64>,
    errors: usize,
    samples: Vec<String>,
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

/// The parts of a server message the players read (the rest is skipped
/// unparsed, which keeps the generator's own CPU use small).
#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    game: Option<GameState>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// A game as the players follow it.
#[derive(Deserialize, Default)]
struct GameState {
    id: String,
    version: i64,
    ply: usize,
    status: String,
    turn: String,
    #[serde(default)]
    legal: Vec<LegalUci>,
}

#[derive(Deserialize)]
struct LegalUci {
    uci: String,
}

/// The answer to a command: `Ok` for an ack, else the error text.
type Answer = Result<(), String>;

/// A logged-in player.
struct Player {
    http: reqwest::Client,
    jar: Arc<reqwest::cookie::Jar>,
    csrf: String,
}

impl Player {
    async fn new(base: &str, name: &str) -> Result<Player, String> {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .build()
            .map_err(err("client"))?;
        let s: Value = http
            .get(format!("{base}/api/session"))
            .send()
            .await
            .map_err(err("session"))?
            .json()
            .await
            .map_err(err("session"))?;
        let mut p = Player {
            http,
            jar,
            csrf: s["csrf"].as_str().unwrap_or_default().to_string(),
        };
        let r = p
            .post(
                base,
                "/api/register",
                json!({ "username": name, "password": "loadtest-password" }),
            )
            .await?;
        p.csrf = r["csrf"].as_str().unwrap_or_default().to_string();
        Ok(p)
    }

    async fn post(&self, base: &str, path: &str, body: Value) -> Result<Value, String> {
        let resp = self
            .http
            .post(format!("{base}{path}"))
            .header("x-csrf-token", &self.csrf)
            .json(&body)
            .send()
            .await
            .map_err(err(path))?;
        let status = resp.status();
        let v: Value = resp.json().await.map_err(err(path))?;
        if !status.is_success() {
            return Err(format!("{path}: {status} {v}"));
        }
        Ok(v)
    }

    /// Opens `/api/ws`; returns a sender of commands and starts a task that
    /// routes replies to `pending` and game messages to `games`.
    async fn connect(
        &self,
        base: &str,
        pending: Pending,
        games: Routes,
    ) -> Result<mpsc::UnboundedSender<String>, String> {
        use reqwest::cookie::CookieStore;
        let url = format!("{}/api/ws", base.replacen("http", "ws", 1));
        let mut req = url.into_client_request().map_err(err("ws url"))?;
        if let Some(c) = self.jar.cookies(&base.parse().map_err(err("url"))?) {
            req.headers_mut().insert("cookie", c);
        }
        let (stream, _) = tokio_tungstenite::connect_async_with_config(
            req,
            Some(
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                    .read_buffer_size(thaiboard_server::ws::SOCKET_BUFFER)
                    .write_buffer_size(0),
            ),
            true,
        )
        .await
        .map_err(err("ws connect"))?;
        let (mut sink, mut source) = stream.split();
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        tokio::spawn(async move {
            while let Some(text) = rx.recv().await {
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        });
        tokio::spawn(async move {
            while let Some(Ok(msg)) = source.next().await {
                let Message::Text(text) = msg else { continue };
                let Ok(m) = serde_json::from_str::<Incoming>(text.as_str()) else {
                    continue;
                };
                match m.kind.as_str() {
                    "ack" | "error" => {
                        let reply = if m.kind == "ack" {
                            Ok(())
                        } else {
                            Err(format!(
                                "{}: {}",
                                m.error.unwrap_or_default(),
                                m.message.unwrap_or_default()
                            ))
                        };
                        if let Some(id) = m.id
                            && let Some(waiting) = pending.lock().unwrap().remove(&id)
                        {
                            let _ = waiting.send(reply);
                        }
                    }
                    "snapshot" | "update" => {
                        if let Some(game) = m.game
                            && let Some(route) = games.lock().unwrap().get(&game.id)
                        {
                            let _ = route.send(game);
                        }
                    }
                    _ => {}
                }
            }
            // Connection gone: fail whatever waits.
            for (_, reply) in pending.lock().unwrap().drain() {
                let _ = reply.send(Err("disconnected".into()));
            }
        });
        Ok(tx)
    }
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Answer>>>>;
type Routes = Arc<Mutex<HashMap<String, mpsc::UnboundedSender<GameState>>>>;

struct Conn {
    tx: mpsc::UnboundedSender<String>,
    pending: Pending,
    next: Arc<std::sync::atomic::AtomicU64>,
}

impl Conn {
    /// Sends a command; `body` is the JSON object's fields after `"id"`
    /// (game ids and moves are plain letters and digits: no escaping needed).
    async fn command(&self, body: &str) -> Answer {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (reply_tx, reply_rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, reply_tx);
        if self.tx.send(format!("{{\"id\":{id},{body}}}")).is_err() {
            return Err("disconnected".into());
        }
        match tokio::time::timeout(Duration::from_secs(30), reply_rx).await {
            Ok(Ok(answer)) => answer,
            _ => Err("timeout: no answer within 30 s".into()),
        }
    }
}

/// Runs the load test against the server at `o.base`.
pub async fn run(o: Options) -> Result<Report, String> {
    let started = Instant::now();
    let stats = Arc::new(Mutex::new(Stats::default()));
    let pairs = o.games.div_ceil(o.games_per_pair.max(1));
    let run_id = thaiboard_server::util::random_id(5);
    let setup_gate = Arc::new(Semaphore::new(16));
    let begin = Arc::new(tokio::sync::Barrier::new(pairs + 1));
    let mut tasks = Vec::new();
    for p in 0..pairs {
        let o = o.clone();
        let stats = stats.clone();
        let gate = setup_gate.clone();
        let begin = begin.clone();
        let run_id = run_id.clone();
        let n_games = o.games_per_pair.min(o.games - p * o.games_per_pair);
        tasks.push(tokio::spawn(async move {
            let setup = async {
                let _permit = gate.acquire().await.unwrap();
                let white = Player::new(&o.base, &format!("lw{run_id}{p}")).await?;
                let black = Player::new(&o.base, &format!("lb{run_id}{p}")).await?;
                let mut ids = Vec::new();
                for _ in 0..n_games {
                    let g = white
                        .post(&o.base, "/api/challenges", json!({ "variant": o.variant, "color": "white",
                            "time_control": { "kind": "live", "minutes": o.minutes, "increment": 0 } }))
                        .await?;
                    let id = g["id"].as_str().unwrap_or_default().to_string();
                    black.post(&o.base, &format!("/api/games/{id}/accept"), json!({})).await?;
                    ids.push(id);
                }
                let routes: Routes = Arc::default();
                let mut conns = Vec::new();
                for player in [&white, &black] {
                    let pending: Pending = Arc::default();
                    let tx = player.connect(&o.base, pending.clone(), routes.clone()).await?;
                    conns.push(Conn { tx, pending, next: Arc::new(0.into()) });
                }
                Ok::<_, String>((ids, routes, conns))
            }
            .await;
            begin.wait().await;
            let (ids, routes, conns) = match setup {
                Ok(s) => s,
                Err(e) => {
                    stats.lock().unwrap().error(format!("setup: {e}"));
                    return;
                }
            };
            let conns = Arc::new(conns);
            let mut games = Vec::new();
            for id in ids {
                let (tx, rx) = mpsc::unbounded_channel();
                routes.lock().unwrap().insert(id.clone(), tx);
                games.push(tokio::spawn(play_game(id, rx, conns.clone(), o.clone(), stats.clone())));
            }
            for g in games {
                let _ = g.await;
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
    let mut st = stats.lock().unwrap();
    st.rtts_us.sort_unstable();
    let pct = |p: f64| -> f64 {
        if st.rtts_us.is_empty() {
            return 0.0;
        }
        let i = ((st.rtts_us.len() as f64 - 1.0) * p).round() as usize;
        st.rtts_us[i] as f64 / 1000.0
    };
    Ok(Report {
        games: o.games,
        moves: st.rtts_us.len(),
        errors: st.errors,
        error_samples: st.samples.clone(),
        setup,
        play,
        rtt_ms: [pct(0.5), pct(0.9), pct(0.99), pct(1.0)],
        server_cpu_pct: share(cpu_start.0, cpu_end.0),
        client_cpu_pct: share(cpu_start.1, cpu_end.1),
        load_average: std::fs::read_to_string("/proc/loadavg")
            .ok()
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
    })
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
                // All players come from one address.
                rate_per_sec: 0.0,
                ws_rate_per_sec: 0.0,
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

async fn play_game(
    id: String,
    mut updates: mpsc::UnboundedReceiver<GameState>,
    conns: Arc<Vec<Conn>>,
    o: Options,
    stats: Arc<Mutex<Stats>>,
) {
    // Both players follow the game; the snapshot arrives after subscribing.
    let subscribe = format!("\"type\":\"subscribe\",\"game\":\"{id}\"");
    for c in conns.iter() {
        if let Err(e) = c.command(&subscribe).await {
            stats.lock().unwrap().error(format!("subscribe: {e}"));
            return;
        }
    }
    let mut latest = GameState {
        version: i64::MIN,
        ..Default::default()
    };
    let newer = |latest: &mut GameState, g: GameState| {
        if g.version >= latest.version {
            *latest = g;
        }
    };
    loop {
        // Take the newest state seen so far.
        while let Ok(g) = updates.try_recv() {
            newer(&mut latest, g);
        }
        if latest.version == i64::MIN || latest.legal.is_empty() && latest.status == "ongoing" {
            match tokio::time::timeout(Duration::from_secs(30), updates.recv()).await {
                Ok(Some(g)) => {
                    newer(&mut latest, g);
                    continue;
                }
                _ => {
                    stats.lock().unwrap().error(format!("game {id}: no update"));
                    return;
                }
            }
        }
        if latest.status != "ongoing" {
            return;
        }
        let ply = latest.ply;
        let side = if latest.turn == "white" { 0 } else { 1 };
        if ply >= o.plies {
            let _ = conns[side]
                .command(&format!("\"type\":\"resign\",\"game\":\"{id}\""))
                .await;
            return;
        }
        let (think, pick) = {
            let mut rng = rand::rng();
            (
                rng.random_range(o.think_ms / 2..=o.think_ms + o.think_ms / 2),
                rng.random_range(0..latest.legal.len()),
            )
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let mv = std::mem::take(&mut latest.legal[pick].uci);
        let command =
            format!("\"type\":\"move\",\"game\":\"{id}\",\"move\":\"{mv}\",\"ply\":{ply}");
        let sent = Instant::now();
        let r = conns[side].command(&command).await;
        let rtt = sent.elapsed();
        match r {
            Ok(()) => stats.lock().unwrap().rtts_us.push(rtt.as_micros() as u64),
            Err(e) => stats
                .lock()
                .unwrap()
                .error(format!("move {mv} in {id}: {e}")),
        }
        // Wait for the state after this move.
        loop {
            match tokio::time::timeout(Duration::from_secs(30), updates.recv()).await {
                Ok(Some(g)) => {
                    let done = g.ply > ply || g.status != "ongoing";
                    newer(&mut latest, g);
                    if done {
                        break;
                    }
                }
                _ => {
                    stats
                        .lock()
                        .unwrap()
                        .error(format!("game {id}: no update after {mv}"));
                    return;
                }
            }
        }
    }
}
