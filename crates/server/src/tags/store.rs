//! Every SQL statement of tags, with bound parameters (SQLite and
//! PostgreSQL alike).

use crate::infra::error::{ApiError, ApiResult};
use sqlx::{AnyPool, Row};

/// `user`'s tags as (game, tag), by game then tag.
pub async fn of_user(pool: &AnyPool, user: &str) -> ApiResult<Vec<(String, String)>> {
    let rows =
        sqlx::query("SELECT game_id, tag FROM game_tags WHERE user_id = $1 ORDER BY game_id, tag")
            .bind(user)
            .fetch_all(pool)
            .await
            .map_err(ApiError::internal)?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(ApiError::internal)
}

/// Replaces `user`'s tags on `game`, in one transaction.
pub async fn replace(pool: &AnyPool, user: &str, game: &str, tags: &[String]) -> ApiResult<()> {
    let mut tx = pool.begin().await.map_err(ApiError::internal)?;
    sqlx::query("DELETE FROM game_tags WHERE user_id = $1 AND game_id = $2")
        .bind(user)
        .bind(game)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    for t in tags {
        sqlx::query("INSERT INTO game_tags (user_id, game_id, tag) VALUES ($1, $2, $3)")
            .bind(user)
            .bind(game)
            .bind(t)
            .execute(&mut *tx)
            .await
            .map_err(ApiError::internal)?;
    }
    tx.commit().await.map_err(ApiError::internal)
}
