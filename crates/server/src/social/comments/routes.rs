//! The routes of comments: `GET` and `POST /api/games/{id}/comments`,
//! `DELETE /api/games/{id}/comments/{comment}`.

use super::model::{Comment, MAX_PRIVATE_NOTES, check_text, plays};
use super::{store, visible};
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::util::random_id;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Json, Router, routing::delete, routing::get};
use serde::Deserialize;

/// The comment routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games/{id}/comments", get(list).post(add))
        .route("/games/{id}/comments/{comment}", delete(remove))
}

/// `POST /api/games/{id}/comments` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewComment {
    /// The position: after this many moves.
    pub ply: u32,
    /// The text (1 to [`super::model::MAX_COMMENT_CHARS`] characters).
    pub text: String,
    /// A private note rather than a public comment.
    #[serde(default)]
    pub private: bool,
}

/// `GET /api/games/{id}/comments`
async fn list(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<Comment>>> {
    check_id(&id)?;
    let game = app.games.view(&id, false).await?;
    let me = s.as_ref().map(|s| s.user.id.as_str());
    Ok(Json(visible(&app, &game, me).await?))
}

/// `POST /api/games/{id}/comments`
async fn add(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<NewComment>,
) -> ApiResult<(StatusCode, Json<Comment>)> {
    check_id(&id)?;
    let game = app.games.view_for(&id, false, &s.user.id).await?;
    let text = check_text(&req.text)?;
    if req.ply > game.ply {
        return Err(ApiError::bad_request(
            "bad_ply",
            format!(
                "ply must be from 0 to {} in this game, not {}",
                game.ply, req.ply
            ),
        ));
    }
    if !req.private && !plays(&game, &s.user.id) {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only the game's players comment publicly; write a private note instead",
        ));
    }
    if req.private && store::private_notes_of(&app.db.pool, &s.user.id).await? >= MAX_PRIVATE_NOTES
    {
        return Err(ApiError::conflict(
            "too_many_notes",
            format!("at most {MAX_PRIVATE_NOTES} private notes per player: delete some first"),
        ));
    }
    let comment = Comment {
        id: random_id(16),
        ply: req.ply,
        author: s.user.username.clone(),
        private: req.private,
        text: text.to_string(),
        at: app.now_ms(),
    };
    store::insert(&app.db.pool, &id, &s.user.id, &comment).await?;
    Ok((StatusCode::CREATED, Json(comment)))
}

/// `DELETE /api/games/{id}/comments/{comment}`: only by its author.
async fn remove(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path((id, comment)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    check_id(&id)?;
    check_id(&comment)?;
    let author = store::author_of(&app.db.pool, &comment, &id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no comment {comment:?} in this game")))?;
    if author != s.user.id {
        return Err(ApiError::forbidden(
            "not_author",
            "only its author deletes a comment",
        ));
    }
    store::delete(&app.db.pool, &comment).await?;
    Ok(StatusCode::NO_CONTENT)
}
