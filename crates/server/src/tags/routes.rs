//! The routes of tags: `GET /api/tags` (mine, with their counts) and
//! `PUT /api/games/{id}/tags` (mine on a game).

use super::model::clean_tags;
use super::store;
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::ApiResult;
use crate::infra::extract::{Body, check_id};
use axum::extract::{Path, State};
use axum::{Json, Router, routing::get, routing::put};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tags", get(my_tags))
        .route("/games/{id}/tags", put(set_tags))
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
    for (game, tag) in store::of_user(&app.db.pool, &s.user.id).await? {
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
    store::replace(&app.db.pool, &s.user.id, &id, &tags).await?;
    Ok(Json(tags))
}
