//! The database: one pool over SQLite or PostgreSQL (chosen by URL), with
//! the same migrations on both.

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use std::path::{Path, PathBuf};
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

impl Db {
    /// Tells the other server processes on the same PostgreSQL database
    /// `payload` on `channel` (`pg_notify`); nothing on SQLite, where one
    /// process serves.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}

/// How a commit is made durable (`thaiboard serve --durability`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Durability {
    /// SQLite `synchronous=NORMAL` in WAL mode: every acknowledged commit
    /// survives the process's crash (`kill -9`); an operating-system crash
    /// or power loss may lose the last ones. PostgreSQL: its own setting.
    #[default]
    Normal,
    /// SQLite `synchronous=FULL`: the WAL is flushed to disk at every
    /// commit, so acknowledged moves survive an OS crash too, at a cost
    /// in moves per second (see the operator guide). PostgreSQL:
    /// `synchronous_commit = on`.
    Full,
}

/// Opens the database at `url` with [`Durability::Normal`]: see [`open_with`].
pub async fn open(url: &str) -> Result<Db, sqlx::Error> {
    open_with(url, Durability::Normal).await
}

/// Opens the database at `url`, creating an SQLite file (and its folder) if
/// missing, and runs the migrations. An SQLite file that cannot be opened is
/// reported with its path.
pub async fn open_with(url: &str, durability: Durability) -> Result<Db, sqlx::Error> {
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
            let file = sqlite_file(&url);
            if let Some(folder) = file
                .as_deref()
                .and_then(Path::parent)
                .filter(|f| !f.as_os_str().is_empty())
            {
                std::fs::create_dir_all(folder).map_err(|e| {
                    configuration(format!(
                        "cannot create the database folder {}: {e}",
                        folder.display()
                    ))
                })?;
            }
            let options = AnyConnectOptions::from_str(&url)?;
            AnyPoolOptions::new()
                // SQLite has one writer; a few connections serve concurrent reads.
                .max_connections(4)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute(match durability {
                            Durability::Normal => "PRAGMA synchronous = NORMAL",
                            Durability::Full => "PRAGMA synchronous = FULL",
                        })
                        .await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints (which fsync) run in a background task, not in a commit.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        // A WAL file that grew under load shrinks back to this
                        // size when it restarts.
                        conn.execute("PRAGMA journal_size_limit = 67108864").await?;
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
                .await
                .map_err(|e| match &file {
                    Some(file) => configuration(format!(
                        "cannot open the SQLite database {}: {e}",
                        file.display()
                    )),
                    None => e,
                })?
        }
        Backend::Postgres => {
            AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        if durability == Durability::Full {
                            conn.execute("SET synchronous_commit = on").await?;
                        }
                        Ok(())
                    })
                })
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
                let passive: Result<(i64, i64, i64), _> =
                    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                        .fetch_one(&pool)
                        .await;
                if let Ok((_, log, done)) = passive {
                    if wal_needs_truncate(log, done) {
                        // Readers kept the WAL from restarting while it grew:
                        // wait for them (busy_timeout) and cut the file back.
                        let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                            .execute(&pool)
                            .await;
                    }
                }
            }
        });
    }
    Ok(Db {
        pool,
        backend,
        url: url.to_string(),
    })
}

/// The file an SQLite URL names (`sqlite://PATH?...` or `sqlite:PATH`), or
/// `None` for an in-memory database.
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or_default();
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

/// An error that says what went wrong opening the database.
fn configuration(message: String) -> sqlx::Error {
    sqlx::Error::Configuration(message.into())
}

/// WAL pages (4 KiB) beyond which the background checkpoint forces a
/// truncating checkpoint: about 256 MB.
const WAL_TRUNCATE_PAGES: i64 = 65_536;

/// Whether a passive checkpoint that left `log` pages in the WAL, `done` of
/// them copied back, calls for a truncating one: the WAL is large and
/// readers kept part of it from being copied.
fn wal_needs_truncate(log: i64, done: i64) -> bool {
    log > WAL_TRUNCATE_PAGES && done < log
}

#[cfg(test)]
mod wal_tests {
    use super::*;

    #[test]
    fn only_a_large_pinned_wal_is_truncated() {
        assert!(!wal_needs_truncate(1_000, 10));
        // Large but wholly copied back: the next commit restarts it.
        assert!(!wal_needs_truncate(100_000, 100_000));
        assert!(wal_needs_truncate(100_000, 60_000));
        // PRAGMA wal_checkpoint reports -1 when the database is not in WAL mode.
        assert!(!wal_needs_truncate(-1, -1));
    }
}

#[cfg(test)]
mod open_tests {
    use super::*;

    #[test]
    fn the_file_of_an_sqlite_url() {
        assert_eq!(
            sqlite_file("sqlite://./data/thaiboard.db"),
            Some(PathBuf::from("./data/thaiboard.db"))
        );
        assert_eq!(
            sqlite_file("sqlite:/srv/t.db?mode=ro"),
            Some(PathBuf::from("/srv/t.db"))
        );
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("sqlite://:memory:?cache=shared"), None);
        assert_eq!(sqlite_file("postgres://u@h/db"), None);
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("thaiboard-db-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[tokio::test]
    async fn a_missing_data_folder_is_created() {
        let dir = scratch("missing");
        let file = dir.join("a/b/thaiboard.db");
        let db = open(&format!("sqlite://{}", file.display())).await.unwrap();
        assert!(file.is_file(), "{} was not created", file.display());
        db.pool.close().await;
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn an_unopenable_file_is_named_in_the_error() {
        let dir = scratch("unopenable");
        // The database path is an existing folder: SQLite cannot open it.
        let file = dir.join("thaiboard.db");
        std::fs::create_dir_all(&file).unwrap();
        let error = open(&format!("sqlite://{}", file.display()))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&file.display().to_string()),
            "the error does not name the file: {error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
