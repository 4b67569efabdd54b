//! Following players, after lichess's relations:
//! `POST /api/rel/follow/{name}` and `POST /api/rel/unfollow/{name}`
//! (answer `{"ok":true}`), `GET /api/rel/following` (whom I follow, each
//! with whether they are online and the game they are playing now),
//! `GET /api/rel/feed` (their finished games, newest first) and
//! `GET /api/rel/status/{name}` (one player, for their page).
//!
//! "Online" is what this process already knows: the player has a socket
//! open here (every page of a logged-in player holds one), read from the
//! socket limits' per-user count; nothing is stored. Private games (see
//! [`crate::game::lists::games_of`]) never show, closed accounts drop out
//! of every list, and the pure rules are in [`model`].

pub mod model;
mod store;

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::account::store::Registered;
use crate::game::GameSummary;
use crate::game::lists::{self, Among};
use crate::infra::error::{ApiError, ApiResult};
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Value, json};

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/rel/follow/{name}", post(follow))
        .route("/rel/unfollow/{name}", post(unfollow))
        .route("/rel/following", get(following))
        .route("/rel/feed", get(feed))
        .route("/rel/status/{name}", get(status))
}

/// A followed player as lists show them.
#[derive(Debug, Serialize)]
pub struct Followed {
    /// Their name.
    pub name: String,
    /// Whether they have a page of this site open now.
    pub online: bool,
    /// The game they play now (their most recently moved one that is not
    /// private), if any.
    pub playing: Option<GameSummary>,
}

/// The answer of `GET /api/rel/status/{name}`.
#[derive(Debug, Serialize)]
pub struct Status {
    /// Their name.
    pub name: String,
    /// Whether I follow them (false without a session).
    pub following: bool,
    /// Whether they are online.
    pub online: bool,
    /// The game they play now, if any.
    pub playing: Option<GameSummary>,
}

/// The open account named `name`, or 404.
async fn player(app: &AppState, name: &str) -> ApiResult<(String, String)> {
    if name.is_empty() || name.len() > 64 {
        return Err(ApiError::not_found(format!("no player {name:?}")));
    }
    crate::account::store::registered_by_name(&app.db, name)
        .await?
        .and_then(Registered::open)
        .map(|p| (p.id, p.username))
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))
}

/// Whether user `id` has a socket open in this process.
fn online(app: &AppState, id: &str) -> bool {
    app.socket_limits.open_for(id) > 0
}

/// `POST /api/rel/follow/{name}`.
async fn follow(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let (id, _) = player(&app, &name).await?;
    let already = store::count(&app.db, &s.user.id).await?;
    if !store::follows(&app.db, &s.user.id, &id).await? {
        model::check_follow(&s.user.id, s.user.guest, &id, already)?;
        store::follow(&app.db, &s.user.id, &id, app.now_ms()).await?;
    }
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/rel/unfollow/{name}`.
async fn unfollow(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let (id, _) = player(&app, &name).await?;
    store::unfollow(&app.db, &s.user.id, &id).await?;
    Ok(Json(json!({ "ok": true })))
}

/// The session's user id, or 401.
fn signed_in(viewer: Viewer) -> ApiResult<String> {
    viewer
        .0
        .map(|s| s.user.id)
        .ok_or_else(|| ApiError::unauthorized("no_session", "log in to see whom you follow"))
}

/// `GET /api/rel/following`: `{"following": [Followed...]}`, online
/// players first, then by name.
async fn following(State(app): State<AppState>, viewer: Viewer) -> ApiResult<Json<Value>> {
    let me = signed_in(viewer)?;
    let players = store::following(&app.db, &me).await?;
    let ids: Vec<String> = players.iter().map(|(id, _)| id.clone()).collect();
    // Most recently moved first: the first game seen of a player is theirs.
    let ongoing = lists::games_of(&app.db, &ids, Among::Ongoing, 4 * model::MAX_FOLLOWING).await?;
    let mut list: Vec<Followed> = players
        .into_iter()
        .map(|(id, name)| Followed {
            online: online(&app, &id),
            playing: ongoing
                .iter()
                .find(|g| g.white.as_deref() == Some(&name) || g.black.as_deref() == Some(&name))
                .cloned(),
            name,
        })
        .collect();
    list.sort_by_key(|f| !(f.online || f.playing.is_some()));
    Ok(Json(json!({ "following": list })))
}

/// `GET /api/rel/feed`: `{"games": [GameSummary...]}`, the finished games
/// of the players I follow, newest first (at most [`model::FEED_SIZE`]).
async fn feed(State(app): State<AppState>, viewer: Viewer) -> ApiResult<Json<Value>> {
    let me = signed_in(viewer)?;
    let ids: Vec<String> = store::following(&app.db, &me)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let games = lists::games_of(&app.db, &ids, Among::Finished, model::FEED_SIZE).await?;
    Ok(Json(json!({ "games": games })))
}

/// `GET /api/rel/status/{name}`: one player's status, and whether I follow them.
async fn status(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(name): Path<String>,
) -> ApiResult<Json<Status>> {
    let (id, name) = player(&app, &name).await?;
    let following = match &viewer.0 {
        Some(s) => store::follows(&app.db, &s.user.id, &id).await?,
        None => false,
    };
    let playing = lists::games_of(&app.db, std::slice::from_ref(&id), Among::Ongoing, 1)
        .await?
        .pop();
    Ok(Json(Status {
        online: online(&app, &id),
        following,
        playing,
        name,
    }))
}
