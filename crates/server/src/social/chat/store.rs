//! Every SQL statement of game chat, with bound parameters (SQLite and
//! PostgreSQL alike): the lines of a game, numbered in order, reports, and
//! the notice of a line to the other server processes (PostgreSQL).

use crate::account::auth::User;
use crate::infra::db::Db;
use crate::infra::error::{ApiError, ApiResult};
use serde::Serialize;
use sqlx::Row;

/// One chat line of a game.
#[derive(Clone, Debug, Serialize)]
pub struct ChatLine {
    /// Its number in the game's chat (1, 2, ...), for reporting it.
    pub seq: i64,
    /// Who wrote it.
    pub username: String,
    /// `player` or `spectator`.
    pub room: String,
    /// What they wrote, as written (shown as text, never as HTML).
    pub text: String,
    /// When, ms since the epoch.
    pub at: i64,
}

/// Adds a line by `user` to game `game_id` (numbered after the last one);
/// returns it with its number.
pub async fn add(
    db: &Db,
    game_id: &str,
    user: &User,
    room: &str,
    text: &str,
    now: i64,
) -> ApiResult<ChatLine> {
    // Two lines at once may take the same number: the loser retries.
    for _ in 0..5 {
        let row = sqlx::query(
            "INSERT INTO game_chat (game_id, seq, user_id, username, room, text, at) \
             SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM game_chat WHERE game_id = $1 \
             RETURNING seq",
        )
        .bind(game_id)
        .bind(&user.id)
        .bind(&user.username)
        .bind(room)
        .bind(text)
        .bind(now)
        .fetch_one(&db.pool)
        .await;
        if let Ok(row) = row {
            return Ok(ChatLine {
                seq: row
                    .try_get::<i64, _>(0)
                    .or_else(|_| row.try_get::<i32, _>(0).map(i64::from))?,
                username: user.username.clone(),
                room: room.to_string(),
                text: text.to_string(),
                at: now,
            });
        }
    }
    Err(ApiError::conflict("chat_busy", "the chat is busy: retry"))
}

/// The lines of game `game_id` in `room`, in order.
pub async fn lines(db: &Db, game_id: &str, room: &str) -> ApiResult<Vec<ChatLine>> {
    let rows = sqlx::query(
        "SELECT seq, username, room, text, at FROM game_chat WHERE game_id = $1 AND room = $2 \
         ORDER BY seq",
    )
    .bind(game_id)
    .bind(room)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(ChatLine {
                seq: r
                    .try_get::<i64, _>(0)
                    .or_else(|_| r.try_get::<i32, _>(0).map(i64::from))?,
                username: r.try_get(1)?,
                room: r.try_get(2)?,
                text: r.try_get(3)?,
                at: r.try_get(4)?,
            })
        })
        .collect()
}

/// The room of line `seq` of game `game_id`, if there is such a line.
pub async fn room_of(db: &Db, game_id: &str, seq: i64) -> ApiResult<Option<String>> {
    Ok(
        sqlx::query("SELECT room FROM game_chat WHERE game_id = $1 AND seq = $2")
            .bind(game_id)
            .bind(seq)
            .fetch_optional(&db.pool)
            .await?
            .map(|r| r.get(0)),
    )
}

/// Records `reporter`'s report of line `seq` (once per reporter and line);
/// whether it is new.
pub async fn report(
    db: &Db,
    game_id: &str,
    seq: i64,
    reporter: &User,
    reason: &str,
    now: i64,
) -> ApiResult<bool> {
    let done = sqlx::query(
        "INSERT INTO chat_reports (game_id, seq, reporter_id, reason, at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, seq, reporter_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(seq)
    .bind(&reporter.id)
    .bind(reason)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Sends `payload` on the PostgreSQL channel `channel` (`pg_notify`), to
/// the other server processes.
pub async fn notify(db: &Db, channel: &str, payload: &str) -> ApiResult<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(channel)
        .bind(payload)
        .execute(&db.pool)
        .await?;
    Ok(())
}
