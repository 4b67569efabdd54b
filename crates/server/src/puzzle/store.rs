//! Every SQL statement of puzzles, with bound parameters (SQLite and
//! PostgreSQL alike): the set's rows, the players' puzzle ratings, rounds,
//! the daily choice, and accounts' streak runs and best streaks.

use super::model::{StoredPuzzle, StreakRun, StreakStep, daily_index, rate_round};
use crate::infra::db::{Backend, Db};
use crate::infra::error::{ApiError, ApiResult};
use crate::ratings::Rating;
use crate::ratings::store::read_rating;
use games::GameKind;
use records::puzzle::Puzzle;
use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use std::collections::HashSet;

/// The columns [`read_row`] reads, in its order.
const COLUMNS: &str = "p.id, p.variant, p.rules, p.fen, p.solution, p.themes, p.source, p.rating, p.deviation, p.volatility, p.plays";

fn read_row(r: &AnyRow) -> Result<StoredPuzzle, sqlx::Error> {
    let variant: String = r.try_get(1)?;
    let rules: String = r.try_get(2)?;
    let kind = GameKind::from_names(&variant, Some(&rules))
        .map_err(|e| sqlx::Error::Decode(format!("puzzle game {variant}/{rules}: {e}").into()))?;
    let words = |s: String| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
    Ok(StoredPuzzle {
        id: r.try_get(0)?,
        kind,
        fen: r.try_get(3)?,
        solution: words(r.try_get(4)?),
        themes: words(r.try_get(5)?),
        source: r.try_get(6)?,
        rating: read_rating(r, 7)?,
        plays: i64::from(r.try_get::<i32, _>(10)?),
    })
}

/// The `LIKE` pattern of a theme filter (`%` when none).
fn theme_pattern(theme: Option<&str>) -> String {
    theme.map_or_else(|| "%".to_string(), |t| format!("% {t} %"))
}

/// The ids of every stored puzzle.
pub async fn ids(pool: &AnyPool) -> Result<HashSet<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT id FROM puzzles")
        .fetch_all(pool)
        .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// Adds `puzzles` (new ids; an id already stored is left as it is, with its
/// rating) in one transaction, each starting at its set rating; returns how
/// many were added.
pub async fn insert_new(pool: &AnyPool, puzzles: &[Puzzle], now: i64) -> Result<u64, sqlx::Error> {
    let fresh = Rating::default();
    let mut tx = pool.begin().await?;
    let mut added = 0;
    for p in puzzles {
        added += sqlx::query(
            "INSERT INTO puzzles (id, variant, rules, fen, solution, themes, source, rating, \
             deviation, volatility, plays, added_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&p.id)
        .bind(p.kind.variant_name())
        .bind(p.kind.rules_name())
        .bind(&p.fen)
        .bind(p.solution.join(" "))
        .bind(format!(" {} ", p.themes.join(" ")))
        .bind(&p.source)
        .bind(f64::from(p.rating))
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    }
    tx.commit().await?;
    Ok(added)
}

/// The puzzle `id`, if stored.
pub async fn get(pool: &AnyPool, id: &str) -> ApiResult<Option<StoredPuzzle>> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles p WHERE p.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(ApiError::internal)?;
    row.as_ref()
        .map(read_row)
        .transpose()
        .map_err(ApiError::internal)
}

/// What a choice of puzzles asks for.
pub struct Wanted<'a> {
    /// The game.
    pub kind: GameKind,
    /// A theme the puzzle must have.
    pub theme: Option<&'a str>,
    /// The player (whose recent rounds are left out); `None` for a guest.
    pub user: Option<&'a str>,
    /// Rounds after this time are recent.
    pub recent_since: i64,
    /// A puzzle to leave out (the one just played).
    pub exclude: Option<&'a str>,
}

/// Up to `limit` puzzles of `want` nearest to `rating`, leaving out the
/// player's recent rounds; when every matching puzzle was played recently,
/// the one played longest ago.
pub async fn near(
    pool: &AnyPool,
    want: &Wanted<'_>,
    rating: f64,
    limit: i64,
) -> ApiResult<Vec<StoredPuzzle>> {
    let user = want.user.unwrap_or("");
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM puzzles p WHERE p.variant = $1 AND p.rules = $2 \
         AND p.themes LIKE $3 AND p.id <> $4 AND NOT EXISTS (SELECT 1 FROM puzzle_rounds r \
         WHERE r.user_id = $5 AND r.puzzle_id = p.id AND r.last_at > $6) \
         ORDER BY ABS(p.rating - $7), p.id LIMIT $8"
    ))
    .bind(want.kind.variant_name())
    .bind(want.kind.rules_name())
    .bind(theme_pattern(want.theme))
    .bind(want.exclude.unwrap_or(""))
    .bind(user)
    .bind(want.recent_since)
    .bind(rating)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?;
    let mut found: Vec<StoredPuzzle> = rows
        .iter()
        .map(read_row)
        .collect::<Result<_, _>>()
        .map_err(ApiError::internal)?;
    if found.is_empty() {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM puzzles p LEFT JOIN puzzle_rounds r \
             ON r.puzzle_id = p.id AND r.user_id = $1 \
             WHERE p.variant = $2 AND p.rules = $3 AND p.themes LIKE $4 \
             ORDER BY CASE WHEN p.id = $5 THEN 1 ELSE 0 END, COALESCE(r.last_at, 0), p.id LIMIT 1"
        ))
        .bind(user)
        .bind(want.kind.variant_name())
        .bind(want.kind.rules_name())
        .bind(theme_pattern(want.theme))
        .bind(want.exclude.unwrap_or(""))
        .fetch_optional(pool)
        .await
        .map_err(ApiError::internal)?;
        if let Some(r) = row {
            found.push(read_row(&r).map_err(ApiError::internal)?);
        }
    }
    Ok(found)
}

