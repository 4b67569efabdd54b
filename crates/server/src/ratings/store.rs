//! The ratings' storage: applying a rated game's end inside the transaction
//! that saves it, and reading ratings for games, pages and lists.

use super::{Pool, Rating, ShownRating, update};
use crate::infra::db::Backend;
use crate::infra::error::ApiResult;
use games::Outcome;
use sqlx::Row;
use sqlx::any::AnyRow;

/// A rated game's end, to apply in the transaction that saves it.
#[derive(Clone, Debug)]
pub struct RatedEnd {
    /// The game.
    pub game_id: String,
    /// Its pool.
    pub pool: Pool,
    /// White's user id.
    pub white: String,
    /// Black's user id.
    pub black: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// What a rated game changed: White's and Black's shown rating difference.
pub type RatingDiffs = (i32, i32);

/// The rating, deviation and volatility in columns `first`, `first + 1` and
/// `first + 2` of a row: how every stored Glicko-2 rating (players', in
/// pools and in puzzles, and puzzles') is read.
pub fn read_rating(r: &AnyRow, first: usize) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: r.try_get(first)?,
        deviation: r.try_get(first + 1)?,
        volatility: r.try_get(first + 2)?,
    })
}

/// Applies `end` on `conn`, inside the caller's transaction: both players'
/// ratings are read (locked on PostgreSQL, in a fixed order so two games
/// ending at once cannot deadlock; SQLite's writer is alone anyway),
/// updated by one Glicko-2 period, written with a history row each, and the
/// game row records the differences. Never loses or doubles an update: the
/// read and the write are one transaction.
pub async fn apply_end(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    end: &RatedEnd,
    now: i64,
) -> ApiResult<RatingDiffs> {
    let pool = end.pool.to_string();
    let fresh = Rating::default();
    let mut ids = [end.white.as_str(), end.black.as_str()];
    ids.sort_unstable();
    for id in ids {
        sqlx::query(
            "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (user_id, pool) DO NOTHING",
        )
        .bind(id)
        .bind(&pool)
        .bind(fresh.rating)
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    let lock = if backend == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    let rows = sqlx::query(&format!(
        "SELECT user_id, rating, deviation, volatility, games FROM ratings \
         WHERE pool = $1 AND user_id IN ($2, $3) ORDER BY user_id{lock}"
    ))
    .bind(&pool)
    .bind(ids[0])
    .bind(ids[1])
    .fetch_all(&mut *conn)
    .await?;
    let read = |id: &str| -> Result<(Rating, i32), sqlx::Error> {
        match rows.iter().find(|r| r.get::<String, _>(0) == id) {
            Some(r) => Ok((read_rating(r, 1)?, r.try_get(4)?)),
            None => Ok((fresh, 0)),
        }
    };
    let ((white, white_games), (black, black_games)) = (read(&end.white)?, read(&end.black)?);
    let (new_white, new_black) = update(white, black, &end.outcome);
    for (id, rating, games) in [
        (&end.white, new_white, white_games + 1),
        (&end.black, new_black, black_games + 1),
    ] {
        sqlx::query(
            "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, updated_at = $5 \
             WHERE user_id = $6 AND pool = $7",
        )
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(games)
        .bind(now)
        .bind(id)
        .bind(&pool)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, pool, game_id, games, rating, deviation, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(&pool)
        .bind(&end.game_id)
        .bind(games)
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    let diffs = (
        new_white.shown() - white.shown(),
        new_black.shown() - black.shown(),
    );
    sqlx::query("UPDATE games SET white_rating_diff = $1, black_rating_diff = $2 WHERE id = $3")
        .bind(diffs.0)
        .bind(diffs.1)
        .bind(&end.game_id)
        .execute(&mut *conn)
        .await?;
    Ok(diffs)
}

/// `user_id`'s rating in `pool` (a new player's when none is stored).
pub async fn current<'c, E>(executor: E, user_id: &str, pool: Pool) -> ApiResult<Rating>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT rating, deviation, volatility FROM ratings WHERE user_id = $1 AND pool = $2",
    )
    .bind(user_id)
    .bind(pool.to_string())
    .fetch_optional(executor)
    .await?;
    Ok(row.map_or_else(|| Ok(Rating::default()), |r| read_rating(&r, 0))?)
}

/// The shown form of a rating read from a game row (rating, provisional flag).
pub fn shown(rating: Option<i32>, provisional: Option<i32>) -> Option<ShownRating> {
    rating.map(|rating| ShownRating {
        rating,
        provisional: provisional.unwrap_or(1) != 0,
    })
}
