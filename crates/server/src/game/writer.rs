//! SQLite's group-commit writer: one task takes every game write waiting
//! in its queue, commits them together in one transaction (the store's
//! [`write_batch`]), then answers each. SQLite has one writer at a time, so
//! this replaces a queue of transactions spinning on SQLITE_BUSY with one
//! that commits many games at once.

use super::store::{WriteJob, write_batch};
use crate::infra::db::{Backend, Db};
use crate::infra::error::{ApiError, ApiResult};
use crate::ratings::store::RatingDiffs;
use sqlx::Any;
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc, oneshot};

type Reply = oneshot::Sender<ApiResult<Option<RatingDiffs>>>;

/// The SQLite group-commit writer: one task takes every write waiting in
/// its queue, commits them in one transaction, then answers each. SQLite
/// has one writer at a time, so this replaces a queue of transactions
/// spinning on SQLITE_BUSY with one that commits many games at once.
pub struct Writer {
    queue: mpsc::Sender<(WriteJob, Reply)>,
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

impl Writer {
    /// Starts the writer task over `db`'s pool; `lock` is held while it
    /// writes (other SQLite writers take it too).
    pub fn start(db: &Db, lock: Arc<Mutex<()>>) -> Writer {
        let (queue, jobs) = mpsc::channel(4096);
        tokio::spawn(writer_task(db.pool.clone(), lock, jobs));
        Writer { queue }
    }