/// The ids of the puzzles of `kind` (with `theme`), easiest first, at most
/// `limit`.
pub async fn ids_by_rating(
    pool: &AnyPool,
    kind: GameKind,
    theme: Option<&str>,
    limit: i64,
) -> ApiResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM puzzles WHERE variant = $1 AND rules = $2 AND themes LIKE $3 \
         ORDER BY rating, id LIMIT $4",
    )
    .bind(kind.variant_name())
    .bind(kind.rules_name())
    .bind(theme_pattern(theme))
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?;
    rows.iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()
        .map_err(ApiError::internal)
}

/// The daily puzzle of `kind` on `day`: the one stored for that day, or a
/// new choice among the puzzles never daily before (all of them once every
/// one was), stored by whichever process asks first. `None` when the game
/// has no puzzle.
pub async fn daily(pool: &AnyPool, kind: GameKind, day: &str) -> ApiResult<Option<StoredPuzzle>> {
    let key = kind.to_string();
    let stored = || async {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM puzzle_daily d JOIN puzzles p ON p.id = d.puzzle_id \
             WHERE d.day = $1 AND d.kind = $2"
        ))
        .bind(day)
        .bind(&key)
        .fetch_optional(pool)
        .await
        .map_err(ApiError::internal)?;
        row.as_ref()
            .map(read_row)
            .transpose()
            .map_err(ApiError::internal)
    };
    if let Some(p) = stored().await? {
        return Ok(Some(p));
    }
    let candidates = |fresh_only: bool| {
        let key = key.clone();
        async move {
            let filter = if fresh_only {
                " AND id NOT IN (SELECT puzzle_id FROM puzzle_daily WHERE kind = $3)"
            } else {
                ""
            };
            let sql = format!(
                "SELECT id FROM puzzles WHERE variant = $1 AND rules = $2{filter} ORDER BY id"
            );
            let mut query = sqlx::query(&sql)
                .bind(kind.variant_name())
                .bind(kind.rules_name());
            if fresh_only {
                query = query.bind(key);
            }
            let rows = query.fetch_all(pool).await.map_err(ApiError::internal)?;
            rows.iter()
                .map(|r| r.try_get::<String, _>(0))
                .collect::<Result<Vec<_>, _>>()
                .map_err(ApiError::internal)
        }
    };
    let mut ids = candidates(true).await?;
    if ids.is_empty() {
        ids = candidates(false).await?;
    }
    let Some(choice) = ids.get(daily_index(day, kind, ids.len())) else {
        return Ok(None);
    };
    sqlx::query(
        "INSERT INTO puzzle_daily (day, kind, puzzle_id) VALUES ($1, $2, $3) \
         ON CONFLICT (day, kind) DO NOTHING",
    )
    .bind(day)
    .bind(&key)
    .bind(choice)
    .execute(pool)
    .await
    .map_err(ApiError::internal)?;
    stored().await
}

/// `user`'s puzzle rating in `kind`, if they played a rated round.
pub async fn player_rating(
    pool: &AnyPool,
    user: &str,
    kind: GameKind,
) -> ApiResult<Option<Rating>> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE user_id = $1 AND kind = $2",
    )
    .bind(user)
    .bind(kind.to_string())
    .fetch_optional(pool)
    .await
    .map_err(ApiError::internal)?;
    row.map(|r| read_rating(&r, 0))
        .transpose()
        .map_err(|e: sqlx::Error| ApiError::internal(e))
}

/// What a round changed.
#[derive(Clone, Debug)]
pub struct RoundResult {
    /// Whether this round was rated (the player's first on this puzzle).
    pub rated: bool,
    /// The player's rating before and after.
    pub player: (Rating, Rating),
    /// The puzzle's rating before and after.
    pub puzzle: (Rating, Rating),
    /// The puzzle's rated rounds, this one counted.
    pub plays: i64,
}

