//! The games' storage: every SQL statement of the game service, with bound
//! parameters only, alike on SQLite and PostgreSQL. On SQLite the writes of
//! many games are committed together by one writer task ([`Writer`]).

use super::model::{Action, ActionKind, Change, Game, Status};
use super::view::GameSummary;
use crate::auth::User;
use crate::clock::{TcKind, TimeControl};
use crate::db::{Backend, Db};
use crate::error::{ApiError, ApiResult};
use crate::ratings::store::{RatedEnd, RatingDiffs, apply_end, shown};
use crate::ratings::{Pool, Rating, ShownRating};
use games::{AnyGame, Color, GameKind, Outcome};
use sqlx::{Any, Row};
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc, oneshot};

/// The answer "the game changed under you" (its version moved on).
pub fn stale() -> ApiError {
    ApiError::conflict(
        "stale",
        "the game changed at the same time (another server or request); reload and try again",
    )
}

const SELECT_GAME: &str = "SELECT g.id, g.variant, g.rules, g.status, g.creator_id, cu.username, g.creator_color, g.opponent_id, \
    g.white_id, wu.username, g.black_id, bu.username, g.tc_kind, g.tc_initial_ms, g.tc_increment_ms, g.tc_max_ms, \
    g.white_ms, g.black_ms, g.turn_since, g.version, g.result, g.reason, g.draw_offer, g.created_at, \
    cu.is_guest, wu.is_guest, bu.is_guest, tg.tournament_id, g.rated, g.pool, \
    g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, g.white_rating_diff, g.black_rating_diff \
    FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
    LEFT JOIN users bu ON bu.id = g.black_id LEFT JOIN tournament_games tg ON tg.game_id = g.id \
    WHERE g.id = $1";

/// Loads game `id` and replays its actions into its rules state.
pub async fn load(db: &Db, id: &str) -> ApiResult<Game> {
    let row = sqlx::query(SELECT_GAME)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
    let user = |idx_id: usize, idx_name: usize, idx_guest: usize| -> Option<User> {
        let id: Option<String> = row.get(idx_id);
        id.map(|id| User {
            id,
            username: row.get(idx_name),
            guest: row.get::<Option<i32>, _>(idx_guest).unwrap_or(0) != 0,
        })
    };
    let variant: String = row.get(1);
    let rules_name: String = row.get(2);
    let kind = GameKind::from_names(&variant, Some(&rules_name))
        .map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
    let mut rules = AnyGame::new_declared(kind);
    let action_rows = sqlx::query(
        "SELECT seq, kind, notation, san, fen, white_ms, black_ms, at FROM game_actions WHERE game_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?;
    let mut actions = Vec::with_capacity(action_rows.len());
    for r in action_rows {
        let kind_name: String = r.get(1);
        let a = Action {
            seq: r.get::<i32, _>(0) as u32,
            kind: ActionKind::parse(&kind_name).ok_or_else(|| {
                ApiError::internal(format!("game {id}: unknown action {kind_name}"))
            })?,
            uci: r.get(2),
            san: r.get(3),
            fen: r.get(4),
            white_ms: r.get(5),
            black_ms: r.get(6),
            at: r.get(7),
        };
        a.replay(&mut rules).map_err(|e| {
            ApiError::internal(format!("replaying game {id} action {}: {e}", a.seq))
        })?;
        actions.push(a);
    }
    let status = Status::parse(&row.get::<String, _>(3));
    if status == Status::Finished && rules.outcome().is_none() {
        // An ending decided off the board (resignation, agreement, time).
        let result: Option<String> = row.get(20);
        let reason: Option<String> = row.get(21);
        let outcome = Outcome::from_stored(
            result.as_deref().unwrap_or(""),
            reason.as_deref().unwrap_or(""),
        )
        .ok_or_else(|| {
            ApiError::internal(format!("game {id}: unknown ending {result:?} {reason:?}"))
        })?;
        rules
            .end(outcome)
            .map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
    }
    let draw_offer: Option<String> = row.get(22);
    Ok(Game {
        id: row.get(0),
        kind,
        status,
        creator: user(4, 5, 24).ok_or_else(|| ApiError::internal("game without creator"))?,
        creator_color: row.get(6),
        opponent_id: row.get(7),
        white: user(8, 9, 25),
        black: user(10, 11, 26),
        tc: TimeControl {
            kind: TcKind::parse(&row.get::<String, _>(12)).unwrap_or(TcKind::None),
            initial_ms: row.get(13),
            increment_ms: row.get(14),
            max_ms: row.get(15),
        },
        white_ms: row.get(16),
        black_ms: row.get(17),
        turn_since: row.get(18),
        version: row.get(19),
        draw_offer: draw_offer.as_deref().and_then(Color::parse),
        created_at: row.get(23),
        tournament_id: row.get(27),
        rated: row.get::<i32, _>(28) != 0,
        pool: row
            .get::<Option<String>, _>(29)
            .as_deref()
            .and_then(Pool::parse),
        ratings: [
            shown(row.get(30), row.get(31)),
            shown(row.get(32), row.get(33)),
        ],
        rating_diffs: row
            .get::<Option<i32>, _>(34)
            .zip(row.get::<Option<i32>, _>(35)),
        rules,
        actions,
    })
}

/// The settings of a new game.
pub struct NewGame<'a> {
    /// Which game.
    pub kind: GameKind,
    /// The colour the creator asked for.
    pub color: &'a str,
    /// The time control.
    pub tc: TimeControl,
    /// The challenger.
    pub creator: &'a User,
    /// The only user who may accept (a direct challenge, or the engine).
    pub opponent_id: Option<&'a str>,
    /// White and Black, for a game that starts at once.
    pub players: Option<(&'a str, &'a str)>,
    /// Whether it counts for ratings.
    pub rated: bool,
    /// Its rating pool (games with a clock).
    pub pool: Option<Pool>,
    /// White's and Black's ratings as it starts (a game started at once).
    pub ratings: [Option<ShownRating>; 2],
}

