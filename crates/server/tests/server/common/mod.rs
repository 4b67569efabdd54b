//! Test helpers: a real server on 127.0.0.1 port 0, HTTP and WebSocket clients.
#![allow(dead_code)]

pub mod bot;
pub mod tournament;

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use thaiboard_server::{Config, Server};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A fresh, unique name.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}{}", thaiboard_server::util::random_id(8))
}

/// The database for a test: `THAIBOARD_TEST_DATABASE_URL` (PostgreSQL in CI),
/// else a new SQLite file in a temporary folder.
pub fn test_database() -> (String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(unique("thaiboard-test-"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = match std::env::var("THAIBOARD_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => format!("sqlite://{}", dir.join("test.db").display()),
    };
    (url, dir)
}

/// A database that no other test's server uses: on PostgreSQL a new schema
/// of `THAIBOARD_TEST_DATABASE_URL`'s database (the URL names it in its
/// search path), on SQLite a new file. A test that moves its server's clock
/// ([`thaiboard_server::TimeSource::advance`]) needs one: the clock sweep
/// of a server running days ahead would end, by its time, the games of
/// every test beside it on a shared database.
pub async fn own_database() -> String {
    use sqlx::Connection;
    let (url, _) = test_database();
    if !url.starts_with("postgres") {
        return url;
    }
    let schema = unique("test_").to_lowercase();
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let join = if url.contains('?') { '&' } else { '?' };
    format!("{url}{join}options=-c%20search_path%3D{schema}")
}

/// Starts a server with the test configuration on [`own_database`], for a
/// test that moves its clock.
pub async fn start_on_own_database() -> Server {
    Server::start(test_config(&own_database().await))
        .await
        .unwrap()
}

/// A test configuration on port 0.
pub fn test_config(database_url: &str) -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(database_url.to_string()),
        rate_per_sec: 0.0,
        argon2_memory_kib: 64,
        // Every test client comes from 127.0.0.1: the per-address caps are
        // tested by the tests that turn this off.
        exempt_loopback: true,
        ..Default::default()
    }
}

/// Two server processes on the PostgreSQL database of
/// `THAIBOARD_TEST_DATABASE_URL`, for the tests of what goes between
/// processes; `None` (the test is skipped, and says so) on SQLite.
pub async fn postgres_pair() -> Option<(Server, Server)> {
    let (url, _) = test_database();
    if !url.starts_with("postgres") {
        eprintln!("skipped: THAIBOARD_TEST_DATABASE_URL is not a PostgreSQL URL");
        return None;
    }
    let a = Server::start(test_config(&url)).await.unwrap();
    let b = Server::start(test_config(&url)).await.unwrap();
    Some((a, b))
}

/// Starts a server with the test configuration on a new database.
pub async fn start() -> Server {
    let (url, _) = test_database();
    Server::start(test_config(&url)).await.unwrap()
}

/// An HTTP client with its own cookie jar, as one browser.
pub struct Client {
    pub http: reqwest::Client,
    pub jar: Arc<reqwest::cookie::Jar>,
    pub base: String,
    pub csrf: String,
    pub user: Value,
}

impl Client {
    /// A visitor with a guest session.
    pub async fn guest(server: &Server) -> Client {
        Client::browser(server, None).await
    }

    /// A browser with its own cookies (and this User-Agent, if given),
    /// holding a guest session.
    pub async fn browser(server: &Server, user_agent: Option<&str>) -> Client {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let mut http = reqwest::Client::builder().cookie_provider(jar.clone());
        if let Some(agent) = user_agent {
            http = http.user_agent(agent);
        }
        let http = http.build().unwrap();
        let base = format!("http://{}", server.addr);
        let mut c = Client {
            http,
            jar,
            base,
            csrf: String::new(),
            user: Value::Null,
        };
        let (status, body) = c.get("/api/session").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        c.csrf = body["csrf"].as_str().unwrap().to_string();
        c.user = body["user"].clone();
        c
    }

