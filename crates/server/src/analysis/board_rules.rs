//! The analysis board's rules service: any position, any moves, legal moves
//! and state — stateless, so analysing never touches a game.

use crate::AppState;
use crate::game::{LegalMove, ThaiText};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::query_kind;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::{Json, Router, routing::get};
use games::{AnyGame, Color};
use serde::Serialize;
use std::collections::HashMap;

/// Most moves played from the position in one request.
pub const MAX_MOVES: usize = 600;

/// The route, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/position", get(position))
}

/// A position with its legal moves.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// The game.
    pub variant: &'static str,
    /// Its rule option.
    pub rules: &'static str,
    /// The position after the moves (FEN, Mak-hot position text).
    pub fen: String,
    /// Side to move.
    pub turn: Color,
    /// Legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The moves played, in display form.
    pub played: Vec<String>,
    /// The moves played, in Thai notation.
    pub played_thai: Vec<ThaiText>,
    /// `ongoing`, or `1-0` / `0-1` / `1/2-1/2`.
    pub result: &'static str,
    /// Why the game ended (`checkmate`, `stalemate`, `counting_draw`, ...).
    pub reason: Option<&'static str>,
}

/// `GET /api/position?variant=makruk&rules=default&fen=...&moves=e3e4,d6d5`:
/// the position after the moves (from the variant's start without `fen`),
/// written in any notation (Thai too), separated by commas or spaces.
/// The game a position query names (`variant`, `rules`, `fen`, `moves`),
/// with the moves played: their display and Thai forms.
pub fn game_of_query(
    p: &HashMap<String, String>,
) -> ApiResult<(AnyGame, Vec<String>, Vec<ThaiText>)> {
    let kind = query_kind(p)?;
    let mut game = match p.get("fen") {
        // Any position is counted automatically, as Fairy-Stockfish counts.
        Some(fen) => AnyGame::from_position(crate::game::start::read_position(kind, fen)?),
        None => AnyGame::new(kind),
    };
    let moves: Vec<&str> = p
        .get("moves")
        .map(|m| {
            // Commas, or spaces when there are none (the long Thai form
            // has a space inside a move: `บ จ๓-จ๔,บ จ๖-จ๕`).
            let parts: Vec<&str> = if m.contains(',') {
                m.split(',').map(str::trim).collect()
            } else {
                m.split(' ').collect()
            };
            parts.into_iter().filter(|s| !s.is_empty()).collect()
        })
        .unwrap_or_default();
    if moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(
            "too_many_moves",
            format!("at most {MAX_MOVES} moves per request"),
        ));
    }
    let mut played = Vec::new();
    let mut played_thai = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(ApiError::illegal_move(format!(
                "move {} ({text:?}): the game is already over",
                i + 1
            )));
        }
        let refused =
            |e: games::GameError| ApiError::illegal_move(format!("move {} ({text:?}): {e}", i + 1));
        let m = game.parse_text(text).map_err(refused)?;
        played.push(game.display_move(&m));
        played_thai.push(ThaiText::of(&game.position(), &m));
        game.play(&m).map_err(refused)?;
    }
    Ok((game, played, played_thai))
}

async fn position(
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<PositionView>> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let (game, played, played_thai) = game_of_query(&p)?;
    let kind = game.kind();
    let outcome = game.outcome();
    let pos = game.position();
    Ok(Json(PositionView {
        variant: kind.variant_name(),
        rules: kind.rules_name(),
        fen: pos.fen(),
        turn: pos.turn(),
        legal: if outcome.is_none() {
            LegalMove::all(&pos)
        } else {
            Vec::new()
        },
        played,
        played_thai,
        result: outcome.map_or("ongoing", |o| o.result()),
        reason: outcome.map(|o| o.reason.name()),
    }))
}