/// Stores a new game (an open challenge, or a started game when both
/// players are given) as `id` at `now`.
pub async fn insert(db: &Db, id: &str, g: &NewGame<'_>, now: i64) -> ApiResult<()> {
    let status = if g.players.is_some() {
        Status::Ongoing
    } else {
        Status::Open
    };
    sqlx::query(
        "INSERT INTO games (id, variant, rules, status, creator_id, creator_color, opponent_id, white_id, black_id, \
         tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, white_ms, black_ms, turn_since, version, ply, fen, \
         result, reason, draw_offer, created_at, updated_at, rated, pool, \
         white_rating, white_provisional, black_rating, black_provisional) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 1, 0, $17, NULL, NULL, NULL, $18, $19, \
         $20, $21, $22, $23, $24, $25)",
    )
    .bind(id)
    .bind(g.kind.variant_name())
    .bind(g.kind.rules_name())
    .bind(status.name())
    .bind(&g.creator.id)
    .bind(g.color)
    .bind(g.opponent_id)
    .bind(g.players.map(|p| p.0))
    .bind(g.players.map(|p| p.1))
    .bind(g.tc.kind.name())
    .bind(g.tc.initial_ms)
    .bind(g.tc.increment_ms)
    .bind(g.tc.max_ms)
    .bind(g.tc.initial_ms)
    .bind(g.tc.initial_ms)
    .bind(now)
    .bind(g.kind.start_fen())
    .bind(now)
    .bind(now)
    .bind(i32::from(g.rated))
    .bind(g.pool.map(|p| p.to_string()))
    .bind(g.ratings[0].map(|r| r.rating))
    .bind(g.ratings[0].map(|r| i32::from(r.provisional)))
    .bind(g.ratings[1].map(|r| r.rating))
    .bind(g.ratings[1].map(|r| i32::from(r.provisional)))
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Starts an open challenge: its players and their ratings as it starts,
/// guarded by its version.
pub async fn accept(
    tx: &mut sqlx::Transaction<'_, Any>,
    g: &Game,
    players: [&str; 2],
    ratings: [Option<ShownRating>; 2],
    now: i64,
) -> ApiResult<()> {
    let done = sqlx::query(
        "UPDATE games SET status = 'ongoing', white_id = $1, black_id = $2, turn_since = $3, updated_at = $3, \
         version = version + 1, white_rating = $6, white_provisional = $7, black_rating = $8, black_provisional = $9 \
         WHERE id = $4 AND version = $5 AND status = 'open'",
    )
    .bind(players[0])
    .bind(players[1])
    .bind(now)
    .bind(&g.id)
    .bind(g.version)
    .bind(ratings[0].map(|r| r.rating))
    .bind(ratings[0].map(|r| i32::from(r.provisional)))
    .bind(ratings[1].map(|r| r.rating))
    .bind(ratings[1].map(|r| i32::from(r.provisional)))
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(stale());
    }
    Ok(())
}

