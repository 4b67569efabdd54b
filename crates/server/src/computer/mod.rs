//! The computer opponent: the seam any opponent fits ([`opponent`]), the
//! engine behind it ([`engine`]) and games against it ([`play`], a
//! subscriber of game events; [`practice`]: endings against the tables'
//! perfect play); [`search`] is the one search of a position that the
//! opponent and the analysis share.

pub mod engine;
pub mod opponent;
pub mod play;
pub mod practice;
pub mod search;

pub use play::{EngineGameRequest, EnginePlay};

use crate::AppState;
use crate::account::auth::Actor;
use crate::analysis::tablebase::Tablebases;
use crate::game::GameView;
use crate::infra::error::ApiResult;
use crate::infra::extract::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use std::sync::Arc;

/// Starts games against the computer: their player subscribes to the
/// game service, with the engine as its opponent when `engine_searches`
/// (the searches that may run at once) is above zero; its full-strength
/// searches run `threads` threads each and probe `tables` (`serve
/// --tablebases`).
pub fn start(
    games: &Arc<crate::game::Games>,
    engine_searches: usize,
    threads: usize,
    tables: Option<Arc<Tablebases>>,
) -> Arc<EnginePlay> {
    let play = EnginePlay::start(games);
    if engine_searches > 0 {
        play.set_opponent(Arc::new(engine::EngineOpponent::new(
            engine_searches,
            threads,
            tables,
        )));
    }
    play
}

/// The computer's routes, under `/api`: `POST /api/engine-games` starts a
/// game against it, `POST /api/engine-games/practice` one against the
/// tables' perfect play from an ending they cover.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/engine-games", post(create_engine_game))
        .route("/engine-games/practice", post(create_practice_game))
}

async fn create_practice_game(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<practice::PracticeRequest>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let tables = app.tablebases.as_deref();
    Ok((
        StatusCode::CREATED,
        Json(practice::create_practice_game(&app.games, tables, &s.user, req).await?),
    ))
}

async fn create_engine_game(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<EngineGameRequest>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    Ok((
        StatusCode::CREATED,
        Json(app.games.create_engine_game(&s.user, req).await?),
    ))
}
