//! Guests: every visitor without a session gets a guest user, so guests
//! are many. A guest who has played no game is removed once it is older
//! than [`crate::Config::guest_unused_after_secs`] (with its sessions,
//! whose sockets close); the janitor does this every hour. A guest that
//! anything else still refers to (a chat report, a tournament...) is kept:
//! the database's foreign keys refuse its removal and it is skipped.

use crate::db::Db;
use crate::sessions::SessionCache;
use sqlx::Row;

/// Most guests looked at in one sweep.
pub const SWEEP_BATCH: i64 = 1000;

/// Removes up to [`SWEEP_BATCH`] guests made before `cutoff_ms` that are
/// players of no game; returns how many were removed.
pub async fn expire_unused(
    db: &Db,
    sessions: &SessionCache,
    cutoff_ms: i64,
) -> Result<usize, sqlx::Error> {
    let ids: Vec<String> = sqlx::query(
        "SELECT u.id FROM users u WHERE u.is_guest = 1 AND u.created_at < $1 \
         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.white_id = u.id) \
         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.black_id = u.id) \
         LIMIT $2",
    )
    .bind(cutoff_ms)
    .bind(SWEEP_BATCH)
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .map(|r| r.get(0))
    .collect();
    let mut removed = 0;
    for id in ids {
        let mut tx = db.pool.begin().await?;
        let hashes: Vec<String> = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
            .bind(&id)
            .fetch_all(&mut *tx)
            .await?
            .into_iter()
            .map(|r| r.get(0))
            .collect();
        let deleted = async {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(&id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM users WHERE id = $1 AND is_guest = 1")
                .bind(&id)
                .execute(&mut *tx)
                .await
        }
        .await;
        match deleted {
            Ok(_) => {
                tx.commit().await?;
                for h in &hashes {
                    sessions.end(h);
                }
                removed += 1;
            }
            // Something still refers to the guest: keep it.
            Err(_) => tx.rollback().await?,
        }
    }
    Ok(removed)
}
