//! The database: one pool over SQLite or PostgreSQL (chosen by URL), with
//! the same migrations on both.

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use std::str::FromStr;
use std::time::Duration;

/// Which database is behind the pool.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file (or memory).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// The pool and what it talks to.
#[derive(Clone, Debug)]
pub struct Db {
    /// The connection pool.
    pub pool: AnyPool,
    /// The backend.
    pub backend: Backend,
    /// The URL it was opened with.
    pub url: String,
}

/// Opens the database at `url`, creating an SQLite file if missing, and runs the migrations.
pub async fn open(url: &str) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Backend::Postgres
    } else if url.starts_with("sqlite:") {
        Backend::Sqlite
    } else {
        return Err(sqlx::Error::Configuration(
            format!("unsupported database URL {url:?}: use sqlite://PATH or postgres://...").into(),
        ));
    };
    let pool = match backend {
        Backend::Sqlite => {
            let url = if url.contains('?') {
                url.to_string()
            } else {
                format!("{url}?mode=rwc")
            };
            let options = AnyConnectOptions::from_str(&url)?;
            AnyPoolOptions::new()
                // SQLite has one writer; a few connections serve concurrent reads.
                .max_connections(4)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints (which fsync) run in a background task, not in a commit.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        // Read pages through a memory map and keep more of them
                        // cached (fewer read system calls on the move path).
                        conn.execute("PRAGMA mmap_size = 268435456").await?;
                        conn.execute("PRAGMA cache_size = -16384").await?;
                        // Statement journals of multi-row writes stay in memory.
                        conn.execute("PRAGMA temp_store = MEMORY").await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await?
        }
        Backend::Postgres => {
            AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(30))
                .connect(url)
                .await?
        }
    };
    sqlx::migrate!("./migrations").run(&pool).await?;
    if backend == Backend::Sqlite {
        // Copy the WAL back into the database file every second, off the
        // commit path: a commit never waits for an fsync (synchronous=NORMAL
        // in WAL mode keeps every commit safe from a process crash).
        let pool = pool.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if pool.is_closed() {
                    return;
                }
                let _ = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .execute(&pool)
                    .await;
            }
        });
    }
    Ok(Db {
        pool,
        backend,
        url: url.to_string(),
    })
}
