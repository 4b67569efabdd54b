//! The opening book of this server: for a position, the moves played from it
//! in finished games, with how often and how those games ended.
//!
//! Positions are matched by their exact FEN (Mak-hot: position text) as the
//! server stores it after every action, so the same placement reached at a
//! different move number counts as a different position.

use crate::AppState;
use crate::game::ThaiText;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::query_kind;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::{Json, Router, routing::get};
use games::{AnyPosition, GameKind};
use serde::Serialize;
use std::collections::HashMap;

/// Longest position text accepted.
const MAX_FEN: usize = 200;

/// One move of the book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BookMove {
    /// Engine form (`e3e4`, Mak-hot `c3e5c7`).
    pub uci: String,
    /// Display form (SAN, `c3xe5xc7`).
    pub san: String,
    /// Thai notation (none if the stored move no longer reads here).
    pub thai: Option<ThaiText>,
    /// Finished games in which it was played here.
    pub games: u64,
    /// Of those, won by White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
}

/// The book of one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Book {
    /// The game.
    pub variant: &'static str,
    /// Its rule option.
    pub rules: &'static str,
    /// The position.
    pub fen: String,
    /// Finished games that reached it and went on with a move.
    pub games: u64,
    /// Moves played from it, most played first.
    pub moves: Vec<BookMove>,
}

/// The book route, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/book", get(book))
}

/// `GET /api/book?variant=makruk&rules=default&fen=...`
async fn book(
    State(app): State<AppState>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<Book>> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let kind = query_kind(&p)?;
    let start = kind.start_fen();
    let fen = p.get("fen").cloned().unwrap_or_else(|| start.clone());
    if fen.len() > MAX_FEN {
        return Err(ApiError::bad_request(
            "bad_fen",
            format!("position text longer than {MAX_FEN} characters"),
        ));
    }
    if let Err(e) = AnyPosition::from_fen(kind, &fen) {
        return Err(ApiError::bad_request(
            "bad_fen",
            format!("{} position {fen:?}: {e}", kind.variant_name()),
        ));
    }
    let moves = lookup(&app, kind, &fen, fen == start).await?;
    Ok(Json(Book {
        variant: kind.variant_name(),
        rules: kind.rules_name(),
        games: moves.iter().map(|m| m.games).sum(),
        fen,
        moves,
    }))
}

/// The Thai forms of a move stored in engine form, in the position `fen`.
fn thai_of(kind: GameKind, fen: &str, uci: &str) -> Option<ThaiText> {
    let pos = AnyPosition::from_fen(kind, fen).ok()?;
    let mv = pos.parse_engine(uci).ok()?;
    Some(ThaiText::of(&pos, &mv))
}

/// The moves played from `fen` in finished games of a variant and rule option.
pub async fn lookup(
    app: &AppState,
    kind: GameKind,
    fen: &str,
    is_start: bool,
) -> ApiResult<Vec<BookMove>> {
    let rows = super::store::book_moves(&app.db, kind, fen, is_start)
        .await
        .map_err(ApiError::internal)?;
    let mut by_move: HashMap<String, BookMove> = HashMap::new();
    for (uci, san, result) in rows {
        let entry = by_move.entry(uci.clone()).or_insert_with(|| BookMove {
            thai: thai_of(kind, fen, &uci),
            uci,
            san,
            games: 0,
            white_wins: 0,
            draws: 0,
            black_wins: 0,
        });
        entry.games += 1;
        match result.as_deref() {
            Some("1-0") => entry.white_wins += 1,
            Some("0-1") => entry.black_wins += 1,
            _ => entry.draws += 1,
        }
    }
    let mut moves: Vec<BookMove> = by_move.into_values().collect();
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
    Ok(moves)
}