/// Withdraws an open challenge, guarded by its version.
pub async fn cancel(db: &Db, g: &Game, now: i64) -> ApiResult<()> {
    let done = sqlx::query(
        "UPDATE games SET status = 'cancelled', version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3",
    )
    .bind(now)
    .bind(&g.id)
    .bind(g.version)
    .execute(&db.pool)
    .await?;
    if done.rows_affected() != 1 {
        return Err(stale());
    }
    Ok(())
}

/// One game's write: an optional action row and the game row's new fields.
pub struct WriteJob {
    game_id: String,
    action: Option<Action>,
    status: &'static str,
    white_ms: i64,
    black_ms: i64,
    turn_since: i64,
    ply: i32,
    fen: String,
    result: Option<&'static str>,
    reason: Option<&'static str>,
    draw_offer: Option<&'static str>,
    updated_at: i64,
    /// The version the game must still have.
    version: i64,
    /// A rated game's end, applied to the ratings in the same transaction.
    rated_end: Option<RatedEnd>,
}

impl WriteJob {
    /// The write that saves `change` to game `g` at `now`.
    pub fn of(g: &Game, change: &Change, now: i64) -> WriteJob {
        let rules = change.rules_after(g);
        let outcome = rules.outcome();
        let f = &change.fields;
        WriteJob {
            game_id: g.id.clone(),
            action: change.action.clone(),
            status: f.status.name(),
            white_ms: f.white_ms,
            black_ms: f.black_ms,
            turn_since: f.turn_since,
            ply: rules.ply() as i32,
            fen: change.fen_after(g),
            result: outcome.map(|o| o.result()),
            reason: match f.status {
                Status::Aborted => Some(super::model::ABORTED),
                _ => outcome.map(|o| o.reason.name()),
            },
            draw_offer: f.draw_offer.map(Color::name),
            updated_at: now,
            version: g.version,
            rated_end: rated_end(g, change),
        }
    }
}

/// The ratings update a change brings: when it ends a rated game with a result.
fn rated_end(g: &Game, change: &Change) -> Option<RatedEnd> {
    if !g.rated || change.fields.status != Status::Finished {
        return None;
    }
    Some(RatedEnd {
        game_id: g.id.clone(),
        pool: g.pool?,
        white: g.white.as_ref()?.id.clone(),
        black: g.black.as_ref()?.id.clone(),
        outcome: change.rules_after(g).outcome()?,
    })
}

/// The players' ratings in `pool` as a game starts (none for the computer
/// and guests).
pub async fn starting_ratings(
    db: &Db,
    pool: Option<Pool>,
    players: [&User; 2],
) -> ApiResult<[Option<ShownRating>; 2]> {
    let mut out = [None, None];
    let Some(pool) = pool else {
        return Ok(out);
    };
    for (slot, user) in out.iter_mut().zip(players) {
        if !user.guest && crate::opponent::engine_level(&user.id).is_none() {
            let r: Rating = crate::ratings::store::current(&db.pool, &user.id, pool).await?;
            *slot = Some(r.into());
        }
    }
    Ok(out)
}

const INSERT_ACTIONS: &str =
    "INSERT INTO game_actions (game_id, seq, kind, notation, san, fen, white_ms, black_ms, at) ";

/// Writes one game's change in `tx` (PostgreSQL); fails (the caller rolls
/// back) when the game's version moved on. Returns what a rated game's end
/// changed.
pub async fn write(
    tx: &mut sqlx::Transaction<'_, Any>,
    job: &WriteJob,
) -> ApiResult<Option<RatingDiffs>> {
    let mut diffs = write_batch(tx, Backend::Postgres, std::slice::from_ref(job)).await?;
    Ok(diffs.pop().flatten())
}

