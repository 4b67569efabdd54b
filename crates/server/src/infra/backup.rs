//! Backups of the SQLite database, taken while the server runs, and their
//! restoration (`thaiboard backup`, `thaiboard restore`).
//!
//! A backup is SQLite's `VACUUM INTO`: one read transaction, so the copy
//! is the database as it stood at one moment (every commit before it, none
//! after), while the server goes on writing through the WAL. The copy is
//! checked (`PRAGMA integrity_check`) before it is called done.
//!
//! A restore checks the file (an SQLite database with thaiboard's tables,
//! intact), then puts it in place of the database file in one rename,
//! removing the old file's WAL and shared-memory files. It refuses while a
//! server runs on the database (the server's lock, `crate::infra::data_lock`):
//! a running server would keep writing to the file it opened.
//!
//! PostgreSQL has its own tools: `pg_dump` while serving, `pg_restore` or
//! `psql` into a fresh database (see the README).

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Row, SqliteConnection};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What went wrong, in words for the command line.
pub type BackupError = String;

/// The file of an `sqlite://` URL; an error for PostgreSQL, naming its tool.
pub fn sqlite_path(database_url: &str, postgres_tool: &str) -> Result<PathBuf, BackupError> {
    if database_url.starts_with("postgres:") || database_url.starts_with("postgresql:") {
        return Err(format!(
            "the database is PostgreSQL: use {postgres_tool} (see the README's section on backups)"
        ));
    }
    let rest = database_url
        .strip_prefix("sqlite://")
        .ok_or_else(|| format!("unsupported database URL {database_url:?}: use sqlite://PATH"))?;
    let path = rest.split('?').next().unwrap_or(rest);
    if path.is_empty() || path == ":memory:" {
        return Err(format!("{database_url:?} names no database file"));
    }
    Ok(PathBuf::from(path))
}

async fn open(path: &Path, read_only: bool) -> Result<SqliteConnection, BackupError> {
    SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
        .map_err(|e| format!("{}: {e}", path.display()))?
        .read_only(read_only)
        .create_if_missing(false)
        .connect()
        .await
        .map_err(|e| format!("cannot open {}: {e}", path.display()))
}

/// Checks that `path` is an intact thaiboard database; returns its number of games.
pub async fn check_database(path: &Path) -> Result<i64, BackupError> {
    let mut conn = open(path, true).await?;
    let verdict: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| format!("{}: not an SQLite database ({e})", path.display()))?
        .get(0);
    if verdict != "ok" {
        return Err(format!("{}: damaged: {verdict}", path.display()));
    }
    let games: i64 = sqlx::query("SELECT COUNT(*) FROM games")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| format!("{}: not a thaiboard database ({e})", path.display()))?
        .get(0);
    sqlx::query("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| format!("{}: not a thaiboard database ({e})", path.display()))?;
    let _ = conn.close().await;
    Ok(games)
}

/// Copies the database at `database_url` into the new file `out` while the
/// server may be running; returns the number of games in the copy.
pub async fn backup(database_url: &str, out: &Path) -> Result<i64, BackupError> {
    let db = sqlite_path(database_url, "pg_dump")?;
    if out.exists() {
        return Err(format!(
            "{} exists: give a new file (a backup never overwrites)",
            out.display()
        ));
    }
    let mut conn = open(&db, false).await?;
    let target = out
        .to_str()
        .ok_or_else(|| format!("{}: the path is not UTF-8", out.display()))?;
    sqlx::query("VACUUM INTO $1")
        .bind(target)
        .execute(&mut conn)
        .await
        .map_err(|e| format!("backup of {} into {target} failed: {e}", db.display()))?;
    let _ = conn.close().await;
    check_database(out).await
}

/// Puts the backup `from` in place of the database at `database_url`
/// (which must not exist unless `replace`); returns its number of games.
/// The server must be stopped.
pub async fn restore(from: &Path, database_url: &str, replace: bool) -> Result<i64, BackupError> {
    let db = sqlite_path(database_url, "pg_restore or psql")?;
    // Held until the new file is in place: no server may run on it.
    let _lock = crate::infra::data_lock::DataLock::take(&db, "restore")?;
    let games = check_database(from).await?;
    if db.exists() && !replace {
        return Err(format!(
            "{} exists: stop the server and pass --force to replace it",
            db.display()
        ));
    }
    let side = |suffix: &str| PathBuf::from(format!("{}{suffix}", db.display()));
    let staging = side(".restoring");
    std::fs::copy(from, &staging)
        .map_err(|e| format!("copy {} to {}: {e}", from.display(), staging.display()))?;
    // A restored file must start with its own journal only.
    {
        let mut conn = open(&staging, false).await?;
        sqlx::query("PRAGMA journal_mode = DELETE")
            .execute(&mut conn)
            .await
            .map_err(|e| format!("{}: {e}", staging.display()))?;
        let _ = conn.close().await;
    }
    for stale in [side("-wal"), side("-shm")] {
        match std::fs::remove_file(&stale) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("remove {}: {e}", stale.display())),
        }
    }
    std::fs::rename(&staging, &db)
        .map_err(|e| format!("rename {} to {}: {e}", staging.display(), db.display()))?;
    Ok(games)
}
