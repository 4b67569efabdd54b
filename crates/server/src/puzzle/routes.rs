//! The puzzle routes, under `/api`:
//!
//! - `GET /puzzle/daily?variant=&rules=`: the day's puzzle (UTC) of a game;
//! - `GET /puzzle/next?variant=&rules=&theme=&exclude=`: a puzzle near the
//!   player's puzzle rating, not played by them in [`RECENT_MS`];
//! - `GET /puzzle/streak?variant=&rules=&theme=`: ids for a streak, easiest
//!   first, and the account's best streak;
//! - `POST /puzzle/streak?variant=&rules=&theme=`: the same, and for an
//!   account a streak run whose rounds the server counts;
//! - `POST /puzzle/streak/{run}/round` `{"puzzle", "moves"}`: a round of
//!   that run, judged and counted by the server (unrated);
//! - `GET /puzzle/{id}`: one puzzle;
//! - `POST /puzzle/{id}/round` `{"win": bool}` or `{"moves": [...]}`: a
//!   round played, rated for accounts.
//!
//! Puzzle answers are `{"game", "puzzle", "user"}` ([`PuzzleAnswer`]).

use super::model::{
    PuzzleAnswer, StoredPuzzle, StreakStep, clean_theme, day_of, judge, streak_pick,
};
use super::store::{self, Wanted};
use crate::AppState;
use crate::account::auth::{Actor, Session, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_token, query_kind};
use crate::ratings::Rating;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::{Json, Router, routing::get, routing::post};
use games::GameKind;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A puzzle played within this time (30 days, ms) is not served again to
/// the same player while others are left.
pub const RECENT_MS: i64 = 30 * 24 * 3600 * 1000;

/// How many puzzles nearest the player's rating `next` chooses among.
const NEAR: i64 = 12;

/// Most puzzles in a streak.
pub const STREAK_LEN: usize = 40;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/puzzle/daily", get(daily))
        .route("/puzzle/next", get(next))
        .route("/puzzle/streak", get(streak).post(start_streak))
        .route("/puzzle/streak/{run}/round", post(streak_round))
        .route("/puzzle/{id}", get(by_id))
        .route("/puzzle/{id}/round", post(round))
}

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

fn params(q: Params) -> ApiResult<HashMap<String, String>> {
    q.map(|Query(p)| p)
        .map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))
}

fn theme(p: &HashMap<String, String>) -> ApiResult<Option<String>> {
    clean_theme(p.get("theme").map(String::as_str))
        .map_err(|e| ApiError::bad_request("bad_theme", e))
}

/// Refuses ids that no puzzle can have (the set's ids are 4 to 16 letters
/// and digits) as 404.
fn check_puzzle_id(id: &str) -> ApiResult<()> {
    check_token(id, 4..=16, "puzzle")
}

fn no_puzzle(id: &str) -> ApiError {
    ApiError::not_found(format!("no puzzle {id:?}"))
}

/// The account behind a session (a guest is none: not rated).
fn account(s: &Option<Session>) -> Option<&str> {
    s.as_ref()
        .filter(|s| !s.user.guest)
        .map(|s| s.user.id.as_str())
}

/// The player's puzzle rating in `kind`: an account's (a new player's when
/// it has none yet), `None` for guests and visitors.
async fn player_rating(
    app: &AppState,
    user: Option<&str>,
    kind: GameKind,
) -> ApiResult<Option<Rating>> {
    match user {
        None => Ok(None),
        Some(u) => Ok(Some(
            store::player_rating(&app.db.pool, u, kind)
                .await?
                .unwrap_or_default(),
        )),
    }
}

async fn answer(
    app: &AppState,
    s: &Option<Session>,
    p: StoredPuzzle,
) -> ApiResult<Json<PuzzleAnswer>> {
    let rating = player_rating(app, account(s), p.kind).await?;
    Ok(Json(p.answer(rating)))
}

/// `GET /api/puzzle/daily`.
async fn daily(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    q: Params,
) -> ApiResult<Json<PuzzleAnswer>> {
    let kind = query_kind(&params(q)?)?;
    let day = day_of(app.now_ms());
    let p = store::daily(&app.db.pool, kind, &day)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no {kind} puzzle on this server")))?;
    answer(&app, &s, p).await
}

