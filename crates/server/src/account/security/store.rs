//! Every SQL statement of account security, with bound parameters (SQLite
//! and PostgreSQL alike): the devices of sessions, password resets, changes
//! of address, two-factor, the security log, and closing an account.

use crate::infra::db::{Backend, Db};
use crate::infra::error::ApiResult;
use sqlx::Row;

/// A signed-in session of a user, with the client it signed in from.
pub struct SignedInRow {
    /// SHA-256 of the session's cookie token.
    pub token_hash: String,
    /// Its User-Agent at sign-in.
    pub user_agent: Option<String>,
    /// Its address at sign-in.
    pub ip: Option<String>,
    /// When it signed in, ms since the epoch.
    pub created_at: i64,
    /// When it was last seen (to a few minutes), ms since the epoch.
    pub last_seen: Option<i64>,
}

/// Writes the client (User-Agent, address) of a new session.
pub async fn set_client(
    db: &Db,
    token_hash: &str,
    user_agent: &str,
    ip: &str,
    now: i64,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE sessions SET user_agent = $1, ip = $2, last_seen = $3 WHERE token_hash = $4",
    )
    .bind(user_agent)
    .bind(ip)
    .bind(now)
    .bind(token_hash)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Marks session `token_hash` seen at `now` if it was last seen before `stale_before`.
pub async fn touch(db: &Db, token_hash: &str, now: i64, stale_before: i64) -> ApiResult<()> {
    sqlx::query(
        "UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 AND (last_seen IS NULL OR last_seen < $3)",
    )
    .bind(now)
    .bind(token_hash)
    .bind(stale_before)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The live sessions of `user_id`, most recently seen first.
pub async fn signed_in(db: &Db, user_id: &str, now: i64) -> ApiResult<Vec<SignedInRow>> {
    let rows = sqlx::query(
        "SELECT token_hash, user_agent, ip, created_at, last_seen FROM sessions \
         WHERE user_id = $1 AND expires_at > $2 ORDER BY COALESCE(last_seen, created_at) DESC, token_hash",
    )
    .bind(user_id)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| SignedInRow {
            token_hash: r.get(0),
            user_agent: r.get(1),
            ip: r.get(2),
            created_at: r.get(3),
            last_seen: r.get(4),
        })
        .collect())
}

/// Deletes every session of `user_id` but `keep`; returns the deleted ones' hashes.
pub async fn delete_sessions_except(
    db: &Db,
    user_id: &str,
    keep: Option<&str>,
) -> ApiResult<Vec<String>> {
    let mut tx = db.pool.begin().await?;
    let hashes: Vec<String> = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| r.get::<String, _>(0))
        .filter(|h| Some(h.as_str()) != keep)
        .collect();
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep.unwrap_or(""))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(hashes)
}

/// The registered, open accounts whose verified address is `email` (any
/// case): id, name and the address as stored, at most a few.
pub async fn accounts_of_address(db: &Db, email: &str) -> ApiResult<Vec<(String, String, String)>> {
    let rows = sqlx::query(
        "SELECT u.id, u.username, e.email FROM user_email e JOIN users u ON u.id = e.user_id \
         WHERE LOWER(e.email) = $1 AND e.verified_at IS NOT NULL AND u.is_guest = 0 AND u.closed_at IS NULL \
         ORDER BY u.created_at LIMIT 5",
    )
    .bind(email.to_lowercase())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}

/// Stores a reset link (by its token's hash) unless `user_id` was sent
/// `max` links since `since`; whether it was stored. The count and the
/// insert are one statement under a lock of the account's row (on
/// PostgreSQL, whose concurrent statements would each count the links
/// committed before them and could all pass; SQLite runs one writer at a
/// time), so that requests at once never pass the count together.
pub async fn insert_reset(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    now: i64,
    expires_at: i64,
    since: i64,
    max: i64,
) -> ApiResult<bool> {
    let mut tx = db.pool.begin().await?;
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    let done = sqlx::query(
        "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) \
         SELECT $1, $2, $3, $4 WHERE (SELECT COUNT(*) FROM password_resets WHERE user_id = $2 AND created_at >= $5) < $6",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(now)
    .bind(expires_at)
    .bind(since)
    .bind(max)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

/// The account of an unused, unexpired reset link: id and name.
pub async fn reset_user(
    db: &Db,
    token_hash: &str,
    now: i64,
) -> ApiResult<Option<(String, String)>> {
    let row = sqlx::query(
        "SELECT u.id, u.username FROM password_resets r JOIN users u ON u.id = r.user_id \
         WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > $2 AND u.closed_at IS NULL",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1))))
}