    /// A visitor who registered a new account.
    pub async fn registered(server: &Server, prefix: &str) -> Client {
        let mut c = Client::guest(server).await;
        let name = unique(prefix);
        let (status, body) = c
            .post(
                "/api/register",
                json!({ "username": name, "password": "correct horse" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        c.csrf = body["csrf"].as_str().unwrap().to_string();
        c.user = body["user"].clone();
        c
    }

    pub fn name(&self) -> String {
        self.user["username"].as_str().unwrap().to_string()
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let status = resp.status();
        let text = resp.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(path, Some(&self.csrf), body.to_string())
            .await
    }

    pub async fn post_raw(
        &self,
        path: &str,
        csrf: Option<&str>,
        body: String,
    ) -> (StatusCode, Value) {
        self.request("POST", path, csrf, body).await
    }

    /// Posts `body` to `path` with this client's CSRF token and the
    /// `headers` besides: status, body (JSON, or the text as a string) and
    /// the answer's headers.
    pub async fn post_with(
        &self,
        path: &str,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value, reqwest::header::HeaderMap) {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .header("x-csrf-token", &self.csrf)
            .body(body.to_string());
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let resp = req.send().await.unwrap();
        let (status, answer) = (resp.status(), resp.headers().clone());
        let text = resp.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body, answer)
    }

    /// Sends `body` as JSON with `method`, and `csrf` if given.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        csrf: Option<&str>,
        body: String,
    ) -> (StatusCode, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(csrf) = csrf {
            req = req.header("x-csrf-token", csrf);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let text = resp.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Sends `body` with `method` (PUT, DELETE...) and this client's CSRF token.
    pub async fn send(&self, method: &str, path: &str, body: Value) -> (StatusCode, Value) {
        self.request(method, path, Some(&self.csrf), body.to_string())
            .await
    }

    /// The `Cookie` header this client sends.
    pub fn cookie_header(&self) -> Option<String> {
        use reqwest::cookie::CookieStore;
        self.jar
            .cookies(&self.base.parse().unwrap())
            .map(|h| h.to_str().unwrap().to_string())
    }

    /// Opens the game's WebSocket with this client's cookie; returns it after the snapshot.
    pub async fn socket(&self, game: &str) -> (Ws, Value) {
        let mut ws = self.connect(&format!("/api/games/{game}/ws")).await;
        let snap = ws.next_json().await;
        assert_eq!(snap["type"], "snapshot", "{snap}");
        (ws, snap)
    }

    /// Opens the WebSocket at `path` with this client's cookie.
    pub async fn connect(&self, path: &str) -> Ws {
        let url = format!("{}{path}", self.base.replace("http://", "ws://"));
        let mut req = url.into_client_request().unwrap();
        if let Some(c) = self.cookie_header() {
            req.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        Ws { stream }
    }

    /// Opens the multi-game WebSocket (`/api/ws`) with this client's cookie.
    pub async fn multi_socket(&self) -> Ws {
        self.connect("/api/ws").await
    }

    /// Opens the live lobby socket (`/api/lobby/ws`) with this client's cookie.
    pub async fn lobby_socket(&self) -> Ws {
        self.connect("/api/lobby/ws").await
    }

    /// `GET path`, which must answer 200; its body.
    pub async fn get_ok(&self, path: &str) -> Value {
        let (s, v) = self.get(path).await;
        assert_eq!(s, StatusCode::OK, "{path}: {v}");
        v
    }

    /// Posts `body` to `path`, checks that it succeeded (200 or 201) and returns the answer.
    pub async fn post_ok(&self, path: &str, body: Value) -> Value {
        let (s, v) = self.post(path, body.clone()).await;
        assert!(s.is_success(), "{path} {body}: {s} {v}");
        v
    }

    /// Posts `body` to `path` and checks that it is refused with `status` and error `code`.
    pub async fn refused(&self, path: &str, body: Value, status: StatusCode, code: &str) {
        let (s, e) = self.post(path, body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (status, Some(code)),
            "{path} {body}: {e}"
        );
    }

    /// Creates a challenge and returns the game id.
    pub async fn challenge(&self, body: Value) -> String {
        let (status, game) = self.post("/api/challenges", body).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game["id"].as_str().unwrap().to_string()
    }
}

/// A WebSocket client.
pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Ws {
    pub async fn send_json(&mut self, v: Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    /// The next JSON text message (within 10 s).
    pub async fn next_json(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("timed out waiting for a WebSocket message")
                .expect("socket closed")
                .expect("socket error");
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// Skips messages until one of type `kind`.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next_json().await;
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// Reads until the server's `session_ended` error (skipping what
    /// comes before it), then checks that the server closes the socket
    /// with nothing more said.
    pub async fn ends_with_session_ended(&mut self) {
        let e = self.next_of("error").await;
        assert_eq!(e["error"], "session_ended", "{e}");
        loop {
            let next = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("the server closes the socket");
            match next {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(Message::Text(t))) => panic!("a message after the session ended: {t}"),
                Some(Ok(_)) => {}
            }
        }
    }

    /// Skips messages until an update that brings the game to `ply` moves.
    pub async fn update_at(&mut self, ply: usize) -> Value {
        loop {
            let v = self.next_of("update").await;
            if v["game"]["ply"] == ply {
                return v;
            }
        }
    }

    /// Sends a command and waits for its answer (`ack` or `error`), skipping updates.
    pub async fn command(&mut self, mut v: Value, id: u64) -> Value {
        v["id"] = json!(id);
        self.send_json(v).await;
        loop {
            let r = self.next_json().await;
            if (r["type"] == "ack" || r["type"] == "error") && r["id"] == json!(id) {
                return r;
            }
        }
    }
}

/// Two registered players in a started game of `variant`; returns (white, black, game id).
pub async fn started_game(
    server: &Server,
    variant: &str,
    extra: Value,
) -> (Client, Client, String) {
    let a = Client::registered(server, "white").await;
    let b = Client::registered(server, "black").await;
    let mut body = json!({ "variant": variant, "color": "white" });
    if let (Some(obj), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    let id = a.challenge(body).await;
    let (status, game) = b.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["status"], "ongoing");
    assert_eq!(game["white"]["username"], a.user["username"]);
    (a, b, id)
}

/// Plays `plies` moves over the two players' sockets, White first, from
/// `game` (the game as last seen): `next(ply, game)` gives the text to send
/// and the engine form the opponent's update must show. Checks every ack
/// and update; returns the game after the last move.
pub async fn play_over_sockets(
    white: &mut Ws,
    black: &mut Ws,
    mut game: Value,
    plies: std::ops::Range<usize>,
    mut next: impl FnMut(usize, &Value) -> (String, String),
) -> Value {
    for ply in plies {
        let (text, uci) = next(ply, &game);
        let (mover, other) = if ply % 2 == 0 {
            (&mut *white, &mut *black)
        } else {
            (&mut *black, &mut *white)
        };
        let ack = mover
            .command(
                json!({ "type": "move", "move": text, "ply": ply }),
                ply as u64,
            )
            .await;
        assert_eq!(ack["type"], "ack", "{text}: {ack}");
        let update = other.update_at(ply + 1).await;
        assert_eq!(update["action"]["uci"], uci, "{update}");
        game = update["game"].clone();
    }
    game
}

/// The legal move list of a game view, in engine form.
pub fn legal_ucis(game: &Value) -> Vec<String> {
    game["legal"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|m| m["uci"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A server on `url` with the engine paused (`engine_searches: 0`) or allowed.
pub async fn start_on(url: &str, engine: bool) -> Server {
    let mut config = test_config(url);
    config.engine_searches = if engine { 2 } else { 0 };
    Server::start(config).await.unwrap()
}

/// Reads lobby lists from a lobby socket until `pred` holds for the ids listed (within 10 s).
pub async fn lobby_until(ws: &mut Ws, pred: impl Fn(&[String]) -> bool) -> Vec<String> {
    loop {
        let msg = ws.next_of("lobby").await;
        let ids: Vec<String> = msg["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect();
        if pred(&ids) {
            return ids;
        }
    }
}

/// Sends `n` pings at once (numbered) and reads the `n` answers; every
/// refusal must be `rate_limited` (and name its ping when `named`).
/// Returns (pongs, refusals).
pub async fn ping_flood(ws: &mut Ws, n: usize, named: bool) -> (usize, usize) {
    for i in 0..n {
        ws.send_json(json!({ "type": "ping", "id": i })).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    while pongs + limited < n {
        let m = ws.next_json().await;
        match m["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_eq!(m["error"], "rate_limited", "{m}");
                assert!(
                    !named || m["id"].is_number(),
                    "the refusal names the message: {m}"
                );
                limited += 1;
            }
            _ => {}
        }
    }
    (pongs, limited)
}

/// Plays `n` moves from the start of game `id`, each the first legal move
/// the server lists, by the side to move.
pub async fn play_first_legal(white: &Client, black: &Client, id: &str, n: usize) {
    for i in 0..n {
        let player = if i % 2 == 0 { white } else { black };
        let (_, view) = player.get(&format!("/api/games/{id}")).await;
        let mv = view["legal"][0]["uci"].as_str().unwrap().to_string();
        let (status, body) = player
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
}

/// Plays `moves` from the start of game `id`, alternately by White and Black.
pub async fn play_moves(white: &Client, black: &Client, id: &str, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let player = if i % 2 == 0 { white } else { black };
        let (status, body) = player
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
}

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `test` on a runtime of its own while no other test of this binary
/// that calls this runs. For tests that move a server's time forward: on one
/// PostgreSQL database every server hears of every game, and a server
/// whose time ran days ahead would end other tests' games on time. The
/// runtime, with the test's servers, is gone before the next test starts.
pub fn one_at_a_time(test: impl std::future::Future<Output = ()>) {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(test);
    drop(runtime);
}

/// `path?name=value&...`, each value form-encoded (a FEN's spaces and
/// slashes, a Mak-hot position's colons and commas).
pub fn with_query(path: &str, params: &[(&str, &str)]) -> String {
    let url = reqwest::Url::parse_with_params(&format!("http://localhost{path}"), params)
        .expect("a path and parameters make a URL");
    format!("{}?{}", url.path(), url.query().unwrap_or(""))
}

/// Waits (up to 20 s) until game `id` is at `ply` moves or over; its view.
pub async fn wait_for_ply(c: &Client, id: &str, ply: u64) -> Value {
    for _ in 0..400 {
        let (_, g) = c.get(&format!("/api/games/{id}")).await;
        if g["ply"].as_u64() >= Some(ply) || g["status"] != "ongoing" {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never reached ply {ply}");
}
