//! A person's side of the load: a logged-in player with one multi-game
//! WebSocket (`/api/ws`), and the task that plays its games' moves.
//!
//! The socket outlives a server restart, as a browser's does: when it closes
//! (`{"type":"restarting"}` and code 1012 on a graceful stop, or a dropped
//! connection) the player connects again within [`RECONNECT_WINDOW`] and
//! follows its games again; a command whose answer was lost is not an
//! error: the game's new snapshot says whether it was carried out.

use crate::{AckedMove, Options, Stats, answer, err};
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
pub(crate) struct GameState {
    id: String,
    version: i64,
    ply: usize,
    status: String,
    turn: String,
    #[serde(default)]
    legal: Vec<LegalUci>,
    /// Whether it came as a `snapshot` (after following the game, or
    /// following it again after a reconnection) rather than an `update`.
    #[serde(skip)]
    snapshot: bool,
}

#[derive(Deserialize)]
struct LegalUci {
    uci: String,
}

/// The answer to a command: `Ok` for an ack, else the error text.
type Answer = Result<(), String>;

/// The answer to a command sent before the socket closed (its fate is read
/// from the game's next snapshot).
const DISCONNECTED: &str = "disconnected";

/// How long a player tries to connect again after its socket closed.
pub const RECONNECT_WINDOW: Duration = Duration::from_secs(60);

/// Pause between two attempts to connect again.
const RECONNECT_PAUSE: Duration = Duration::from_millis(250);

/// Command id of the `subscribe`s sent after a reconnection (their answers
/// are not waited for: the snapshots are).
const RESUBSCRIBE_ID: u64 = u64::MAX;

/// How long a game waits for its next update or snapshot.
const UPDATE_TIMEOUT: Duration = Duration::from_secs(30);

/// After the server refuses a move (say `rate_limited`), the player waits
/// this long and tries the position again, as a client that backs off.
const REFUSED_PAUSE: Duration = Duration::from_secs(1);

/// Refusals in a row at one ply before the player gives the game up.
const MAX_REFUSALS: u32 = 3;

type WsStream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Where and how a player's socket connects (kept to connect again).
#[derive(Clone)]
struct SocketAddress {
    url: String,
    cookie: Option<reqwest::header::HeaderValue>,
}

impl SocketAddress {
    /// One attempt to open the socket.
    async fn open(&self) -> Result<WsStream, String> {
        let mut req = self
            .url
            .as_str()
            .into_client_request()
            .map_err(err("ws url"))?;
        if let Some(c) = &self.cookie {
            req.headers_mut().insert("cookie", c.clone());
        }
        let (stream, _) = tokio_tungstenite::connect_async_with_config(
            req,
            Some(
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                    .read_buffer_size(thaiboard_server::SOCKET_BUFFER)
                    .write_buffer_size(0),
            ),
            true,
        )
        .await
        .map_err(err("ws connect"))?;
        Ok(stream)
    }

    /// Opens the socket again, trying for [`RECONNECT_WINDOW`].
    async fn reopen(&self) -> Result<WsStream, String> {
        let deadline = Instant::now() + RECONNECT_WINDOW;
        loop {
            match self.open().await {
                Ok(s) => return Ok(s),
                Err(e) if Instant::now() >= deadline => {
                    return Err(format!(
                        "reconnect for {} s: {e}",
                        RECONNECT_WINDOW.as_secs()
                    ));
                }
                Err(_) => tokio::time::sleep(RECONNECT_PAUSE).await,
            }
        }
    }
}

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
        self.send(reqwest::Method::POST, base, path, Some(body))
            .await
    }

    /// Sends a request with `method` (and JSON `body`, if any) to `path` in
    /// the player's session; the answer's JSON.
    pub async fn send(
        &self,
        method: reqwest::Method,
        base: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        let mut request = self
            .http
            .request(method, format!("{base}{path}"))
            .header("x-csrf-token", &self.csrf);
        if let Some(body) = body {
            request = request.json(&body);
        }
        answer(path, request).await
    }

    /// Opens the player's multi-game socket, handing game updates to `routes`.
    pub(crate) async fn socket(
        &self,
        base: &str,
        routes: Routes,
        stats: &Arc<Mutex<Stats>>,
    ) -> Result<Conn, String> {
        let pending: Pending = Arc::default();
        let tx = self
            .connect(base, pending.clone(), routes, stats.clone())
            .await?;
        Ok(Conn {
            tx,
            pending,
            next: Arc::new(0.into()),
        })
    }

    /// Opens `/api/ws`; returns a sender of commands and starts the task
    /// that keeps the socket: it sends the commands, routes replies to
    /// `pending` and game messages to `games`, and when the socket closes
    /// fails the commands waiting (with [`DISCONNECTED`]), connects again and
    /// follows every game in `games` again.
    async fn connect(
        &self,
        base: &str,
        pending: Pending,
        games: Routes,
        stats: Arc<Mutex<Stats>>,
    ) -> Result<mpsc::UnboundedSender<(u64, String)>, String> {
        use reqwest::cookie::CookieStore;
        let address = SocketAddress {
            url: format!("{}/api/ws", base.replacen("http", "ws", 1)),
            cookie: self.jar.cookies(&base.parse().map_err(err("url"))?),
        };
        let first = address.open().await?;
        let (tx, rx) = mpsc::unbounded_channel::<(u64, String)>();
        tokio::spawn(keep_socket(address, first, rx, pending, games, stats));
        Ok(tx)
    }
}

