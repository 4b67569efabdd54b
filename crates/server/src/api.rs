//! HTTP routes of the JSON API.

use crate::AppState;
use crate::auth::{self, Actor, Viewer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, ClientIp, check_id};
use crate::game::{ChallengeRequest, Command, EngineGameRequest, GameSummary, GameView};
use crate::util::now_ms;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::HashMap;

/// The API routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/session", get(session))
        .route("/register", post(register))
        .route("/login", post(login))
        .route("/logout", post(logout))
        .route("/lobby", get(lobby))
        .route("/lobby/ws", get(crate::lobby::lobby_socket))
        .route("/my-games", get(my_games))
        .route("/challenges", post(create_challenge))
        .route("/games/now-playing", get(now_playing))
        .route("/games/{id}", get(game))
        .route("/games/{id}/pgn", get(pgn))
        .route("/games/{id}/fen", get(fen))
        .route("/games/{id}/accept", post(accept))
        .route("/games/{id}/cancel", post(cancel))
        .route("/games/{id}/move", post(play_move))
        .route("/engine-games", post(create_engine_game))
        .route("/games/{id}/resign", bare_command(Command::Resign))
        .route("/games/{id}/abort", bare_command(Command::Abort))
        .route("/games/{id}/claim", bare_command(Command::ClaimTimeout))
        .route("/games/{id}/draw", action_command("draw"))
        .route("/games/{id}/takeback", action_command("takeback"))
        .route("/games/{id}/count", action_command("count"))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/public", post(mark_public))
        .route("/games/{id}/ws", get(crate::ws::game_socket))
        .route("/ws", get(crate::ws::multi_socket))
        .route("/notifications/ws", get(crate::notify::socket))
        .merge(crate::export::routes())
        .merge(crate::book::routes())
        .merge(crate::analysis::routes())
        .merge(crate::comments::routes())
        .merge(crate::organise::routes())
        .merge(crate::position::routes())
        .merge(crate::tablebase::routes())
        .merge(crate::players::routes())
        .merge(crate::account::routes())
        .merge(crate::conditional::routes())
        .merge(crate::tournament::routes())
        .merge(crate::bot_api::routes())
        .merge(crate::chat::routes())
        .merge(crate::settings::routes())
        .merge(crate::leave::routes())
        .merge(crate::mail::routes())
        .merge(crate::live_analysis::routes())
        .fallback(|| async { ApiError::not_found("no such API endpoint") })
}

/// The answer of `GET /api/session` and of login/registration.
#[derive(Serialize)]
pub struct SessionInfo {
    /// The user.
    pub user: auth::User,
    /// Token to send in `X-CSRF-Token` on every state-changing request.
    pub csrf: String,
}

fn with_cookie(app: &AppState, token: &str, body: impl IntoResponse) -> Response {
    let mut resp = body.into_response();
    resp.headers_mut()
        .append(header::SET_COOKIE, auth::session_cookie(app, token));
    resp
}

async fn session(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(s) = auth::session_from_headers(&app, &headers).await? {
        return Ok(Json(SessionInfo {
            user: s.user,
            csrf: s.csrf,
        })
        .into_response());
    }
    auth::check_may_mint_session(&headers)?;
    let exempt = app.config.exempt_loopback && ip.is_loopback();
    if !exempt && !app.guest_limiter.allow(ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_guests",
            "too many new guest sessions from your address: keep the session cookie you were given, or register",
        ));
    }
    let user = auth::create_guest(&app).await?;
    let (token, csrf) = auth::create_session(&app, &user.id).await?;
    Ok(with_cookie(&app, &token, Json(SessionInfo { user, csrf })))
}

/// Username and password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// Username.
    pub username: String,
    /// Password.
    pub password: String,
}

async fn register(
    State(app): State<AppState>,
    Actor(old): Actor,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    auth::validate_username(&c.username)?;
    auth::validate_password(&c.password)?;
    let taken = sqlx::query("SELECT 1 FROM users WHERE username_key = $1")
        .bind(c.username.to_lowercase())
        .fetch_optional(&app.db.pool)
        .await?;
    if taken.is_some() {
        return Err(ApiError::conflict(
            "username_taken",
            format!("the name {:?} is taken", c.username),
        ));
    }
    let hash = app.passwords.hash(c.password).await?;
    let id = crate::util::random_id(16);
    let inserted = sqlx::query(
        "INSERT INTO users (id, username, username_key, password_hash, is_guest, created_at) VALUES ($1, $2, $3, $4, 0, $5)",
    )
    .bind(&id)
    .bind(&c.username)
    .bind(c.username.to_lowercase())
    .bind(&hash)
    .bind(now_ms())
    .execute(&app.db.pool)
    .await;
    if inserted.is_err() {
        return Err(ApiError::conflict(
            "username_taken",
            format!("the name {:?} is taken", c.username),
        ));
    }
    auth::end_session(&app, &old.token_hash).await?;
    let (token, csrf) = auth::create_session(&app, &id).await?;
    let user = auth::User {
        id,
        username: c.username,
        guest: false,
    };
    Ok(with_cookie(
        &app,
        &token,
        (StatusCode::CREATED, Json(SessionInfo { user, csrf })),
    ))
}

async fn login(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Actor(old): Actor,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let bad = || ApiError::unauthorized("bad_credentials", "wrong username or password");
    // The name as counted by the throttle: bounded, whether or not it exists.
    let key: String = c
        .username
        .chars()
        .take(64)
        .collect::<String>()
        .to_lowercase();
    if let Some(wait) = app.login_throttle.wait(&key, ip) {
        return Ok(throttled(wait));
    }
    let well_formed = c.username.len() <= 64 && auth::validate_password(&c.password).is_ok();
    let row = if well_formed {
        sqlx::query(
            "SELECT id, username, password_hash FROM users WHERE username_key = $1 AND is_guest = 0",
        )
        .bind(&key)
        .fetch_optional(&app.db.pool)
        .await?
    } else {
        None
    };
    // A missing account is checked against a stand-in hash: as slow as a real one.
    let hash: Option<String> = row.as_ref().and_then(|r| r.get(2));
    let matches = well_formed && app.passwords.verify(c.password, hash).await?;
    let Some(row) = row.filter(|_| matches) else {
        app.login_throttle.failed(&key, ip);
        return Err(bad());
    };
    app.login_throttle.succeeded(&key);
    auth::end_session(&app, &old.token_hash).await?;
    let id: String = row.get(0);
    let (token, csrf) = auth::create_session(&app, &id).await?;
    let user = auth::User {
        id,
        username: row.get(1),
        guest: false,
    };
    Ok(with_cookie(&app, &token, Json(SessionInfo { user, csrf })))
}

/// The answer to a login while its name or address is locked: 429 with `Retry-After`.
fn throttled(wait: std::time::Duration) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut resp = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "login_throttled",
        format!("too many failed logins for this name or from this address: retry in {secs} s"),
    )
    .into_response();
    resp.headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    resp
}

async fn logout(State(app): State<AppState>, Actor(s): Actor) -> ApiResult<Response> {
    auth::end_session(&app, &s.token_hash).await?;
    Ok(with_cookie(
        &app,
        "",
        Json(serde_json::json!({ "ok": true })),
    ))
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
    let comments: Vec<(u32, String)> = crate::comments::visible(&app, &game, me)
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
