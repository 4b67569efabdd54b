//! Every SQL statement of quick pairing, with bound parameters (SQLite and
//! PostgreSQL alike). The table `pool_entries` is the truth that every
//! server process shares: a pairing is a claim of two rows
//! ([`claim`]) that succeeds for one process only.

use super::model::Waiting;
use crate::infra::error::{ApiError, ApiResult};
use sqlx::{AnyPool, Row};

/// A player's row, as [`touch`] reads it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The pool's key.
    pub pool: String,
    /// When the player joined, ms.
    pub joined_at: i64,
    /// The game they were paired into, once that game exists.
    pub game_id: Option<String>,
    /// Whether a matcher has claimed them for a game (which may not exist
    /// yet: the claim comes first, the game a moment after).
    pub claimed: bool,
}

/// A waiting player with the pool they wait in.
#[derive(Clone, Debug)]
pub struct PoolWaiting {
    /// The pool's key.
    pub pool: String,
    /// Their name.
    pub username: String,
    /// Who, how strong, since when.
    pub waiting: Waiting,
}

/// Puts `user` in `pool` (out of any pool they were in before).
pub async fn join(
    pool: &AnyPool,
    user: (&str, &str),
    pool_key: &str,
    rating: i32,
    now: i64,
) -> ApiResult<()> {
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM pool_entries WHERE user_id = $1")
        .bind(user.0)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO pool_entries (user_id, username, pool, rating, joined_at, seen_at, game_id, paired_at) \
         VALUES ($1, $2, $3, $4, $5, $5, NULL, NULL)",
    )
    .bind(user.0)
    .bind(user.1)
    .bind(pool_key)
    .bind(rating)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Takes `user` out of their pool, unless they were paired already.
/// Whether they were waiting.
pub async fn leave(pool: &AnyPool, user: &str) -> ApiResult<bool> {
    let done = sqlx::query("DELETE FROM pool_entries WHERE user_id = $1 AND game_id IS NULL")
        .bind(user)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Marks `user` as seen at `now`; their row, if they have one. A claimed
/// game is named only once its row exists, so that whoever hears of it can
/// open it.
pub async fn touch(pool: &AnyPool, user: &str, now: i64) -> ApiResult<Option<Entry>> {
    let row = sqlx::query(
        "UPDATE pool_entries SET seen_at = $2 WHERE user_id = $1 RETURNING pool, joined_at, game_id",
    )
    .bind(user)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let claimed: Option<String> = row.try_get(2).map_err(ApiError::internal)?;
    let made = match claimed.as_deref() {
        Some(id) => sqlx::query("SELECT 1 FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?
            .is_some(),
        None => false,
    };
    Ok(Some(Entry {
        pool: row.try_get(0).map_err(ApiError::internal)?,
        joined_at: row.try_get(1).map_err(ApiError::internal)?,
        claimed: claimed.is_some(),
        game_id: claimed.filter(|_| made),
    }))
}

/// Removes `user`'s row once they have heard of their game `game_id`.
pub async fn delivered(pool: &AnyPool, user: &str, game_id: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM pool_entries WHERE user_id = $1 AND game_id = $2")
        .bind(user)
        .bind(game_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Removes the waiting players last seen before `unseen_before`, and
/// paired rows nobody picked up since `paired_before`; then lists everyone
/// still waiting, longest waiting first.
pub async fn waiting(
    pool: &AnyPool,
    unseen_before: i64,
    paired_before: i64,
) -> ApiResult<Vec<PoolWaiting>> {
    sqlx::query(
        "DELETE FROM pool_entries WHERE (game_id IS NULL AND seen_at < $1) \
         OR (game_id IS NOT NULL AND paired_at < $2)",
    )
    .bind(unseen_before)
    .bind(paired_before)
    .execute(pool)
    .await?;
    let rows = sqlx::query(
        "SELECT pool, user_id, username, rating, joined_at FROM pool_entries \
         WHERE game_id IS NULL ORDER BY joined_at, user_id",
    )
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(PoolWaiting {
                pool: r.try_get(0)?,
                username: r.try_get(2)?,
                waiting: Waiting {
                    user: r.try_get(1)?,
                    rating: r.try_get::<i32, _>(3)?,
                    since_ms: r.try_get(4)?,
                },
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(ApiError::internal)
}

/// How many wait in each pool, by key.
pub async fn counts(pool: &AnyPool) -> ApiResult<Vec<(String, i64)>> {
    let rows =
        sqlx::query("SELECT pool, COUNT(*) FROM pool_entries WHERE game_id IS NULL GROUP BY pool")
            .fetch_all(pool)
            .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(ApiError::internal)
}

/// Claims `players` (two ids, both waiting in `pool_key` since the times
/// given) for game `game_id`: both rows or neither, in one transaction.
/// False when another process (or a leave, or a new join) got there first.
pub async fn claim(
    pool: &AnyPool,
    pool_key: &str,
    players: [(&str, i64); 2],
    game_id: &str,
    now: i64,
) -> ApiResult<bool> {
    let mut tx = pool.begin().await?;
    let mut claimed = 0;
    for (user, since) in players {
        claimed += sqlx::query(
            "UPDATE pool_entries SET game_id = $1, paired_at = $2 \
             WHERE user_id = $3 AND pool = $4 AND joined_at = $5 AND game_id IS NULL",
        )
        .bind(game_id)
        .bind(now)
        .bind(user)
        .bind(pool_key)
        .bind(since)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    }
    if claimed == 2 {
        tx.commit().await?;
        Ok(true)
    } else {
        tx.rollback().await?;
        Ok(false)
    }
}

/// Puts the players claimed for `game_id` back in their pool (the game
/// could not be made).
pub async fn unclaim(pool: &AnyPool, game_id: &str) -> ApiResult<()> {
    sqlx::query("UPDATE pool_entries SET game_id = NULL, paired_at = NULL WHERE game_id = $1")
        .bind(game_id)
        .execute(pool)
        .await?;
    Ok(())
}
