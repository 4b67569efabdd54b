//! Every SQL statement of comments and notes, with bound parameters (SQLite
//! and PostgreSQL alike).

use super::model::Comment;
use crate::infra::error::{ApiError, ApiResult};
use sqlx::{AnyPool, Row};

/// The comments of game `game_id` that `viewer` (`""` for none) sees, in
/// ply then time order: the players' comments if `players_comments`, and
/// the viewer's own notes.
pub async fn visible(
    pool: &AnyPool,
    game_id: &str,
    viewer: &str,
    players_comments: bool,
) -> ApiResult<Vec<Comment>> {
    let rows = sqlx::query(
        "SELECT c.id, c.ply, u.username, c.private, c.body, c.created_at FROM game_comments c \
         JOIN users u ON u.id = c.author_id \
         WHERE c.game_id = $1 AND ((c.private = 0 AND $3 <> 0) OR c.author_id = $2) \
         ORDER BY c.ply, c.created_at, c.id",
    )
    .bind(game_id)
    .bind(viewer)
    .bind(i32::from(players_comments))
    .fetch_all(pool)
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

/// How many private notes `author_id` keeps.
pub async fn private_notes_of(pool: &AnyPool, author_id: &str) -> ApiResult<i64> {
    let row =
        sqlx::query("SELECT COUNT(*) FROM game_comments WHERE author_id = $1 AND private = 1")
            .bind(author_id)
            .fetch_one(pool)
            .await?;
    Ok(row.try_get(0)?)
}

/// Writes `comment` by `author_id` on game `game_id`.
pub async fn insert(
    pool: &AnyPool,
    game_id: &str,
    author_id: &str,
    comment: &Comment,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO game_comments (id, game_id, ply, author_id, private, body, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&comment.id)
    .bind(game_id)
    .bind(i64::from(comment.ply))
    .bind(author_id)
    .bind(i64::from(comment.private))
    .bind(&comment.text)
    .bind(comment.at)
    .execute(pool)
    .await
    .map_err(ApiError::internal)?;
    Ok(())
}

/// The author of comment `id` of game `game_id`, if there is one.
pub async fn author_of(pool: &AnyPool, id: &str, game_id: &str) -> ApiResult<Option<String>> {
    let row = sqlx::query("SELECT author_id FROM game_comments WHERE id = $1 AND game_id = $2")
        .bind(id)
        .bind(game_id)
        .fetch_optional(pool)
        .await
        .map_err(ApiError::internal)?;
    row.map(|r| r.try_get(0))
        .transpose()
        .map_err(ApiError::internal)
}

/// Deletes comment `id`.
pub async fn delete(pool: &AnyPool, id: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM game_comments WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}
