//! The analysis board's engine, run on the server: `GET
//! /api/analysis/live?variant=&rules=&fen=&moves=` answers ndjson lines as
//! the search deepens, each
//! `{"depth":12,"eval":{"cp":35},"pv":["e3e4",..],"pv_san":["e4",..],"pv_thai":[{"short":..,"long":..},..],"nodes":..,"nps":..}`
//! (the evaluation from White's side), then `{"done":true}`. A search runs
//! at most [`LIVE_SEARCH_MS`]; it stops as soon as the client goes. At most
//! [`MAX_LIVE_SEARCHES`] run at once in a server; more are refused (503).

use crate::AppState;
use crate::analysis::board_rules::game_of_query;
use crate::analysis::review::Eval;
use crate::analysis::tablebase::Tablebases;
use crate::bot_api::ndjson;
use crate::computer::search::{Ask, history_of, search_position};
use crate::game::ThaiText;
use crate::infra::error::{ApiError, ApiResult};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Router, routing::get};
use engine::{Limits, Score, SearchInfo, SearchOptions, Tt};
use games::{AnyGame, AnyPosition, Color};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::Semaphore;

/// Longest a live search runs, ms.
pub const LIVE_SEARCH_MS: u64 = 15_000;
/// Live searches at once in one process (each takes a core).
pub const MAX_LIVE_SEARCHES: usize = 2;
/// Transposition table of a live search, MB.
const LIVE_HASH_MB: usize = 16;

/// The places of live searches: [`MAX_LIVE_SEARCHES`] per server.
pub fn slots() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(MAX_LIVE_SEARCHES))
}

/// One line of the stream from the engine's `info`, for the position `pos`
/// (moves written from it).
fn line(pos: &AnyPosition, info: &SearchInfo) -> serde_json::Value {
    let white = pos.turn() == Color::White;
    let eval = match info.score {
        Score::Cp(c) => Eval::Cp(if white { c } else { -c }),
        Score::Mate(m) => Eval::Mate(if white { m } else { -m }),
    };
    let mut at = pos.clone();
    let (mut san, mut thai) = (Vec::new(), Vec::new());
    for text in &info.pv {
        let Ok(mv) = at.parse_engine(text) else { break };
        san.push(at.display_move(&mv));
        thai.push(ThaiText::of(&at, &mv));
        at.play_unchecked(&mv);
    }
    json!({
        "depth": info.depth, "eval": eval, "pv": info.pv, "pv_san": san, "pv_thai": thai,
        "nodes": info.nodes, "nps": info.nps,
    })
}

/// Searches `game`'s position with `threads` threads (seeing its history,
/// probing `tables` if the server has them) until `stop` or the time is up,
/// handing each deeper main line to `send` (which answers false once nobody
/// listens).
fn run_search(
    game: &AnyGame,
    threads: usize,
    tables: Option<&Tablebases>,
    stop: &AtomicBool,
    mut send: impl FnMut(serde_json::Value) -> bool,
) {
    let pos = game.position();
    let limits = Limits {
        movetime: Some(LIVE_SEARCH_MS),
        ..Limits::default()
    };
    let (history, no_progress) = history_of(game);
    let opts = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let ask = Ask {
        history: &history,
        no_progress,
        tables,
        limits: &limits,
        opts: &opts,
        stop,
    };
    search_position(&pos, &ask, &mut Tt::new(LIVE_HASH_MB), &mut |info| {
        if info.multipv == 1 && !send(line(&pos, info)) {
            stop.store(true, Ordering::Relaxed);
        }
    });
}

/// `GET /api/analysis/live`.
async fn live(
    State(app): State<AppState>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let (game, _, _) = game_of_query(&p)?;
    if game.outcome().is_some() {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over in this position: nothing to search",
        ));
    }
    let permit = app.live_slots.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "engine_busy",
            format!(
                "the engine is busy with {MAX_LIVE_SEARCHES} other analyses: try again in a moment"
            ),
        )
    })?;
    let stop = Arc::new(AtomicBool::new(false));
    // The search stops when the response is dropped (the client went).
    struct StopOnDrop(Arc<AtomicBool>);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let guard = StopOnDrop(stop.clone());
    Ok(ndjson::response(guard, move |lines| async move {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<serde_json::Value>(16);
        let search_stop = stop.clone();
        let worker = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let threads = app.config.engine_threads;
            run_search(
                &game,
                threads,
                app.tablebases.as_deref(),
                &search_stop,
                |v| tx.blocking_send(v).is_ok(),
            );
        });
        while let Some(v) = rx.recv().await {
            if !lines.send(&v).await {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        let _ = worker.await;
        let _ = lines.send(&json!({ "done": true })).await;
    }))
}

/// The route, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/analysis/live", get(live))
}
