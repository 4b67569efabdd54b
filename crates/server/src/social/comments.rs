//! Comments on moves and private notes.
//!
//! A comment belongs to the position after `ply` moves of a game. The
//! players' comments are written by the game's two players and read by
//! both; spectators (guests included) and the game's exported record have
//! them only when the game is public (both players marked it so, or its
//! tournament's games are public), as SchemingMind does. Private notes can
//! be written by any signed-in visitor and are shown only to their author.

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::game::GameView;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::util::{now_ms, random_id};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Json, Router, routing::delete, routing::get};
use serde::{Deserialize, Serialize};
use sqlx::Row;

/// Longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;

/// Most private notes one player may keep (over all games).
pub const MAX_PRIVATE_NOTES: i64 = 1000;

/// The comment routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games/{id}/comments", get(list).post(add))
        .route("/games/{id}/comments/{comment}", delete(remove))
}

/// A comment or note as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Comment {
    /// Its id.
    pub id: String,
    /// The position it belongs to: after this many moves.
    pub ply: u32,
    /// Who wrote it.
    pub author: String,
    /// A private note (only its author sees it).
    pub private: bool,
    /// The text.
    pub text: String,
    /// When, ms since the epoch.
    pub at: i64,
}

/// `POST /api/games/{id}/comments` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewComment {
    /// The position: after this many moves.
    pub ply: u32,
    /// The text (1 to [`MAX_COMMENT_CHARS`] characters).
    pub text: String,
    /// A private note rather than a public comment.
    #[serde(default)]
    pub private: bool,
}

/// Whether `viewer` reads the players' comments in `game`: a player always,
/// anyone else only in a public game.
pub fn reads_players_comments(game: &GameView, viewer: Option<&str>) -> bool {
    game.public
        || viewer.is_some_and(|v| {
            [&game.white, &game.black]
                .into_iter()
                .flatten()
                .any(|p| p.id == v)
        })
}

/// The comments of a game that `viewer` may see, in ply then time order:
/// the players' comments (see [`reads_players_comments`]) and the viewer's
/// own notes.
pub async fn visible(
    app: &AppState,
    game: &GameView,
    viewer: Option<&str>,
) -> ApiResult<Vec<Comment>> {
    let rows = sqlx::query(
        "SELECT c.id, c.ply, u.username, c.private, c.body, c.created_at FROM game_comments c \
         JOIN users u ON u.id = c.author_id \
         WHERE c.game_id = $1 AND ((c.private = 0 AND $3 <> 0) OR c.author_id = $2) \
         ORDER BY c.ply, c.created_at, c.id",
    )
    .bind(&game.id)
    .bind(viewer.unwrap_or(""))
    .bind(i32::from(reads_players_comments(game, viewer)))
    .fetch_all(&app.db.pool)
    .await
    .map_err(ApiError::internal)?;
    rows.iter()
        .map(|r| {
            Ok(Comment {
                id: r.try_get(0)?,
                ply: r.try_get::<i64, _>(1)? as u32,
                author: r.try_get(2)?,
                private: r.try_get::<i64, _>(3)? != 0,
                text: r.try_get(4)?,
                at: r.try_get(5)?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(ApiError::internal)
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
    let text = req.text.trim();
    if text.is_empty() || text.chars().count() > MAX_COMMENT_CHARS {
        return Err(ApiError::bad_request(
            "bad_comment",
            format!("a comment has 1 to {MAX_COMMENT_CHARS} characters"),
        ));
    }
    crate::infra::text::refuse_invisible("comment", text)?;
    if req.ply > game.ply {
        return Err(ApiError::bad_request(
            "bad_ply",
            format!(
                "ply must be from 0 to {} in this game, not {}",
                game.ply, req.ply
            ),
        ));
    }
    let is_player = [&game.white, &game.black]
        .into_iter()
        .flatten()
        .any(|p| p.id == s.user.id);
    if !req.private && !is_player {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only the game's players comment publicly; write a private note instead",
        ));
    }
    if req.private {
        let notes: i64 =
            sqlx::query("SELECT COUNT(*) FROM game_comments WHERE author_id = $1 AND private = 1")
                .bind(&s.user.id)
                .fetch_one(&app.db.pool)
                .await?
                .get(0);
        if notes >= MAX_PRIVATE_NOTES {
            return Err(ApiError::conflict(
                "too_many_notes",
                format!("at most {MAX_PRIVATE_NOTES} private notes per player: delete some first"),
            ));
        }
    }
    let comment = Comment {
        id: random_id(16),
        ply: req.ply,
        author: s.user.username.clone(),
        private: req.private,
        text: text.to_string(),
        at: now_ms(),
    };
    sqlx::query(
        "INSERT INTO game_comments (id, game_id, ply, author_id, private, body, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&comment.id)
    .bind(&id)
    .bind(i64::from(comment.ply))
    .bind(&s.user.id)
    .bind(i64::from(comment.private))
    .bind(&comment.text)
    .bind(comment.at)
    .execute(&app.db.pool)
    .await
    .map_err(ApiError::internal)?;
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
    let row = sqlx::query("SELECT author_id FROM game_comments WHERE id = $1 AND game_id = $2")
        .bind(&comment)
        .bind(&id)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found(format!("no comment {comment:?} in this game")))?;
    let author: String = row.try_get(0).map_err(ApiError::internal)?;
    if author != s.user.id {
        return Err(ApiError::forbidden(
            "not_author",
            "only its author deletes a comment",
        ));
    }
    sqlx::query("DELETE FROM game_comments WHERE id = $1")
        .bind(&comment)
        .execute(&app.db.pool)
        .await
        .map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT)
}
