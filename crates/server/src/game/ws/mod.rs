//! The game WebSocket: `GET /api/games/{id}/ws`.
//!
//! On connect the server sends `{"type":"snapshot","game":{...}}` (the full
//! game), then `{"type":"update","game":{...},"action":{...}|null}` after
//! every committed change (and a new `snapshot` when another server process
//! changed the game). Players send commands:
//! `{"type":"move","move":"e3e4","ply":4,"id":7}`, `{"type":"resign"}`,
//! `{"type":"draw","action":"offer|accept|decline"}`,
//! `{"type":"count","action":"start|stop"}`,
//! `{"type":"takeback","action":"offer|accept|decline"}`, `{"type":"abort"}`,
//! `{"type":"claim"}` (win on time), `{"type":"ping"}`; each is
//! answered with `{"type":"ack","id":7}` once committed, or
//! `{"type":"error","id":7,"error":"illegal_move","message":"..."}`.
//! Watchers (no session, or not a player) receive everything and may not act;
//! every socket hears `{"type":"spectators","count":N}`, the number of
//! watchers, when it connects and whenever it changes ([`spectators`]).
//!
//! `GET /api/ws` is one connection for many games (a player's many
//! correspondence games, a lobby page, the load generator): send
//! `{"type":"subscribe","game":ID}` (answered with that game's `snapshot`,
//! then its updates; every message names its game in `game.id`),
//! `{"type":"unsubscribe","game":ID}`, and the same commands as above with
//! `"game": ID` added. Commands on `/api/ws` run concurrently, so answers
//! may come in another order than the commands (match them by `id`); at
//! most [`MAX_COMMANDS_IN_FLIGHT`] wait at once, more are answered `busy`.

use crate::AppState;
use crate::account::auth::SessionWatch;
use crate::account::auth::{self, Session};
use crate::infra::error::ApiError;
use crate::infra::extract::ClientIp;
use crate::infra::extract::check_id;
use crate::infra::ratelimit::Bucket;
use crate::infra::sessions::Ended;
use crate::infra::socket_limits::SocketSlot;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::RecvError;

pub mod protocol;
pub mod spectators;

pub use protocol::{ClientMessage, Request, error_json, parse};

/// Read buffer of each WebSocket: messages are small (the default 128 KiB
/// buffer costs a large allocation and zeroing per read under load).
pub const SOCKET_BUFFER: usize = 8 * 1024;

/// Most games one multi-game connection may follow.
pub const MAX_SUBSCRIPTIONS: usize = 2000;

/// A user's follows (`subscribe`, `unsubscribe`) per second over all their
/// sockets, as a multiple of their command rate (`--ws-user-rate`).
pub const FOLLOW_RATE_FACTOR: f64 = 10.0;

/// Most commands of one multi-game connection carried out at the same time.
pub const MAX_COMMANDS_IN_FLIGHT: usize = 64;

/// Upgrades to the game's WebSocket.
pub async fn game_socket(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Browsers always send Origin on WebSockets: refusing foreign origins
    // stops cross-site pages from acting with a visitor's cookie.
    auth::check_origin(&headers)?;
    check_id(&id)?;
    // Fails with 404 before upgrading if there is no such game (the
    // snapshot itself is read once the socket follows the game).
    app.games.view(&id, false).await?;
    let visitor = Visitor::new(&app, ip, &headers).await?;
    Ok(configured(ws, &app)
        .on_upgrade(move |socket| run(app, id, visitor, socket))
        .into_response())
}

/// Who holds a socket: their session (watched for its end) and their
/// places under the socket caps, kept for the socket's life.
pub(crate) struct Visitor {
    /// The session, and word of its end.
    pub watch: SessionWatch,
    /// The socket's places under the per-address and per-user caps.
    pub slot: SocketSlot,
}

impl Visitor {
    /// The visitor of an upgrade request from `ip`: refused (429) when
    /// their address or account has too many sockets open.
    async fn new(
        app: &AppState,
        ip: std::net::IpAddr,
        headers: &HeaderMap,
    ) -> Result<Self, ApiError> {
        let session = auth::session_from_headers(app, headers).await?;
        let slot = app
            .socket_limits
            .open(ip, session.as_ref().map(|s| s.user.id.as_str()))?;
        Ok(Visitor {
            watch: app.sessions.watch(session),
            slot,
        })
    }
}

