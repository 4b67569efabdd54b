//! A player's own account: changing the password (`POST
//! /api/account/password`), checked through the one password throttle
//! (`super::password_check`); a change ends every other session and
//! revokes every API token (`super::security::end_other_sessions`). The API tokens are managed by the Bot API's
//! token routes (`/api/account/tokens`).

use crate::AppState;
use crate::account::auth::{self, Actor};
use crate::account::password_check;
use crate::account::security::{self, Client, SecondFactor};
use crate::infra::error::ApiResult;
use crate::infra::extract::{Body, ClientIp};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Json, Router, routing::post};
use serde::Deserialize;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/account/password", post(change_password))
}

/// The body of `POST /api/account/password`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    /// The password now.
    current: String,
    /// The new one.
    new: String,
    /// For an account with two-factor: a code of its app, or a recovery code.
    #[serde(default)]
    totp: Option<String>,
}

async fn change_password(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Actor(s): Actor,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<PasswordChange>,
) -> ApiResult<Json<serde_json::Value>> {
    s.user
        .require_account("guests have no password: register first")?;
    auth::validate_password(&req.new)?;
    password_check::check_own_password(&app, &s.user, ip, &headers, req.current).await?;
    match security::second_factor(&app, &s.user.id, &s.user.username, req.totp.as_deref()).await? {
        SecondFactor::Off | SecondFactor::Passed => {}
        SecondFactor::Missing => return Err(security::totp_required()),
        SecondFactor::Wrong => {
            security::count_failure(&app, &s.user.username, ip);
            return Err(security::bad_totp());
        }
    }
    security::count_success(&app, &s.user.username, ip);
    let hash = app.passwords.hash(req.new).await?;
    super::store::set_password_hash(&app.db, &s.user.id, &hash).await?;
    security::log(
        &app,
        &s.user.id,
        security::event::PASSWORD_CHANGED,
        Some(&client),
        None,
    )
    .await?;
    // Whoever else knew the old password is signed out: every other
    // session ends (its sockets close) and every API token is revoked.
    let ended = security::end_other_sessions(&app, &s.user.id, Some(&s.token_hash)).await?;
    Ok(Json(serde_json::json!({ "ok": true, "ended": ended })))
}
