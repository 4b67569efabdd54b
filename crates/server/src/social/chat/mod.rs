//! Game chat, as lichess has it: two rooms per game.
//!
//! - `player`: the players' own room; only they read and write it.
//! - `spectator`: everyone else's; any registered user who is not playing
//!   writes it, and the players read it once the game is over (not while
//!   they play, so that nobody is helped). A player's bot may post there
//!   through the Bot API, as on lichess.
//!
//! A line is 1 to [`MAX_CHAT_CHARS`] characters of text (control characters
//! removed), stored, then sent to the room's live channel (the game sockets
//! of those who may read it), to the players' Bot API game streams, and to
//! the other server processes (PostgreSQL). Each writer has a rate limit per
//! game ([`CHAT_RATE_PER_SEC`], bursts of [`CHAT_BURST`]). Any reader may
//! report a line; reports are kept for moderators.

pub mod store;

use crate::AppState;
use crate::account::auth::{Actor, User, Viewer};
use crate::bot_api::hub::Note;
use crate::game::GameView;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::ratelimit::Bucket;
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
pub use store::ChatLine;

/// Longest chat line, in characters (lichess's limit).
pub const MAX_CHAT_CHARS: usize = 140;
/// Lines per second a writer may send in one game, sustained.
pub const CHAT_RATE_PER_SEC: f64 = 0.5;
/// Lines a writer may send at once before the rate applies.
pub const CHAT_BURST: f64 = 5.0;
/// Longest reason given with a report, in characters.
pub const MAX_REPORT_CHARS: usize = 500;
/// Most writers' buckets kept; past it they are forgotten (and start full).
const MAX_BUCKETS: usize = 100_000;
/// The PostgreSQL channel that carries chat lines to other processes.
pub const CHAT_CHANNEL: &str = "thaiboard_chat";

/// A game's chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The players'.
    Player,
    /// Everyone else's.
    Spectator,
}

impl Room {
    /// Its name in storage and messages.
    pub fn name(self) -> &'static str {
        match self {
            Room::Player => "player",
            Room::Spectator => "spectator",
        }
    }

    /// The room named `name`.
    pub fn parse(name: &str) -> ApiResult<Room> {
        match name {
            "player" => Ok(Room::Player),
            "spectator" => Ok(Room::Spectator),
            _ => Err(ApiError::bad_request(
                "invalid_room",
                format!("room must be player or spectator, not {name:?}"),
            )),
        }
    }

    /// The hub channel of this room of game `id` (what its readers' sockets follow).
    pub fn channel(self, id: &str) -> String {
        format!("{id}/chat/{}", self.name())
    }
}

/// Whether `user` plays in `game`.
fn plays(game: &GameView, user: &User) -> bool {
    [game.white.as_ref(), game.black.as_ref()]
        .into_iter()
        .flatten()
        .any(|p| p.id == user.id)
}

/// The rooms `user` (`None`: a visitor without a session) may read in `game`.
pub fn readable(game: &GameView, user: Option<&User>) -> Vec<Room> {
    match user {
        Some(u) if plays(game, u) => {
            if game.status.is_over() {
                vec![Room::Player, Room::Spectator]
            } else {
                vec![Room::Player]
            }
        }
        _ => vec![Room::Spectator],
    }
}

/// The one room whose live channel a game socket of `user` follows: the
/// players' for a player (spectators' lines reach it too once the game is
/// over, see [`post_line`]), the spectators' for everyone else.
pub fn socket_room(game: &GameView, user: Option<&User>) -> Room {
    match user {
        Some(u) if plays(game, u) => Room::Player,
        _ => Room::Spectator,
    }
}

/// Checks that `user` may write in `room` of `game` (`bot`: through the Bot API).
fn check_writer(game: &GameView, user: &User, room: Room, bot: bool) -> ApiResult<()> {
    let player = plays(game, user);
    match room {
        Room::Player if player => Ok(()),
        Room::Player => Err(ApiError::forbidden(
            "not_a_player",
            "only the players write in the players' chat",
        )),
        Room::Spectator if player && !bot && !game.status.is_over() => Err(ApiError::forbidden(
            "playing",
            "players write in their own chat while they play",
        )),
        Room::Spectator if user.guest => Err(ApiError::forbidden(
            "guest",
            "log in to write in the spectators' chat",
        )),
        Room::Spectator => Ok(()),
    }
}

