//! The tournament routes: create, list, view, join, withdraw, start, call off.

use super::create::{CreateTournament, check_create};
use super::flow::{advance, lock_for, schedule_start, start_tournament};
use super::store::{Kind, SELECT_TOURNAMENT, Summary, load, summary};
use super::view::{Detail, detail_of};
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::util::{now_ms, random_id};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use sqlx::Row as _;

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
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register or log in to create tournaments",
        ));
    }
    let open: i64 = sqlx::query(
        "SELECT COUNT(*) FROM tournaments WHERE creator_id = $1 AND status IN ('upcoming', 'running')",
    )
    .bind(&s.user.id)
    .fetch_one(&app.db.pool)
    .await?
    .get(0);
    if open >= MAX_OPEN_TOURNAMENTS_PER_CREATOR {
        return Err(ApiError::conflict(
            "too_many_tournaments",
            format!(
                "at most {MAX_OPEN_TOURNAMENTS_PER_CREATOR} of your tournaments may be upcoming or running at once"
            ),
        ));
    }
    let now = now_ms();
    let c = check_create(&req, now)?;
    let id = random_id(10);
    sqlx::query(
        "INSERT INTO tournaments (id, name, kind, variant, rules, tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, \
         rounds, duration_ms, max_players, status, creator_id, current_round, starts_at, started_at, ends_at, \
         finished_at, created_at, leave_rule, leave_cap_days, public_games) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'upcoming', $13, 0, $14, NULL, NULL, NULL, $15, $16, $17, $18)",
    )
    .bind(&id)
    .bind(&c.name)
    .bind(c.kind.name())
    .bind(c.game.variant_name())
    .bind(c.game.rules_name())
    .bind(c.tc.kind.name())
    .bind(c.tc.initial_ms)
    .bind(c.tc.increment_ms)
    .bind(c.tc.max_ms)
    .bind(c.rounds)
    .bind(c.duration_ms)
    .bind(c.max_players)
    .bind(&s.user.id)
    .bind(c.starts_at)
    .bind(now)
    .bind(c.leave.stored().0)
    .bind(c.leave.stored().1)
    .bind(i32::from(c.public_games))
    .execute(&app.db.pool)
    .await?;
    if let Some(at) = c.starts_at {
        schedule_start(&app.games, &id, at);
    }
    Ok((
        StatusCode::CREATED,
        Json(detail_of(&app.db.pool, &id, Some(&s.user)).await?),
    ))
}

/// `GET /api/tournaments`.
async fn list(State(app): State<AppState>) -> ApiResult<Json<Lists>> {
    let mut out = Lists {
        upcoming: Vec::new(),
        running: Vec::new(),
        finished: Vec::new(),
    };
    for (status, order, limit) in [
        ("upcoming", "t.created_at DESC", 200),
        ("running", "t.started_at DESC", 200),
        ("finished", "t.finished_at DESC", 50),
    ] {
        let rows = sqlx::query(&format!(
            "{SELECT_TOURNAMENT} WHERE t.status = $1 ORDER BY {order}, t.id LIMIT {limit}"
        ))
        .bind(status)
        .fetch_all(&app.db.pool)
        .await?;
        let list = rows.iter().map(summary).collect::<ApiResult<Vec<_>>>()?;
        match status {
            "upcoming" => out.upcoming = list,
            "running" => out.running = list,
            _ => out.finished = list,
        }
    }
    Ok(Json(out))
}

/// `GET /api/tournaments/{id}`.
async fn detail(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    Ok(Json(
        detail_of(&app.db.pool, &id, s.as_ref().map(|s| &s.user)).await?,
    ))
}

/// The tournament of a game, if any: `{id, name, round}` or `null`.
async fn of_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    check_id(&id)?;
    let row = sqlx::query(
        "SELECT t.id, t.name, tg.round FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament_id \
         WHERE tg.game_id = $1",
    )
    .bind(&id)
    .fetch_optional(&app.db.pool)
    .await?;
    Ok(Json(match row {
        Some(r) => serde_json::json!({
            "id": r.try_get::<String, _>(0)?,
            "name": r.try_get::<String, _>(1)?,
            "round": r.try_get::<i64, _>(2)?,
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
    check_tournament_id(&id)?;
    let user = &s.user;
    if user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register or log in to join tournaments",
        ));
    }
    let lock = lock_for(&id);
    let guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    let now = now_ms();
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
    let existing = sqlx::query(
        "SELECT active FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(&id)
    .bind(&user.id)
    .fetch_optional(pool)
    .await?;
    match existing {
        Some(r) if r.try_get::<i64, _>(0)? != 0 => {
            return Err(ApiError::conflict(
                "already_joined",
                "you are already in this tournament",
            ));
        }
        Some(_) => {
            sqlx::query(
                "UPDATE tournament_entrants SET active = 1 WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(&id)
            .bind(&user.id)
            .execute(pool)
            .await?;
        }
        None => {
            let done = sqlx::query(
                "INSERT INTO tournament_entrants (tournament_id, user_id, seed, joined_at, active) \
                 SELECT $1, $2, (SELECT COALESCE(MAX(seed), -1) + 1 FROM tournament_entrants WHERE tournament_id = $1), $3, 1 \
                 WHERE (SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = $1) < $4",
            )
            .bind(&id)
            .bind(&user.id)
            .bind(now)
            .bind(t.max_players)
            .execute(pool)
            .await?;
            if done.rows_affected() != 1 {
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
    Ok(Json(detail_of(pool, &id, Some(user)).await?))
}

/// `POST /api/tournaments/{id}/withdraw`: leave before the start; while it
/// runs, an arena player leaves the pairing pool and a swiss player is not
/// paired in later rounds (games in progress go on, results stay).
async fn withdraw(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let lock = lock_for(&id);
    let _guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    let q = match (t.status.as_str(), t.kind) {
        ("upcoming", _) => {
            "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 AND active = 1"
        }
        ("running", Kind::Arena | Kind::Swiss) => {
            "UPDATE tournament_entrants SET active = 0 WHERE tournament_id = $1 AND user_id = $2 AND active = 1"
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
    let done = sqlx::query(q)
        .bind(&id)
        .bind(&s.user.id)
        .execute(pool)
        .await?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "not_joined",
            "you are not in this tournament",
        ));
    }
    Ok(Json(detail_of(pool, &id, Some(&s.user)).await?))
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
    Ok(Json(detail_of(&app.db.pool, &id, Some(&s.user)).await?))
}

/// `POST /api/tournaments/{id}/cancel`: the creator calls the tournament
/// off before it starts (it leaves the lists; its page says so).
async fn cancel(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let lock = lock_for(&id);
    let guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    require_creator(&t, &s.user.id, "calls it off")?;
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'cancelled', finished_at = $1 WHERE id = $2 AND status = 'upcoming'",
    )
    .bind(now_ms())
    .bind(&id)
    .execute(pool)
    .await?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "already_started",
            format!(
                "the tournament is {}: only an upcoming one is called off",
                t.status
            ),
        ));
    }
    drop(guard);
    Ok(Json(detail_of(pool, &id, Some(&s.user)).await?))
}
