//! Players' public data: a profile with the ratings of every pool played,
//! win/draw/loss counts, a pool's rating history (the page's plot), and
//! leaderboards. `GET /api/users/{name}`, `/api/users/{name}/rating-history`,
//! `/api/leaderboard/{pool}`.

use crate::AppState;
use crate::game::lists::{self, ArchiveFilter};
use crate::game::{GameSummary, PauseView};
use crate::infra::error::{ApiError, ApiResult};
use crate::ratings::Pool;
use axum::extract::{Path, Query, State};
use axum::{Json, Router, routing::get};
use serde::Deserialize;

mod store;
mod view;

pub use view::{HistoryPoint, LeaderboardRow, PoolRating, Profile, Results};

/// Games per page of an archive.
pub const ARCHIVE_PAGE: i64 = 50;

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
        .route("/users/{name}/games", get(archive))
        .route("/leaderboard/{*pool}", get(leaderboard))
}

/// A registered player's id and name and registration time, by name (any case).
async fn player(app: &AppState, name: &str) -> ApiResult<(String, String, i64)> {
    if name.is_empty() || name.len() > 64 {
        return Err(ApiError::not_found(format!("no player {name:?}")));
    }
    crate::account::store::registered_by_name(&app.db, name)
        .await?
        .map(|p| (p.id, p.username, p.created_at))
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))
}

async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    let (id, username, created_at) = player(&app, &name).await?;
    let ratings = store::ratings(&app.db, &id).await?;
    let results = store::results(&app.db, &id).await?;
    let leave = crate::leave::current_or_next(&app, &id, app.games.time.now_ms())
        .await?
        .map(|p| PauseView {
            from: p.start,
            until: p.end,
        });
    let leave_days = crate::leave::current_or_next_days(&app, &id, app.games.time.now_ms()).await?;
    Ok(Json(Profile {
        leave,
        leave_days,
        username,
        created_at,
        ratings,
        results,
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
    Ok(Json(store::history(&app.db, &id, pool).await?))
}

/// The query of `GET /api/users/{name}/games`: every field optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ArchiveQuery {
    /// The opponent's name.
    opponent: Option<String>,
    /// `makruk`, `cambodian` or `makhos`.
    variant: Option<String>,
    /// `win`, `draw` or `loss`, from the player's side.
    result: Option<String>,
    /// `true` (rated only) or `false` (casual only).
    rated: Option<bool>,
    /// First day, `YYYY-MM-DD` (UTC).
    from: Option<String>,
    /// Last day, `YYYY-MM-DD` (UTC), included.
    to: Option<String>,
    /// Page, from 1.
    page: Option<i64>,
}

/// Milliseconds since the epoch at the start of day `text` (`YYYY-MM-DD`, UTC).
fn day_start(field: &str, text: &str) -> ApiResult<i64> {
    let bad = || {
        ApiError::bad_request(
            "bad_query",
            format!("{field}: {text:?} is not a date as YYYY-MM-DD"),
        )
    };
    let mut parts = text.split('-').map(|p| p.parse::<i64>());
    let (Some(Ok(y)), Some(Ok(m)), Some(Ok(d)), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad());
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Ok((era * 146_097 + doe - 719_468) * 86_400_000)
}

async fn archive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    query: Result<Query<ArchiveQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let (id, _, _) = player(&app, &name).await?;
    let opponent = match q
        .opponent
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        Some(o) => Some(player(&app, o).await?.0),
        None => None,
    };
    let variant = match q.variant.as_deref() {
        None | Some("") => None,
        Some(v) => Some(crate::game::kind_of(v, None)?.variant_name()),
    };
    let result = match q.result.as_deref() {
        None | Some("") => None,
        Some("win") => Some("win"),
        Some("draw") => Some("draw"),
        Some("loss") => Some("loss"),
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_query",
                format!("result must be win, draw or loss, not {other:?}"),
            ));
        }
    };
    let day = |field: &str, text: &Option<String>| -> ApiResult<Option<i64>> {
        text.as_deref()
            .filter(|t| !t.is_empty())
            .map(|t| day_start(field, t))
            .transpose()
    };
    let filter = ArchiveFilter {
        opponent,
        variant,
        result,
        rated: q.rated,
        from: day("from", &q.from)?,
        to: day("to", &q.to)?.map(|t| t + 86_400_000),
    };
    let page = q.page.unwrap_or(1);
    if !(1..=10_000).contains(&page) {
        return Err(ApiError::bad_request(
            "bad_query",
            "page must be a number from 1",
        ));
    }
    let games = lists::archive(
        &app.db,
        &id,
        &filter,
        ARCHIVE_PAGE,
        (page - 1) * ARCHIVE_PAGE,
    )
    .await?;
    Ok(Json(games))
}

async fn leaderboard(
    State(app): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<Vec<LeaderboardRow>>> {
    let pool = pool_of(&key)?;
    Ok(Json(
        store::leaderboard(&app.db, pool, LEADERBOARD_MIN_GAMES, LEADERBOARD_SIZE).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_start_at_utc_midnight() {
        assert_eq!(day_start("from", "1970-01-01").unwrap(), 0);
        assert_eq!(day_start("from", "2026-11-23").unwrap(), 1_795_392_000_000);
        assert_eq!(day_start("from", "2000-03-01").unwrap(), 951_868_800_000);
        for bad in [
            "2026-13-01",
            "yesterday",
            "2026-11",
            "2026-11-23-1",
            "1969-12-31",
        ] {
            assert_eq!(
                day_start("from", bad).unwrap_err().code,
                "bad_query",
                "{bad}"
            );
        }
    }
}
