//! In-page notifications: `GET /api/notifications/ws`, a socket every page
//! of a logged-in player opens. It sends
//! `{"type":"notify","kind":"challenge"|"your_turn"|"game_over","game":ID,"text":"..."}`
//! when a challenge is made to the player, when a correspondence game waits
//! for their move, and when one of their correspondence games ends. The
//! game service's events are turned into these notes here (a subscriber),
//! in every server process for the sockets it holds.

use crate::AppState;
use crate::game::{GameEvent, Games, Status};
use crate::infra::error::ApiError;
use crate::infra::hub::Hub;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use games::Color;
use serde_json::json;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// The hub channel of user `id`'s notes.
pub fn channel(user_id: &str) -> String {
    format!("user/{user_id}")
}

/// What a correspondence player hears of a game event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tell {
    /// It is their move.
    YourTurn,
    /// The game is over.
    GameOver,
}

impl Tell {
    /// The note's `kind`.
    pub fn name(self) -> &'static str {
        match self {
            Tell::YourTurn => "your_turn",
            Tell::GameOver => "game_over",
        }
    }
}

/// One player to tell something about a correspondence game.
pub struct Told {
    /// The player's user id.
    pub user_id: String,
    /// The opponent's name.
    pub opponent: String,
    /// What to tell.
    pub tell: Tell,
}

/// Who of a correspondence game's players is told what about `event`:
/// the player to move after a move (or, from another process, some change)
/// or the game's start; both players at the end. The in-page notes and the
/// e-mail both follow this.
pub fn correspondence_notes(event: &GameEvent) -> Vec<Told> {
    let g = &event.game;
    if g.time_control.kind != crate::game::clock::TcKind::Correspondence {
        return Vec::new();
    }
    let opponent = |side: Color| {
        g.player(side.other())
            .map_or("your opponent".to_string(), |o| o.username.clone())
    };
    let tell = |side: Color, tell: Tell| {
        g.player(side).map(|p| Told {
            user_id: p.id.clone(),
            opponent: opponent(side),
            tell,
        })
    };
    match g.status {
        Status::Ongoing if event.action.is_some() || event.remote || g.ply == 0 => {
            tell(g.turn, Tell::YourTurn).into_iter().collect()
        }
        Status::Finished => Color::BOTH
            .into_iter()
            .filter_map(|side| tell(side, Tell::GameOver))
            .collect(),
        _ => Vec::new(),
    }
}

/// Sends a note to user `user`'s sockets here, if any.
fn send(hub: &Hub, user: &str, kind: &str, game: &str, text: &str) {
    let channel = channel(user);
    if hub.has_watchers(&channel) {
        let note = json!({ "type": "notify", "kind": kind, "game": game, "text": text });
        hub.publish(&channel, &note);
    }
}

/// A time control in a few words: `5+3` (minutes + seconds), `3 days per
/// move`, `no clock`.
fn tc_text(tc: &crate::game::clock::TimeControl) -> String {
    use crate::game::clock::TcKind;
    match tc.kind {
        TcKind::Live => format!(
            "{}+{}",
            tc.initial_ms as f64 / 60_000.0,
            tc.increment_ms as f64 / 1000.0
        ),
        TcKind::Correspondence => format!("{} days per move", tc.initial_ms as f64 / 86_400_000.0),
        TcKind::None => "no clock".into(),
    }
}

/// Turns the game service's events into notes on the users' channels here.
pub fn subscribe(games: &Arc<Games>, hub: Arc<Hub>) {
    let db = games.db().clone();
    games.subscribe(Box::new(move |event: &GameEvent| {
        let g = &event.game;
        if g.status == Status::Open {
            // A challenge to someone named: who, is read from the store.
            let (db, hub, g) = (db.clone(), hub.clone(), g.clone());
            tokio::spawn(async move {
                if let Ok(Some(to)) = crate::bot_api::store::invited(&db, &g.id).await {
                    let text = format!(
                        "{} challenges you to {} ({})",
                        g.creator.username,
                        g.kind.display_name(),
                        tc_text(&g.time_control)
                    );
                    // The parts too, for the page to say it in the reader's language.
                    let note = json!({ "type": "notify", "kind": "challenge", "game": g.id, "text": text,
                        "from": g.creator.username, "variant": g.variant, "time_control": g.time_control });
                    let channel = channel(&to.id);
                    if hub.has_watchers(&channel) {
                        hub.publish(&channel, &note);
                    }
                }
            });
            return;
        }
        for t in correspondence_notes(event) {
            let text = match t.tell {
                Tell::YourTurn => format!("your move against {}", t.opponent),
                Tell::GameOver => format!("game over: {}", g.result.unwrap_or("*")),
            };
            send(&hub, &t.user_id, t.tell.name(), &g.id, &text);
        }
    }));
}

/// Upgrades to the notifications socket (a session is needed; guests get
/// nothing worth a note, but may connect).
pub async fn socket(
    State(app): State<AppState>,
    crate::infra::extract::ClientIp(ip): crate::infra::extract::ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::game::ws::upgrade(app, ip, headers, ws, run).await
}

async fn run(app: AppState, visitor: crate::game::ws::Visitor, socket: WebSocket) {
    // The slot holds the socket's places under the caps until it closes.
    let crate::game::ws::Visitor {
        mut watch,
        slot: _slot,
    } = visitor;
    let Some(session) = watch.session().cloned() else {
        return;
    };
    let mut notes = app.hub.subscribe(&channel(&session.user.id));
    let (mut sink, mut stream) = socket.split();
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
            note = notes.recv() => match note {
                Ok(text) => if sink.send(Message::Text(text)).await.is_err() { break },
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            },
            incoming = stream.next() => {
                liveness.heard();
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    // Pings keep proxies from closing an idle socket; nothing else is read.
                    Some(Ok(_)) => {}
                }
            }
        }
    }
}