/// Records `user`'s round on `puzzle` in one transaction. The first round
/// of a player on a puzzle is rated: both ratings move by one Glicko-2
/// period and the puzzle's plays count it. A later round (a replay, or the
/// same round sent twice) only marks the time, so it counts once.
pub async fn finish_round(
    db: &Db,
    user: &str,
    puzzle: &StoredPuzzle,
    win: bool,
    now: i64,
) -> ApiResult<RoundResult> {
    let kind = puzzle.kind.to_string();
    let lock = if db.backend == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    let mut tx = db.pool.begin().await.map_err(ApiError::internal)?;
    // A write first: SQLite takes its write lock here, never upgrading a read.
    let first = sqlx::query(
        "INSERT INTO puzzle_rounds (user_id, puzzle_id, win, rating_diff, first_at, last_at) \
         VALUES ($1, $2, $3, 0, $4, $4) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
    )
    .bind(user)
    .bind(&puzzle.id)
    .bind(i32::from(win))
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?
    .rows_affected()
        == 1;
    if !first {
        sqlx::query("UPDATE puzzle_rounds SET last_at = $1 WHERE user_id = $2 AND puzzle_id = $3")
            .bind(now)
            .bind(user)
            .bind(&puzzle.id)
            .execute(&mut *tx)
            .await
            .map_err(ApiError::internal)?;
    }
    let fresh = Rating::default();
    sqlx::query(
        "INSERT INTO puzzle_ratings (user_id, kind, rating, deviation, volatility, plays, updated_at) \
         VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (user_id, kind) DO NOTHING",
    )
    .bind(user)
    .bind(&kind)
    .bind(fresh.rating)
    .bind(fresh.deviation)
    .bind(fresh.volatility)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    let r = sqlx::query(&format!(
        "SELECT rating, deviation, volatility FROM puzzle_ratings \
         WHERE user_id = $1 AND kind = $2{lock}"
    ))
    .bind(user)
    .bind(&kind)
    .fetch_one(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    let player = read_rating(&r, 0).map_err(ApiError::internal)?;
    let r = sqlx::query(&format!(
        "SELECT rating, deviation, volatility, plays FROM puzzles WHERE id = $1{lock}"
    ))
    .bind(&puzzle.id)
    .fetch_one(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    let before = read_rating(&r, 0).map_err(ApiError::internal)?;
    let plays = i64::from(r.get::<i32, _>(3));
    if !first {
        tx.commit().await.map_err(ApiError::internal)?;
        return Ok(RoundResult {
            rated: false,
            player: (player, player),
            puzzle: (before, before),
            plays,
        });
    }
    let (new_player, new_puzzle) = rate_round(player, before, win);
    sqlx::query(
        "UPDATE puzzle_ratings SET rating = $1, deviation = $2, volatility = $3, \
         plays = plays + 1, updated_at = $4 WHERE user_id = $5 AND kind = $6",
    )
    .bind(new_player.rating)
    .bind(new_player.deviation)
    .bind(new_player.volatility)
    .bind(now)
    .bind(user)
    .bind(&kind)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    sqlx::query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, plays = plays + 1 \
         WHERE id = $4",
    )
    .bind(new_puzzle.rating)
    .bind(new_puzzle.deviation)
    .bind(new_puzzle.volatility)
    .bind(&puzzle.id)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    sqlx::query("UPDATE puzzle_rounds SET rating_diff = $1 WHERE user_id = $2 AND puzzle_id = $3")
        .bind(new_player.shown() - player.shown())
        .bind(user)
        .bind(&puzzle.id)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    tx.commit().await.map_err(ApiError::internal)?;
    Ok(RoundResult {
        rated: true,
        player: (player, new_player),
        puzzle: (before, new_puzzle),
        plays: plays + 1,
    })
}

/// How many streak runs an account keeps (its newest, of any game): enough
/// for a few open tabs.
pub const KEPT_RUNS: i64 = 5;

/// Stores a new streak run of `user` in `kind` over `puzzles` (in order),
/// and forgets the user's runs older than the newest [`KEPT_RUNS`].
/// Returns the run's id.
pub async fn new_streak_run(
    pool: &AnyPool,
    user: &str,
    kind: GameKind,
    puzzles: &[String],
    now: i64,
) -> ApiResult<String> {
    let id = crate::infra::util::random_id(16);
    let mut tx = pool.begin().await.map_err(ApiError::internal)?;
    sqlx::query(
        "INSERT INTO puzzle_streak_runs (id, user_id, kind, puzzles, solved, created_at, \
         updated_at, ended_at) VALUES ($1, $2, $3, $4, 0, $5, $5, NULL)",
    )
    .bind(&id)
    .bind(user)
    .bind(kind.to_string())
    .bind(puzzles.join(" "))
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    sqlx::query(
        "DELETE FROM puzzle_streak_runs WHERE user_id = $1 AND id NOT IN \
         (SELECT id FROM puzzle_streak_runs WHERE user_id = $1 \
         ORDER BY created_at DESC, id DESC LIMIT $2)",
    )
    .bind(user)
    .bind(KEPT_RUNS)
    .execute(&mut *tx)
    .await
    .map_err(ApiError::internal)?;
    tx.commit().await.map_err(ApiError::internal)?;
    Ok(id)
}

/// `user`'s best streak in `kind`: the highest score the server counted in
/// one of their runs, 0 when none.
pub async fn streak_best(pool: &AnyPool, user: &str, kind: GameKind) -> ApiResult<i64> {
    let row = sqlx::query("SELECT best FROM puzzle_streak_best WHERE user_id = $1 AND kind = $2")
        .bind(user)
        .bind(kind.to_string())
        .fetch_optional(pool)
        .await
        .map_err(ApiError::internal)?;
    row.map_or(Ok(0), |r| r.try_get::<i32, _>(0).map(i64::from))
        .map_err(ApiError::internal)
}

/// What a round in a streak run did.
#[derive(Clone, Debug)]
pub struct StreakRound {
    /// What it did to the run.
    pub step: StreakStep,
    /// The run after it.
    pub run: StreakRun,
    /// The player's best streak in the run's game after it.
    pub best: i64,
}

/// Applies a round on `puzzle`, judged `win` by the caller, to `user`'s
/// streak run `run_id`, in one transaction: the run's next puzzle solved
/// raises its score (and the player's best when the score passes it, at
/// once, so a record stays when the page is closed), failed ends the run;
/// the same round sent again changes nothing. 404 for a run that is not
/// the user's, 409 for a puzzle that is not the run's next one.
pub async fn streak_round(
    db: &Db,
    user: &str,
    run_id: &str,
    puzzle: &str,
    win: bool,
    now: i64,
) -> ApiResult<StreakRound> {
    let mut tx = db.pool.begin().await.map_err(ApiError::internal)?;
    // A write first: SQLite takes its write lock here, and PostgreSQL the
    // row's lock, so that a double post waits for the first to commit.
    let mine =
        sqlx::query("UPDATE puzzle_streak_runs SET updated_at = $1 WHERE id = $2 AND user_id = $3")
            .bind(now)
            .bind(run_id)
            .bind(user)
            .execute(&mut *tx)
            .await
            .map_err(ApiError::internal)?
            .rows_affected()
            == 1;
    if !mine {
        return Err(ApiError::not_found(format!(
            "no streak run {run_id:?} of yours (start one with POST /api/puzzle/streak)"
        )));
    }
    let r =
        sqlx::query("SELECT kind, puzzles, solved, ended_at FROM puzzle_streak_runs WHERE id = $1")
            .bind(run_id)
            .fetch_one(&mut *tx)
            .await
            .map_err(ApiError::internal)?;
    let kind: String = r.get(0);
    let puzzles: String = r.get(1);
    let run = StreakRun {
        puzzles: puzzles.split_whitespace().map(str::to_string).collect(),
        solved: usize::try_from(r.get::<i32, _>(2)).unwrap_or(0),
        ended: r.get::<Option<i64>, _>(3).is_some(),
    };
    let step = run
        .step(puzzle, win)
        .map_err(|(code, why)| ApiError::conflict(code, why))?;
    let after = run.after(&step);
    if step != StreakStep::Again {
        sqlx::query("UPDATE puzzle_streak_runs SET solved = $1, ended_at = $2 WHERE id = $3")
            .bind(i32::try_from(after.solved).unwrap_or(i32::MAX))
            .bind(after.ended.then_some(now))
            .bind(run_id)
            .execute(&mut *tx)
            .await
            .map_err(ApiError::internal)?;
    }
    if step == StreakStep::Solved {
        sqlx::query(
            "INSERT INTO puzzle_streak_best (user_id, kind, best, run_id, updated_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, kind) DO UPDATE \
             SET best = excluded.best, run_id = excluded.run_id, updated_at = excluded.updated_at \
             WHERE puzzle_streak_best.best < excluded.best",
        )
        .bind(user)
        .bind(&kind)
        .bind(i32::try_from(after.solved).unwrap_or(i32::MAX))
        .bind(run_id)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    }
    let best = sqlx::query("SELECT best FROM puzzle_streak_best WHERE user_id = $1 AND kind = $2")
        .bind(user)
        .bind(&kind)
        .fetch_optional(&mut *tx)
        .await
        .map_err(ApiError::internal)?
        .map_or(0, |r| i64::from(r.get::<i32, _>(0)));
    tx.commit().await.map_err(ApiError::internal)?;
    Ok(StreakRound {
        step,
        run: after,
        best,
    })
}
