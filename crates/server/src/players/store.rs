//! Every SQL statement of players' public data, with bound parameters
//! (SQLite and PostgreSQL alike).

use super::view::{HistoryPoint, LeaderboardRow, PoolRating, Results};
use crate::infra::db::Db;
use crate::ratings::{Pool, ShownRating};
use sqlx::Row;

/// The player's ratings in every pool played, most games first.
pub async fn ratings(db: &Db, user_id: &str) -> Result<Vec<PoolRating>, sqlx::Error> {
    Ok(sqlx::query(
        "SELECT pool, rating, deviation, games FROM ratings WHERE user_id = $1 AND games > 0 \
         ORDER BY games DESC, pool",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| PoolRating {
        pool: r.get(0),
        rating: ShownRating::of(r.get(1), r.get(2)),
        games: r.get(3),
    })
    .collect())
}

/// The player's finished games by result.
pub async fn results(db: &Db, user_id: &str) -> Result<Results, sqlx::Error> {
    let row = sqlx::query(
        "SELECT \
         SUM(CASE WHEN (white_id = $1 AND result = '1-0') OR (black_id = $1 AND result = '0-1') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), \
         SUM(CASE WHEN (white_id = $1 AND result = '0-1') OR (black_id = $1 AND result = '1-0') THEN 1 ELSE 0 END) \
         FROM games WHERE status = 'finished' AND (white_id = $1 OR black_id = $1)",
    )
    .bind(user_id)
    .fetch_one(&db.pool)
    .await?;
    let count = |i: usize| row.try_get::<Option<i64>, _>(i).ok().flatten().unwrap_or(0);
    Ok(Results {
        wins: count(0),
        draws: count(1),
        losses: count(2),
    })
}

/// The player's rating after each rated game of `pool`, oldest first.
pub async fn history(db: &Db, user_id: &str, pool: Pool) -> Result<Vec<HistoryPoint>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT game_id, at, rating FROM rating_history WHERE user_id = $1 AND pool = $2 ORDER BY games",
    )
    .bind(user_id)
    .bind(pool.to_string())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| HistoryPoint {
            game_id: r.get(0),
            at: r.get(1),
            rating: r.get::<f64, _>(2).round() as i32,
        })
        .collect())
}

/// The best `size` players of `pool` with at least `min_games` rated games.
pub async fn leaderboard(
    db: &Db,
    pool: Pool,
    min_games: i32,
    size: i64,
) -> Result<Vec<LeaderboardRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT u.username, r.rating, r.deviation, r.games FROM ratings r JOIN users u ON u.id = r.user_id \
         WHERE r.pool = $1 AND r.games >= $2 ORDER BY r.rating DESC, u.username LIMIT $3",
    )
    .bind(pool.to_string())
    .bind(min_games)
    .bind(size)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| LeaderboardRow {
            username: r.get(0),
            rating: ShownRating::of(r.get(1), r.get(2)),
            games: r.get(3),
        })
        .collect())
}
