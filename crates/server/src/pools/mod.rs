//! Quick pairing, as lichess's pools: a player picks a game and a clock,
//! waits, and is paired with a player of similar rating, the range widening
//! as the wait grows ([`model`]). The waiting players are rows of the
//! database ([`store`]), which every server process shares; each process
//! runs a [`matcher`].
//!
//! Routes, under `/api`:
//! - `GET /pools`: every pool, with how many players wait in it;
//! - `POST /pools/join` `{"variant": "makruk", "clock": "3+2"}`: waits in a
//!   pool (out of any other; in it already, the wait goes on from when it
//!   began; paired already, the answer names the game);
//! - `GET /pools/mine?wait=S`: my place: waiting, or the game I was paired
//!   into; with `wait`, the answer waits up to S seconds (at most 20) for a
//!   pairing. Asking keeps me in the pool: a player not heard from for
//!   [`matcher::UNSEEN_MS`] has left;
//! - `DELETE /pools/mine`: leaves the pool.

pub mod matcher;
pub mod model;
pub mod store;

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use crate::ratings::Pool;
use axum::extract::{Query, State};
use axum::{Json, Router, routing::get, routing::post};
use model::PoolId;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub use matcher::{Pools, start};

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/pools", get(list))
        .route("/pools/join", post(join))
        .route("/pools/mine", get(mine).delete(leave))
}

/// A pool as the lobby shows it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PoolInfo {
    /// The game's variant name (`makruk`, `cambodian`, `makhos`).
    pub variant: String,
    /// The clock: `3+2` (minutes + seconds per move) or `3d` (days per move).
    pub clock: String,
    /// Players waiting in it now.
    pub waiting: i64,
}

/// The answer of `GET /api/pools`.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PoolList {
    /// Every pool: each game's clocks in order.
    pub pools: Vec<PoolInfo>,
}

/// `GET /api/pools`.
async fn list(State(app): State<AppState>) -> ApiResult<Json<PoolList>> {
    let counts: std::collections::HashMap<String, i64> =
        store::counts(&app.db.pool).await?.into_iter().collect();
    let pools = model::KINDS
        .iter()
        .flat_map(|&kind| {
            model::CLOCKS
                .iter()
                .map(move |&clock| PoolId { kind, clock })
        })
        .map(|p| PoolInfo {
            variant: p.kind.variant_name().into(),
            clock: p.clock.into(),
            waiting: counts.get(&p.key()).copied().unwrap_or(0),
        })
        .collect();
    Ok(Json(PoolList { pools }))
}

/// `POST /api/pools/join` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// One of the pools' clocks.
    pub clock: String,
}

/// Where a player stands in the pools.
#[derive(Clone, Debug, Default, Serialize, ts_rs::TS)]
pub struct PoolState {
    /// `waiting`, `paired` or `none` (in no pool).
    pub status: String,
    /// The pool waited in: its variant.
    pub variant: Option<String>,
    /// Its clock.
    pub clock: Option<String>,
    /// Waiting since, ms since the epoch.
    pub since: Option<i64>,
    /// The game paired into.
    pub game: Option<String>,
}

/// `POST /api/pools/join`.
async fn join(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<JoinRequest>,
) -> ApiResult<Json<PoolState>> {
    let pool = PoolId::parse(&req.variant, &req.clock)
        .map_err(|e| ApiError::bad_request("invalid_pool", e))?;
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "guests play the engine; register or log in to play in the pools",
        ));
    }
    let rating = match Pool::of(pool.kind, &pool.time_control()) {
        Some(rp) => crate::ratings::store::current(&app.db.pool, &s.user.id, rp)
            .await?
            .shown(),
        None => 1500,
    };
    let now = app.now_ms();
    // Paired already (not yet told), or in this pool already: said as it stands.
    if let Some(entry) = store::touch(&app.db.pool, &s.user.id, now).await? {
        if let Some(game) = entry.game_id {
            store::delivered(&app.db.pool, &s.user.id, &game).await?;
            return Ok(Json(state_of(&entry.pool, entry.joined_at, Some(game))));
        }
        // Claimed for a game being made, or in this pool already: stays.
        if entry.claimed || entry.pool == pool.key() {
            return Ok(Json(state_of(&entry.pool, entry.joined_at, None)));
        }
    }
    store::join(
        &app.db.pool,
        (&s.user.id, &s.user.username),
        &pool.key(),
        rating,
        now,
    )
    .await?;
    app.pools.wake();
    Ok(Json(state_of(&pool.key(), now, None)))
}

/// The state of a player in pool `key` since `since`: waiting, or paired
/// into `game`.
fn state_of(key: &str, since: i64, game: Option<String>) -> PoolState {
    let pool = PoolId::from_key(key);
    PoolState {
        status: if game.is_some() { "paired" } else { "waiting" }.into(),
        variant: pool.map(|p| p.kind.variant_name().into()),
        clock: pool.map(|p| p.clock.into()),
        since: Some(since),
        game,
    }
}

/// `GET /api/pools/mine` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MineQuery {
    /// Seconds to wait for a pairing (at most 20).
    pub wait: Option<u64>,
}

/// The longest `wait` of `GET /api/pools/mine`, s (below the request timeout).
const MAX_WAIT_S: u64 = 20;

/// How often a waiting poll looks at the database again, ms (a pairing made
/// by another server process is seen within this).
const RECHECK_MS: u64 = 1_000;

/// `GET /api/pools/mine`.
async fn mine(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Query(q): Query<MineQuery>,
) -> ApiResult<Json<PoolState>> {
    let Some(s) = s else {
        return Ok(Json(PoolState {
            status: "none".into(),
            ..Default::default()
        }));
    };
    let until =
        tokio::time::Instant::now() + Duration::from_secs(q.wait.unwrap_or(0).min(MAX_WAIT_S));
    loop {
        // Listen before looking, so that a pairing in between is not missed.
        let paired = app.pools.paired.notified();
        let entry = store::touch(&app.db.pool, &s.user.id, app.now_ms()).await?;
        let Some(entry) = entry else {
            return Ok(Json(PoolState {
                status: "none".into(),
                ..Default::default()
            }));
        };
        if let Some(game) = entry.game_id {
            store::delivered(&app.db.pool, &s.user.id, &game).await?;
            return Ok(Json(state_of(&entry.pool, entry.joined_at, Some(game))));
        }
        let state = state_of(&entry.pool, entry.joined_at, None);
        let now = tokio::time::Instant::now();
        if now >= until {
            return Ok(Json(state));
        }
        let step = (until - now).min(Duration::from_millis(RECHECK_MS));
        tokio::select! {
            _ = paired => {}
            _ = tokio::time::sleep(step) => {}
        }
    }
}

/// The answer of `DELETE /api/pools/mine`.
#[derive(Clone, Debug, Serialize)]
pub struct Left {
    /// Whether I was waiting (false: in no pool, or already paired).
    pub left: bool,
}

/// `DELETE /api/pools/mine`.
async fn leave(State(app): State<AppState>, Actor(s): Actor) -> ApiResult<Json<Left>> {
    let left = store::leave(&app.db.pool, &s.user.id).await?;
    Ok(Json(Left { left }))
}