    /// Commits `job` (with whatever else waits) and answers when it is
    /// saved, with what a rated game's end changed.
    pub async fn write(&self, job: WriteJob) -> ApiResult<Option<RatingDiffs>> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send((job, reply))
            .await
            .map_err(|_| ApiError::internal("the database writer stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::internal("the database writer stopped"))?
    }
}

/// Commits `jobs` in one transaction on `conn`: all or nothing. The second
/// value is false when the connection is unusable afterwards.
async fn commit_batch(
    conn: &mut sqlx::AnyConnection,
    jobs: &[WriteJob],
) -> (ApiResult<Vec<Option<RatingDiffs>>>, bool) {
    // BEGIN IMMEDIATE takes SQLite's write lock at once (no upgrade deadlock).
    if let Err(e) = sqlx::Executor::execute(&mut *conn, sqlx::raw_sql("BEGIN IMMEDIATE")).await {
        return (Err(ApiError::from(e)), true);
    }
    let outcome = write_batch(conn, Backend::Sqlite, jobs).await;
    let end = if outcome.is_ok() {
        "COMMIT"
    } else {
        "ROLLBACK"
    };
    match sqlx::Executor::execute(&mut *conn, sqlx::raw_sql(end)).await {
        Ok(_) => (outcome, true),
        Err(e) => {
            let _ = sqlx::Executor::execute(&mut *conn, sqlx::raw_sql("ROLLBACK")).await;
            (Err(ApiError::from(e)), false)
        }
    }
}

/// The writer task: batches, commits, answers. If a batch fails, each
/// write is retried alone so that one bad write fails only itself. It keeps
/// one connection of the pool for itself: its page cache stays warm.
async fn writer_task(
    pool: sqlx::AnyPool,
    lock: Arc<Mutex<()>>,
    mut queue: mpsc::Receiver<(WriteJob, Reply)>,
) {
    let mut conn: Option<sqlx::pool::PoolConnection<Any>> = None;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let _guard = lock.lock().await;
        let c = match &mut conn {
            Some(c) => c,
            None => match pool.acquire().await {
                Ok(c) => conn.insert(c),
                Err(e) => {
                    let e = ApiError::from(e);
                    for (_, reply) in batch {
                        let _ = reply.send(Err(e.clone()));
                    }
                    continue;
                }
            },
        };
        let (jobs, replies): (Vec<WriteJob>, Vec<Reply>) = batch.into_iter().unzip();
        let (result, healthy) = commit_batch(c, &jobs).await;
        match result {
            Ok(diffs) => {
                for (reply, diff) in replies.into_iter().zip(diffs) {
                    let _ = reply.send(Ok(diff));
                }
            }
            Err(e) if jobs.len() == 1 || !healthy => {
                for reply in replies {
                    let _ = reply.send(Err(e.clone()));
                }
            }
            Err(_) => {
                for (job, reply) in jobs.into_iter().zip(replies) {
                    let (result, ok) = commit_batch(c, std::slice::from_ref(&job)).await;
                    let _ = reply.send(result.map(|mut d| d.pop().flatten()));
                    if !ok {
                        break; // the rest get "writer stopped" answers when dropped
                    }
                }
            }
        }
        if !healthy {
            conn = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::{Action, ActionKind};
    use crate::game::store::value_rows;
    use crate::infra::util::random_id;
    use sqlx::Row;

    fn job(game: &str, seq: u32, version: i64, san: &str) -> WriteJob {
        let action = Action {
            seq,
            kind: ActionKind::Move,
            uci: format!("m{seq}"),
            san: san.into(),
            thai: None,
            fen: format!("fen after {seq}, it's"),
            white_ms: 1000,
            black_ms: 2000,
            at: 5,
        };
        WriteJob {
            game_id: game.into(),
            status: "ongoing",
            white_ms: 1000,
            black_ms: 2000,
            turn_since: 5,
            ply: seq as i32,
            fen: action.fen.clone(),
            result: None,
            reason: Some("o'clock"),
            draw_offer: None,
            takeback_offer: None,
            updated_at: 6,
            version,
            action: Some(action),
            rated_end: None,
        }
    }

    async fn database() -> Db {
        let dir = std::env::temp_dir().join(format!("thaiboard-batch-{}", random_id(8)));
        std::fs::create_dir_all(&dir).unwrap();
        let db = crate::infra::db::open(&format!("sqlite://{}", dir.join("t.db").display()))
            .await
            .unwrap();
        sqlx::query("INSERT INTO users (id, username, username_key, password_hash, is_guest, created_at) VALUES ('u', 'u', 'u', NULL, 0, 0)")
            .execute(&db.pool)
            .await
            .unwrap();
        for id in ["g1", "g2", "g3"] {
            sqlx::query(
                "INSERT INTO games (id, variant, rules, status, creator_id, creator_color, opponent_id, white_id, black_id, \
                 tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, white_ms, black_ms, turn_since, version, ply, fen, \
                 result, reason, draw_offer, created_at, updated_at) \
                 VALUES ($1, 'makruk', 'default', 'ongoing', 'u', 'white', NULL, 'u', 'u', 'none', 0, 0, 0, 0, 0, 0, 1, 0, 'start', NULL, NULL, NULL, 0, 0)",
            )
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        }
        db
    }

    async fn version_and_fen(db: &Db, id: &str) -> (i64, String, Option<String>, i64) {
        let row = sqlx::query("SELECT version, fen, reason, (SELECT COUNT(*) FROM game_actions WHERE game_id = $1) FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        (row.get(0), row.get(1), row.get(2), row.get(3))
    }

    #[test]
    fn value_rows_number_every_placeholder() {
        assert_eq!(value_rows(2, 3), "($1, $2, $3), ($4, $5, $6)");
    }

    #[tokio::test]
    async fn a_batch_commits_every_write_with_quotes_intact() {
        let db = database().await;
        let jobs = vec![job("g1", 1, 1, "e'4"), job("g2", 1, 1, "Me2#")];
        let mut conn = db.pool.acquire().await.unwrap();
        let (result, healthy) = commit_batch(&mut conn, &jobs).await;
        result.unwrap();
        assert!(healthy);
        assert_eq!(
            version_and_fen(&db, "g1").await,
            (2, "fen after 1, it's".into(), Some("o'clock".into()), 1)
        );
        assert_eq!(version_and_fen(&db, "g2").await.0, 2);
        let san: String = sqlx::query("SELECT san FROM game_actions WHERE game_id = 'g1'")
            .fetch_one(&db.pool)
            .await
            .unwrap()
            .get(0);
        assert_eq!(san, "e'4");
    }

    #[tokio::test]
    async fn a_stale_write_fails_the_batch_and_writes_nothing() {
        let db = database().await;
        // g3 is at version 1, not 7: the whole batch must roll back.
        let jobs = vec![job("g1", 1, 1, "a"), job("g3", 1, 7, "b")];
        let mut conn = db.pool.acquire().await.unwrap();
        let (result, healthy) = commit_batch(&mut conn, &jobs).await;
        assert_eq!(result.unwrap_err().code, "stale");
        assert!(healthy);
        drop(conn);
        assert_eq!(
            version_and_fen(&db, "g1").await,
            (1, "start".into(), None, 0)
        );
        assert_eq!(version_and_fen(&db, "g3").await.3, 0);
    }

    #[tokio::test]
    async fn the_writer_answers_each_write_of_a_failed_batch_alone() {
        let db = database().await;
        let lock = Arc::new(Mutex::new(()));
        let (queue, rx) = mpsc::channel(16);
        let mut answers = Vec::new();
        // Queued before the writer starts, so they form one batch.
        for (game, version) in [("g1", 1), ("g2", 9), ("g3", 1)] {
            let (reply, answer) = oneshot::channel();
            queue
                .send((job(game, 1, version, "x"), reply))
                .await
                .unwrap();
            answers.push(answer);
        }
        drop(queue);
        writer_task(db.pool.clone(), lock, rx).await;
        let results: Vec<_> = futures_util::future::join_all(answers).await;
        assert!(results[0].as_ref().unwrap().is_ok());
        assert_eq!(
            results[1].as_ref().unwrap().as_ref().unwrap_err().code,
            "stale"
        );
        assert!(results[2].as_ref().unwrap().is_ok());
        assert_eq!(version_and_fen(&db, "g1").await.0, 2);
        assert_eq!(version_and_fen(&db, "g2").await.0, 1);
        assert_eq!(version_and_fen(&db, "g3").await.3, 1);
    }
}