/// Uses a reset link and sets the new password hash, in one transaction;
/// whether the link was still good (used once: a second use finds it used).
/// Every other link of the account is used up too.
pub async fn use_reset(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    password_hash: &str,
    now: i64,
) -> ApiResult<bool> {
    let mut tx = db.pool.begin().await?;
    let used = sqlx::query(
        "UPDATE password_resets SET used_at = $1 WHERE token_hash = $2 AND user_id = $3 \
         AND used_at IS NULL AND expires_at > $1",
    )
    .bind(now)
    .bind(token_hash)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() == 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    sqlx::query("UPDATE password_resets SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL")
        .bind(now)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(password_hash)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// Stores a change of address waiting for its link (one per account: a
/// newer one replaces it).
pub async fn insert_email_change(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    new_email: &str,
    now: i64,
    expires_at: i64,
) -> ApiResult<()> {
    let mut tx = db.pool.begin().await?;
    sqlx::query("DELETE FROM email_changes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO email_changes (token_hash, user_id, new_email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(new_email)
    .bind(now)
    .bind(expires_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The address a change of `user_id` waits to confirm, if any.
pub async fn pending_email(db: &Db, user_id: &str, now: i64) -> ApiResult<Option<String>> {
    let row =
        sqlx::query("SELECT new_email FROM email_changes WHERE user_id = $1 AND expires_at > $2")
            .bind(user_id)
            .bind(now)
            .fetch_optional(&db.pool)
            .await?;
    Ok(row.map(|r| r.get(0)))
}

/// Confirms the change whose link has hash `token_hash`: the account's
/// address becomes the new one, verified and subscribed. Returns the
/// account and its new address, or `None` if no good link has this hash.
pub async fn confirm_email_change(
    db: &Db,
    token_hash: &str,
    now: i64,
) -> ApiResult<Option<(String, String)>> {
    let mut tx = db.pool.begin().await?;
    let row = sqlx::query(
        "SELECT user_id, new_email FROM email_changes WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        tx.rollback().await?;
        return Ok(None);
    };
    let (user_id, email): (String, String) = (row.get(0), row.get(1));
    sqlx::query("DELETE FROM email_changes WHERE user_id = $1")
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE user_email SET email = $1, verified_at = $2, verify_token = NULL, subscribed = 1, updated_at = $2 \
         WHERE user_id = $3",
    )
    .bind(&email)
    .bind(now)
    .bind(&user_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some((user_id, email)))
}

/// A user's TOTP: the secret, whether it is on, the last step used.
pub struct TotpRow {
    /// The base32 secret.
    pub secret: String,
    /// Whether enrolment was finished (the second factor is asked).
    pub enabled: bool,
    /// The last time step whose code was accepted.
    pub last_step: i64,
}

/// `user_id`'s TOTP, on or being enrolled.
pub async fn totp(db: &Db, user_id: &str) -> ApiResult<Option<TotpRow>> {
    let row = sqlx::query("SELECT secret, enabled_at, last_step FROM user_totp WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| TotpRow {
        secret: r.get(0),
        enabled: r.get::<Option<i64>, _>(1).is_some(),
        last_step: r.get(2),
    }))
}

/// Starts an enrolment with `secret` (replacing one not finished); false
/// when two-factor is on already.
pub async fn start_totp(db: &Db, user_id: &str, secret: &str) -> ApiResult<bool> {
    let done = sqlx::query(
        "INSERT INTO user_totp (user_id, secret, enabled_at, last_step) VALUES ($1, $2, NULL, 0) \
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0 \
         WHERE user_totp.enabled_at IS NULL",
    )
    .bind(user_id)
    .bind(secret)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records that the code of `step` was used: only if no later or equal
/// step was (a code is good once). Whether it was recorded.
pub async fn use_step(db: &Db, user_id: &str, step: i64) -> ApiResult<bool> {
    let done =
        sqlx::query("UPDATE user_totp SET last_step = $1 WHERE user_id = $2 AND last_step < $1")
            .bind(step)
            .bind(user_id)
            .execute(&db.pool)
            .await?;
    Ok(done.rows_affected() > 0)
}

/// Turns two-factor on with these recovery code hashes (replacing any).
pub async fn enable_totp(
    db: &Db,
    user_id: &str,
    code_hashes: &[String],
    now: i64,
) -> ApiResult<()> {
    let mut tx = db.pool.begin().await?;
    sqlx::query("UPDATE user_totp SET enabled_at = $1 WHERE user_id = $2")
        .bind(now)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    set_recovery_in(&mut tx, user_id, code_hashes).await?;
    tx.commit().await?;
    Ok(())
}

async fn set_recovery_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user_id: &str,
    code_hashes: &[String],
) -> ApiResult<()> {
    sqlx::query("DELETE FROM totp_recovery_codes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    for hash in code_hashes {
        sqlx::query("INSERT INTO totp_recovery_codes (user_id, code_hash) VALUES ($1, $2)")
            .bind(user_id)
            .bind(hash)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Replaces `user_id`'s recovery codes.
pub async fn set_recovery(db: &Db, user_id: &str, code_hashes: &[String]) -> ApiResult<()> {
    let mut tx = db.pool.begin().await?;
    set_recovery_in(&mut tx, user_id, code_hashes).await?;
    tx.commit().await?;
    Ok(())
}

/// Uses the recovery code with hash `code_hash`; whether it was there unused.
pub async fn use_recovery(db: &Db, user_id: &str, code_hash: &str, now: i64) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE totp_recovery_codes SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL",
    )
    .bind(now)
    .bind(user_id)
    .bind(code_hash)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// How many unused recovery codes `user_id` has.
pub async fn recovery_left(db: &Db, user_id: &str) -> ApiResult<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) FROM totp_recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(row.get(0))
}

