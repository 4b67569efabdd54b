//! Players' public data: a profile with the ratings of every pool played,
//! win/draw/loss counts, a pool's rating history (the page's plot), and
//! leaderboards. `GET /api/users/{name}`, `/api/users/{name}/rating-history`,
//! `/api/leaderboard/{pool}`.

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::ratings::{Pool, Rating, ShownRating};
use axum::extract::{Path, Query, State};
use axum::{Json, Router, routing::get};
use serde::{Deserialize, Serialize};
use sqlx::Row;

/// Most players a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 100;
/// Rated games a player needs in a pool to be on its leaderboard (and not
/// provisional any more).
pub const LEADERBOARD_MIN_GAMES: i32 = 5;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/users/{name}", get(profile))
        .route("/users/{name}/rating-history", get(history))
        .route("/leaderboard/{*pool}", get(leaderboard))
}

/// A player's rating in one pool.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PoolRating {
    /// The pool's key (`makruk/blitz`).
    pub pool: String,
    /// The rating as shown.
    pub rating: ShownRating,
    /// Rated games played in the pool.
    pub games: i32,
}

/// Finished games by result, from the player's side.
#[derive(Debug, Default, Serialize, ts_rs::TS)]
pub struct Results {
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// `GET /api/users/{name}`.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Profile {
    /// The name as registered.
    pub username: String,
    /// Registered, ms since the epoch.
    pub created_at: i64,
    /// Ratings in every pool played, most games first.
    pub ratings: Vec<PoolRating>,
    /// Finished games by result.
    pub results: Results,
}

/// One point of a rating history.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct HistoryPoint {
    /// The game.
    pub game_id: String,
    /// When it ended, ms since the epoch.
    pub at: i64,
    /// The rating after it, rounded.
    pub rating: i32,
}

/// One row of a leaderboard.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct LeaderboardRow {
    /// The player.
    pub username: String,
    /// The rating as shown.
    pub rating: ShownRating,
    /// Rated games in the pool.
    pub games: i32,
}

/// A registered player's id and name and registration time, by name (any case).
async fn player(app: &AppState, name: &str) -> ApiResult<(String, String, i64)> {
    if name.is_empty() || name.len() > 64 {
        return Err(ApiError::not_found(format!("no player {name:?}")));
    }
    let row = sqlx::query(
        "SELECT id, username, created_at FROM users WHERE username_key = $1 AND is_guest = 0",
    )
    .bind(name.to_lowercase())
    .fetch_optional(&app.db.pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?;
    Ok((row.get(0), row.get(1), row.get(2)))
}

fn shown(rating: f64, deviation: f64) -> ShownRating {
    Rating {
        rating,
        deviation,
        ..Rating::default()
    }
    .into()
}

async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    let (id, username, created_at) = player(&app, &name).await?;
    let ratings = sqlx::query(
        "SELECT pool, rating, deviation, games FROM ratings WHERE user_id = $1 AND games > 0 \
         ORDER BY games DESC, pool",
    )
    .bind(&id)
    .fetch_all(&app.db.pool)
    .await?
    .iter()
    .map(|r| PoolRating {
        pool: r.get(0),
        rating: shown(r.get(1), r.get(2)),
        games: r.get(3),
    })
    .collect();
    let row = sqlx::query(
        "SELECT \
         SUM(CASE WHEN (white_id = $1 AND result = '1-0') OR (black_id = $1 AND result = '0-1') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), \
         SUM(CASE WHEN (white_id = $1 AND result = '0-1') OR (black_id = $1 AND result = '1-0') THEN 1 ELSE 0 END) \
         FROM games WHERE status = 'finished' AND (white_id = $1 OR black_id = $1)",
    )
    .bind(&id)
    .fetch_one(&app.db.pool)
    .await?;
    let count = |i: usize| row.try_get::<Option<i64>, _>(i).ok().flatten().unwrap_or(0);
    Ok(Json(Profile {
        username,
        created_at,
        ratings,
        results: Results {
            wins: count(0),
            draws: count(1),
            losses: count(2),
        },
    }))
}

/// The query of the history route.
#[derive(Deserialize)]
struct PoolQuery {
    pool: String,
}

fn pool_of(key: &str) -> ApiResult<Pool> {
    Pool::parse(key).ok_or_else(|| {
        ApiError::bad_request(
            "bad_pool",
            format!("no rating pool {key:?}: use a game and a speed, e.g. makruk/blitz"),
        )
    })
}

async fn history(
    State(app): State<AppState>,
    Path(name): Path<String>,
    query: Result<Query<PoolQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Vec<HistoryPoint>>> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let pool = pool_of(&q.pool)?;
    let (id, _, _) = player(&app, &name).await?;
    let rows = sqlx::query(
        "SELECT game_id, at, rating FROM rating_history WHERE user_id = $1 AND pool = $2 ORDER BY games",
    )
    .bind(&id)
    .bind(pool.to_string())
    .fetch_all(&app.db.pool)
    .await?;
    Ok(Json(
        rows.iter()
            .map(|r| HistoryPoint {
                game_id: r.get(0),
                at: r.get(1),
                rating: r.get::<f64, _>(2).round() as i32,
            })
            .collect(),
    ))
}

async fn leaderboard(
    State(app): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<Vec<LeaderboardRow>>> {
    let pool = pool_of(&key)?;
    let rows = sqlx::query(
        "SELECT u.username, r.rating, r.deviation, r.games FROM ratings r JOIN users u ON u.id = r.user_id \
         WHERE r.pool = $1 AND r.games >= $2 ORDER BY r.rating DESC, u.username LIMIT $3",
    )
    .bind(pool.to_string())
    .bind(LEADERBOARD_MIN_GAMES)
    .bind(LEADERBOARD_SIZE)
    .fetch_all(&app.db.pool)
    .await?;
    Ok(Json(
        rows.iter()
            .map(|r| LeaderboardRow {
                username: r.get(0),
                rating: shown(r.get(1), r.get(2)),
                games: r.get(3),
            })
            .collect(),
    ))
}
