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
}

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
        for e in &self.error_samples {
            writeln!(f, "error: {e}")?;
        }
        Ok(())
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
                    .read_buffer_size(crate::ws::SOCKET_BUFFER)
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
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                match v["type"].as_str() {
                    Some("ack") | Some("error") => {
                        if let Some(id) = v["id"].as_u64() {
                            if let Some(reply) = pending.lock().unwrap().remove(&id) {
                                let _ = reply.send(v);
                            }
                        }
                    }
                    Some("snapshot") | Some("update") => {
                        let id = v["game"]["id"].as_str().unwrap_or_default().to_string();
                        if let Some(route) = games.lock().unwrap().get(&id) {
                            let _ = route.send(v["game"].clone());
                        }
                    }
                    _ => {}
                }
            }
            // Connection gone: fail whatever waits.
            for (_, reply) in pending.lock().unwrap().drain() {
                let _ = reply.send(json!({ "type": "error", "error": "disconnected" }));
            }
        });
        Ok(tx)
    }
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>;
type Routes = Arc<Mutex<HashMap<String, mpsc::UnboundedSender<Value>>>>;

struct Conn {
    tx: mpsc::UnboundedSender<String>,
    pending: Pending,
    next: Arc<std::sync::atomic::AtomicU64>,
}

impl Conn {
    async fn command(&self, mut cmd: Value) -> Value {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        cmd["id"] = json!(id);
        let (reply_tx, reply_rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, reply_tx);
        if self.tx.send(cmd.to_string()).is_err() {
            return json!({ "type": "error", "error": "disconnected" });
        }
        match tokio::time::timeout(Duration::from_secs(30), reply_rx).await {
            Ok(Ok(v)) => v,
            _ => json!({ "type": "error", "error": "timeout", "message": "no answer within 30 s" }),
        }
    }
}

/// Runs the load test.
pub async fn run(o: Options) -> Result<Report, String> {
    let started = Instant::now();
    let stats = Arc::new(Mutex::new(Stats::default()));
    let pairs = o.games.div_ceil(o.games_per_pair.max(1));
    let run_id = crate::util::random_id(5);
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
    for t in tasks {
        let _ = t.await;
    }
    let play = play_start.elapsed();
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
    })
}

async fn play_game(
    id: String,
    mut updates: mpsc::UnboundedReceiver<Value>,
    conns: Arc<Vec<Conn>>,
    o: Options,
    stats: Arc<Mutex<Stats>>,
) {
    // Both players follow the game; the snapshot arrives after subscribing.
    for c in conns.iter() {
        let r = c.command(json!({ "type": "subscribe", "game": id })).await;
        if r["type"] != "ack" {
            stats.lock().unwrap().error(format!("subscribe: {r}"));
            return;
        }
    }
    let mut latest = Value::Null;
    loop {
        // Take the newest state seen so far.
        while let Ok(g) = updates.try_recv() {
            if g["version"].as_i64() >= latest["version"].as_i64() {
                latest = g;
            }
        }
        if latest.is_null()
            || latest["legal"].as_array().is_none_or(|l| l.is_empty())
                && latest["status"] == "ongoing"
        {
            match tokio::time::timeout(Duration::from_secs(30), updates.recv()).await {
                Ok(Some(g)) => {
                    if g["version"].as_i64() >= latest["version"].as_i64() {
                        latest = g;
                    }
                    continue;
                }
                _ => {
                    stats.lock().unwrap().error(format!("game {id}: no update"));
                    return;
                }
            }
        }
        if latest["status"] != "ongoing" {
            return;
        }
        let ply = latest["ply"].as_u64().unwrap_or(0) as usize;
        let side = if latest["turn"] == "white" { 0 } else { 1 };
        if ply >= o.plies {
            let _ = conns[side]
                .command(json!({ "type": "resign", "game": id }))
                .await;
            return;
        }
        let think = {
            let mut rng = rand::rng();
            rng.random_range(o.think_ms / 2..=o.think_ms + o.think_ms / 2)
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let mv = {
            let legal = latest["legal"].as_array().unwrap();
            legal[rand::rng().random_range(0..legal.len())]["uci"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        let sent = Instant::now();
        let r = conns[side]
            .command(json!({ "type": "move", "game": id, "move": mv, "ply": ply }))
            .await;
        let rtt = sent.elapsed();
        if r["type"] == "ack" {
            stats.lock().unwrap().rtts_us.push(rtt.as_micros() as u64);
        } else {
            stats
                .lock()
                .unwrap()
                .error(format!("move {mv} in {id}: {r}"));
        }
        // Wait for the state after this move.
        loop {
            match tokio::time::timeout(Duration::from_secs(30), updates.recv()).await {
                Ok(Some(g)) => {
                    let done =
                        g["ply"].as_u64().unwrap_or(0) as usize > ply || g["status"] != "ongoing";
                    if g["version"].as_i64() >= latest["version"].as_i64() {
                        latest = g;
                    }
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
