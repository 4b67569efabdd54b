//! The one way a password is checked: every request that asks for a
//! password (a login, a password change, closing an account...) calls
//! [`check_password`] or [`check_own_password`], so that all of them go
//! through the one throttle (`crate::infra::login_throttle`): a name or an
//! address that guessed too often is refused (429 `login_throttled` with
//! `Retry-After`) before any hash is computed, and a browser that logged
//! in to the account before (`super::known_browsers`) is held only to its own
//! failures.

use super::auth::User;
use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::login_throttle::{Attempt, name_key};
use axum::http::{HeaderMap, StatusCode};
use std::net::IpAddr;
use std::time::Duration;

/// The answer to a password check while its name or address is locked:
/// 429 `login_throttled` with `Retry-After`.
pub fn throttled(wait: Duration) -> ApiError {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "login_throttled",
        format!("too many wrong passwords for this name or from this address: retry in {secs} s"),
    )
    .retry_after(wait)
}

/// Checks `password` against `hash` (the account's; `None` for a missing
/// account or a guest, checked against a stand-in hash, as slow) through
/// the throttle: `Err` 429 while locked, else whether it matched (a
/// mismatch is counted). A match clears nothing yet: the caller calls
/// [`passed`] once every factor (the second one too) is checked, so that
/// guessing codes behind a known password is throttled as well.
pub async fn check_password(
    app: &AppState,
    attempt: &Attempt<'_>,
    password: String,
    hash: Option<String>,
) -> ApiResult<bool> {
    if let Some(wait) = app.login_throttle.wait(attempt) {
        return Err(throttled(wait));
    }
    let matches = app.passwords.verify(password, hash).await?;
    if !matches {
        app.login_throttle.failed(attempt);
    }
    Ok(matches)
}

/// Clears `attempt`'s failures after a check that passed whole.
pub fn passed(app: &AppState, attempt: &Attempt<'_>) {
    app.login_throttle.succeeded(attempt);
}

/// Checks the signed-in `user`'s own `password`, from `ip` with the
/// request's `headers` (for its device cookie): `Ok` when right, 401
/// `bad_credentials` when wrong, 429 `login_throttled` while locked.
pub async fn check_own_password(
    app: &AppState,
    user: &User,
    ip: IpAddr,
    headers: &HeaderMap,
    password: String,
) -> ApiResult<()> {
    let key = name_key(&user.username);
    let device = super::known_browsers::known_browser(app, headers, &user.id).await?;
    let attempt = Attempt {
        name: &key,
        ip,
        device: device.as_deref(),
    };
    let hash = super::store::password_hash(&app.db, &user.id).await?;
    if check_password(app, &attempt, password, hash).await? {
        Ok(())
    } else {
        Err(ApiError::unauthorized(
            "bad_credentials",
            "the current password is wrong",
        ))
    }
}