/// Turns two-factor off: the secret and the recovery codes are deleted.
pub async fn disable_totp(db: &Db, user_id: &str) -> ApiResult<()> {
    let mut tx = db.pool.begin().await?;
    sqlx::query("DELETE FROM totp_recovery_codes WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM user_totp WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// One event of the security log.
pub struct EventRow {
    /// When, ms since the epoch.
    pub at: i64,
    /// What (`login`, `login_failed`, `password_changed`, ...).
    pub kind: String,
    /// From which address.
    pub ip: Option<String>,
    /// With which User-Agent.
    pub user_agent: Option<String>,
    /// More about it (a token's description, an address).
    pub detail: Option<String>,
}

/// Adds an event to `user_id`'s log and drops the oldest past `kept`.
pub async fn insert_event(
    db: &Db,
    id: &str,
    user_id: &str,
    e: &EventRow,
    kept: i64,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO security_events (id, user_id, at, kind, ip, user_agent, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(user_id)
    .bind(e.at)
    .bind(&e.kind)
    .bind(&e.ip)
    .bind(&e.user_agent)
    .bind(&e.detail)
    .execute(&db.pool)
    .await?;
    sqlx::query(
        "DELETE FROM security_events WHERE user_id = $1 AND id NOT IN \
         (SELECT id FROM security_events WHERE user_id = $1 ORDER BY at DESC, id LIMIT $2)",
    )
    .bind(user_id)
    .bind(kept)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// `user_id`'s log, newest first, at most `limit` events.
pub async fn events(db: &Db, user_id: &str, limit: i64) -> ApiResult<Vec<EventRow>> {
    let rows = sqlx::query(
        "SELECT at, kind, ip, user_agent, detail FROM security_events WHERE user_id = $1 \
         ORDER BY at DESC, id LIMIT $2",
    )
    .bind(user_id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| EventRow {
            at: r.get(0),
            kind: r.get(1),
            ip: r.get(2),
            user_agent: r.get(3),
            detail: r.get(4),
        })
        .collect())
}

/// The profile part of an export: name, when made, the address.
pub async fn profile(db: &Db, user_id: &str) -> ApiResult<(String, i64, Option<String>)> {
    let row = sqlx::query(
        "SELECT u.username, u.created_at, e.email FROM users u LEFT JOIN user_email e ON e.user_id = u.id WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok((row.get(0), row.get(1), row.get(2)))
}

/// How many unfinished games `user_id` plays, or open challenges it made.
pub async fn ongoing_games(db: &Db, user_id: &str) -> ApiResult<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) FROM games WHERE (status = 'ongoing' AND (white_id = $1 OR black_id = $1)) \
         OR (status = 'open' AND (creator_id = $1 OR opponent_id = $1))",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(row.get(0))
}

/// The ids of every game `user_id` played, oldest first.
pub async fn game_ids(db: &Db, user_id: &str) -> ApiResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE white_id = $1 OR black_id = $1 ORDER BY created_at, id",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Closes an account in one transaction: its name becomes `shown_name`
/// (its key stays, so the name stays reserved), its password, address,
/// two-factor, settings, tokens and sessions go. Returns the ended
/// sessions' hashes and the revoked tokens' ids.
pub async fn close_account(
    db: &Db,
    user_id: &str,
    shown_name: &str,
    now: i64,
) -> ApiResult<(Vec<String>, Vec<String>)> {
    let mut tx = db.pool.begin().await?;
    let hashes: Vec<String> = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| r.get(0))
        .collect();
    let tokens: Vec<String> = sqlx::query("SELECT id FROM api_tokens WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| r.get(0))
        .collect();
    for sql in [
        "DELETE FROM sessions WHERE user_id = $1",
        "DELETE FROM api_tokens WHERE user_id = $1",
        "DELETE FROM user_email WHERE user_id = $1",
        "DELETE FROM email_changes WHERE user_id = $1",
        "DELETE FROM password_resets WHERE user_id = $1",
        "DELETE FROM totp_recovery_codes WHERE user_id = $1",
        "DELETE FROM user_totp WHERE user_id = $1",
        "DELETE FROM user_settings WHERE user_id = $1",
    ] {
        sqlx::query(sql).bind(user_id).execute(&mut *tx).await?;
    }
    sqlx::query(
        "UPDATE users SET username = $1, password_hash = NULL, closed_at = $2 WHERE id = $3",
    )
    .bind(shown_name)
    .bind(now)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((hashes, tokens))
}