/// The error sent when a user's sockets together send too fast.
fn user_rate_limited(id: &Option<serde_json::Value>) -> String {
    let e = ApiError::new(
        axum::http::StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "too many messages from your account's sockets together: slow down",
    );
    error_json(id, &e)
}

/// Resolves when the socket's session ends (see [`SessionWatch::ended`]);
/// a missed note is checked against the cache and the database.
async fn session_ended(app: &AppState, watch: &mut SessionWatch) -> Ended {
    watch
        .ended(|hash| {
            let app = app.clone();
            async move {
                auth::session_by_hash(&app, &hash)
                    .await
                    .map_or(true, |s| s.is_some())
            }
        })
        .await
}

/// Resolves when the server begins to stop.
async fn server_stopping(app: &AppState) {
    let mut stopping = app.stopping.clone();
    if stopping.wait_for(|s| *s).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Tells the client the server is restarting (`{"type":"restarting"}`,
/// then a close with code 1012), so that it reconnects.
async fn close_restarting<S>(sink: &mut S)
where
    S: futures_util::Sink<Message> + Unpin,
{
    let note = serde_json::json!({ "type": "restarting", "message": "server restarting: reconnect in a moment" });
    let _ = sink.send(Message::Text(note.to_string().into())).await;
    let frame = axum::extract::ws::CloseFrame {
        code: axum::extract::ws::close_code::RESTART,
        reason: Utf8Bytes::from_static("server restarting"),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
}

/// A socket's liveness: a ping every [`crate::Config::ws_ping_secs`]; a
/// socket that sent nothing (not even the pong a browser answers a ping
/// with) for two of those periods is dead, and closed, so that a client
/// that vanished without closing holds no place and no memory.
pub(crate) struct Liveness {
    interval: Option<tokio::time::Interval>,
    silent: u32,
}

impl Liveness {
    /// Pings as configured (none when `ws_ping_secs` is 0).
    pub(crate) fn new(app: &AppState) -> Self {
        let secs = app.config.ws_ping_secs;
        let interval = (secs > 0).then(|| {
            let period = std::time::Duration::from_secs(secs);
            let mut i = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
            i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            i
        });
        Liveness {
            interval,
            silent: 0,
        }
    }

    /// The client sent something: it is alive.
    pub(crate) fn heard(&mut self) {
        self.silent = 0;
    }

    /// Resolves at the next ping time: `true` to send a ping, `false` when
    /// two pings went unanswered and the socket must close.
    pub(crate) async fn tick(&mut self) -> bool {
        match &mut self.interval {
            Some(i) => {
                i.tick().await;
                self.silent += 1;
                self.silent <= 2
            }
            None => std::future::pending().await,
        }
    }
}

/// Why a socket must close: its session ended, or the server is stopping.
pub(crate) enum Closing {
    /// The session ended (logout or expiry).
    SessionEnded(Ended),
    /// The server is stopping: the client should reconnect.
    Restarting,
}

/// Resolves when a socket must close (see [`Closing`]).
pub(crate) async fn must_close(app: &AppState, watch: &mut SessionWatch) -> Closing {
    tokio::select! {
        why = session_ended(app, watch) => Closing::SessionEnded(why),
        _ = server_stopping(app) => Closing::Restarting,
    }
}

/// Before a stop: waits (at most `grace`) for the commands of a multi-game
/// socket still being carried out, sending their answers and anything else
/// queued for the client, so that every command committed is acknowledged
/// before the socket closes and no write is left running when the server
/// is gone.
async fn finish_commands<S>(
    in_flight: &std::sync::Arc<tokio::sync::Semaphore>,
    rx: &mut tokio::sync::mpsc::Receiver<Utf8Bytes>,
    sink: &mut S,
    grace: std::time::Duration,
) where
    S: futures_util::Sink<Message> + Unpin,
{
    let all = in_flight
        .clone()
        .acquire_many_owned(MAX_COMMANDS_IN_FLIGHT as u32);
    tokio::pin!(all);
    let deadline = tokio::time::sleep(grace);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            _ = &mut all => break,
            _ = &mut deadline => break,
            Some(text) = rx.recv() => {
                if sink.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
        }
    }
    // The last answers, sent before their commands gave their places back.
    while let Ok(text) = rx.try_recv() {
        if sink.send(Message::Text(text)).await.is_err() {
            return;
        }
    }
}

/// Tells the client why its socket closes, and closes it.
pub(crate) async fn close<S>(sink: &mut S, why: Closing)
where
    S: futures_util::Sink<Message> + Unpin,
{
    match why {
        Closing::SessionEnded(why) => close_ended(sink, why).await,
        Closing::Restarting => close_restarting(sink).await,
    }
}

/// Tells the client why its session ended, and closes the socket.
async fn close_ended<S>(sink: &mut S, why: Ended)
where
    S: futures_util::Sink<Message> + Unpin,
{
    let e = ApiError::unauthorized("session_ended", why.message());
    let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
    let frame = axum::extract::ws::CloseFrame {
        code: axum::extract::ws::close_code::POLICY,
        reason: Utf8Bytes::from_static("session ended"),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
}

async fn run(app: AppState, id: String, visitor: Visitor, socket: WebSocket) {
    let Visitor { mut watch, slot } = visitor;
    let session = watch.session().cloned();
    // Follow the game first, then read it: a change made in between comes
    // both in the snapshot and as an update (the client drops the repeat);
    // read before following, it would be lost.
    let mut rx = app.hub.subscribe(&id);
    let Ok(snapshot) = app.games.view(&id, true).await else {
        return;
    };
    // The chat room this viewer follows, as it stood at connection time.
    let user = session.as_ref().map(|s| &s.user);
    let mut chat = app
        .hub
        .subscribe(&crate::social::chat::socket_room(&snapshot, user).channel(&id));
    let (mut sink, mut stream) = socket.split();
    let first = serde_json::json!({ "type": "snapshot", "game": snapshot }).to_string();
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    // A watcher who plays no part takes a seat in the spectator count (its
    // arrival is announced to every socket of the game, this one included);
    // a player is told the count as it stands.
    let plays = user.is_some_and(|u| {
        games::Color::BOTH
            .into_iter()
            .any(|side| snapshot.player(side).is_some_and(|p| p.id == u.id))
    });
    let _seat = if plays {
        let count = app.spectators.count(&id);
        let note = serde_json::json!({ "type": "spectators", "count": count }).to_string();
        if sink.send(Message::Text(note.into())).await.is_err() {
            return;
        }
        None
    } else {
        Some(app.spectators.join(&app.hub, &id))
    };
    let rate = app.config.ws_rate_per_sec;
    let mut bucket = Bucket::new(rate * 2.0);
    let mut liveness = Liveness::new(&app);
    loop {
        tokio::select! {
            why = must_close(&app, &mut watch) => {
                close(&mut sink, why).await;
                break;
            }
            alive = liveness.tick() => {
                if !alive || sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            update = rx.recv() => {
                let text: Utf8Bytes = match update {
                    Ok(m) => m,
                    Err(RecvError::Lagged(_)) => match app.games.view(&id, true).await {
                        Ok(v) => serde_json::json!({ "type": "snapshot", "game": v }).to_string().into(),
                        Err(_) => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if sink.send(Message::Text(text)).await.is_err() {
                    break;
                }
            }
            line = chat.recv() => match line {
                Ok(text) => if sink.send(Message::Text(text)).await.is_err() { break },
                // A lagged chat skips lines (they are not worth a resend).
                Err(RecvError::Lagged(_)) => {}
                // The hub keeps a channel while anyone follows it: not expected.
                Err(RecvError::Closed) => break,
            },
            incoming = stream.next() => {
                liveness.heard();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::bad_request("malformed_message", "send JSON text messages");
                        let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        // Oversized or broken frames end the connection with a reason.
                        let e = ApiError::bad_request("malformed_message", format!("bad WebSocket message: {e}"));
                        let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
                        break;
                    }
                };
                if rate > 0.0 && !bucket.take(rate, rate * 2.0) {
                    let id = serde_json::from_str::<serde_json::Value>(text.as_str()).ok().and_then(|v| v.get("id").cloned());
                    let e = ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, "rate_limited", "too many messages: slow down");
                    let _ = sink.send(Message::Text(error_json(&id, &e).into())).await;
                    continue;
                }
                if !slot.allow_message() {
                    let id = serde_json::from_str::<serde_json::Value>(text.as_str()).ok().and_then(|v| v.get("id").cloned());
                    let _ = sink.send(Message::Text(user_rate_limited(&id).into())).await;
                    continue;
                }
                let reply = handle(&app, &id, session.as_ref(), text.as_str()).await;
                if sink.send(Message::Text(reply.into())).await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn handle(app: &AppState, game_id: &str, session: Option<&Session>, text: &str) -> String {
    match parse(text) {
        Ok(msg) => handle_message(app, game_id, session, msg).await,
        Err(refused) => refused.to_json(),
    }
}

async fn handle_message(
    app: &AppState,
    game_id: &str,
    session: Option<&Session>,
    msg: ClientMessage,
) -> String {
    let cmd = match msg.request {
        Request::Ping => return serde_json::json!({ "type": "pong", "id": msg.id }).to_string(),
        Request::Act(cmd) => Ok(cmd),
        Request::Subscribe | Request::Unsubscribe => Err(ApiError::bad_request(
            "malformed_message",
            "subscribe and unsubscribe are for /api/ws: this socket follows its own game",
        )),
    };
    let result = match (cmd, session) {
        (Err(e), _) => Err(e),
        (Ok(_), None) => Err(ApiError::unauthorized(
            "no_session",
            "watchers cannot act: log in and reconnect",
        )),
        // The session is checked on every command: a logout or expiry
        // since the socket opened refuses it (the cache makes this cheap).
        (Ok(cmd), Some(s)) => match auth::still_valid(app, s).await {
            Ok(true) => app
                .games
                .act_with(&s.user, game_id, cmd, false)
                .await
                .map(|_| ()),
            Ok(false) => Err(ApiError::unauthorized(
                "session_ended",
                "your session ended (logged out or expired): log in and reconnect",
            )),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => serde_json::json!({ "type": "ack", "id": msg.id }).to_string(),
        Err(e) => error_json(&msg.id, &e),
    }
}

/// The socket limits every upgrade uses: the configured message size, small
/// read buffers and immediate writes.
fn configured(ws: WebSocketUpgrade, app: &AppState) -> WebSocketUpgrade {
    let max = app.config.max_ws_message_bytes;
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(0)
}

/// Upgrades a same-origin request to a WebSocket served by `serve` with
/// the visitor's session (if any).
pub(crate) async fn upgrade<F, Fut>(
    app: AppState,
    ip: std::net::IpAddr,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
    serve: F,
) -> Result<Response, ApiError>
where
    F: FnOnce(AppState, Visitor, WebSocket) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    auth::check_origin(&headers)?;
    let visitor = Visitor::new(&app, ip, &headers).await?;
    Ok(configured(ws, &app)
        .on_upgrade(move |socket| serve(app, visitor, socket))
        .into_response())
}

/// Upgrades to the multi-game WebSocket.
pub async fn multi_socket(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    upgrade(app, ip, headers, ws, run_multi).await
}

async fn run_multi(app: AppState, visitor: Visitor, socket: WebSocket) {
    let Visitor { mut watch, slot } = visitor;
    let session = watch.session().cloned();
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Utf8Bytes>(256);
    // Commands run beside the connection's loop (a move waits for its
    // commit; the connection meanwhile serves its other games), at most
    // this many at once: more are refused as `busy`.
    let in_flight = std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_COMMANDS_IN_FLIGHT));
    let mut subs: std::collections::HashMap<String, tokio::task::JoinHandle<()>> =
        std::collections::HashMap::new();
    // One connection speaks for many games: ten times a single game's rate,
    // and a burst large enough to subscribe to every game at once.
    let rate = app.config.ws_rate_per_sec * 10.0;
    let burst = (rate * 2.0).max(MAX_SUBSCRIPTIONS as f64 * 2.0);
    let mut bucket = Bucket::new(burst);
    let mut liveness = Liveness::new(&app);
    loop {
        tokio::select! {
            alive = liveness.tick() => {
                if !alive || sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            why = must_close(&app, &mut watch) => {
                if matches!(why, Closing::Restarting) {
                    let grace = std::time::Duration::from_millis(app.config.shutdown_grace_ms);
                    finish_commands(&in_flight, &mut rx, &mut sink, grace).await;
                }
                close(&mut sink, why).await;
                break;
            }
            Some(text) = rx.recv() => {
                if sink.send(Message::Text(text)).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
                liveness.heard();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::bad_request("malformed_message", "send JSON text messages");
                        let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        let e = ApiError::bad_request("malformed_message", format!("bad WebSocket message: {e}"));
                        let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
                        break;
                    }
                };
                let msg = match parse(text.as_str()) {
                    Ok(m) => m,
                    Err(refused) => {
                        let _ = sink.send(Message::Text(refused.to_json().into())).await;
                        continue;
                    }
                };
                let id = msg.id.clone();
                if rate > 0.0 && !bucket.take(rate, burst) {
                    let e = ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, "rate_limited", "too many messages: slow down");
                    let _ = sink.send(Message::Text(error_json(&id, &e).into())).await;
                    continue;
                }
                let allowed = match msg.request {
                    Request::Subscribe | Request::Unsubscribe => slot.allow_follow(),
                    Request::Ping | Request::Act(_) => slot.allow_message(),
                };
                if !allowed {
                    let _ = sink.send(Message::Text(user_rate_limited(&id).into())).await;
                    continue;
                }
                if msg.request == Request::Ping {
                    let pong = serde_json::json!({ "type": "pong", "id": id }).to_string();
                    if sink.send(Message::Text(pong.into())).await.is_err() {
                        break;
                    }
                    continue;
                }
                let Some(game) = msg.game.clone() else {
                    let e = ApiError::bad_request("malformed_message", "name the game: \"game\": ID");
                    let _ = sink.send(Message::Text(error_json(&id, &e).into())).await;
                    continue;
                };
                let reply = match msg.request {
                    Request::Subscribe if subs.contains_key(&game) => serde_json::json!({ "type": "ack", "id": id }).to_string(),
                    Request::Subscribe if subs.len() >= MAX_SUBSCRIPTIONS => error_json(&id, &ApiError::bad_request("too_many_subscriptions", format!("at most {MAX_SUBSCRIPTIONS} games per connection"))),
                    Request::Subscribe => match app.games.view(&game, true).await {
                        Err(e) => error_json(&id, &e),
                        Ok(view) => {
                            // Followed before the snapshot is read, so that no
                            // change falls between the two (see `run`).
                            let mut updates = app.hub.subscribe(&game);
                            let view = app.games.view(&game, true).await.unwrap_or(view);
                            let first = serde_json::json!({ "type": "snapshot", "game": view }).to_string();
                            let (tx, app2, game2) = (tx.clone(), app.clone(), game.clone());
                            let task = tokio::spawn(async move {
                                if tx.send(first.into()).await.is_err() {
                                    return;
                                }
                                loop {
                                    let text = match updates.recv().await {
                                        Ok(m) => m,
                                        Err(RecvError::Lagged(_)) => match app2.games.view(&game2, true).await {
                                            Ok(v) => serde_json::json!({ "type": "snapshot", "game": v }).to_string().into(),
                                            Err(_) => return,
                                        },
                                        Err(RecvError::Closed) => return,
                                    };
                                    if tx.send(text).await.is_err() {
                                        return;
                                    }
                                }
                            });
                            subs.insert(game, task);
                            serde_json::json!({ "type": "ack", "id": id }).to_string()
                        }
                    },
                    Request::Unsubscribe => {
                        if let Some(task) = subs.remove(&game) {
                            task.abort();
                        }
                        serde_json::json!({ "type": "ack", "id": id }).to_string()
                    }
                    _ => {
                        let Ok(permit) = in_flight.clone().try_acquire_owned() else {
                            let e = ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, "busy", "too many commands waiting for an answer: wait for them");
                            let _ = sink.send(Message::Text(error_json(&id, &e).into())).await;
                            continue;
                        };
                        let (app, session, tx) = (app.clone(), session.clone(), tx.clone());
                        tokio::spawn(async move {
                            let reply = handle_message(&app, &game, session.as_ref(), msg).await;
                            let _ = tx.send(reply.into()).await;
                            drop(permit);
                        });
                        continue;
                    }
                };
                if sink.send(Message::Text(reply.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    for task in subs.into_values() {
        task.abort();
    }
}