/// Writes the changes of `jobs` on `conn` (inside the caller's
/// transaction): one multi-row insert of their actions and one update of
/// their games, each guarded by the version it expects, then the ratings of
/// the rated games they end; fails when any game changed meanwhile.
/// Returns, per job, what its rated game's end changed.
async fn write_batch(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    jobs: &[WriteJob],
) -> ApiResult<Vec<Option<RatingDiffs>>> {
    let actions: Vec<(&WriteJob, &Action)> = jobs
        .iter()
        .filter_map(|j| j.action.as_ref().map(|a| (j, a)))
        .collect();
    if !actions.is_empty() {
        let sql = format!("{INSERT_ACTIONS}VALUES {}", value_rows(actions.len(), 9));
        let mut insert = sqlx::query(&sql);
        for (job, a) in actions {
            insert = insert
                .bind(&job.game_id)
                .bind(a.seq as i32)
                .bind(a.kind.name())
                .bind(&a.uci)
                .bind(&a.san)
                .bind(&a.fen)
                .bind(a.white_ms)
                .bind(a.black_ms)
                .bind(a.at);
        }
        insert.execute(&mut *conn).await?;
    }
    // One guarded update for the batch: the new fields come as a VALUES
    // table (columns column1.. on both SQLite and PostgreSQL).
    let sql = format!(
        "UPDATE games SET status = v.column2, white_ms = v.column3, black_ms = v.column4, \
         turn_since = v.column5, version = games.version + 1, ply = v.column6, fen = v.column7, \
         result = v.column8, reason = v.column9, draw_offer = v.column10, updated_at = v.column11 \
         FROM (VALUES {}) AS v WHERE games.id = v.column1 AND games.version = v.column12",
        value_rows(jobs.len(), 12)
    );
    let mut update = sqlx::query(&sql);
    for j in jobs {
        update = update
            .bind(&j.game_id)
            .bind(j.status)
            .bind(j.white_ms)
            .bind(j.black_ms)
            .bind(j.turn_since)
            .bind(j.ply)
            .bind(&j.fen)
            .bind(j.result)
            .bind(j.reason)
            .bind(j.draw_offer)
            .bind(j.updated_at)
            .bind(j.version);
    }
    let done = update.execute(&mut *conn).await?;
    if done.rows_affected() != jobs.len() as u64 {
        return Err(stale());
    }
    let mut diffs = Vec::with_capacity(jobs.len());
    for job in jobs {
        diffs.push(match &job.rated_end {
            Some(end) => Some(apply_end(conn, backend, end, job.updated_at).await?),
            None => None,
        });
    }
    Ok(diffs)
}

/// `rows` rows of `columns` numbered placeholders, `($1, $2), ($3, $4)`: the
/// form both SQLite and PostgreSQL read.
fn value_rows(rows: usize, columns: usize) -> String {
    let mut out = String::with_capacity(rows * columns * 5);
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..columns {
            if c > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("${}", r * columns + c + 1));
        }
        out.push(')');
    }
    out
}

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

