//! Leave's SQL, with bound parameters only, alike on SQLite and PostgreSQL.

use super::model::Period;
use crate::infra::db::Db;
use crate::infra::error::ApiResult;
use sqlx::Row;

/// A stored period of leave.
#[derive(Clone, Debug)]
pub struct StoredLeave {
    /// Its id.
    pub id: String,
    /// When it runs.
    pub period: Period,
}

/// Every period of `user_id`'s leave, in time order.
pub async fn of_user(db: &Db, user_id: &str) -> ApiResult<Vec<StoredLeave>> {
    let rows = sqlx::query(
        "SELECT id, starts_at, ends_at FROM leave_periods WHERE user_id = $1 ORDER BY starts_at",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| StoredLeave {
            id: r.get(0),
            period: Period {
                start: r.get(1),
                end: r.get(2),
            },
        })
        .collect())
}

/// The periods of `user_id`'s leave, in time order.
pub async fn periods(db: &Db, user_id: &str) -> ApiResult<Vec<Period>> {
    Ok(of_user(db, user_id)
        .await?
        .into_iter()
        .map(|l| l.period)
        .collect())
}

/// Stores a new period.
pub async fn insert(db: &Db, id: &str, user_id: &str, period: Period, now: i64) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO leave_periods (id, user_id, starts_at, ends_at, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(user_id)
    .bind(period.start)
    .bind(period.end)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Removes a period that has not begun.
pub async fn delete(db: &Db, id: &str, user_id: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM leave_periods WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Ends a running period at `now`.
pub async fn end_at(db: &Db, id: &str, user_id: &str, now: i64) -> ApiResult<()> {
    sqlx::query("UPDATE leave_periods SET ends_at = $1 WHERE id = $2 AND user_id = $3")
        .bind(now)
        .bind(id)
        .bind(user_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The ongoing correspondence games `user_id` plays (their clocks move with
/// the player's leave).
pub async fn correspondence_games(db: &Db, user_id: &str) -> ApiResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'ongoing' AND tc_kind = 'correspondence' \
         AND (white_id = $1 OR black_id = $2)",
    )
    .bind(user_id)
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}
