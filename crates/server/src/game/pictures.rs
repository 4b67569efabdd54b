//! Picture exports: an animated GIF of a game (one frame per position, the
//! last move highlighted), a PNG of any position of a game, and a PNG of any
//! position given as a FEN (analysis boards, shared links).
//!
//! Pictures are drawn by the `render` crate on the blocking pool, at most
//! [`RENDER_SLOTS`] at a time, so a burst of downloads cannot starve the
//! game traffic.

use crate::AppState;
use crate::game::{ActionKind, GameView};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::check_id;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::{Router, routing::get};
use games::{AnyPosition, GameKind};
use render::{Cell, Renderer, Scene, Timing};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::Semaphore;

/// Square sizes (pixels) a picture may be drawn at; the board is 8 squares.
pub const SQUARE_SIZES: [u32; 5] = [32, 48, 56, 64, 80];
/// Default square size.
pub const DEFAULT_SQUARE: u32 = 56;
/// Pictures drawn at the same time.
pub const RENDER_SLOTS: usize = 2;
/// Longest FEN accepted by the picture-of-a-FEN route.
const MAX_FEN: usize = 200;

/// The export routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games/{id}/gif", get(game_gif))
        .route("/games/{id}/png", get(game_png))
        .route("/picture.png", get(fen_png))
}

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// Picture options common to every route.
struct Look {
    square: u32,
    flipped: bool,
}

fn params(q: Params) -> ApiResult<HashMap<String, String>> {
    q.map(|Query(m)| m)
        .map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))
}

fn look(p: &HashMap<String, String>) -> ApiResult<Look> {
    let square = match p.get("size") {
        None => DEFAULT_SQUARE,
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|n| SQUARE_SIZES.contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "bad_size",
                    format!("size must be one of {SQUARE_SIZES:?} (pixels per square), not {s:?}"),
                )
            })?,
    };
    let flipped = match p.get("flip").map(String::as_str) {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_flip",
                format!("flip must be 0, 1, true or false, not {other:?}"),
            ));
        }
    };
    Ok(Look { square, flipped })
}

/// One renderer per square size, built on first use.
fn renderer(square: u32) -> Arc<Renderer> {
    static RENDERERS: OnceLock<Mutex<HashMap<u32, Arc<Renderer>>>> = OnceLock::new();
    let map = RENDERERS.get_or_init(Default::default);
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    map.entry(square)
        .or_insert_with(|| Arc::new(Renderer::new(square)))
        .clone()
}

/// Runs a drawing job on the blocking pool, at most [`RENDER_SLOTS`] at once.
async fn draw<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> ApiResult<T> {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    let _slot = SLOTS
        .get_or_init(|| Semaphore::new(RENDER_SLOTS))
        .acquire()
        .await
        .map_err(ApiError::internal)?;
    tokio::task::spawn_blocking(job)
        .await
        .map_err(ApiError::internal)
}

/// The squares named in a move text: `e3e4`, `e7e8m`, Mak-hot `c3e5c7`.
fn move_cells(text: &str) -> Vec<Cell> {
    text.as_bytes()
        .windows(2)
        .filter(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
        .map(|w| Cell {
            file: w[0] - b'a',
            rank: w[1] - b'1',
        })
        .collect()
}

/// The scene of a position given as the server stores it.
fn scene(kind: GameKind, fen: &str) -> Result<Scene, String> {
    AnyPosition::from_fen(kind, fen)
        .map(|p| Scene::of(&p))
        .map_err(|e| e.to_string())
}

/// Every position of a game (start, then after each move) with its move.
fn positions(view: &GameView) -> Vec<(String, Option<String>)> {
    let mut out = vec![(view.start_fen.clone(), None)];
    for a in view
        .actions
        .iter()
        .flatten()
        .filter(|a| a.kind == ActionKind::Move)
    {
        out.push((a.fen.clone(), Some(a.uci.clone())));
    }
    out
}

fn scenes_of(view: &GameView, look: &Look) -> ApiResult<Vec<Scene>> {
    positions(view)
        .into_iter()
        .map(|(fen, mv)| {
            scene(view.kind, &fen)
                .map(|s| {
                    s.with_flipped(look.flipped)
                        .with_highlight(mv.as_deref().map(move_cells).unwrap_or_default())
                })
                .map_err(|e| ApiError::bad_request("no_picture", e))
        })
        .collect()
}

fn picture(content_type: &'static str, filename: String, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{filename}\""),
            ),
            (header::CACHE_CONTROL, "no-cache".to_string()),
        ],
        bytes,
    )
        .into_response()
}

