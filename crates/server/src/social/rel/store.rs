//! Every SQL statement of following, with bound parameters (SQLite and
//! PostgreSQL alike). Closed accounts are left out of every list.

use crate::infra::db::Db;
use sqlx::Row;

/// How many players `follower` follows (closed accounts included: they
/// count until unfollowed, as a row is a row).
pub async fn count(db: &Db, follower: &str) -> Result<i64, sqlx::Error> {
    let row = sqlx::query("SELECT COUNT(*) FROM follows WHERE follower_id = $1")
        .bind(follower)
        .fetch_one(&db.pool)
        .await?;
    row.try_get(0)
}

/// `follower` follows `followed` from `now` (nothing changes if they did).
pub async fn follow(db: &Db, follower: &str, followed: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO follows (follower_id, followed_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (follower_id, followed_id) DO NOTHING",
    )
    .bind(follower)
    .bind(followed)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// `follower` no longer follows `followed`.
pub async fn unfollow(db: &Db, follower: &str, followed: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2")
        .bind(follower)
        .bind(followed)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Whether `follower` follows `followed`.
pub async fn follows(db: &Db, follower: &str, followed: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT 1 FROM follows WHERE follower_id = $1 AND followed_id = $2")
        .bind(follower)
        .bind(followed)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.is_some())
}

/// The open accounts `follower` follows, as (id, name), by name.
pub async fn following(db: &Db, follower: &str) -> Result<Vec<(String, String)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT u.id, u.username FROM follows f JOIN users u ON u.id = f.followed_id \
         WHERE f.follower_id = $1 AND u.closed_at IS NULL ORDER BY u.username_key",
    )
    .bind(follower)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}
