//! A bot's actions in its games: `POST /api/bot/game/{id}/move/{move}`
//! (Makruk UCI, Mak-hot's engine form `c3e5c7`; `?offeringDraw=true` offers
//! or agrees to a draw, as on lichess), `/resign`, `/abort`, `/chat` and
//! `/takeback/{yes|no}`.
//! Each goes through [`crate::game::Games::act`]: the model checks the
//! player, the turn and the rules.

use super::game_stream::side_of;
use super::params::Params;
use super::tokens::{Bearer, BotPlay};
use super::{ok, require_bot};
use crate::AppState;
use crate::game::Command;
use crate::infra::error::ApiResult;
use crate::infra::extract::check_id;
use crate::social::chat::{self, Room};
use axum::Json;
use axum::extract::{Path, Query, State};
use serde_json::Value;
use std::collections::HashMap;

/// `POST /api/bot/game/{id}/move/{move}`.
pub async fn play_move(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path((id, mv)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Value>> {
    check_id(&id)?;
    // lichess's `offeringDraw`: offer a draw with the move, or agree to the opponent's offer.
    let offering_draw = Params(query).flag("offeringDraw", false)?;
    require_bot(&auth)?;
    let user = &auth.user;
    if offering_draw {
        let view = app.games.view_for(&id, false, &user.id).await?;
        let side = side_of(&view, &user.id)?;
        if view.draw_offer == Some(side.other()) {
            // Agreeing to the standing offer ends the game; the move is not played.
            app.games.act(user, &id, Command::DrawAccept).await?;
            return Ok(ok());
        }
    }
    let text = mv.clone();
    let after = app
        .games
        .act(user, &id, Command::Move { text, ply: None })
        .await?;
    if offering_draw && !after.status.is_over() {
        app.games.act(user, &id, Command::DrawOffer).await?;
    }
    Ok(ok())
}

/// A bare command of a bot in its game (resign, abort).
async fn command(
    app: &AppState,
    auth: &Bearer<BotPlay>,
    id: &str,
    cmd: Command,
) -> ApiResult<Json<Value>> {
    check_id(id)?;
    require_bot(auth)?;
    app.games.act(&auth.user, id, cmd).await?;
    Ok(ok())
}

/// `POST /api/bot/game/{id}/takeback/{yes|no}`: agrees to the opponent's
/// takeback proposal, or refuses it (lichess-bot's answer).
pub async fn takeback(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let cmd = match answer.as_str() {
        "yes" | "accept" | "true" => Command::TakebackAccept,
        "no" | "decline" | "false" => Command::TakebackDecline,
        other => {
            return Err(crate::infra::error::ApiError::bad_request(
                "invalid_parameter",
                format!("answer a takeback with yes or no, not {other:?}"),
            ));
        }
    };
    command(&app, &auth, &id, cmd).await
}

/// `POST /api/bot/game/{id}/resign`.
pub async fn resign(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    command(&app, &auth, &id, Command::Resign).await
}

/// `POST /api/bot/game/{id}/abort`.
pub async fn abort(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    command(&app, &auth, &id, Command::Abort).await
}

/// `POST /api/bot/game/{id}/chat` with `room` (`player`, `spectator`) and
/// `text`: stored, and sent to the game's streams as a `chatLine`.
pub async fn chat(
    State(app): State<AppState>,
    auth: Bearer<BotPlay>,
    Path(id): Path<String>,
    params: Params,
) -> ApiResult<Json<Value>> {
    check_id(&id)?;
    require_bot(&auth)?;
    let room = Room::parse(params.get("room").unwrap_or("player"))?;
    let view = app.games.view_for(&id, false, &auth.user.id).await?;
    side_of(&view, &auth.user.id)?;
    chat::post_line(
        &app,
        &id,
        &auth.user,
        room,
        params.get("text").unwrap_or(""),
        true,
    )
    .await?;
    Ok(ok())
}
