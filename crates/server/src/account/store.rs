//! Every SQL statement of accounts, with bound parameters (SQLite and
//! PostgreSQL alike): users, sessions, guests, passwords and settings.

use super::user::User;
use crate::infra::db::Db;
use sqlx::Row;

/// A stored session, read with its user.
pub struct StoredSession {
    /// The session's CSRF token.
    pub csrf: String,
    /// Its user.
    pub user: User,
    /// When it expires, ms since the epoch.
    pub expires_at: i64,
    /// When it was last seen (to a few minutes), ms since the epoch.
    pub last_seen: Option<i64>,
}

/// The session whose token has SHA-256 `token_hash`, if it has not expired at `now`.
pub async fn session(
    db: &Db,
    token_hash: &str,
    now: i64,
) -> Result<Option<StoredSession>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT s.csrf, u.id, u.username, u.is_guest, s.expires_at, s.last_seen FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|row| StoredSession {
        csrf: row.get(0),
        user: User {
            id: row.get(1),
            username: row.get(2),
            guest: row.get::<i32, _>(3) != 0,
        },
        expires_at: row.get(4),
        last_seen: row.get(5),
    }))
}

/// Stores a new session of `user_id`.
pub async fn insert_session(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    csrf: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(token_hash)
        .bind(user_id)
        .bind(csrf)
        .bind(now)
        .bind(expires_at)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Deletes one session.
pub async fn delete_session(db: &Db, token_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Deletes every session expired before `now`.
pub async fn delete_expired_sessions(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
        .bind(now)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Stores a user: a guest when `password_hash` is `None` (guests have no
/// skeleton). Fails when the name, or a name that looks like it (the
/// `skeleton` of `crate::account::names`), is taken: the unique keys.
pub async fn insert_user(
    db: &Db,
    id: &str,
    username: &str,
    skeleton: Option<&str>,
    password_hash: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO users (id, username, username_key, username_skeleton, password_hash, is_guest, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(username)
    .bind(username.to_lowercase())
    .bind(skeleton)
    .bind(password_hash)
    .bind(i32::from(password_hash.is_none()))
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The name of the user who has the name `username` (any case) or one that
/// looks like it (its `skeleton`), if any.
pub async fn name_taken(
    db: &Db,
    username: &str,
    skeleton: &str,
) -> Result<Option<String>, sqlx::Error> {
    Ok(sqlx::query(
        "SELECT username FROM users WHERE username_key = $1 OR username_skeleton = $2 LIMIT 1",
    )
    .bind(username.to_lowercase())
    .bind(skeleton)
    .fetch_optional(&db.pool)
    .await?
    .map(|r| r.get(0)))
}

/// Up to `limit` registered users made before the skeleton column, with
/// their names.
pub async fn users_without_skeleton(
    db: &Db,
    limit: i64,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    Ok(sqlx::query(
        "SELECT id, username FROM users WHERE username_skeleton IS NULL AND is_guest = 0 LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect())
}

/// Sets a user's skeleton; `false` when another user has it already (the
/// unique key), and the user keeps none.
pub async fn set_skeleton(db: &Db, id: &str, skeleton: &str) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query("SELECT 1 FROM users WHERE username_skeleton = $1")
        .bind(skeleton)
        .fetch_optional(&db.pool)
        .await?
        .is_some();
    if taken {
        return Ok(false);
    }
    Ok(
        sqlx::query("UPDATE users SET username_skeleton = $1 WHERE id = $2")
            .bind(skeleton)
            .bind(id)
            .execute(&db.pool)
            .await
            .is_ok(),
    )
}

/// A registered account found by name: see [`registered_by_name`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registered {
    /// Its id.
    pub id: String,
    /// Its name as shown (`closed-...` once closed).
    pub username: String,
    /// When it registered, ms since the epoch.
    pub created_at: i64,
    /// Whether it is closed (it keeps its name's key, so the name stays taken).
    pub closed: bool,
}

impl Registered {
    /// The account, if it is still open.
    pub fn open(self) -> Option<Registered> {
        (!self.closed).then_some(self)
    }
}

/// The registered (not guest) account named `name`, in any case, closed or
/// not: the one lookup of a player by name.
pub async fn registered_by_name(db: &Db, name: &str) -> Result<Option<Registered>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, username, created_at, closed_at FROM users \
         WHERE username_key = $1 AND is_guest = 0",
    )
    .bind(name.to_lowercase())
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(Registered {
            id: r.try_get(0)?,
            username: r.try_get(1)?,
            created_at: r.try_get(2)?,
            closed: r.try_get::<Option<i64>, _>(3)?.is_some(),
        })
    })
    .transpose()
}

/// A registered user's id, name and password hash, by name key (lower case).
pub async fn login_user(
    db: &Db,
    username_key: &str,
) -> Result<Option<(String, String, Option<String>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, username, password_hash FROM users WHERE username_key = $1 AND is_guest = 0 AND closed_at IS NULL",
    )
    .bind(username_key)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1), r.get(2))))
}

