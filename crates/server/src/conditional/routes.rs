//! The routes of conditional moves: `GET` (my lines) and `PUT` (replace
//! them) `/api/games/{id}/conditional`.

use super::model::{MAX_LINES, check_lines};
use super::store;
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::game::clock::TcKind;
use crate::game::{Status, ThaiText};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use axum::extract::{Path, State};
use axum::{Json, Router, routing::get};
use games::Color;
use serde::{Deserialize, Serialize};

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/games/{id}/conditional", get(mine).put(set))
}

/// My conditional lines in a game.
#[derive(Debug, Serialize)]
pub struct Conditional {
    /// The number of moves made when the lines start (the opponent's move
    /// comes next).
    pub ply: u32,
    /// Each line: the opponent's move, my reply, and so on (engine form).
    pub lines: Vec<Vec<String>>,
    /// The same lines in display form.
    pub display: Vec<Vec<String>>,
    /// The same lines in Thai notation.
    pub display_thai: Vec<Vec<ThaiText>>,
}

/// `PUT /api/games/{id}/conditional` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetConditional {
    /// The lines (replacing any stored ones); moves in any accepted notation.
    pub lines: Vec<Vec<String>>,
}

/// `GET /api/games/{id}/conditional`: my lines.
async fn mine(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Conditional>> {
    check_id(&id)?;
    let s = s.ok_or_else(|| {
        ApiError::unauthorized(
            "no_session",
            "no valid session: call GET /api/session first",
        )
    })?;
    let view = app.games.view_for(&id, true, &s.user.id).await?;
    let (ply, lines) = store::load(&app.db.pool, &id, &s.user.id).await?;
    let (display, display_thai) = check_lines(&view, &lines)
        .map(|(_, d, t)| (d, t))
        .unwrap_or_default();
    Ok(Json(Conditional {
        ply,
        lines,
        display,
        display_thai,
    }))
}

/// `PUT /api/games/{id}/conditional`: replace my lines (empty to cancel).
async fn set(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<SetConditional>,
) -> ApiResult<Json<Conditional>> {
    check_id(&id)?;
    let view = app.games.view_for(&id, true, &s.user.id).await?;
    let side = if view.white.as_ref().is_some_and(|p| p.id == s.user.id) {
        Color::White
    } else if view.black.as_ref().is_some_and(|p| p.id == s.user.id) {
        Color::Black
    } else {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only the game's players set conditional moves",
        ));
    };
    if view.status != Status::Ongoing || view.time_control.kind != TcKind::Correspondence {
        return Err(ApiError::conflict(
            "not_correspondence",
            "conditional moves are for ongoing correspondence games",
        ));
    }
    if view.turn == side && !req.lines.is_empty() {
        return Err(ApiError::conflict(
            "your_move",
            "it is your move: play it, then set conditional moves for the replies",
        ));
    }
    if req.lines.len() > MAX_LINES {
        return Err(ApiError::bad_request(
            "bad_conditional",
            format!("at most {MAX_LINES} lines"),
        ));
    }
    let (lines, display, display_thai) =
        check_lines(&view, &req.lines).map_err(|e| ApiError::bad_request("bad_conditional", e))?;
    store::replace(&app.db.pool, &id, &s.user.id, view.ply, &lines).await?;
    Ok(Json(Conditional {
        ply: view.ply,
        lines,
        display,
        display_thai,
    }))
}
