//! A player's own account: changing the password (`POST
//! /api/account/password`). The API tokens are managed by the Bot API's
//! token routes (`/api/account/tokens`).

use crate::AppState;
use crate::account::auth::{self, Actor};
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
}

async fn change_password(
    State(app): State<AppState>,
    Actor(s): Actor,
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
    let hash = app.passwords.hash(req.new).await?;
    super::store::set_password_hash(&app.db, &s.user.id, &hash).await?;
    Ok(Json(serde_json::json!({ "ok": true })))
}