/// `GET /api/puzzle/next`.
async fn next(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    q: Params,
) -> ApiResult<Json<PuzzleAnswer>> {
    let p = params(q)?;
    let kind = query_kind(&p)?;
    let theme = theme(&p)?;
    let exclude = p
        .get("exclude")
        .map(String::as_str)
        .filter(|e| !e.is_empty());
    let user = account(&s);
    let target = player_rating(&app, user, kind)
        .await?
        .unwrap_or_default()
        .rating;
    let want = Wanted {
        kind,
        theme: theme.as_deref(),
        user,
        recent_since: app.now_ms() - RECENT_MS,
        exclude,
    };
    let mut found = store::near(&app.db.pool, &want, target, NEAR).await?;
    if found.is_empty() {
        return Err(ApiError::not_found(match &theme {
            Some(t) => format!("no {kind} puzzle with the theme {t:?}"),
            None => format!("no {kind} puzzle on this server"),
        }));
    }
    let i = rand::rng().random_range(0..found.len());
    answer(&app, &s, found.swap_remove(i)).await
}

/// The answer of `GET` and `POST /api/puzzle/streak`.
#[derive(Debug, Serialize)]
pub struct Streak {
    /// Puzzle ids, easiest first.
    pub puzzles: Vec<String>,
    /// The run whose rounds the server counts (`POST`, accounts only);
    /// null otherwise.
    pub run: Option<String>,
    /// The account's best streak in this game; null for guests.
    pub best: Option<i64>,
}

/// The puzzles of a streak asked for by `p`, and their game.
async fn streak_puzzles(
    app: &AppState,
    p: &HashMap<String, String>,
) -> ApiResult<(GameKind, Vec<String>)> {
    let kind = query_kind(p)?;
    let theme = theme(p)?;
    let ids = store::ids_by_rating(&app.db.pool, kind, theme.as_deref(), 5000).await?;
    Ok((kind, streak_pick(&ids, STREAK_LEN)))
}

/// `GET /api/puzzle/streak`: up to [`STREAK_LEN`] puzzle ids of rising
/// rating, for a streak (unrated, as on lichess), and the account's best.
async fn streak(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    q: Params,
) -> ApiResult<Json<Streak>> {
    let (kind, puzzles) = streak_puzzles(&app, &params(q)?).await?;
    let best = match account(&s) {
        Some(u) => Some(store::streak_best(&app.db.pool, u, kind).await?),
        None => None,
    };
    Ok(Json(Streak {
        puzzles,
        run: None,
        best,
    }))
}

/// `POST /api/puzzle/streak`: a streak to play. For an account, a run is
/// stored with these puzzles in this order: its rounds, posted to
/// `/api/puzzle/streak/{run}/round`, make the score the server keeps.
async fn start_streak(
    State(app): State<AppState>,
    Actor(s): Actor,
    q: Params,
) -> ApiResult<Json<Streak>> {
    let (kind, puzzles) = streak_puzzles(&app, &params(q)?).await?;
    if puzzles.is_empty() {
        return Err(ApiError::not_found(format!(
            "no {kind} puzzle for a streak (with this theme) on this server"
        )));
    }
    let session = Some(s);
    let Some(user) = account(&session) else {
        return Ok(Json(Streak {
            puzzles,
            run: None,
            best: None,
        }));
    };
    let run = store::new_streak_run(&app.db.pool, user, kind, &puzzles, app.now_ms()).await?;
    let best = store::streak_best(&app.db.pool, user, kind).await?;
    Ok(Json(Streak {
        puzzles,
        run: Some(run),
        best: Some(best),
    }))
}

/// `POST /api/puzzle/streak/{run}/round` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreakRoundBody {
    /// The puzzle played: the run's next one.
    pub puzzle: String,
    /// The moves played, judged here as a round's are.
    pub moves: Vec<String>,
}

/// The answer of `POST /api/puzzle/streak/{run}/round`.
#[derive(Debug, Serialize)]
pub struct StreakRoundAnswer {
    /// This round solved the puzzle.
    pub win: bool,
    /// This round changed the run (false for a round sent again).
    pub counted: bool,
    /// The run's score: the puzzles the server saw solved, in order.
    pub score: i64,
    /// The run is over (a failed round, or every puzzle solved).
    pub over: bool,
    /// The puzzle the run waits for; null when it is over.
    pub next: Option<String>,
    /// The player's best streak in this game, this run counted.
    pub best: i64,
}