/// `GET /api/games/{id}/gif[?flip=1][&size=56]`: the game as an animation.
async fn game_gif(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Params,
) -> ApiResult<Response> {
    check_id(&id)?;
    let look = look(&params(q)?)?;
    let view = app.games.view(&id, true).await?;
    let scenes = scenes_of(&view, &look)?;
    let square = look.square;
    let bytes = draw(move || render::encode_gif(&renderer(square), &scenes, Timing::default()))
        .await?
        .map_err(ApiError::internal)?;
    Ok(picture("image/gif", format!("thaiboard-{id}.gif"), bytes))
}

/// `GET /api/games/{id}/png[?ply=N][&flip=1][&size=56]`: one position of a
/// game (after `ply` moves; the current one by default).
async fn game_png(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Params,
) -> ApiResult<Response> {
    check_id(&id)?;
    let p = params(q)?;
    let look = look(&p)?;
    let view = app.games.view(&id, true).await?;
    let mut scenes = scenes_of(&view, &look)?;
    let last = scenes.len() - 1;
    let ply = match p.get("ply") {
        None => last,
        Some(s) => s
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= last)
            .ok_or_else(|| {
                ApiError::bad_request(
                    "bad_ply",
                    format!("ply must be a number from 0 to {last} in this game, not {s:?}"),
                )
            })?,
    };
    let scene = scenes.swap_remove(ply);
    let square = look.square;
    let bytes = draw(move || render::encode_png(&renderer(square), &scene)).await?;
    Ok(picture(
        "image/png",
        format!("thaiboard-{id}-{ply}.png"),
        bytes,
    ))
}

/// `GET /api/picture.png?variant=makruk&fen=...[&last=e3e4][&flip=1][&size=56]`:
/// any position, e.g. of an analysis board.
async fn fen_png(q: Params) -> ApiResult<Response> {
    let p = params(q)?;
    let look = look(&p)?;
    let kind = crate::infra::extract::query_kind(&p)?;
    let fen = p
        .get("fen")
        .ok_or_else(|| ApiError::bad_request("bad_fen", "give the position as fen=..."))?;
    if fen.len() > MAX_FEN {
        return Err(ApiError::bad_request(
            "bad_fen",
            format!("position text longer than {MAX_FEN} characters"),
        ));
    }
    let scene = scene(kind, fen)
        .map_err(|e| ApiError::bad_request("bad_fen", format!("{kind} position {fen:?}: {e}")))?
        .with_flipped(look.flipped)
        .with_highlight(p.get("last").map(|m| move_cells(m)).unwrap_or_default());
    let square = look.square;
    let bytes = draw(move || render::encode_png(&renderer(square), &scene)).await?;
    Ok(picture(
        "image/png",
        "thaiboard-position.png".to_string(),
        bytes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_cells_reads_both_games_move_forms() {
        let c = |f: u8, r: u8| Cell { file: f, rank: r };
        assert_eq!(move_cells("e3e4"), vec![c(4, 2), c(4, 3)]);
        assert_eq!(move_cells("e6e7m"), vec![c(4, 5), c(4, 6)]);
        assert_eq!(move_cells("c3e5c7"), vec![c(2, 2), c(4, 4), c(2, 6)]);
        assert_eq!(move_cells("zz9"), vec![]);
    }

    #[test]
    fn scene_refuses_bad_positions_with_the_reason() {
        assert!(scene(GameKind::MAKRUK, makruk::Variant::Makruk.start_fen()).is_ok());
        let e = scene(
            GameKind::MAKRUK,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8 w - - 0 1",
        )
        .unwrap_err();
        assert!(!e.is_empty());
        assert!(scene(GameKind::MAKHOS, "W:Wc3:Bd4").is_ok());
        assert!(scene(GameKind::MAKHOS, "W:Wc3:Bd4,d4").is_err());
    }
}
