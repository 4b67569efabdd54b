//! The sessions signed in to an account (the account page's list of
//! signed-in devices: one browser or app a session) and its security log,
//! as the account page shows them:
//!
//! - `GET /api/account/sessions`: every live session (the browser named
//!   from its User-Agent, the address it signed in from, when it signed in
//!   and was last seen, whether it is this one);
//! - `DELETE /api/account/sessions/{id}`: ends one; its sockets close, in
//!   every process;
//! - `POST /api/account/sessions/others/end`: ends every other one;
//! - `GET /api/account/security-log`: logins, failed logins, password and
//!   address changes, tokens made, two-factor, sessions ended.
//!
//! A session's id here is derived from its token's hash, so that neither
//! the token nor the hash it is stored under leaves the server.

use super::{Client, event, model, store};
use crate::AppState;
use crate::account::auth::{self, Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::util::sha256_hex;
use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Serialize;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/sessions", get(list))
        .route("/account/sessions/{id}", delete(revoke))
        .route("/account/sessions/others/end", post(end_others))
        .route("/account/security-log", get(security_log))
}

/// The public id of the session stored under `token_hash`.
fn public_id(token_hash: &str) -> String {
    sha256_hex(&format!("session-id:{token_hash}"))[..20].to_string()
}

/// A signed-in session as listed.
#[derive(Serialize)]
pub struct SessionView {
    /// Its id, for ending it.
    pub id: String,
    /// The browser and system, from its User-Agent ("Firefox 128 on Linux").
    pub browser: String,
    /// The User-Agent itself.
    pub user_agent: String,
    /// The address it signed in from.
    pub ip: Option<String>,
    /// When it signed in, ms since the epoch.
    pub created_at: i64,
    /// When it was last seen (to five minutes), ms since the epoch.
    pub last_seen: i64,
    /// Whether it is the session of this request.
    pub current: bool,
}

fn registered(s: &auth::Session) -> ApiResult<()> {
    s.user.require_account(
        "guests have one session, in this browser: register to sign in elsewhere",
    )?;
    Ok(())
}

async fn list(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<Vec<SessionView>>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    registered(&s)?;
    let rows = store::signed_in(&app.db, &s.user.id, app.now_ms()).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| {
                let ua = r.user_agent.unwrap_or_default();
                SessionView {
                    id: public_id(&r.token_hash),
                    browser: model::device_name(&ua),
                    user_agent: ua,
                    ip: r.ip,
                    created_at: r.created_at,
                    last_seen: r.last_seen.unwrap_or(r.created_at),
                    current: r.token_hash == s.token_hash,
                }
            })
            .collect(),
    ))
}

async fn revoke(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    registered(&s)?;
    let rows = store::signed_in(&app.db, &s.user.id, app.now_ms()).await?;
    let Some(row) = rows.into_iter().find(|r| public_id(&r.token_hash) == id) else {
        return Err(ApiError::not_found(format!(
            "you have no signed-in device {id:?} (ended already?)"
        )));
    };
    auth::end_session(&app, &row.token_hash).await?;
    let what = model::device_name(row.user_agent.as_deref().unwrap_or(""));
    super::log(
        &app,
        &s.user.id,
        event::SESSION_REVOKED,
        Some(&client),
        Some(what),
    )
    .await?;
    Ok(Json(
        serde_json::json!({ "ok": true, "current": row.token_hash == s.token_hash }),
    ))
}

async fn end_others(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
) -> ApiResult<Json<serde_json::Value>> {
    registered(&s)?;
    let ended = store::delete_sessions_except(&app.db, &s.user.id, Some(&s.token_hash)).await?;
    for hash in &ended {
        app.sessions.end_everywhere(&app.db, hash).await?;
    }
    let detail = format!("{} other sessions", ended.len());
    super::log(
        &app,
        &s.user.id,
        event::SESSION_REVOKED,
        Some(&client),
        Some(detail),
    )
    .await?;
    Ok(Json(serde_json::json!({ "ended": ended.len() })))
}

/// An event of the security log as listed.
#[derive(Serialize)]
pub struct EventView {
    /// When, ms since the epoch.
    pub at: i64,
    /// What: `login`, `login_failed`, `password_changed`, `password_reset`,
    /// `email_change_requested`, `email_changed`, `token_created`, ...
    pub kind: String,
    /// From which address.
    pub ip: Option<String>,
    /// With which browser (from its User-Agent).
    pub browser: Option<String>,
    /// More about it.
    pub detail: Option<String>,
}

async fn security_log(
    State(app): State<AppState>,
    Viewer(s): Viewer,
) -> ApiResult<Json<Vec<EventView>>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    registered(&s)?;
    let rows = store::events(&app.db, &s.user.id, model::LOG_KEPT).await?;
    Ok(Json(
        rows.into_iter()
            .map(|e| EventView {
                at: e.at,
                kind: e.kind,
                ip: e.ip,
                browser: e.user_agent.map(|ua| model::device_name(&ua)),
                detail: e.detail,
            })
            .collect(),
    ))
}
