//! A player's tools for many games: "next game" (the next of my games where
//! it is my move) and tags (my own labels on games).

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::{Json, Router, routing::get, routing::put};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// Most tags on one game.
pub const MAX_TAGS_PER_GAME: usize = 10;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 32;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/next-game", get(next_game))
        .route("/tags", get(my_tags))
        .route("/games/{id}/tags", put(set_tags))
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
    let after = p
        .get("after")
        .and_then(|a| games.iter().position(|g| g == a));
    let id = match after {
        // Skip the game I am on; wrap round; none if it was the only one.
        Some(i) => games
            .iter()
            .cycle()
            .skip(i + 1)
            .take(games.len() - 1)
            .next()
            .cloned(),
        None => games.first().cloned(),
    };
    Ok(Json(NextGame {
        id,
        waiting: games.len(),
    }))
}

/// The answer of `GET /api/tags`.
#[derive(Debug, Serialize)]
pub struct MyTags {
    /// Each tagged game's tags.
    pub games: BTreeMap<String, Vec<String>>,
    /// Every tag with its number of games.
    pub tags: BTreeMap<String, usize>,
}

/// `GET /api/tags`: my tags.
async fn my_tags(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<MyTags>> {
    let mut out = MyTags {
        games: BTreeMap::new(),
        tags: BTreeMap::new(),
    };
    let Some(s) = s else {
        return Ok(Json(out));
    };
    let rows =
        sqlx::query("SELECT game_id, tag FROM game_tags WHERE user_id = $1 ORDER BY game_id, tag")
            .bind(&s.user.id)
            .fetch_all(&app.db.pool)
            .await
            .map_err(ApiError::internal)?;
    for r in rows {
        let game: String = r.try_get(0).map_err(ApiError::internal)?;
        let tag: String = r.try_get(1).map_err(ApiError::internal)?;
        *out.tags.entry(tag.clone()).or_default() += 1;
        out.games.entry(game).or_default().push(tag);
    }
    Ok(Json(out))
}

/// `PUT /api/games/{id}/tags` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetTags {
    /// The game's tags, replacing the ones it had.
    pub tags: Vec<String>,
}

/// Trims tags, drops duplicates, and checks their number and length.
fn clean_tags(tags: &[String]) -> ApiResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let t = t.trim();
        if t.is_empty() || t.chars().count() > MAX_TAG_CHARS || t.chars().any(char::is_control) {
            return Err(ApiError::bad_request(
                "bad_tag",
                format!("a tag has 1 to {MAX_TAG_CHARS} printable characters, not {t:?}"),
            ));
        }
        crate::infra::text::refuse_invisible("tag", t)?;
        if !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    }
    if out.len() > MAX_TAGS_PER_GAME {
        return Err(ApiError::bad_request(
            "bad_tag",
            format!("at most {MAX_TAGS_PER_GAME} tags on a game"),
        ));
    }
    Ok(out)
}

/// `PUT /api/games/{id}/tags`: my tags on a game (any game I can see).
async fn set_tags(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<SetTags>,
) -> ApiResult<Json<Vec<String>>> {
    check_id(&id)?;
    app.games.view(&id, false).await?;
    let tags = clean_tags(&req.tags)?;
    let mut tx = app.db.pool.begin().await.map_err(ApiError::internal)?;
    sqlx::query("DELETE FROM game_tags WHERE user_id = $1 AND game_id = $2")
        .bind(&s.user.id)
        .bind(&id)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    for t in &tags {
        sqlx::query("INSERT INTO game_tags (user_id, game_id, tag) VALUES ($1, $2, $3)")
            .bind(&s.user.id)
            .bind(&id)
            .bind(t)
            .execute(&mut *tx)
            .await
            .map_err(ApiError::internal)?;
    }
    tx.commit().await.map_err(ApiError::internal)?;
    Ok(Json(tags))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_trimmed_deduplicated_and_bounded() {
        let t = |v: &[&str]| clean_tags(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            t(&[" opening ", "opening", "ending"]).unwrap(),
            ["opening", "ending"]
        );
        assert!(t(&[""]).is_err());
        assert!(t(&["a\u{7}b"]).is_err());
        assert!(t(&[&"x".repeat(33)]).is_err());
        assert!(
            t(&[&"ก".repeat(32)]).is_ok(),
            "Thai letters count as characters"
        );
        let many: Vec<String> = (0..11).map(|i| i.to_string()).collect();
        assert!(clean_tags(&many).is_err());
    }
}
