//! The tournament routes: create, list, view, join, withdraw, start, call off.

use super::create::{CreateTournament, check_create};
use super::flow::{advance, lock_for, schedule_start, start_tournament};
use super::store::{self, Kind, NewTournament, Shelf, Summary, load};
use super::view::{Detail, detail_of};
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::util::random_id;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use tokio::sync::OwnedMutexGuard;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(list).post(create))
        .route("/tournaments/{id}", get(detail))
        .route("/tournaments/{id}/join", post(join))
        .route("/tournaments/{id}/withdraw", post(withdraw))
        .route("/tournaments/{id}/start", post(start))
        .route("/tournaments/{id}/cancel", post(cancel))
        .route("/games/{id}/tournament", get(of_game))
}

/// `GET /api/tournaments`.
#[derive(Debug, Serialize)]
pub struct Lists {
    /// Not started yet.
    pub upcoming: Vec<Summary>,
    /// Being played.
    pub running: Vec<Summary>,
    /// Over (the latest 50).
    pub finished: Vec<Summary>,
}

/// Refuses tournament ids that cannot exist as 404.
fn check_tournament_id(id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::not_found(format!("no tournament {id:?}")));
    }
    Ok(())
}

/// Tournament `id` (404 if none) read under its lock, and the lock's
/// guard: what every change of an entry list or a status starts with.
async fn locked(app: &AppState, id: &str) -> ApiResult<(OwnedMutexGuard<()>, Summary)> {
    check_tournament_id(id)?;
    let guard = lock_for(id).lock_owned().await;
    let t = load(&app.db.pool, id).await?;
    Ok((guard, t))
}

/// Refuses anyone but `t`'s creator (403); `does` says what only the
/// creator does ("starts it").
fn require_creator(t: &Summary, user_id: &str, does: &str) -> ApiResult<()> {
    if t.creator.id != user_id {
        return Err(ApiError::forbidden(
            "not_creator",
            format!("only the tournament's creator {does}"),
        ));
    }
    Ok(())
}

/// `POST /api/tournaments`.
/// Most tournaments one player may have created that are upcoming or running.
pub const MAX_OPEN_TOURNAMENTS_PER_CREATOR: i64 = 5;

async fn create(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<CreateTournament>,
) -> ApiResult<(StatusCode, Json<Detail>)> {
    s.user
        .require_account("register or log in to create tournaments")?;
    let open = store::open_count_of_creator(&app.db.pool, &s.user.id).await?;
    if open >= MAX_OPEN_TOURNAMENTS_PER_CREATOR {
        return Err(ApiError::conflict(
            "too_many_tournaments",
            format!(
                "at most {MAX_OPEN_TOURNAMENTS_PER_CREATOR} of your tournaments may be upcoming or running at once"
            ),
        ));
    }
    let now = app.games.time.now_ms();
    let c = check_create(&req, now)?;
    let id = random_id(10);
    store::insert(
        &app.db.pool,
        &NewTournament {
            id: &id,
            name: &c.name,
            kind: c.kind,
            game: c.game,
            tc: c.tc,
            rounds: c.rounds,
            duration_ms: c.duration_ms,
            max_players: c.max_players,
            creator_id: &s.user.id,
            starts_at: c.starts_at,
            created_at: now,
            leave: c.leave,
            public_games: c.public_games,
        },
    )
    .await?;
    if let Some(at) = c.starts_at {
        schedule_start(&app.games, &id, at);
    }
    Ok((
        StatusCode::CREATED,
        Json(detail_of(&app.games, &id, Some(&s.user)).await?),
    ))
}

/// `GET /api/tournaments`.
async fn list(State(app): State<AppState>) -> ApiResult<Json<Lists>> {
    let pool = &app.db.pool;
    Ok(Json(Lists {
        upcoming: store::list(pool, Shelf::Upcoming).await?,
        running: store::list(pool, Shelf::Running).await?,
        finished: store::list(pool, Shelf::Finished).await?,
    }))
}