/// The text of a line as it is kept: control characters removed, trimmed,
/// 1 to [`MAX_CHAT_CHARS`] characters.
pub fn clean_text(text: &str) -> ApiResult<String> {
    let cleaned: String = text.chars().filter(|c| !c.is_control()).collect();
    let cleaned = cleaned.trim();
    crate::infra::text::refuse_invisible("chat line", cleaned)?;
    let n = cleaned.chars().count();
    if n == 0 || n > MAX_CHAT_CHARS {
        return Err(ApiError::bad_request(
            "invalid_text",
            format!("a chat line has 1 to {MAX_CHAT_CHARS} characters, not {n}"),
        ));
    }
    Ok(cleaned.to_string())
}

/// The writers' rate limits, by (user, game).
#[derive(Default)]
pub struct ChatLimits(Mutex<HashMap<(String, String), Bucket>>);

impl ChatLimits {
    fn allow(&self, user: &str, game: &str) -> bool {
        let mut map = self.0.lock().expect("chat limits lock");
        if map.len() >= MAX_BUCKETS {
            map.clear();
        }
        map.entry((user.to_string(), game.to_string()))
            .or_insert_with(|| Bucket::new(CHAT_BURST))
            .take(CHAT_RATE_PER_SEC, CHAT_BURST)
    }
}

/// A line as sockets receive it: `{"type":"chat","game":ID,"line":{...}}`.
fn socket_message(game_id: &str, line: &ChatLine) -> String {
    serde_json::json!({ "type": "chat", "game": game_id, "line": line }).to_string()
}

/// Posts `text` by `user` in `room` of game `game_id`: checked, stored and
/// sent to the room's readers (here, in the Bot API streams and in the
/// other processes). `bot`: through the Bot API.
pub async fn post_line(
    app: &AppState,
    game_id: &str,
    user: &User,
    room: Room,
    text: &str,
    bot: bool,
) -> ApiResult<ChatLine> {
    let text = clean_text(text)?;
    let game = app.games.view_for(game_id, false, &user.id).await?;
    if matches!(
        game.status,
        crate::game::Status::Open | crate::game::Status::Cancelled
    ) {
        return Err(ApiError::conflict(
            "not_started",
            "the chat opens when the game starts",
        ));
    }
    check_writer(&game, user, room, bot)?;
    if !app.chat_limits.allow(&user.id, game_id) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "chat_rate_limited",
            "you are writing too fast: wait a moment",
        ));
    }
    let line = store::add(&app.db, game_id, user, room.name(), &text, app.now_ms()).await?;
    let message = socket_message(game_id, &line);
    app.hub
        .publish_text(&room.channel(game_id), || message.clone());
    // Once the game is over, the players read the spectators' room too.
    let to_players_too = room == Room::Spectator && game.status.is_over();
    if to_players_too {
        app.hub
            .publish_text(&Room::Player.channel(game_id), || message.clone());
    }
    let bot_line = serde_json::json!({ "type": "chatLine", "room": line.room, "username": line.username, "text": line.text });
    app.bots.send_game(
        game_id,
        Note {
            to: None,
            line: bot_line.to_string(),
        },
    );
    relay(app, game_id, room, &message).await;
    if to_players_too {
        relay(app, game_id, Room::Player, &message).await;
    }
    Ok(line)
}

/// Tells the other processes (PostgreSQL) about a line, for their sockets.
async fn relay(app: &AppState, game_id: &str, room: Room, message: &str) {
    if app.db.backend != crate::infra::db::Backend::Postgres {
        return;
    }
    let payload = serde_json::json!({
        "from": app.games.instance, "channel": room.channel(game_id), "message": message,
    });
    let _ = store::notify(&app.db, CHAT_CHANNEL, &payload.to_string()).await;
}

/// A line relayed by another process: to the sockets here (this process's
/// own, named by `instance`, are skipped).
pub fn receive_remote(hub: &crate::infra::hub::Hub, instance: &str, payload: &str) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(payload) else {
        return;
    };
    if v["from"] == instance {
        return;
    }
    if let (Some(channel), Some(message)) = (v["channel"].as_str(), v["message"].as_str()) {
        hub.publish_text(channel, || message.to_string());
    }
}

