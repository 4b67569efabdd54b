//! Every SQL statement of e-mail, with bound parameters (SQLite and
//! PostgreSQL alike): an account's address and its tokens, and the
//! deadline warnings sent.

use crate::infra::db::Db;
use crate::infra::error::ApiResult;
use sqlx::Row;

/// A verified, subscribed address of `user_id` and its unsubscribe token.
pub async fn address_of(db: &Db, user_id: &str) -> ApiResult<Option<(String, String)>> {
    let row = sqlx::query(
        "SELECT email, unsubscribe_token FROM user_email \
         WHERE user_id = $1 AND verified_at IS NOT NULL AND subscribed = 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1))))
}

/// An account's address as stored: the address, when it was verified, and
/// whether it is subscribed.
pub struct Stored {
    /// The address.
    pub email: String,
    /// When its link was followed, if it was.
    pub verified_at: Option<i64>,
    /// Whether it gets mail.
    pub subscribed: bool,
}

/// The address `user_id` gave, if any.
pub async fn stored(db: &Db, user_id: &str) -> ApiResult<Option<Stored>> {
    let row =
        sqlx::query("SELECT email, verified_at, subscribed FROM user_email WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(row.map(|r| Stored {
        email: r.get(0),
        verified_at: r.get(1),
        subscribed: r.get::<i32, _>(2) != 0,
    }))
}

/// Sets `user_id`'s address, unverified and subscribed, with the token of
/// its verification link (a new unsubscribe token only for a new row).
pub async fn set_address(
    db: &Db,
    user_id: &str,
    email: &str,
    verify_token: &str,
    unsubscribe_token: &str,
    now: i64,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO user_email (user_id, email, verified_at, verify_token, unsubscribe_token, subscribed, updated_at) \
         VALUES ($1, $2, NULL, $3, $4, 1, $5) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, \
         verified_at = NULL, verify_token = excluded.verify_token, subscribed = 1, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(email)
    .bind(verify_token)
    .bind(unsubscribe_token)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The unsubscribe token of `user_id`'s address.
pub async fn unsubscribe_token(db: &Db, user_id: &str) -> ApiResult<String> {
    let row = sqlx::query("SELECT unsubscribe_token FROM user_email WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(&db.pool)
        .await?;
    Ok(row.get(0))
}

/// Verifies the address whose verification token is `token`; whether one had it.
pub async fn verify(db: &Db, token: &str, now: i64) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE user_email SET verified_at = $1, verify_token = NULL WHERE verify_token = $2",
    )
    .bind(now)
    .bind(token)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() != 0)
}

/// Unsubscribes the address whose unsubscribe token is `token`; whether one had it.
pub async fn unsubscribe(db: &Db, token: &str, now: i64) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE user_email SET subscribed = 0, updated_at = $1 WHERE unsubscribe_token = $2",
    )
    .bind(now)
    .bind(token)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() != 0)
}

/// An ongoing correspondence game whose mover's stored clock runs out
/// before `before` and who was not warned this turn: its id, its ply and
/// the mover.
pub async fn deadlines_before(
    db: &Db,
    before: i64,
) -> ApiResult<Vec<(String, i32, Option<String>)>> {
    // The mover's deadline: turn_since + the mover's stored time.
    let rows = sqlx::query(
        "SELECT g.id, g.ply, CASE WHEN g.ply % 2 = 0 THEN g.white_id ELSE g.black_id END, \
         g.turn_since + CASE WHEN g.ply % 2 = 0 THEN g.white_ms ELSE g.black_ms END \
         FROM games g WHERE g.status = 'ongoing' AND g.tc_kind = 'correspondence' \
         AND g.turn_since + CASE WHEN g.ply % 2 = 0 THEN g.white_ms ELSE g.black_ms END < $1 \
         AND NOT EXISTS (SELECT 1 FROM mail_deadline_warnings w WHERE w.game_id = g.id AND w.ply = g.ply)",
    )
    .bind(before)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}

/// Marks the warning of game `game_id` at `ply` sent; whether this call
/// marked it (not another process first).
pub async fn mark_warned(db: &Db, game_id: &str, ply: i32, now: i64) -> ApiResult<bool> {
    let marked = sqlx::query(
        "INSERT INTO mail_deadline_warnings (game_id, ply, sent_at) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id, ply) DO NOTHING",
    )
    .bind(game_id)
    .bind(ply)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(marked.rows_affected() != 0)
}
