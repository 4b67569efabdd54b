//! The game stream `GET /api/bot/game/stream/{id}`: `gameFull` first (and
//! again on every reconnection), the game's chat lines so far, then a
//! `gameState` after every change, `chatLine`s and `opponentGone`, with
//! keep-alive newlines; the stream ends with the game. Changes come from the
//! game's live channel (the one its WebSockets read); each is answered with
//! the game's state read from the service.

use super::tokens::{Bearer, BotPlay};
use super::{ndjson, require_bot, shapes, store, too_many_streams};
use crate::AppState;
use crate::game::GameView;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::check_id;
use axum::extract::{Path, State};
use axum::response::Response;
use games::Color;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

/// The side `user_id` plays in `view`.
pub fn side_of(view: &GameView, user_id: &str) -> ApiResult<Color> {
    Color::BOTH
        .into_iter()
        .find(|s| view.player(*s).is_some_and(|p| p.id == user_id))
        .ok_or_else(|| {
            ApiError::forbidden(
                "not_a_player",
                "this is not your game: a bot streams and plays its own games",
            )
        })
}

/// The `chatLine` of a stored line.
pub fn chat_line(line: &crate::social::chat::ChatLine) -> Value {
    json!({ "type": "chatLine", "room": line.room, "username": line.username, "text": line.text })
}

/// `GET /api/bot/game/stream/{id}`.
pub async fn stream(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    check_id(&id)?;
    require_bot(&auth)?;
    // Subscribed before the first view, so that no change falls between.
    let mut changes = app.hub.subscribe(&id);
    let mut notes = app.bots.subscribe_game(&id);
    let view = app.games.view_for(&id, true, &auth.user.id).await?;
    let side = side_of(&view, &auth.user.id)?;
    let slot = app
        .bots
        .open_stream(&auth.token.id)
        .ok_or_else(too_many_streams)?;
    let white = view.white.as_ref().map(|p| p.id.as_str()).unwrap_or("");
    let black = view.black.as_ref().map(|p| p.id.as_str()).unwrap_or("");
    let bots = (
        store::is_bot(&app.db, white).await?,
        store::is_bot(&app.db, black).await?,
    );
    let created_at = store::created_at(&app.db, store::Made::Game, &id).await?;
    let mut first = vec![shapes::game_full(&view, bots, created_at)];
    for room in ["player", "spectator"] {
        first.extend(
            crate::social::chat::store::lines(&app.db, &id, room)
                .await?
                .iter()
                .map(chat_line),
        );
    }
    let opponent = view.player(side.other()).map(|p| p.id.clone());
    let presence = app.bots.arrive(&id, &auth.user.id, opponent.as_deref());
    let me = auth.user.id.clone();
    let token_id = auth.token.id.clone();
    Ok(ndjson::response(
        (slot, presence),
        move |lines| async move {
            for line in &first {
                if !lines.send(line).await {
                    return;
                }
            }
            let mut version = view.version;
            let mut over = view.status.is_over();
            let mut timer = ndjson::keep_alive_timer();
            while !over {
                let alive = tokio::select! {
                    change = changes.recv() => match change {
                        Err(RecvError::Closed) => false,
                        Ok(_) | Err(RecvError::Lagged(_)) => match app.games.view(&id, true).await {
                            Ok(now) if now.version != version => {
                                version = now.version;
                                over = now.status.is_over();
                                lines.send(&shapes::game_state(&now)).await
                            }
                            Ok(_) => true,
                            Err(_) => false,
                        },
                    },
                    note = notes.recv() => match note {
                        Ok(note) if note.to.as_ref().is_none_or(|to| *to == me) => {
                            lines.send_text(format!("{}\n", note.line)).await
                        }
                        Ok(_) | Err(RecvError::Lagged(_)) => true,
                        Err(RecvError::Closed) => false,
                    },
                    _ = timer.tick() => ndjson::keep_alive_while(&lines, &app, &token_id).await,
                    _ = lines.closed() => false,
                };
                if !alive {
                    return;
                }
            }
        },
    ))
}
