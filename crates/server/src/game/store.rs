//! The games' storage: every SQL statement of the game service, with bound
//! parameters only, alike on SQLite and PostgreSQL. On SQLite the writes of
//! many games are committed together by one writer task ([`Writer`]).

use super::model::{Action, ActionKind, Change, Game, Status, ThaiText};
use crate::account::auth::User;
use crate::game::clock::{TcKind, TimeControl};
use crate::infra::db::{Backend, Db};
use crate::infra::error::{ApiError, ApiResult};
use crate::leave::model::LeaveRule;
use crate::ratings::store::{RatedEnd, RatingDiffs, apply_end, shown};
use crate::ratings::{Pool, Rating, ShownRating};
use games::{Color, GameKind, Outcome};
use sqlx::{Any, Row};

/// The answer "the game changed under you" (its version moved on).
pub fn stale() -> ApiError {
    ApiError::conflict(
        "stale",
        "the game changed at the same time (another server or request); reload and try again",
    )
}

/// Whether `user_id` is a bot account (upgraded, or one of the engine's).
pub async fn is_bot(db: &Db, user_id: &str) -> ApiResult<bool> {
    if crate::computer::opponent::engine_level(user_id).is_some() {
        return Ok(true);
    }
    Ok(sqlx::query("SELECT 1 FROM bot_accounts WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await?
        .is_some())
}

/// A guarded update's answer: the game had moved on when no row changed.
fn changed_one(done: sqlx::any::AnyQueryResult) -> ApiResult<()> {
    if done.rows_affected() == 1 {
        Ok(())
    } else {
        Err(stale())
    }
}

const SELECT_GAME: &str = "SELECT g.id, g.variant, g.rules, g.status, g.creator_id, cu.username, g.creator_color, g.opponent_id, \
    g.white_id, wu.username, g.black_id, bu.username, g.tc_kind, g.tc_initial_ms, g.tc_increment_ms, g.tc_max_ms, \
    g.white_ms, g.black_ms, g.turn_since, g.version, g.result, g.reason, g.draw_offer, g.created_at, \
    cu.is_guest, wu.is_guest, bu.is_guest, tg.tournament_id, g.rated, g.pool, \
    g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, g.white_rating_diff, g.black_rating_diff, \
    g.rematch_offer, g.rematch_id, g.takeback_offer, \
    g.white_public, g.black_public, t.public_games, t.leave_rule, t.leave_cap_days, t.started_at, g.start_fen, t.kind \
    FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
    LEFT JOIN users bu ON bu.id = g.black_id LEFT JOIN tournament_games tg ON tg.game_id = g.id \
    LEFT JOIN tournaments t ON t.id = tg.tournament_id \
    WHERE g.id = $1";

/// The stored version of game `id` (`None`: no such game).
pub async fn version(db: &Db, id: &str) -> ApiResult<Option<i64>> {
    let row = sqlx::query("SELECT version FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(match row {
        Some(r) => Some(r.try_get::<i64, _>(0)?),
        None => None,
    })
}

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
    let start: Option<String> = row.get(45);
    let rules = super::start::rules_from(kind, start.as_deref())
        .map_err(|e| ApiError::internal(format!("game {id}: start position: {e}")))?;
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
            thai: None,
            fen: r.get(4),
            white_ms: r.get(5),
            black_ms: r.get(6),
            at: r.get(7),
        };
        actions.push(a);
    }
    // The game is what its takebacks leave of the log; each kept move gets
    // its Thai forms, written again from the rules (not stored).
    let kept: std::collections::HashSet<u32> = super::takeback::effective(&actions)
        .iter()
        .map(|a| a.seq)
        .collect();
    let mut rules = rules;
    for a in actions.iter_mut().filter(|a| kept.contains(&a.seq)) {
        if a.kind == ActionKind::Move {
            let before = rules.position();
            if let Ok(mv) = before.parse_engine(&a.uci) {
                a.thai = Some(ThaiText::of(&before, &mv));
            }
        }
        a.replay(&mut rules).map_err(|e| {
            ApiError::internal(format!("replaying game {id} action {}: {e}", a.seq))
        })?;
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
        takeback_offer: row
            .get::<Option<String>, _>(38)
            .as_deref()
            .and_then(Color::parse),
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
        rematch_offer: row
            .get::<Option<String>, _>(36)
            .as_deref()
            .and_then(Color::parse),
        rematch_id: row.get(37),
        public_marks: [row.get::<i32, _>(39) != 0, row.get::<i32, _>(40) != 0],
        tournament_public: row.get::<Option<i32>, _>(41).unwrap_or(0) != 0,
        tournament_arena: row.get::<Option<String>, _>(46).as_deref() == Some("arena"),
        leave_rule: (
            LeaveRule::from_stored(
                row.get::<Option<String>, _>(42).as_deref().unwrap_or(""),
                row.get::<Option<i64>, _>(43).unwrap_or(0),
            ),
            row.get::<Option<i64>, _>(44)
                .unwrap_or_else(|| row.get::<i64, _>(23)),
        ),
        leave: [Vec::new(), Vec::new()],
        leave_zones: [jiff::tz::TimeZone::UTC, jiff::tz::TimeZone::UTC],
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
    /// Its set-up start position (FEN), `None` for the standard start.
    pub start: Option<&'a str>,
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
         white_rating, white_provisional, black_rating, black_provisional, start_fen) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 1, 0, $17, NULL, NULL, NULL, $18, $19, \
         $20, $21, $22, $23, $24, $25, $26)",
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
    .bind(g.start.map_or_else(|| g.kind.start_fen(), str::to_string))
    .bind(now)
    .bind(now)
    .bind(i32::from(g.rated))
    .bind(g.pool.map(|p| p.to_string()))
    .bind(g.ratings[0].map(|r| r.rating))
    .bind(g.ratings[0].map(|r| i32::from(r.provisional)))
    .bind(g.ratings[1].map(|r| r.rating))
    .bind(g.ratings[1].map(|r| i32::from(r.provisional)))
    .bind(g.start)
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
    rated: bool,
    now: i64,
) -> ApiResult<()> {
    let done = sqlx::query(
        "UPDATE games SET status = 'ongoing', white_id = $1, black_id = $2, turn_since = $3, updated_at = $3, \
         version = version + 1, white_rating = $6, white_provisional = $7, black_rating = $8, black_provisional = $9, \
         rated = $10 \
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
    .bind(i32::from(rated))
    .execute(&mut **tx)
    .await?;
    changed_one(done)
}

/// Records a rematch offer (or its withdrawal), and the rematch once it
/// started, on a game that is over, guarded by its version.
pub async fn set_rematch(
    db: &Db,
    g: &Game,
    offer: Option<Color>,
    rematch_id: Option<&str>,
    now: i64,
) -> ApiResult<()> {
    let done = sqlx::query(
        "UPDATE games SET rematch_offer = $1, rematch_id = $2, version = version + 1, updated_at = $3 \
         WHERE id = $4 AND version = $5",
    )
    .bind(offer.map(Color::name))
    .bind(rematch_id)
    .bind(now)
    .bind(&g.id)
    .bind(g.version)
    .execute(&db.pool)
    .await?;
    changed_one(done)
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
    changed_one(done)
}

/// One game's write: an optional action row and the game row's new fields.
pub struct WriteJob {
    pub(super) game_id: String,
    pub(super) action: Option<Action>,
    pub(super) status: &'static str,
    pub(super) white_ms: i64,
    pub(super) black_ms: i64,
    pub(super) turn_since: i64,
    pub(super) ply: i32,
    pub(super) fen: String,
    pub(super) result: Option<&'static str>,
    pub(super) reason: Option<&'static str>,
    pub(super) draw_offer: Option<&'static str>,
    pub(super) takeback_offer: Option<&'static str>,
    pub(super) updated_at: i64,
    /// The version the game must still have.
    pub(super) version: i64,
    /// A rated game's end, applied to the ratings in the same transaction.
    pub(super) rated_end: Option<RatedEnd>,
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
            takeback_offer: f.takeback_offer.map(Color::name),
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
        if !user.guest && crate::computer::opponent::engine_level(&user.id).is_none() {
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
/// transaction): one update of their games, guarded by the versions they
/// expect, then one multi-row insert of their actions, then the ratings of
/// the rated games they end; fails when any game changed meanwhile.
/// Returns, per job, what its rated game's end changed.
pub(super) async fn write_batch(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    jobs: &[WriteJob],
) -> ApiResult<Vec<Option<RatingDiffs>>> {
    // One guarded update for the batch: the new fields come as a VALUES
    // table (columns column1.. on both SQLite and PostgreSQL).
    let sql = format!(
        "UPDATE games SET status = v.column2, white_ms = v.column3, black_ms = v.column4, \
         turn_since = v.column5, version = games.version + 1, ply = v.column6, fen = v.column7, \
         result = v.column8, reason = v.column9, draw_offer = v.column10, updated_at = v.column11, \
         takeback_offer = v.column13 \
         FROM (VALUES {}) AS v WHERE games.id = v.column1 AND games.version = v.column12",
        value_rows(jobs.len(), 13)
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
            .bind(j.version)
            .bind(j.takeback_offer);
    }
    let done = update.execute(&mut *conn).await?;
    if done.rows_affected() != jobs.len() as u64 {
        return Err(stale());
    }
    // The actions after the guarded update: a stale copy stops there, before
    // its action's number could collide with one another process wrote.
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
pub(super) fn value_rows(rows: usize, columns: usize) -> String {
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

/// The PostgreSQL channel of game changes (payload: `"{instance} {game id}"`),
/// which [`crate::infra::relay`] follows.
pub const GAMES_CHANNEL: &str = "thaiboard_games";

/// Tells other server processes (PostgreSQL) that game `id` changed, inside
/// the change's transaction.
pub async fn notify_in(
    db: &Db,
    tx: &mut sqlx::Transaction<'_, Any>,
    instance: &str,
    id: &str,
) -> ApiResult<()> {
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(GAMES_CHANNEL)
            .bind(format!("{instance} {id}"))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Tells other server processes (PostgreSQL) that game `id` changed outside
/// a game transaction. Best effort: a lost note only delays a lobby.
pub async fn notify(db: &Db, instance: &str, id: &str) {
    let _ = db.notify(GAMES_CHANNEL, &format!("{instance} {id}")).await;
}

/// Tells the other server processes that game `id`'s terms changed (leave,
/// a public mark): they reload it without publishing a game event.
pub async fn notify_terms(db: &Db, instance: &str, id: &str) {
    let _ = db
        .notify(GAMES_CHANNEL, &format!("{instance} {id} {TERMS}"))
        .await;
}

/// The last word of a notification of changed terms (see [`notify_terms`]).
pub const TERMS: &str = "terms";

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

/// How many open challenges `user_id` has made.
pub async fn open_challenges(db: &Db, user_id: &str) -> ApiResult<i64> {
    Ok(
        sqlx::query("SELECT COUNT(*) FROM games WHERE status = 'open' AND creator_id = $1")
            .bind(user_id)
            .fetch_one(&db.pool)
            .await?
            .get(0),
    )
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

/// Stores `side`'s mark that game `id` may be public.
pub async fn set_public_mark(db: &Db, id: &str, side: Color, public: bool) -> ApiResult<()> {
    let sql = match side {
        Color::White => "UPDATE games SET white_public = $1 WHERE id = $2",
        Color::Black => "UPDATE games SET black_public = $1 WHERE id = $2",
    };
    sqlx::query(sql)
        .bind(i32::from(public))
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// What a tournament's rules say of its games: public or not, and leave.
pub struct TournamentTerms {
    /// Its games are public.
    pub public: bool,
    /// Its rule on leave.
    pub leave: LeaveRule,
    /// When it began, once it did.
    pub started_at: Option<i64>,
    /// It is an arena.
    pub arena: bool,
}

/// The terms of tournament `id`.
pub async fn tournament_terms(db: &Db, id: &str) -> ApiResult<TournamentTerms> {
    let row = sqlx::query(
        "SELECT public_games, leave_rule, leave_cap_days, started_at, kind FROM tournaments WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("no tournament {id:?}")))?;
    Ok(TournamentTerms {
        public: row.get::<i32, _>(0) != 0,
        leave: LeaveRule::from_stored(&row.get::<String, _>(1), row.get(2)),
        started_at: row.get(3),
        arena: row.get::<String, _>(4) == "arena",
    })
}
