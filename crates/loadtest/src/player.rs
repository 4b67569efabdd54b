//! A person's side of the load: a logged-in player with one multi-game
//! WebSocket (`/api/ws`), and the task that plays its games' moves.

use crate::{Options, Stats, answer, err};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

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
pub struct Player {
    http: reqwest::Client,
    jar: Arc<reqwest::cookie::Jar>,
    csrf: String,
}

impl Player {
    /// Registers account `name` and logs it in.
    pub async fn new(base: &str, name: &str) -> Result<Player, String> {
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

    /// POSTs JSON `body` to `path` in the player's session; the answer's JSON.
    pub async fn post(&self, base: &str, path: &str, body: Value) -> Result<Value, String> {
        let request = self
            .http
            .post(format!("{base}{path}"))
            .header("x-csrf-token", &self.csrf)
            .json(&body);
        answer(path, request).await
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
/// Where a socket hands each game's updates (by game id).
type Routes = Arc<Mutex<HashMap<String, mpsc::UnboundedSender<GameState>>>>;

/// A player's WebSocket: commands out, answers matched by id.
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

/// Plays game `id` for the sides that have a socket in `conns` (White,
/// Black); on a side without one (a bot's) it waits for the bot's move.
async fn play_game(
    id: String,
    mut updates: mpsc::UnboundedReceiver<GameState>,
    conns: Arc<[Option<Conn>; 2]>,
    o: Options,
    stats: Arc<Mutex<Stats>>,
) {
    // Both players follow the game; the snapshot arrives after subscribing.
    let subscribe = format!("\"type\":\"subscribe\",\"game\":\"{id}\"");
    for c in conns.iter().flatten() {
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
        let Some(conn) = &conns[side] else {
            // The bot's turn: wait for its move (or its resignation).
            match next_after(&mut updates, ply).await {
                Some(g) => newer(&mut latest, g),
                None => {
                    let e = format!("game {id}: the bot did not move at ply {ply}");
                    stats.lock().unwrap().error(e);
                    return;
                }
            }
            continue;
        };
        if ply >= o.plies {
            let _ = conn
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
        let r = conn.command(&command).await;
        let rtt = sent.elapsed();
        match r {
            Ok(()) => stats.lock().unwrap().rtts_us.push(rtt.as_micros() as u64),
            Err(e) => stats
                .lock()
                .unwrap()
                .error(format!("move {mv} in {id}: {e}")),
        }
        // Wait for the state after this move.
        match next_after(&mut updates, ply).await {
            Some(g) => newer(&mut latest, g),
            None => {
                stats
                    .lock()
                    .unwrap()
                    .error(format!("game {id}: no update after {mv}"));
                return;
            }
        }
    }
}

/// The first update past ply `ply` (or ending the game), within 30 s.
async fn next_after(
    updates: &mut mpsc::UnboundedReceiver<GameState>,
    ply: usize,
) -> Option<GameState> {
    loop {
        let g = tokio::time::timeout(Duration::from_secs(30), updates.recv())
            .await
            .ok()??;
        if g.ply > ply || g.status != "ongoing" {
            return Some(g);
        }
    }
}

/// Games followed and played over WebSockets: by two people, or by one
/// person against a bot (who has no socket).
pub struct SocketGames {
    ids: Vec<String>,
    routes: Routes,
    conns: Arc<[Option<Conn>; 2]>,
}

impl SocketGames {
    /// Connects the players (`None`: a bot plays that side) for games `ids`.
    pub async fn connect(
        base: &str,
        ids: Vec<String>,
        players: [Option<&Player>; 2],
    ) -> Result<SocketGames, String> {
        let routes: Routes = Arc::default();
        let mut conns = [None, None];
        for (slot, player) in conns.iter_mut().zip(players) {
            if let Some(player) = player {
                let pending: Pending = Arc::default();
                let tx = player
                    .connect(base, pending.clone(), routes.clone())
                    .await?;
                *slot = Some(Conn {
                    tx,
                    pending,
                    next: Arc::new(0.into()),
                });
            }
        }
        Ok(SocketGames {
            ids,
            routes,
            conns: Arc::new(conns),
        })
    }

    /// Plays every game to its end.
    pub async fn play(self, o: &Options, stats: &Arc<Mutex<Stats>>) {
        let mut games = Vec::new();
        for id in self.ids {
            let (tx, rx) = mpsc::unbounded_channel();
            self.routes.lock().unwrap().insert(id.clone(), tx);
            let task = play_game(id, rx, self.conns.clone(), o.clone(), stats.clone());
            games.push(tokio::spawn(task));
        }
        for g in games {
            let _ = g.await;
        }
    }
}

/// A live challenge from White in the lobby's shape (`opponent`: a named one).
pub fn challenge(o: &Options, opponent: Option<&str>) -> Value {
    let mut c = json!({ "variant": o.variant, "color": "white",
        "time_control": { "kind": "live", "minutes": o.minutes, "increment": 0 } });
    if let Some(name) = opponent {
        c["opponent"] = json!(name);
    }
    c
}

/// Registers two people (names from `prefix`) and starts their `games` games.
pub async fn set_up_pair(o: &Options, prefix: &str, games: usize) -> Result<SocketGames, String> {
    let white = Player::new(&o.base, &format!("lw{prefix}")).await?;
    let black = Player::new(&o.base, &format!("lb{prefix}")).await?;
    let mut ids = Vec::new();
    for _ in 0..games {
        let g = white
            .post(&o.base, "/api/challenges", challenge(o, None))
            .await?;
        let id = g["id"].as_str().unwrap_or_default().to_string();
        black
            .post(&o.base, &format!("/api/games/{id}/accept"), json!({}))
            .await?;
        ids.push(id);
    }
    SocketGames::connect(&o.base, ids, [Some(&white), Some(&black)]).await
}
