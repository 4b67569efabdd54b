//! Every SQL statement of conditional moves, with bound parameters (SQLite
//! and PostgreSQL alike): a player's lines in a game, replaced whole.

use super::model::Lines;
use crate::account::auth::User;
use crate::infra::error::{ApiError, ApiResult};
use sqlx::{AnyPool, Row};

/// `user`'s lines in `game` and the number of moves made when they start.
pub async fn load(pool: &AnyPool, game: &str, user: &str) -> ApiResult<(u32, Lines)> {
    let rows = sqlx::query(
        "SELECT base_ply, line FROM conditional_moves WHERE game_id = $1 AND user_id = $2 ORDER BY seq",
    )
    .bind(game)
    .bind(user)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?;
    let mut base = 0;
    let mut lines = Vec::new();
    for r in rows {
        base = r.try_get::<i64, _>(0).map_err(ApiError::internal)? as u32;
        let line: String = r.try_get(1).map_err(ApiError::internal)?;
        lines.push(line.split_whitespace().map(str::to_string).collect());
    }
    Ok((base, lines))
}

/// Replaces `user`'s lines in `game` (empty lines are left out), in one
/// transaction.
pub async fn replace(
    pool: &AnyPool,
    game: &str,
    user: &str,
    base: u32,
    lines: &[Vec<String>],
) -> ApiResult<()> {
    let mut tx = pool.begin().await.map_err(ApiError::internal)?;
    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND user_id = $2")
        .bind(game)
        .bind(user)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    for (seq, line) in lines.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        sqlx::query(
            "INSERT INTO conditional_moves (game_id, user_id, seq, base_ply, line) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game)
        .bind(user)
        .bind(seq as i64)
        .bind(i64::from(base))
        .bind(line.join(" "))
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    }
    tx.commit().await.map_err(ApiError::internal)
}

/// Deletes every line of `game` (it is over).
pub async fn delete_game(pool: &AnyPool, game: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1")
        .bind(game)
        .execute(pool)
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

/// A user by id (the player whose reply is played).
pub async fn user(pool: &AnyPool, id: &str) -> ApiResult<User> {
    let r = sqlx::query("SELECT id, username, is_guest FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .map_err(ApiError::internal)?;
    Ok(User {
        id: r.try_get(0).map_err(ApiError::internal)?,
        username: r.try_get(1).map_err(ApiError::internal)?,
        guest: r.try_get::<i64, _>(2).map_err(ApiError::internal)? != 0,
    })
}
