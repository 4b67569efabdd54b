//! Two-factor authentication by TOTP (RFC 6238: six digits, thirty
//! seconds, SHA-1, as every authenticator app reads it), computed here by
//! the `totp-rs` crate; the enrolment's QR code is drawn as SVG by the
//! `qrcode` crate: no outside service sees the secret.
//!
//! - `GET /api/account/totp`: whether it is on, and the recovery codes left;
//! - `POST /api/account/totp/setup`: a new secret, its `otpauth://` address
//!   and QR code (not yet asked at login);
//! - `POST /api/account/totp/enable {password, code}`: turns it on with a
//!   code of the new secret; answers ten recovery codes, shown once;
//! - `POST /api/account/totp/recovery {password, totp}`: ten new recovery codes;
//! - `POST /api/account/totp/disable {password, totp}`: turns it off.
//!
//! Once on, login, the password change and a password reset ask for a
//! code (`totp`: a code of the app or an unused recovery code).

use super::{Client, confirm_identity, event, model, store};
use crate::AppState;
use crate::account::auth::{self, Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/totp", get(status))
        .route("/account/totp/setup", post(setup))
        .route("/account/totp/enable", post(enable))
        .route("/account/totp/recovery", post(recovery))
        .route("/account/totp/disable", post(disable))
}

/// The answer of `GET /api/account/totp`.
#[derive(Serialize)]
struct Status {
    enabled: bool,
    recovery_codes_left: i64,
}

async fn status(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<Status>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    let enabled = store::totp(&app.db, &s.user.id)
        .await?
        .is_some_and(|t| t.enabled);
    let recovery_codes_left = if enabled {
        store::recovery_left(&app.db, &s.user.id).await?
    } else {
        0
    };
    Ok(Json(Status {
        enabled,
        recovery_codes_left,
    }))
}

/// The answer of `POST /api/account/totp/setup`.
#[derive(Serialize)]
struct Setup {
    /// The secret, base32, for typing into an app by hand.
    secret: String,
    /// The `otpauth://` address the QR code holds.
    otpauth_url: String,
    /// The QR code, an SVG picture.
    qr_svg: String,
}

async fn setup(State(app): State<AppState>, Actor(s): Actor) -> ApiResult<Json<Setup>> {
    s.user
        .require_account("register first: guests have no password to protect")?;
    let secret = model::new_totp_secret();
    if !store::start_totp(&app.db, &s.user.id, &secret).await? {
        return Err(ApiError::conflict(
            "totp_enabled",
            "two-factor is on already: turn it off first to enrol a new app",
        ));
    }
    let otpauth_url = model::totp(&secret, &s.user.username)
        .map_err(ApiError::internal)?
        .get_url();
    let qr_svg = model::qr_svg(&otpauth_url).map_err(ApiError::internal)?;
    Ok(Json(Setup {
        secret,
        otpauth_url,
        qr_svg,
    }))
}

/// Body of the routes that need the password and a code.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Confirm {
    password: String,
    /// A code of the app (to turn it on: of the new secret).
    #[serde(default, alias = "code")]
    totp: Option<String>,
}

/// New recovery codes for `user_id`: the codes (shown once) and their hashes.
fn recovery_codes() -> (Vec<String>, Vec<String>) {
    let codes = model::new_recovery_codes();
    let hashes = codes.iter().map(|c| model::recovery_hash(c)).collect();
    (codes, hashes)
}

async fn enable(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Body(req): Body<Confirm>,
) -> ApiResult<Json<serde_json::Value>> {
    let Some(row) = store::totp(&app.db, &s.user.id).await? else {
        return Err(ApiError::conflict(
            "totp_not_set_up",
            "call POST /api/account/totp/setup first and scan its QR code",
        ));
    };
    if row.enabled {
        return Err(ApiError::conflict(
            "totp_enabled",
            "two-factor is on already",
        ));
    }
    // The password, through the throttle (no second factor is on yet).
    confirm_identity(&app, &s.user, &client, &req.password, None).await?;
    let totp = model::totp(&row.secret, &s.user.username).map_err(ApiError::internal)?;
    let now_secs = (app.now_ms() / 1000).max(0) as u64;
    let code = req.totp.as_deref().unwrap_or("");
    let Some(step) = model::totp_step(&totp, code, now_secs) else {
        super::count_failure(&app, &s.user.username, client.ip);
        return Err(ApiError::bad_request(
            "bad_totp",
            "this code does not match the new secret: check the clock of your device, and type the code shown now",
        ));
    };
    store::use_step(&app.db, &s.user.id, step as i64).await?;
    let (codes, hashes) = recovery_codes();
    store::enable_totp(&app.db, &s.user.id, &hashes, app.now_ms()).await?;
    super::log(&app, &s.user.id, event::TOTP_ENABLED, Some(&client), None).await?;
    Ok(Json(
        serde_json::json!({ "enabled": true, "recovery_codes": codes }),
    ))
}

/// Checks that `s`'s account has two-factor on (else 409 `totp_off`,
/// `off` saying so) and that its user confirms who they are (password and
/// code): what new recovery codes and turning two-factor off ask.
async fn confirmed_with_totp_on(
    app: &AppState,
    s: &auth::Session,
    client: &Client,
    req: &Confirm,
    off: &str,
) -> ApiResult<()> {
    if !store::totp(&app.db, &s.user.id)
        .await?
        .is_some_and(|t| t.enabled)
    {
        return Err(ApiError::conflict("totp_off", off.to_string()));
    }
    confirm_identity(app, &s.user, client, &req.password, req.totp.as_deref()).await
}

async fn recovery(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Body(req): Body<Confirm>,
) -> ApiResult<Json<serde_json::Value>> {
    confirmed_with_totp_on(
        &app,
        &s,
        &client,
        &req,
        "two-factor is off: there are no recovery codes",
    )
    .await?;
    let (codes, hashes) = recovery_codes();
    store::set_recovery(&app.db, &s.user.id, &hashes).await?;
    super::log(&app, &s.user.id, event::RECOVERY_CODES, Some(&client), None).await?;
    Ok(Json(serde_json::json!({ "recovery_codes": codes })))
}

async fn disable(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Body(req): Body<Confirm>,
) -> ApiResult<Json<serde_json::Value>> {
    confirmed_with_totp_on(&app, &s, &client, &req, "two-factor is off already").await?;
    store::disable_totp(&app.db, &s.user.id).await?;
    super::log(&app, &s.user.id, event::TOTP_DISABLED, Some(&client), None).await?;
    Ok(Json(serde_json::json!({ "enabled": false })))
}
