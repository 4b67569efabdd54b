//! The live lobby: `GET /api/lobby/ws`.
//!
//! On connect the server sends `{"type":"lobby","games":[...]}` (the open
//! challenges the visitor may see, as `GET /api/lobby` lists them), then the
//! list again each time it changes: a challenge made, accepted, withdrawn,
//! here or (through PostgreSQL `LISTEN/NOTIFY`, as game updates travel) on
//! another server process sharing the database. Bursts of changes are sent
//! as one list. The socket takes no commands; a client may send
//! `{"type":"ping"}` and gets `{"type":"pong"}` (at the WebSocket message
//! rate of the game sockets; beyond it, a `rate_limited` error).

use crate::AppState;
use crate::account::auth::Session;
use crate::infra::error::ApiError;
use crate::infra::ratelimit::Bucket;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::RecvError;

/// How long a burst of lobby changes may last before the list is sent, ms.
const SETTLE_MS: u64 = 50;

/// Upgrades to the lobby WebSocket.
pub async fn lobby_socket(
    State(app): State<AppState>,
    crate::infra::extract::ClientIp(ip): crate::infra::extract::ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::game::ws::upgrade(app, ip, headers, ws, run).await
}

async fn list(app: &AppState, session: &Option<Session>) -> Option<String> {
    let games = app
        .games
        .lobby(session.as_ref().map(|s| &s.user))
        .await
        .ok()?;
    Some(serde_json::json!({ "type": "lobby", "games": games }).to_string())
}

async fn run(app: AppState, visitor: crate::game::ws::Visitor, socket: WebSocket) {
    let crate::game::ws::Visitor { mut watch, slot } = visitor;
    let session = watch.session().cloned();
    // Subscribe before the first list so that no change falls in between.
    let mut changes = app.hub.subscribe_lobby();
    let (mut sink, mut stream) = socket.split();
    let Some(first) = list(&app, &session).await else {
        return;
    };
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let rate = app.config.ws_rate_per_sec;
    let mut bucket = Bucket::new(rate * 2.0);
    let mut liveness = crate::game::ws::Liveness::new(&app);
    loop {
        tokio::select! {
            alive = liveness.tick() => {
                if !alive || sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            why = crate::game::ws::must_close(&app, &mut watch) => {
                crate::game::ws::close(&mut sink, why).await;
                break;
            }
            change = changes.recv() => {
                match change {
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
                // Let a burst settle, then send one list for all of it.
                tokio::time::sleep(std::time::Duration::from_millis(SETTLE_MS)).await;
                while let Ok(_) | Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) = changes.try_recv() {}
                let Some(text) = list(&app, &session).await else { break };
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
                liveness.heard();
                let reply = match incoming {
                    Some(Ok(Message::Text(_) | Message::Binary(_))) if (rate > 0.0 && !bucket.take(rate, rate * 2.0)) || !slot.allow_message() => {
                        r#"{"type":"error","error":"rate_limited","message":"too many messages: slow down"}"#
                    }
                    Some(Ok(Message::Text(t))) if t.as_str().contains("\"ping\"") => r#"{"type":"pong"}"#,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Text(_) | Message::Binary(_))) => {
                        r#"{"type":"error","error":"malformed_message","message":"the lobby socket only takes {\"type\":\"ping\"}"}"#
                    }
                    Some(Ok(_)) => continue,
                };
                if sink.send(Message::Text(reply.into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
