//! A player's own account: changing the password (`POST
//! /api/account/password`). The API tokens are managed by the Bot API's
//! token routes (`/api/account/tokens`).

use crate::AppState;
use crate::account::auth::{self, Actor};
use crate::account::security::{self, Device, SecondFactor};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use axum::extract::State;
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
    Actor(s): Actor,
    device: Device,
    Body(req): Body<PasswordChange>,
) -> ApiResult<Json<serde_json::Value>> {
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "guests have no password: register first",
        ));
    }
    auth::validate_password(&req.new)?;
    let hash = super::store::password_hash(&app.db, &s.user.id).await?;
    if !app.passwords.verify(req.current, hash).await? {
        return Err(ApiError::unauthorized(
            "bad_credentials",
            "the current password is wrong",
        ));
    }
    match security::second_factor(&app, &s.user.id, &s.user.username, req.totp.as_deref()).await? {
        SecondFactor::Off | SecondFactor::Passed => {}
        SecondFactor::Missing => return Err(security::totp_required()),
        SecondFactor::Wrong => {
            app.login_throttle
                .failed(&s.user.username.to_lowercase(), device.ip);
            return Err(security::bad_totp());
        }
    }
    let hash = app.passwords.hash(req.new).await?;
    super::store::set_password_hash(&app.db, &s.user.id, &hash).await?;
    security::log(
        &app,
        &s.user.id,
        security::event::PASSWORD_CHANGED,
        Some(&device),
        None,
    )
    .await?;
    Ok(Json(serde_json::json!({ "ok": true })))
}