/// The task of a player's socket (see [`Player::connect`]); ends when the
/// commands' sender is dropped (the run is over) or reconnecting fails.
async fn keep_socket(
    address: SocketAddress,
    first: WsStream,
    mut commands: mpsc::UnboundedReceiver<(u64, String)>,
    pending: Pending,
    games: Routes,
    stats: Arc<Mutex<Stats>>,
) {
    let mut stream = Some(first);
    loop {
        let ws = match stream.take() {
            Some(ws) => ws,
            None => match address.reopen().await {
                Ok(ws) => {
                    stats.lock().unwrap().reconnects += 1;
                    ws
                }
                Err(e) => {
                    stats.lock().unwrap().error(e);
                    return;
                }
            },
        };
        let (mut sink, mut source) = ws.split();
        // Follow the games again (nothing to do on the first connection:
        // each game subscribes as it starts).
        let ids: Vec<String> = games.lock().unwrap().keys().cloned().collect();
        for id in ids {
            let text =
                format!("{{\"id\":{RESUBSCRIBE_ID},\"type\":\"subscribe\",\"game\":\"{id}\"}}");
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        loop {
            tokio::select! {
                command = commands.recv() => {
                    let Some((id, text)) = command else { return };
                    // A command queued while the socket was down whose
                    // waiter already heard "disconnected" is not sent: it
                    // would be carried out after the game's new snapshot,
                    // which the waiter has taken as the game's state.
                    if !pending.lock().unwrap().contains_key(&id) {
                        continue;
                    }
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                incoming = source.next() => match incoming {
                    Some(Ok(Message::Text(text))) => route(text.as_str(), &pending, &games),
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
        // Closed: whatever waits learns it from the games' next snapshots.
        for (_, reply) in pending.lock().unwrap().drain() {
            let _ = reply.send(Err(DISCONNECTED.into()));
        }
    }
}

/// Hands one server message to the command that waits for it, or to its game.
fn route(text: &str, pending: &Pending, games: &Routes) {
    let Ok(m) = serde_json::from_str::<Incoming>(text) else {
        return;
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
        kind @ ("snapshot" | "update") => {
            if let Some(mut game) = m.game
                && let Some(route) = games.lock().unwrap().get(&game.id)
            {
                game.snapshot = kind == "snapshot";
                let _ = route.send(game);
            }
        }
        _ => {}
    }
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Answer>>>>;
/// Where a socket hands each game's updates (by game id).
pub(crate) type Routes = Arc<Mutex<HashMap<String, mpsc::UnboundedSender<GameState>>>>;

/// A player's WebSocket: commands out (with their ids), answers matched by id.
#[derive(Clone)]
pub(crate) struct Conn {
    tx: mpsc::UnboundedSender<(u64, String)>,
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
        if self
            .tx
            .send((id, format!("{{\"id\":{id},{body}}}")))
            .is_err()
        {
            return Err("disconnected".into());
        }
        match tokio::time::timeout(UPDATE_TIMEOUT, reply_rx).await {
            Ok(Ok(answer)) => answer,
            // The socket's task ended (reconnecting failed, reported there).
            Ok(Err(_)) => Err(DISCONNECTED.into()),
            Err(_) => Err(format!(
                "timeout: no answer within {} s",
                UPDATE_TIMEOUT.as_secs()
            )),
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
    // Both players follow the game; the snapshot arrives after subscribing
    // (after a reconnection the socket follows it again by itself).
    let subscribe = format!("\"type\":\"subscribe\",\"game\":\"{id}\"");
    for c in conns.iter().flatten() {
        match c.command(&subscribe).await {
            Ok(()) => {}
            Err(e) if e == DISCONNECTED => {}
            Err(e) => {
                stats.lock().unwrap().error(format!("subscribe: {e}"));
                return;
            }
        }
    }
    let mut latest = GameState {
        version: i64::MIN,
        ..Default::default()
    };
    let mut refusals = 0;
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
            match tokio::time::timeout(UPDATE_TIMEOUT + RECONNECT_WINDOW, updates.recv()).await {
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
            let resign = conn
                .command(&format!("\"type\":\"resign\",\"game\":\"{id}\""))
                .await;
            if resign.err().as_deref() != Some(DISCONNECTED) {
                return;
            }
            // Resign again once the game's snapshot is back.
            if !took_snapshot(&mut updates, &mut latest, &id, &stats).await {
                return;
            }
            continue;
        }
        let (think, pick) = {
            let mut rng = rand::rng();
            (
                rng.random_range(o.think_ms / 2..=o.think_ms + o.think_ms / 2),
                rng.random_range(0..latest.legal.len()),
            )
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let mv = latest.legal[pick].uci.clone();
        let command =
            format!("\"type\":\"move\",\"game\":\"{id}\",\"move\":\"{mv}\",\"ply\":{ply}");
        let sent = Instant::now();
        let r = conn.command(&command).await;
        let rtt = sent.elapsed();
        match r {
            Ok(()) => {
                let mut st = stats.lock().unwrap();
                st.rtts_us.push(rtt.as_micros() as u64);
                st.acked.push(AckedMove {
                    game: id.clone(),
                    ply,
                    uci: mv.clone(),
                    at: Instant::now(),
                });
            }
            Err(e) if e == DISCONNECTED => {
                // Carried out or not, the snapshot after the reconnection says.
                stats.lock().unwrap().unanswered += 1;
                if !took_snapshot(&mut updates, &mut latest, &id, &stats).await {
                    return;
                }
                continue;
            }
            Err(e) => {
                // Counted, then the same position again after a pause (a
                // newer state, if one came meanwhile, is taken first).
                stats
                    .lock()
                    .unwrap()
                    .error(format!("move {mv} in {id}: {e}"));
                refusals += 1;
                if refusals >= MAX_REFUSALS {
                    return;
                }
                tokio::time::sleep(REFUSED_PAUSE).await;
                continue;
            }
        }
        refusals = 0;
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

/// Waits for the game's next snapshot (sent when the socket follows the
/// game again after a reconnection) and takes it as the latest state;
/// false (and an error counted) if none comes in time.
async fn took_snapshot(
    updates: &mut mpsc::UnboundedReceiver<GameState>,
    latest: &mut GameState,
    id: &str,
    stats: &Arc<Mutex<Stats>>,
) -> bool {
    let deadline = tokio::time::Instant::now() + UPDATE_TIMEOUT + RECONNECT_WINDOW;
    loop {
        match tokio::time::timeout_at(deadline, updates.recv()).await {
            Ok(Some(g)) if g.snapshot => {
                *latest = g;
                return true;
            }
            Ok(Some(_)) => {}
            _ => {
                let e = format!("game {id}: no snapshot after reconnecting");
                stats.lock().unwrap().error(e);
                return false;
            }
        }
    }
}

/// The first update past ply `ply` (or ending the game), within the time a
/// reconnection may take.
async fn next_after(
    updates: &mut mpsc::UnboundedReceiver<GameState>,
    ply: usize,
) -> Option<GameState> {
    loop {
        let g = tokio::time::timeout(UPDATE_TIMEOUT + RECONNECT_WINDOW, updates.recv())
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
    /// Each game with its sides' sockets (White, Black).
    games: Vec<(String, Arc<[Option<Conn>; 2]>)>,
    routes: Routes,
}

impl SocketGames {
    /// Connects the players (`None`: a bot plays that side) for games `ids`.
    pub async fn connect(
        base: &str,
        ids: Vec<String>,
        players: [Option<&Player>; 2],
        stats: &Arc<Mutex<Stats>>,
    ) -> Result<SocketGames, String> {
        let routes: Routes = Arc::default();
        let mut conns = [None, None];
        for (slot, player) in conns.iter_mut().zip(players) {
            if let Some(player) = player {
                *slot = Some(player.socket(base, routes.clone(), stats).await?);
            }
        }
        let conns = Arc::new(conns);
        Ok(SocketGames {
            games: ids.into_iter().map(|id| (id, conns.clone())).collect(),
            routes,
        })
    }

    /// Games whose players' sockets hand their updates to `routes`.
    pub(crate) fn of(games: Vec<(String, Arc<[Option<Conn>; 2]>)>, routes: Routes) -> SocketGames {
        SocketGames { games, routes }
    }

    /// Plays every game to its end.
    pub async fn play(self, o: &Options, stats: &Arc<Mutex<Stats>>) {
        let mut games = Vec::new();
        for (id, conns) in self.games {
            let (tx, rx) = mpsc::unbounded_channel();
            self.routes.lock().unwrap().insert(id.clone(), tx);
            let routes = self.routes.clone();
            let game = play_game(id.clone(), rx, conns, o.clone(), stats.clone());
            games.push(tokio::spawn(async move {
                game.await;
                // A game over is not followed again after a reconnection.
                routes.lock().unwrap().remove(&id);
            }));
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
pub async fn set_up_pair(
    o: &Options,
    prefix: &str,
    games: usize,
    stats: &Arc<Mutex<Stats>>,
) -> Result<SocketGames, String> {
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
    SocketGames::connect(&o.base, ids, [Some(&white), Some(&black)], stats).await
}