/// The chat of a game as one reader sees it.
#[derive(Serialize)]
pub struct ChatView {
    /// The rooms this reader may read, and their lines.
    pub rooms: Vec<RoomView>,
    /// The room this reader writes in (none: may not write).
    pub writes: Option<Room>,
}

/// One room's lines.
#[derive(Serialize)]
pub struct RoomView {
    /// Which room.
    pub room: Room,
    /// Its lines, in order.
    pub lines: Vec<ChatLine>,
}

/// `GET /api/games/{id}/chat`: the rooms the viewer may read.
async fn read(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<ChatView>> {
    check_id(&id)?;
    let user = s.as_ref().map(|s| &s.user);
    let game = match user {
        Some(u) => app.games.view_for(&id, false, &u.id).await?,
        None => app.games.view(&id, false).await?,
    };
    let mut rooms = Vec::new();
    for room in readable(&game, user) {
        let lines = store::lines(&app.db, &id, room.name()).await?;
        rooms.push(RoomView { room, lines });
    }
    let writes = user.and_then(|u| {
        let room = if plays(&game, u) {
            Room::Player
        } else {
            Room::Spectator
        };
        check_writer(&game, u, room, false).ok().map(|_| room)
    });
    Ok(Json(ChatView { rooms, writes }))
}

/// Body of `POST /api/games/{id}/chat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewLine {
    /// `player` or `spectator` (default: the writer's own room).
    room: Option<String>,
    text: String,
}

/// `POST /api/games/{id}/chat`: writes a line.
async fn write(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(body): Body<NewLine>,
) -> ApiResult<(StatusCode, Json<ChatLine>)> {
    check_id(&id)?;
    let room = match body.room.as_deref() {
        Some(name) => Room::parse(name)?,
        None => {
            let game = app.games.view_for(&id, false, &s.user.id).await?;
            if plays(&game, &s.user) {
                Room::Player
            } else {
                Room::Spectator
            }
        }
    };
    let line = post_line(&app, &id, &s.user, room, &body.text, false).await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// Body of `POST /api/games/{id}/chat/{seq}/report`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Report {
    reason: Option<String>,
}

/// `POST /api/games/{id}/chat/{seq}/report`: reports a line the reporter may read.
async fn report(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path((id, seq)): Path<(String, i64)>,
    Body(body): Body<Report>,
) -> ApiResult<Json<serde_json::Value>> {
    check_id(&id)?;
    let reason: String = body
        .reason
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if reason.chars().count() > MAX_REPORT_CHARS {
        return Err(ApiError::bad_request(
            "invalid_reason",
            format!("a reason has at most {MAX_REPORT_CHARS} characters"),
        ));
    }
    let game = app.games.view_for(&id, false, &s.user.id).await?;
    // One answer for a line that does not exist and for one the reporter
    // cannot read: nobody learns how many lines a room they cannot read holds.
    let unknown = || {
        ApiError::not_found(format!(
            "game {id} has no chat line {seq} that you can read"
        ))
    };
    let room = store::room_of(&app.db, &id, seq)
        .await?
        .ok_or_else(unknown)?;
    if !readable(&game, Some(&s.user))
        .iter()
        .any(|r| r.name() == room)
    {
        return Err(unknown());
    }
    let new = store::report(&app.db, &id, seq, &s.user, reason.trim(), app.now_ms()).await?;
    Ok(Json(serde_json::json!({ "ok": true, "new": new })))
}

/// The chat routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games/{id}/chat", get(read).post(write))
        .route("/games/{id}/chat/{seq}/report", post(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned_and_limited() {
        assert_eq!(clean_text("  hello\u{7}\n ").unwrap(), "hello");
        assert_eq!(
            clean_text("<b>hi</b>").unwrap(),
            "<b>hi</b>",
            "kept as text"
        );
        assert!(clean_text(" \n\t").is_err());
        assert!(clean_text(&"x".repeat(MAX_CHAT_CHARS)).is_ok());
        let e = clean_text(&"ก".repeat(MAX_CHAT_CHARS + 1)).unwrap_err();
        assert_eq!(e.code, "invalid_text");
    }

    #[test]
    fn a_writer_is_limited_per_game() {
        let limits = ChatLimits::default();
        let sent = (0..20).filter(|_| limits.allow("u", "g")).count();
        assert_eq!(sent, CHAT_BURST as usize);
        assert!(limits.allow("u", "other game"));
        assert!(limits.allow("v", "g"));
    }
}
