//! "Next game": the next of my games where it is my move
//! (`GET /api/next-game`), with the query that finds them.

use crate::AppState;
use crate::account::auth::Viewer;
use crate::infra::error::{ApiError, ApiResult};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::{Json, Router, routing::get};
use serde::Serialize;
use sqlx::Row;
use std::collections::HashMap;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/next-game", get(next_game))
}

/// The answer of `GET /api/next-game`.
#[derive(Debug, Serialize)]
pub struct NextGame {
    /// The game to go to, if any game waits for my move.
    pub id: Option<String>,
    /// How many of my games wait for my move.
    pub waiting: usize,
}

/// The ongoing games where it is `user`'s move, the longest-waiting first.
pub async fn games_to_move(app: &AppState, user: &str) -> ApiResult<Vec<String>> {
    // White moves at even plies, Black at odd ones, in every game here.
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'ongoing' AND \
         ((white_id = $1 AND ply % 2 = 0) OR (black_id = $1 AND ply % 2 = 1)) \
         ORDER BY turn_since, id",
    )
    .bind(user)
    .fetch_all(&app.db.pool)
    .await
    .map_err(ApiError::internal)?;
    rows.iter()
        .map(|r| r.try_get::<String, _>(0))
        .collect::<Result<_, _>>()
        .map_err(ApiError::internal)
}

/// The game after `after` among `games` (in their order, wrapping round,
/// skipping `after` itself), or the first when `after` is none of them.
fn next_after(games: &[String], after: Option<&str>) -> Option<String> {
    match after.and_then(|a| games.iter().position(|g| g == a)) {
        // Skip the game I am on; wrap round; none if it was the only one.
        Some(i) => games
            .iter()
            .cycle()
            .skip(i + 1)
            .take(games.len() - 1)
            .next()
            .cloned(),
        None => games.first().cloned(),
    }
}

/// `GET /api/next-game[?after=ID]`: the next game waiting for my move after
/// the game `after` (in the same order, wrapping round), or the first.
async fn next_game(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<NextGame>> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let Some(s) = s else {
        return Ok(Json(NextGame {
            id: None,
            waiting: 0,
        }));
    };
    let games = games_to_move(&app, &s.user.id).await?;
    Ok(Json(NextGame {
        id: next_after(&games, p.get("after").map(String::as_str)),
        waiting: games.len(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_game_wraps_round_and_skips_the_current_one() {
        let games: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(next_after(&games, None).as_deref(), Some("a"));
        assert_eq!(next_after(&games, Some("b")).as_deref(), Some("c"));
        assert_eq!(next_after(&games, Some("c")).as_deref(), Some("a"));
        assert_eq!(next_after(&games, Some("zz")).as_deref(), Some("a"));
        assert_eq!(next_after(&games[..1], Some("a")), None);
        assert_eq!(next_after(&[], None), None);
    }
}
