//! Guests: a visitor who acts without an account (creates a challenge,
//! plays the computer...) gets a guest user on that first action, within a
//! per-address budget that fits a café ([`crate::Config::guests_per_ip_burst`]);
//! reading the site makes none. Guests are many. A guest who has played no game is removed once it is older
//! than [`crate::Config::guest_unused_after_secs`] (with its sessions,
//! whose sockets close); the janitor does this every hour. A guest that
//! anything else still refers to (a chat report, a tournament...) is kept:
//! the database's foreign keys refuse its removal and it is skipped.

use super::store;
use crate::account::auth::SessionCache;
use crate::infra::db::Db;
use crate::infra::time::TimeSource;
use std::sync::Arc;

/// Most guests looked at in one sweep.
pub const SWEEP_BATCH: i64 = 1000;

/// Removes up to [`SWEEP_BATCH`] guests made before `cutoff_ms` that are
/// players of no game; returns how many were removed.
pub async fn expire_unused(
    db: &Db,
    sessions: &SessionCache,
    cutoff_ms: i64,
) -> Result<usize, sqlx::Error> {
    let ids = store::unused_guests(db, cutoff_ms, SWEEP_BATCH).await?;
    let mut removed = 0;
    for id in ids {
        // A guest that something still refers to is kept (None).
        if let Some(hashes) = store::remove_guest(db, &id).await? {
            for h in &hashes {
                sessions.end(h);
            }
            removed += 1;
        }
    }
    Ok(removed)
}

/// Starts the janitor: once an hour it forgets expired sessions and the
/// guests unused for `guest_unused_after_secs`.
pub fn start_janitor(
    db: &Db,
    sessions: &Arc<SessionCache>,
    time: &TimeSource,
    guest_unused_after_secs: i64,
) {
    let (janitor_db, janitor_sessions) = (db.clone(), Arc::downgrade(sessions));
    let guest_unused_ms = guest_unused_after_secs * 1000;
    let time = time.clone();
    tokio::spawn(async move {
        loop {
            let _ = store::delete_expired_sessions(&janitor_db, time.now_ms()).await;
            let Some(sessions) = janitor_sessions.upgrade() else {
                return;
            };
            let cutoff = time.now_ms() - guest_unused_ms;
            // Batch after batch until none is left.
            while let Ok(n) = expire_unused(&janitor_db, &sessions, cutoff).await {
                if n == 0 {
                    break;
                }
            }
            drop(sessions);
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
        }
    });
}
