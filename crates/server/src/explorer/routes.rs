//! `GET /api/explorer?variant=&rules=&fen=&db=&speeds=&ratings=`: a
//! position's moves in lichess's explorer shape.

use super::model::{Explorer, Filter, position_key};
use super::store;
use crate::AppState;
use crate::game::ThaiText;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::query_kind;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::{Json, Router, routing::get};
use games::AnyPosition;
use std::collections::HashMap;

/// Longest position text accepted.
const MAX_FEN: usize = 200;

/// The explorer's route, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/explorer", get(explorer))
}

/// `GET /api/explorer`: `fen` defaults to the start position; `db` is
/// `site` (default) or `engine`; `speeds` and `ratings` are comma-separated
/// lists (empty: all).
async fn explorer(
    State(app): State<AppState>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<Explorer>> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let kind = query_kind(&p)?;
    let position = match p.get("fen").map(String::as_str) {
        None | Some("") => AnyPosition::start(kind),
        Some(fen) if fen.len() > MAX_FEN => {
            return Err(ApiError::bad_request(
                "bad_fen",
                format!("fen: longer than {MAX_FEN} characters"),
            ));
        }
        Some(fen) => AnyPosition::from_fen(kind, fen)
            .map_err(|e| ApiError::bad_request("bad_fen", format!("fen: {e}")))?,
    };
    let get = |name: &str| p.get(name).map(String::as_str);
    let filter = Filter::parse(get("db"), get("speeds"), get("ratings"))
        .map_err(|e| ApiError::bad_request("bad_filter", e))?;
    let key = position_key(&position);
    let rows = store::moves(&app.db, filter.source, key, &filter.speeds, &filter.bands)
        .await
        .map_err(ApiError::internal)?;
    let top = store::top_games(&app.db, filter.source, key)
        .await
        .map_err(ApiError::internal)?;
    let mut answer = Explorer::new(rows, top);
    for m in &mut answer.moves {
        m.thai = position
            .parse_engine(&m.uci)
            .ok()
            .map(|mv| ThaiText::of(&position, &mv));
    }
    Ok(Json(answer))
}