/// `POST /api/puzzle/streak/{run}/round`: the moves are judged from the
/// puzzle's position (a claimed result is not taken), and only the run's
/// next puzzle counts, once.
async fn streak_round(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(run): Path<String>,
    Body(body): Body<StreakRoundBody>,
) -> ApiResult<Json<StreakRoundAnswer>> {
    s.user
        .require_account("register to keep your best streak on the server")?;
    check_token(&run, 8..=32, "streak run")?;
    check_puzzle_id(&body.puzzle)?;
    let p = store::get(&app.db.pool, &body.puzzle)
        .await?
        .ok_or_else(|| no_puzzle(&body.puzzle))?;
    let win = judge(&p, &body.moves).map_err(|e| ApiError::bad_request("bad_moves", e))?;
    let r = store::streak_round(&app.db, &s.user.id, &run, &p.id, win, app.now_ms()).await?;
    Ok(Json(StreakRoundAnswer {
        win,
        counted: r.step != StreakStep::Again,
        score: i64::try_from(r.run.solved).unwrap_or(i64::MAX),
        over: r.run.ended,
        next: r.run.next().map(str::to_string),
        best: r.best,
    }))
}

/// `GET /api/puzzle/{id}`.
async fn by_id(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<PuzzleAnswer>> {
    check_puzzle_id(&id)?;
    let p = store::get(&app.db.pool, &id)
        .await?
        .ok_or_else(|| no_puzzle(&id))?;
    answer(&app, &s, p).await
}

/// `POST /api/puzzle/{id}/round` body: the result (`win`, lichess's field)
/// or the moves played (judged here: from the puzzle's position, the
/// solver's moves and the replies, up to the first wrong move), or both,
/// which must agree.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundBody {
    /// Solved (true) or failed.
    pub win: Option<bool>,
    /// The moves played, in engine form.
    pub moves: Option<Vec<String>>,
}

/// What a round changed for the player.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundUser {
    /// The puzzle rating now, rounded.
    pub rating: i32,
    /// Provisional (shown with `?`).
    pub provisional: bool,
    /// The change this round made.
    pub rating_diff: i32,
}

/// What a round changed for the puzzle.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundPuzzle {
    /// Its id.
    pub id: String,
    /// Its rating now, rounded.
    pub rating: i32,
    /// The change this round made.
    pub rating_diff: i32,
    /// Its rated rounds.
    pub plays: i64,
}

/// The round itself.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundInfo {
    /// Solved.
    pub win: bool,
    /// Whether it changed ratings (an account's first round on the puzzle).
    pub rated: bool,
    /// The player's rating change (0 when not rated).
    pub rating_diff: i32,
}

/// The answer of `POST /api/puzzle/{id}/round`.
#[derive(Debug, Serialize)]
pub struct RoundAnswer {
    /// The round.
    pub round: RoundInfo,
    /// The player's puzzle rating; null for a guest.
    pub user: Option<RoundUser>,
    /// The puzzle.
    pub puzzle: RoundPuzzle,
}

/// `POST /api/puzzle/{id}/round`.
async fn round(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(body): Body<RoundBody>,
) -> ApiResult<Json<RoundAnswer>> {
    check_puzzle_id(&id)?;
    let p = store::get(&app.db.pool, &id)
        .await?
        .ok_or_else(|| no_puzzle(&id))?;
    let win = match (&body.moves, body.win) {
        (None, None) => {
            return Err(ApiError::bad_request(
                "missing_result",
                "send {\"win\": true|false} or {\"moves\": [...]}",
            ));
        }
        (None, Some(win)) => win,
        (Some(moves), claimed) => {
            let judged = judge(&p, moves).map_err(|e| ApiError::bad_request("bad_moves", e))?;
            if claimed.is_some_and(|w| w != judged) {
                return Err(ApiError::bad_request(
                    "win_mismatch",
                    format!(
                        "win is {} but the moves {} the puzzle",
                        !judged,
                        if judged { "solve" } else { "fail" }
                    ),
                ));
            }
            judged
        }
    };
    let session = Some(s);
    let Some(user) = account(&session) else {
        // A guest: nothing is stored, nothing changes.
        return Ok(Json(RoundAnswer {
            round: RoundInfo {
                win,
                rated: false,
                rating_diff: 0,
            },
            user: None,
            puzzle: RoundPuzzle {
                id: p.id,
                rating: p.rating.shown(),
                rating_diff: 0,
                plays: p.plays,
            },
        }));
    };
    let r = store::finish_round(&app.db, user, &p, win, app.now_ms()).await?;
    let player_diff = r.player.1.shown() - r.player.0.shown();
    Ok(Json(RoundAnswer {
        round: RoundInfo {
            win,
            rated: r.rated,
            rating_diff: player_diff,
        },
        user: Some(RoundUser {
            rating: r.player.1.shown(),
            provisional: r.player.1.provisional(),
            rating_diff: player_diff,
        }),
        puzzle: RoundPuzzle {
            id: p.id,
            rating: r.puzzle.1.shown(),
            rating_diff: r.puzzle.1.shown() - r.puzzle.0.shown(),
            plays: r.plays,
        },
    }))
}
