//! The games' HTTP routes: the lobby, challenges, a game's view, record and
//! FEN, moves and commands, and the game sockets.

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::game::{ChallengeRequest, Command, GameSummary, GameView};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use std::collections::HashMap;

/// The games' routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/lobby", get(lobby))
        .route("/lobby/ws", get(super::lobby::lobby_socket))
        .route("/my-games", get(my_games))
        .route("/challenges", post(create_challenge))
        .route("/games/now-playing", get(now_playing))
        .route("/games/{id}", get(game))
        .route("/games/{id}/pgn", get(pgn))
        .route("/games/{id}/fen", get(fen))
        .route("/games/{id}/accept", post(accept))
        .route("/games/{id}/cancel", post(cancel))
        .route("/games/{id}/move", post(play_move))
        .route("/games/{id}/resign", bare_command(Command::Resign))
        .route("/games/{id}/abort", bare_command(Command::Abort))
        .route("/games/{id}/claim", bare_command(Command::ClaimTimeout))
        .route("/games/{id}/berserk", bare_command(Command::Berserk))
        .route("/games/{id}/draw", action_command("draw"))
        .route("/games/{id}/takeback", action_command("takeback"))
        .route("/games/{id}/count", action_command("count"))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/public", post(mark_public))
        .route("/games/{id}/ws", get(super::ws::game_socket))
        .route("/ws", get(super::ws::multi_socket))
        .merge(super::pictures::routes())
        .merge(super::next_game::routes())
}

async fn lobby(
    State(app): State<AppState>,
    Viewer(s): Viewer,
) -> ApiResult<Json<Vec<GameSummary>>> {
    Ok(Json(app.games.lobby(s.as_ref().map(|s| &s.user)).await?))
}

async fn my_games(
    State(app): State<AppState>,
    Viewer(s): Viewer,
) -> ApiResult<Json<Vec<GameSummary>>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    Ok(Json(app.games.my_games(&s.user).await?))
}

async fn create_challenge(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    Ok((
        StatusCode::CREATED,
        Json(app.games.create_challenge(&s.user, req).await?),
    ))
}

/// `GET /api/games/now-playing`: ongoing games between people, to watch.
async fn now_playing(State(app): State<AppState>) -> ApiResult<Json<Vec<GameSummary>>> {
    Ok(Json(app.games.now_playing().await?))
}

async fn game(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<GameView>> {
    check_id(&id)?;
    Ok(Json(app.games.view(&id, true).await?))
}

/// The site's address for links in exports: `--public-url`, else the
/// request's `Host` (when it is a plain host name or address).
pub fn site_url(app: &AppState, headers: &header::HeaderMap) -> String {
    if let Some(url) = &app.config.public_url {
        return url.clone();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        });
    match host {
        Some(host) => format!("http://{host}"),
        None => "http://localhost".to_string(),
    }
}

/// `GET /api/games/{id}/pgn`, and lichess's `GET /game/export/{id}`: the
/// game's record with its public comments.
pub async fn pgn(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
    headers: header::HeaderMap,
) -> ApiResult<Response> {
    check_id(&id)?;
    // The players' comments as the requester may read them (everyone in a
    // public game, else only the players); private notes stay with their authors.
    let game = app.games.view(&id, false).await?;
    let me = s.as_ref().map(|s| s.user.id.as_str());
    let comments: Vec<(u32, String)> = crate::social::comments::visible(&app, &game, me)
        .await?
        .into_iter()
        .filter(|c| !c.private)
        .map(|c| (c.ply, format!("{}: {}", c.author, c.text)))
        .collect();
    let site = site_url(&app, &headers);
    let (variant, text) = app.games.pgn(&id, &comments, &site).await?;
    let ext = if !variant.is_makruk() { "pdn" } else { "pgn" };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"thaiboard-{id}.{ext}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/games/{id}/fen[?ply=N][&promoted_marks=1]`: the FEN (Mak-hot:
/// the position text) after `ply` moves, or now, as plain text; with
/// `promoted_marks`, promoted bias are written `M~`/`m~` as Fairy-Stockfish
/// and pychess write them.
async fn fen(
    State(app): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let ply = match p.get("ply") {
        None => None,
        Some(s) => Some(s.parse::<u32>().map_err(|_| {
            ApiError::bad_request("bad_ply", format!("ply must be a move count, not {s:?}"))
        })?),
    };
    let promoted_marks = match p.get("promoted_marks").map(String::as_str) {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_promoted_marks",
                format!("promoted_marks must be 0, 1, true or false, not {other:?}"),
            ));
        }
    };
    let fen = app
        .games
        .fen(&id, ply, promoted_marks)
        .await?
        .ok_or_else(|| ApiError::bad_request("bad_ply", "the game has fewer moves"))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], fen).into_response())
}

async fn accept(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    check_id(&id)?;
    Ok(Json(app.games.accept(&s.user, &id).await?))
}

async fn cancel(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    check_id(&id)?;
    app.games.cancel(&s.user, &id).await?;
    Ok(Json(serde_json::json!({ "ok": true })))
}

/// Body of `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move: UCI, SAN, or Mak-hot notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Moves made so far, as the client saw them (optional guard).
    #[serde(default)]
    pub ply: Option<u32>,
}

async fn play_move(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> ApiResult<Json<GameView>> {
    check_id(&id)?;
    Ok(Json(
        app.games
            .act(
                &s.user,
                &id,
                Command::Move {
                    text: req.mv,
                    ply: req.ply,
                },
            )
            .await?,
    ))
}

/// `POST` of a command without a body (resign, abort, claim).
fn bare_command(cmd: Command) -> MethodRouter<AppState> {
    post(
        move |State(app): State<AppState>, Actor(s): Actor, Path(id): Path<String>| async move {
            check_id(&id)?;
            ApiResult::Ok(Json(app.games.act(&s.user, &id, cmd).await?))
        },
    )
}

/// Body of the draw and count endpoints.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// Draw: `offer`, `accept`, `decline`. Count: `start`, `stop`.
    pub action: String,
}

/// `POST /api/games/{id}/rematch` with `{"action": "offer"|"accept"|"decline"}`.
async fn rematch(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> ApiResult<Json<GameView>> {
    check_id(&id)?;
    let action = crate::game::rematch::RematchAction::parse(&req.action)?;
    Ok(Json(app.games.rematch(&s.user, &id, action).await?))
}

/// `POST /api/games/{id}/public` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicRequest {
    /// Whether this player wants the game public.
    public: bool,
}

/// `POST /api/games/{id}/public` with `{"public": true|false}`: a player's
/// mark that spectators may read the players' comments (both must mark it).
async fn mark_public(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<PublicRequest>,
) -> ApiResult<Json<GameView>> {
    check_id(&id)?;
    Ok(Json(app.games.mark_public(&s.user, &id, req.public).await?))
}

/// `POST` of a draw or count action: `{"action": ...}`.
fn action_command(kind: &'static str) -> MethodRouter<AppState> {
    post(
        move |State(app): State<AppState>,
              Actor(s): Actor,
              Path(id): Path<String>,
              Body(req): Body<ActionRequest>| async move {
            check_id(&id)?;
            let cmd = Command::from_action(kind, &req.action)?;
            ApiResult::Ok(Json(app.games.act(&s.user, &id, cmd).await?))
        },
    )
}
