//! The analysis board's rules service: any position, any moves, legal moves
//! and state — stateless, so analysing never touches a game.

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::rules::{LegalMove, Outcome, Side, Variant, new_game};
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::{Json, Router, routing::get};
use serde::Serialize;
use std::collections::HashMap;

/// Longest position text accepted.
const MAX_POSITION: usize = 200;
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
    pub rules: String,
    /// The position after the moves (FEN, Mak-hot position text).
    pub fen: String,
    /// Side to move.
    pub turn: Side,
    /// Legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The moves played, in display form.
    pub played: Vec<String>,
    /// `ongoing`, or `1-0` / `0-1` / `1/2-1/2`.
    pub result: &'static str,
    /// Why the game ended (`checkmate`, `stalemate`, `counting`, ...).
    pub reason: Option<&'static str>,
}

/// `GET /api/position?variant=makruk&rules=default&fen=...&moves=e3e4,d6d5`:
/// the position after the moves (from the variant's start without `fen`).
async fn position(
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<PositionView>> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let name = p.get("variant").map(String::as_str).unwrap_or("makruk");
    let variant = Variant::parse(name)
        .filter(|v| *v != Variant::Test)
        .ok_or_else(|| {
            ApiError::bad_request(
                "bad_variant",
                format!("variant must be makruk, cambodian or makhos, not {name:?}"),
            )
        })?;
    let rules = p
        .get("rules")
        .cloned()
        .unwrap_or_else(|| variant.rule_options()[0].to_string());
    let mut game = match p.get("fen") {
        Some(fen) if fen.len() > MAX_POSITION => {
            return Err(ApiError::bad_request(
                "bad_fen",
                format!("position text longer than {MAX_POSITION} characters"),
            ));
        }
        Some(fen) => crate::variants::rules_from_position(variant, &rules, fen).map_err(|e| {
            ApiError::bad_request("bad_fen", format!("{name} position {fen:?}: {e}"))
        })?,
        None => new_game(variant, &rules).map_err(|e| ApiError::bad_request("bad_rules", e))?,
    };
    let moves: Vec<&str> = p
        .get("moves")
        .map(|m| m.split([',', ' ']).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(
            "too_many_moves",
            format!("at most {MAX_MOVES} moves per request"),
        ));
    }
    let mut played = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        if game.outcome() != Outcome::Ongoing {
            return Err(ApiError::illegal_move(format!(
                "move {} ({text:?}): the game is already over",
                i + 1
            )));
        }
        let m = game
            .parse(text)
            .map_err(|e| ApiError::illegal_move(format!("move {} ({text:?}): {e}", i + 1)))?;
        game.play(&m.uci)
            .map_err(|e| ApiError::illegal_move(format!("move {} ({text:?}): {e}", i + 1)))?;
        played.push(m.san);
    }
    let (result, reason) = match game.outcome() {
        Outcome::Ongoing => ("ongoing", None),
        Outcome::Win(Side::White, r) => ("1-0", Some(r)),
        Outcome::Win(Side::Black, r) => ("0-1", Some(r)),
        Outcome::Draw(r) => ("1/2-1/2", Some(r)),
    };
    Ok(Json(PositionView {
        variant: variant.name(),
        rules,
        fen: game.fen(),
        turn: game.turn(),
        legal: if result == "ongoing" {
            game.legal_moves()
        } else {
            Vec::new()
        },
        played,
        result,
        reason,
    }))
}
