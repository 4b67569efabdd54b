//! Closing an account, after taking its data:
//!
//! - `GET /api/account/export`: the player's data as one JSON file (the
//!   profile, the settings, every game with its record, the API tokens'
//!   descriptions, the security log);
//! - `POST /api/account/close {password, totp?}`: closes the account. It
//!   cannot log in again; its name stays reserved (no one may register
//!   it); its games stay, under the name `closed-` and the account's id (longer
//!   than any name one may register); its sessions
//!   end (their sockets close) and its tokens are revoked; its password,
//!   address, two-factor and settings are deleted. An account with a game
//!   under way or an open challenge is asked to finish them first.

use super::{Client, confirm_identity, model, store};
use crate::AppState;
use crate::account::auth::{self, Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/export", get(export))
        .route("/account/close", post(close))
}

async fn export(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "guests have no account to export: their games are listed under My games",
        ));
    }
    let id = &s.user.id;
    let (username, created_at, email) = store::profile(&app.db, id).await?;
    let settings: serde_json::Value = match crate::account::store::settings(&app.db, id).await? {
        Some(text) => serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
        None => serde_json::Value::Null,
    };
    let site = crate::game::routes::site_url(&app, &headers);
    let mut games = Vec::new();
    for game_id in store::game_ids(&app.db, id).await? {
        let (kind, record) = app.games.pgn(&game_id, &[], &site).await?;
        games.push(json!({ "id": game_id, "variant": kind.variant_name(), "rules": kind.rules_name(), "record": record }));
    }
    let tokens: Vec<_> = crate::bot_api::store::tokens_of(&app.db, id)
        .await?
        .into_iter()
        .map(|t| json!({ "description": t.description, "scopes": t.scopes, "created_at": t.created_at }))
        .collect();
    let log: Vec<_> = store::events(&app.db, id, model::LOG_KEPT)
        .await?
        .into_iter()
        .map(|e| json!({ "at": e.at, "kind": e.kind, "ip": e.ip, "user_agent": e.user_agent, "detail": e.detail }))
        .collect();
    let body = json!({
        "format": "thaiboard-account-export",
        "version": 1,
        "exported_at": app.now_ms(),
        "profile": { "id": id, "username": username, "created_at": created_at, "email": email },
        "settings": settings,
        "games": games,
        "api_tokens": tokens,
        "security_log": log,
    });
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"thaiboard-{username}.json\""),
        )],
        Json(body),
    )
        .into_response())
}

/// Body of `POST /api/account/close`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Close {
    password: String,
    #[serde(default)]
    totp: Option<String>,
}

async fn close(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Body(req): Body<Close>,
) -> ApiResult<Response> {
    confirm_identity(&app, &s.user, &client, &req.password, req.totp.as_deref()).await?;
    let unfinished = store::ongoing_games(&app.db, &s.user.id).await?;
    if unfinished > 0 {
        return Err(ApiError::conflict(
            "games_under_way",
            format!(
                "you have {unfinished} games under way or open challenges: finish, resign or cancel them first"
            ),
        ));
    }
    // Longer than any name one may register: no one can take it first.
    let shown = format!("{}{}", model::CLOSED_PREFIX, s.user.id);
    let (sessions, tokens) =
        store::close_account(&app.db, &s.user.id, &shown, app.now_ms()).await?;
    for hash in sessions {
        app.sessions.end_everywhere(&app.db, &hash).await?;
    }
    for id in tokens {
        app.bots.token_revoked(&id).await;
    }
    // Games kept in memory hold the old name: they are read again (all are
    // finished, so none is being written).
    for game_id in store::game_ids(&app.db, &s.user.id).await? {
        app.games.invalidate(&game_id);
    }
    app.bots.user_changed(&s.user.id).await;
    let mut resp = Json(json!({ "ok": true, "closed": true })).into_response();
    resp.headers_mut()
        .append(header::SET_COOKIE, auth::session_cookie(&app, ""));
    Ok(resp)
}
