//! Password reset by e-mail: `POST /api/account/reset` mails a link to the
//! accounts whose verified address is the one given, and answers the same
//! whether or not there is one; `POST /api/account/reset/confirm` sets the
//! new password from the link's token (good once, for an hour), ends every
//! session of the account and revokes its API tokens.
//!
//! Requests are limited per client address (429 past
//! [`model::RESETS_PER_IP_PER_HOUR`] an hour) and per account (past
//! [`model::RESETS_PER_ACCOUNT`] links an hour, the answer is the same and
//! nothing is mailed). Only the SHA-256 of a link's token is stored.

use super::{Client, SecondFactor, event, model, store};
use crate::AppState;
use crate::account::auth::{self, Actor};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use crate::infra::util::{random_token, sha256_hex};
use crate::social::mail::model::check_address;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/reset", post(request))
        .route("/account/reset/confirm", post(confirm))
}

/// Body of `POST /api/account/reset`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResetRequest {
    email: String,
}

/// The one answer to a reset request.
const ANSWER: &str = "if an account has this verified address, a link to reset its password was mailed to it: it works once, within an hour";

async fn request(
    State(app): State<AppState>,
    Actor(_): Actor,
    client: Client,
    Body(req): Body<ResetRequest>,
) -> ApiResult<Json<serde_json::Value>> {
    let Some(mailer) = app.mailer.clone() else {
        return Err(ApiError::conflict(
            "mail_disabled",
            "this server sends no e-mail (started without --smtp): ask its operator to reset your password",
        ));
    };
    let email = check_address(&req.email)?;
    let exempt = app.config.exempt_loopback && client.ip.is_loopback();
    if !exempt && !app.reset_limiter.allow(client.ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_resets",
            "too many password-reset requests from your address: try again in an hour",
        ));
    }
    // The lookup and the mail happen after the answer, so that neither its
    // words nor its timing tell whether the address is known.
    let app2 = app.clone();
    tokio::spawn(async move {
        if let Err(e) = mail_links(&app2, &mailer, &email, &client).await {
            eprintln!("thaiboard-server: password reset mail: {}", e.message);
        }
    });
    Ok(Json(serde_json::json!({ "ok": true, "message": ANSWER })))
}

/// Mails a reset link to each account of `email` that was not sent too many.
async fn mail_links(
    app: &AppState,
    mailer: &crate::social::mail::Mailer,
    email: &str,
    client: &Client,
) -> ApiResult<()> {
    let now = app.now_ms();
    for (user_id, username, address) in store::accounts_of_address(&app.db, email).await? {
        let token = random_token();
        let stored = store::insert_reset(
            &app.db,
            &sha256_hex(&token),
            &user_id,
            now,
            now + model::RESET_TTL_MS,
            now - model::RESET_TTL_MS,
            model::RESETS_PER_ACCOUNT,
        )
        .await?;
        if !stored {
            continue;
        }
        let link = format!(
            "{}/reset-password?token={token}",
            crate::social::mail::site(app)
        );
        let (subject, text) = model::reset_mail(&username, &link);
        mailer
            .send_security(&address, &subject, &text)
            .await
            .map_err(ApiError::internal)?;
        super::log(app, &user_id, event::RESET_REQUESTED, Some(client), None).await?;
    }
    Ok(())
}

/// Body of `POST /api/account/reset/confirm`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResetConfirm {
    /// The token of the mailed link.
    token: String,
    /// The new password.
    password: String,
    /// The two-factor code, for an account that has it.
    #[serde(default)]
    totp: Option<String>,
}

fn bad_link() -> ApiError {
    ApiError::new(
        StatusCode::GONE,
        "reset_link_invalid",
        "this reset link was used already, has expired (links last an hour) or was never made: ask for a new one",
    )
}

async fn confirm(
    State(app): State<AppState>,
    Actor(_): Actor,
    client: Client,
    Body(req): Body<ResetConfirm>,
) -> ApiResult<Json<serde_json::Value>> {
    let token = req.token.trim();
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad_link());
    }
    auth::validate_password(&req.password)?;
    let hash = sha256_hex(token);
    let Some((user_id, username)) = store::reset_user(&app.db, &hash, app.now_ms()).await? else {
        return Err(bad_link());
    };
    // A reset takes the place of the password, not of the second factor.
    super::throttle_check(&app, &username, client.ip)?;
    match super::second_factor(&app, &user_id, &username, req.totp.as_deref()).await? {
        SecondFactor::Off | SecondFactor::Passed => {}
        SecondFactor::Missing => return Err(super::totp_required()),
        SecondFactor::Wrong => {
            super::count_failure(&app, &username, client.ip);
            return Err(super::bad_totp());
        }
    }
    let new_hash = app.passwords.hash(req.password).await?;
    if !store::use_reset(&app.db, &hash, &user_id, &new_hash, app.now_ms()).await? {
        return Err(bad_link());
    }
    super::end_other_sessions(&app, &user_id, None).await?;
    super::count_success(&app, &username, client.ip);
    super::log(&app, &user_id, event::PASSWORD_RESET, Some(&client), None).await?;
    Ok(Json(serde_json::json!({
        "ok": true,
        "username": username,
        "message": "your password was changed: every session of the account was ended and its API tokens revoked; log in with the new password",
    })))
}