/// `GET /api/tournaments/{id}`.
async fn detail(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    Ok(Json(
        detail_of(&app.games, &id, s.as_ref().map(|s| &s.user)).await?,
    ))
}

/// The tournament of a game, if any: `{id, name, round}` or `null`.
async fn of_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    check_id(&id)?;
    Ok(Json(match store::of_game(&app.db.pool, &id).await? {
        Some((id, name, round)) => serde_json::json!({
            "id": id,
            "name": name,
            "round": round,
        }),
        None => serde_json::Value::Null,
    }))
}

/// `POST /api/tournaments/{id}/join`: enter before the start (an arena
/// also while it runs, or to come back to the pool).
async fn join(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    let user = &s.user;
    user.require_account("register or log in to join tournaments")?;
    let (guard, t) = locked(&app, &id).await?;
    let pool = &app.db.pool;
    let now = app.games.time.now_ms();
    let arena_open =
        t.status == "running" && t.kind == Kind::Arena && t.ends_at.is_some_and(|e| now < e);
    if t.status != "upcoming" && !arena_open {
        return Err(ApiError::conflict(
            "not_open",
            format!(
                "the tournament is {}: players join before it starts",
                t.status
            ),
        ));
    }
    match store::entry_of(pool, &id, &user.id).await? {
        Some(true) => {
            return Err(ApiError::conflict(
                "already_joined",
                "you are already in this tournament",
            ));
        }
        Some(false) => store::reactivate(pool, &id, &user.id).await?,
        None => {
            if !store::add_entrant(&app.db, &id, &user.id, now, t.max_players).await? {
                return Err(ApiError::conflict(
                    "tournament_full",
                    format!("the tournament is full ({} players)", t.max_players),
                ));
            }
        }
    }
    drop(guard);
    if arena_open {
        advance(&app.games, &id).await?;
    }
    Ok(Json(detail_of(&app.games, &id, Some(user)).await?))
}

/// `POST /api/tournaments/{id}/withdraw`: leave before the start; while it
/// runs, an arena player leaves the pairing pool and a swiss player is not
/// paired in later rounds (games in progress go on, results stay).
async fn withdraw(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    let (_guard, t) = locked(&app, &id).await?;
    let pool = &app.db.pool;
    let done = match (t.status.as_str(), t.kind) {
        ("upcoming", _) => store::remove_entrant(pool, &id, &s.user.id).await?,
        ("running", Kind::Arena | Kind::Swiss) => {
            store::withdraw_entrant(pool, &id, &s.user.id).await?
        }
        _ => {
            return Err(ApiError::conflict(
                "not_open",
                format!(
                    "the tournament is {}: its games are paired (resign a game to give it up)",
                    t.status
                ),
            ));
        }
    };
    if !done {
        return Err(ApiError::conflict(
            "not_joined",
            "you are not in this tournament",
        ));
    }
    Ok(Json(detail_of(&app.games, &id, Some(&s.user)).await?))
}

/// `POST /api/tournaments/{id}/start`: the creator starts the tournament.
async fn start(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let t = load(&app.db.pool, &id).await?;
    require_creator(&t, &s.user.id, "starts it")?;
    start_tournament(&app.games, &id).await?;
    Ok(Json(detail_of(&app.games, &id, Some(&s.user)).await?))
}

/// `POST /api/tournaments/{id}/cancel`: the creator calls the tournament
/// off before it starts (it leaves the lists; its page says so).
async fn cancel(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    let (guard, t) = locked(&app, &id).await?;
    let pool = &app.db.pool;
    require_creator(&t, &s.user.id, "calls it off")?;
    if !store::cancel(pool, &id, app.games.time.now_ms()).await? {
        return Err(ApiError::conflict(
            "already_started",
            format!(
                "the tournament is {}: only an upcoming one is called off",
                t.status
            ),
        ));
    }
    drop(guard);
    Ok(Json(detail_of(&app.games, &id, Some(&s.user)).await?))
}
