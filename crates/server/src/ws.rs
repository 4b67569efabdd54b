//! The game WebSocket: `GET /api/games/{id}/ws`.
//!
//! On connect the server sends `{"type":"snapshot","game":{...}}` (the full
//! game), then `{"type":"update","game":{...},"action":{...}|null}` after
//! every committed change (and a new `snapshot` when another server process
//! changed the game). Players send commands:
//! `{"type":"move","move":"e3e4","ply":4,"id":7}`, `{"type":"resign"}`,
//! `{"type":"draw","action":"offer|accept|decline"}`,
//! `{"type":"count","action":"start|stop"}`, `{"type":"ping"}`; each is
//! answered with `{"type":"ack","id":7}` once committed, or
//! `{"type":"error","id":7,"error":"illegal_move","message":"..."}`.
//! Watchers (no session, or not a player) receive everything and may not act.

use crate::AppState;
use crate::api::command_for;
use crate::auth::{self, Session};
use crate::error::ApiError;
use crate::games::Command;
use crate::ratelimit::Bucket;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    ply: Option<u32>,
    #[serde(default)]
    action: Option<String>,
}

/// Upgrades to the game's WebSocket.
pub async fn game_socket(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Browsers always send Origin on WebSockets: refusing foreign origins
    // stops cross-site pages from acting with a visitor's cookie.
    auth::check_origin(&headers)?;
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::not_found(format!("no game {id:?}")));
    }
    // Fails with 404 before upgrading if there is no such game.
    let snapshot = app.games.view(&id, true).await?;
    let session = auth::session_from_headers(&app, &headers).await?;
    let max = app.config.max_ws_message_bytes;
    Ok(ws
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| run(app, id, session, socket, snapshot))
        .into_response())
}

fn error_json(id: &Option<serde_json::Value>, e: &ApiError) -> String {
    serde_json::json!({ "type": "error", "id": id, "error": e.code, "message": e.message, "status": e.status.as_u16() })
        .to_string()
}

async fn run(
    app: AppState,
    id: String,
    session: Option<Session>,
    socket: WebSocket,
    snapshot: crate::games::GameView,
) {
    let mut rx = app.hub.subscribe(&id);
    let (mut sink, mut stream) = socket.split();
    let first = serde_json::json!({ "type": "snapshot", "game": snapshot }).to_string();
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let rate = app.config.ws_rate_per_sec;
    let mut bucket = Bucket::new(rate * 2.0);
    loop {
        tokio::select! {
            update = rx.recv() => {
                let text: String = match update {
                    Ok(m) => m.to_string(),
                    Err(RecvError::Lagged(_)) => match app.games.view(&id, true).await {
                        Ok(v) => serde_json::json!({ "type": "snapshot", "game": v }).to_string(),
                        Err(_) => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
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
                    let e = ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, "rate_limited", "too many messages: slow down");
                    let _ = sink.send(Message::Text(error_json(&None, &e).into())).await;
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
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return error_json(
                &None,
                &ApiError::bad_request("malformed_message", format!("bad JSON message: {e}")),
            );
        }
    };
    let cmd = match msg.kind.as_str() {
        "ping" => return serde_json::json!({ "type": "pong", "id": msg.id }).to_string(),
        "move" => match msg.mv {
            Some(mv) => Ok(Command::Move {
                text: mv,
                ply: msg.ply,
            }),
            None => Err(ApiError::bad_request(
                "malformed_message",
                "a move message needs \"move\"",
            )),
        },
        "resign" => Ok(Command::Resign),
        kind @ ("draw" | "count") => command_for(kind, msg.action.as_deref().unwrap_or("")),
        other => Err(ApiError::bad_request(
            "malformed_message",
            format!("unknown message type {other:?}"),
        )),
    };
    let result = match (cmd, session) {
        (Err(e), _) => Err(e),
        (Ok(_), None) => Err(ApiError::unauthorized(
            "no_session",
            "watchers cannot act: log in and reconnect",
        )),
        (Ok(cmd), Some(s)) => app.games.act(&s.user, game_id, cmd).await.map(|_| ()),
    };
    match result {
        Ok(()) => serde_json::json!({ "type": "ack", "id": msg.id }).to_string(),
        Err(e) => error_json(&msg.id, &e),
    }
}