/// Tells other server processes (PostgreSQL) that game `id` changed, inside
/// the change's transaction.
pub async fn notify_in(
    db: &Db,
    tx: &mut sqlx::Transaction<'_, Any>,
    instance: &str,
    id: &str,
) -> ApiResult<()> {
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT pg_notify('thaiboard_games', $1)")
            .bind(format!("{instance} {id}"))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Tells other server processes (PostgreSQL) that game `id` changed outside
/// a game transaction. Best effort: a lost note only delays a lobby.
pub async fn notify(db: &Db, instance: &str, id: &str) {
    if db.backend == Backend::Postgres {
        let _ = sqlx::query("SELECT pg_notify('thaiboard_games', $1)")
            .bind(format!("{instance} {id}"))
            .execute(&db.pool)
            .await;
    }
}

/// The id of the registered (not guest) user named `name`, any case.
pub async fn registered_user_id(db: &Db, name: &str) -> ApiResult<Option<String>> {
    Ok(
        sqlx::query("SELECT id FROM users WHERE username_key = $1 AND is_guest = 0")
            .bind(name.to_lowercase())
            .fetch_optional(&db.pool)
            .await?
            .map(|r| r.get(0)),
    )
}

/// How many ongoing games against the computer `user_id` created.
pub async fn ongoing_engine_games(db: &Db, user_id: &str) -> ApiResult<i64> {
    Ok(sqlx::query(
        "SELECT COUNT(*) FROM games WHERE status = 'ongoing' AND creator_id = $1 AND opponent_id LIKE 'engine%'",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?
    .get(0))
}

/// The ids of ongoing games with an engine account among their players.
pub async fn ongoing_engine_game_ids(db: &Db) -> ApiResult<Vec<String>> {
    Ok(sqlx::query(
        "SELECT id FROM games WHERE status = 'ongoing' AND (white_id LIKE 'engine%' OR black_id LIKE 'engine%')",
    )
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| r.get(0))
    .collect())
}

/// The deadlines of ongoing games whose clock runs: `(id, deadline)`.
pub async fn running_clocks(db: &Db) -> ApiResult<Vec<(String, i64)>> {
    let rows = sqlx::query(
        "SELECT id, tc_kind, turn_since, white_ms, black_ms, ply FROM games WHERE status = 'ongoing' AND tc_kind <> 'none'",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::new();
    for row in rows {
        let tc = TimeControl {
            kind: TcKind::parse(&row.get::<String, _>(1)).unwrap_or(TcKind::None),
            initial_ms: 0,
            increment_ms: 0,
            max_ms: 0,
        };
        let ply: i32 = row.get(5);
        if tc.runs_at(ply as u32) {
            let since: i64 = row.get(2);
            let left: i64 = if ply % 2 == 0 { row.get(3) } else { row.get(4) };
            out.push((row.get(0), since + left));
        }
    }
    Ok(out)
}

/// A challenger's rating as lists show it: stored, or a new player's when
/// the game has a pool and the challenger is not a guest.
fn creator_rating(
    rating: Option<f64>,
    deviation: Option<f64>,
    has_pool: bool,
    guest: bool,
) -> Option<ShownRating> {
    match (rating, deviation) {
        (Some(rating), Some(deviation)) => Some(
            Rating {
                rating,
                deviation,
                ..Rating::default()
            }
            .into(),
        ),
        _ if has_pool && !guest => Some(Rating::default().into()),
        _ => None,
    }
}

/// Which games a list shows.
pub enum ListFilter {
    /// Open challenges `user_id` may see (newest first, at most 200).
    Lobby,
    /// Games of `user_id`: played, or challenges made (most recent first, at most 500).
    PlayedBy,
}

/// Game summaries for `me` (`""` for nobody).
pub async fn summaries(db: &Db, filter: ListFilter, me: &str) -> ApiResult<Vec<GameSummary>> {
    let condition = match filter {
        ListFilter::Lobby => {
            "g.status = 'open' AND (g.opponent_id IS NULL OR g.opponent_id = $1 OR g.creator_id = $1) ORDER BY g.created_at DESC LIMIT 200"
        }
        ListFilter::PlayedBy => {
            "(g.white_id = $1 OR g.black_id = $1 OR (g.creator_id = $1 AND g.status = 'open')) ORDER BY g.updated_at DESC LIMIT 500"
        }
    };
    let sql = format!(
        "SELECT g.id, g.variant, g.rules, g.status, wu.username, bu.username, cu.username, g.creator_color, g.tc_kind, \
         g.tc_initial_ms, g.tc_increment_ms, g.ply, g.result, g.reason, g.white_id, g.black_id, g.updated_at, \
         t.id, t.name, g.rated, g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, \
         g.white_rating_diff, g.black_rating_diff, cr.rating, cr.deviation, g.pool, cu.is_guest \
         FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
         LEFT JOIN users bu ON bu.id = g.black_id \
         LEFT JOIN tournament_games tg ON tg.game_id = g.id LEFT JOIN tournaments t ON t.id = tg.tournament_id \
         LEFT JOIN ratings cr ON cr.user_id = g.creator_id AND cr.pool = g.pool \
         WHERE {condition}"
    );
    let rows = sqlx::query(&sql).bind(me).fetch_all(&db.pool).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let status: String = r.get(3);
            let ply: i32 = r.get(11);
            let white_id: Option<String> = r.get(14);
            let black_id: Option<String> = r.get(15);
            let to_move = if ply % 2 == 0 { white_id } else { black_id };
            GameSummary {
                id: r.get(0),
                variant: r.get(1),
                rules: r.get(2),
                your_move: status == "ongoing" && to_move.as_deref() == Some(me),
                status,
                white: r.get(4),
                black: r.get(5),
                creator: r.get(6),
                creator_color: r.get(7),
                tc_kind: r.get(8),
                tc_initial_ms: r.get(9),
                tc_increment_ms: r.get(10),
                ply: ply as i64,
                result: r.get(12),
                reason: r.get(13),
                updated_at: r.get(16),
                tournament_id: r.get(17),
                tournament_name: r.get(18),
                rated: r.get::<i32, _>(19) != 0,
                white_rating: shown(r.get(20), r.get(21)),
                black_rating: shown(r.get(22), r.get(23)),
                white_rating_diff: r.get(24),
                black_rating_diff: r.get(25),
                creator_rating: creator_rating(
                    r.get(26),
                    r.get(27),
                    r.get::<Option<String>, _>(28).is_some(),
                    r.get::<Option<i32>, _>(29).unwrap_or(0) != 0,
                ),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random_id;

    fn job(game: &str, seq: u32, version: i64, san: &str) -> WriteJob {
        let action = Action {
            seq,
            kind: ActionKind::Move,
            uci: format!("m{seq}"),
            san: san.into(),
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
            updated_at: 6,
            version,
            action: Some(action),
            rated_end: None,
        }
    }

    async fn database() -> Db {
        let dir = std::env::temp_dir().join(format!("thaiboard-batch-{}", random_id(8)));
        std::fs::create_dir_all(&dir).unwrap();
        let db = crate::db::open(&format!("sqlite://{}", dir.join("t.db").display()))
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
