//! Known browsers (device cookies): a browser that logged in to an account gets the cookie
//! `tb_device` (a random token; the database keeps its SHA-256 per
//! account, `login_devices`). When it asks for that account's password
//! again, the password throttle (`crate::infra::login_throttle`) holds it
//! only to its own failures: others' guesses at the name do not lock out
//! a browser its owner used before.

use super::auth::cookie_value;
use crate::AppState;
use crate::infra::error::ApiResult;
use crate::infra::util::{random_token, sha256_hex};
use axum::http::{HeaderMap, HeaderValue};

/// Name of the device cookie.
pub const DEVICE_COOKIE: &str = "tb_device";

/// How long a device cookie lasts, s: a year.
const DEVICE_TTL_SECS: i64 = 365 * 24 * 3600;

/// The SHA-256 of the request's device cookie, if it carries a well-formed one.
fn device_hash(headers: &HeaderMap) -> Option<String> {
    let token = cookie_value(headers, DEVICE_COOKIE)?;
    (token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())).then(|| sha256_hex(token))
}

/// The request's device key when this browser has logged in to `user_id`
/// before; `None` otherwise.
pub async fn known_browser(
    app: &AppState,
    headers: &HeaderMap,
    user_id: &str,
) -> ApiResult<Option<String>> {
    let Some(hash) = device_hash(headers) else {
        return Ok(None);
    };
    Ok(super::store::device_known(&app.db, &hash, user_id)
        .await?
        .then_some(hash))
}

/// Remembers this browser as one that logged in to `user_id`; returns the
/// `Set-Cookie` value to send when the browser had no device cookie yet.
pub async fn remember(
    app: &AppState,
    headers: &HeaderMap,
    user_id: &str,
) -> ApiResult<Option<HeaderValue>> {
    let (hash, cookie) = match device_hash(headers) {
        Some(hash) => (hash, None),
        None => {
            let token = random_token();
            let secure = if app.config.secure_cookies {
                "; Secure"
            } else {
                ""
            };
            let cookie = HeaderValue::from_str(&format!(
                "{DEVICE_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={DEVICE_TTL_SECS}{secure}"
            ))
            .expect("cookie is ASCII");
            (sha256_hex(&token), Some(cookie))
        }
    };
    super::store::remember_device(&app.db, &hash, user_id, app.now_ms()).await?;
    Ok(cookie)
}