/// A user's password hash (none for a guest).
pub async fn password_hash(db: &Db, user_id: &str) -> Result<Option<String>, sqlx::Error> {
    Ok(sqlx::query("SELECT password_hash FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&db.pool)
        .await?
        .get(0))
}

/// Sets a user's password hash.
pub async fn set_password_hash(db: &Db, user_id: &str, hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(user_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// A user's stored settings, as JSON text.
pub async fn settings(db: &Db, user_id: &str) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query("SELECT settings FROM user_settings WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// Stores a user's settings (JSON text), replacing what was there.
pub async fn save_settings(
    db: &Db,
    user_id: &str,
    json: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO user_settings (user_id, settings, updated_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(json)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Up to `limit` guests made before `cutoff_ms` that are players of no game.
pub async fn unused_guests(
    db: &Db,
    cutoff_ms: i64,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    Ok(sqlx::query(
        "SELECT u.id FROM users u WHERE u.is_guest = 1 AND u.created_at < $1 \
         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.white_id = u.id) \
         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.black_id = u.id) \
         LIMIT $2",
    )
    .bind(cutoff_ms)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .map(|r| r.get(0))
    .collect())
}

/// Removes a guest with its sessions, in one transaction; returns the
/// removed sessions' token hashes, or `None` when something still refers
/// to the guest (the database's foreign keys refuse it) and it is kept.
pub async fn remove_guest(db: &Db, id: &str) -> Result<Option<Vec<String>>, sqlx::Error> {
    let mut tx = db.pool.begin().await?;
    let hashes: Vec<String> = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| r.get(0))
        .collect();
    let deleted = async {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM users WHERE id = $1 AND is_guest = 1")
            .bind(id)
            .execute(&mut *tx)
            .await
    }
    .await;
    match deleted {
        Ok(_) => {
            tx.commit().await?;
            Ok(Some(hashes))
        }
        Err(_) => {
            tx.rollback().await?;
            Ok(None)
        }
    }
}

/// Whether the device with cookie hash `hash` has logged in to `user_id`.
pub async fn device_known(db: &Db, hash: &str, user_id: &str) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("SELECT 1 FROM login_devices WHERE token_hash = $1 AND user_id = $2")
            .bind(hash)
            .bind(user_id)
            .fetch_optional(&db.pool)
            .await?
            .is_some(),
    )
}

/// Remembers that the device with cookie hash `hash` logged in to `user_id`.
pub async fn remember_device(
    db: &Db,
    hash: &str,
    user_id: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO login_devices (token_hash, user_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (token_hash, user_id) DO NOTHING",
    )
    .bind(hash)
    .bind(user_id)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The token hashes of `user_id`'s sessions.
pub async fn sessions_of(db: &Db, user_id: &str) -> Result<Vec<String>, sqlx::Error> {
    Ok(
        sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(&db.pool)
            .await?
            .into_iter()
            .map(|r| r.get(0))
            .collect(),
    )
}
