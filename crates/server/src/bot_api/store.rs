//! Every SQL statement of the Bot API, with bound parameters (SQLite and
//! PostgreSQL alike): tokens, bot accounts, and the few game
//! lookups the event stream needs.

use crate::account::auth::User;
use crate::infra::db::Db;
use crate::infra::error::ApiResult;
use sqlx::Row;

/// A stored token (never the token itself).
#[derive(Clone, Debug)]
pub struct TokenRow {
    /// Id, for listing and revoking.
    pub id: String,
    /// What its owner wrote about it.
    pub description: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// When it was made, ms since the epoch.
    pub created_at: i64,
}

/// A token as the requests that carry it need it.
#[derive(Clone, Debug)]
pub struct KnownToken {
    /// The stored token.
    pub token: TokenRow,
    /// Its user.
    pub user: User,
    /// Whether the user is a bot account.
    pub bot: bool,
}

/// Stores a new token by its hash.
pub async fn insert_token(db: &Db, user_id: &str, hash: &str, row: &TokenRow) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO api_tokens (id, user_id, token_hash, description, scopes, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&row.id)
    .bind(user_id)
    .bind(hash)
    .bind(&row.description)
    .bind(row.scopes.join(" "))
    .bind(row.created_at)
    .execute(&db.pool)
    .await?;
    Ok(())
}

fn token_row(row: &sqlx::any::AnyRow, first: usize) -> TokenRow {
    let scopes: String = row.get(first + 2);
    TokenRow {
        id: row.get(first),
        description: row.get(first + 1),
        scopes: scopes.split_whitespace().map(str::to_string).collect(),
        created_at: row.get(first + 3),
    }
}

/// The tokens of `user_id`, newest first.
pub async fn tokens_of(db: &Db, user_id: &str) -> ApiResult<Vec<TokenRow>> {
    let rows = sqlx::query(
        "SELECT id, description, scopes, created_at FROM api_tokens WHERE user_id = $1 \
         ORDER BY created_at DESC, id",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| token_row(r, 0)).collect())
}

/// Deletes token `id` of `user_id`; whether there was one.
pub async fn delete_token(db: &Db, user_id: &str, id: &str) -> ApiResult<bool> {
    let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes every token of `user_id`; returns their ids.
pub async fn delete_tokens_of(db: &Db, user_id: &str) -> ApiResult<Vec<String>> {
    let mut tx = db.pool.begin().await?;
    let ids: Vec<String> = sqlx::query("SELECT id FROM api_tokens WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    sqlx::query("DELETE FROM api_tokens WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(ids)
}

/// Whether token `id` is still there (not revoked).
pub async fn token_exists(db: &Db, id: &str) -> ApiResult<bool> {
    Ok(sqlx::query("SELECT 1 FROM api_tokens WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .is_some())
}

/// The token with this hash, its user and whether that user is a bot account.
pub async fn token_by_hash(db: &Db, hash: &str) -> ApiResult<Option<KnownToken>> {
    let row = sqlx::query(
        "SELECT t.id, t.description, t.scopes, t.created_at, u.id, u.username, u.is_guest, \
         CASE WHEN b.user_id IS NULL THEN 0 ELSE 1 END \
         FROM api_tokens t JOIN users u ON u.id = t.user_id \
         LEFT JOIN bot_accounts b ON b.user_id = u.id WHERE t.token_hash = $1",
    )
    .bind(hash)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| {
        let user = User {
            id: r.get(4),
            username: r.get(5),
            guest: r.get::<i32, _>(6) != 0,
        };
        KnownToken {
            token: token_row(&r, 0),
            user,
            bot: r.get::<i32, _>(7) != 0,
        }
    }))
}

pub use crate::game::store::is_bot;

/// Whether `user_id` has played a game (started, whatever its end).
pub async fn has_played(db: &Db, user_id: &str) -> ApiResult<bool> {
    Ok(sqlx::query(
        "SELECT 1 FROM games WHERE (white_id = $1 OR black_id = $1) \
         AND status IN ('ongoing', 'finished') LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?
    .is_some())
}

/// Makes `user_id` a bot account (again: no change).
pub async fn make_bot(db: &Db, user_id: &str, now: i64) -> ApiResult<()> {
    if is_bot(db, user_id).await? {
        return Ok(());
    }
    sqlx::query("INSERT INTO bot_accounts (user_id, upgraded_at) VALUES ($1, $2)")
        .bind(user_id)
        .bind(now)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The registered users with these ids (any order): (id, name, registered at).
pub async fn users_by_id(db: &Db, ids: &[String]) -> ApiResult<Vec<(String, String, i64)>> {
    let mut out = Vec::new();
    for id in ids {
        let row = sqlx::query(
            "SELECT id, username, created_at FROM users WHERE id = $1 AND is_guest = 0",
        )
        .bind(id)
        .fetch_optional(&db.pool)
        .await?;
        out.extend(row.map(|r| (r.get(0), r.get(1), r.get(2))));
    }
    Ok(out)
}

/// What [`created_at`] looks up.
#[derive(Copy, Clone, Debug)]
pub enum Made {
    /// A user (when they registered).
    User,
    /// A game (when it was challenged).
    Game,
}

/// When the user or game `id` was made, ms since the epoch (0 if unknown).
pub async fn created_at(db: &Db, what: Made, id: &str) -> ApiResult<i64> {
    let sql = match what {
        Made::User => "SELECT created_at FROM users WHERE id = $1",
        Made::Game => "SELECT created_at FROM games WHERE id = $1",
    };
    Ok(sqlx::query(sql)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| r.get(0))
        .unwrap_or(0))
}

/// The invited player of a challenge (game `id`), if it names one.
pub async fn invited(db: &Db, game_id: &str) -> ApiResult<Option<User>> {
    let row = sqlx::query(
        "SELECT u.id, u.username, u.is_guest FROM games g JOIN users u ON u.id = g.opponent_id \
         WHERE g.id = $1",
    )
    .bind(game_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| User {
        id: r.get(0),
        username: r.get(1),
        guest: r.get::<i32, _>(2) != 0,
    }))
}

/// What the event stream announces on connecting: the ongoing games of
/// `user_id` and the open challenges made to or by them (game ids).
pub async fn pending_of(db: &Db, user_id: &str) -> ApiResult<(Vec<String>, Vec<String>)> {
    let ids = |rows: Vec<sqlx::any::AnyRow>| rows.iter().map(|r| r.get(0)).collect();
    let games = sqlx::query(
        "SELECT id FROM games WHERE status = 'ongoing' AND (white_id = $1 OR black_id = $1) \
         ORDER BY created_at",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    let challenges = sqlx::query(
        "SELECT id FROM games WHERE status = 'open' AND opponent_id IS NOT NULL \
         AND (opponent_id = $1 OR creator_id = $1) ORDER BY created_at",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok((ids(games), ids(challenges)))
}
