//! The routes of e-mail: an account's address (`GET` and
//! `PUT /api/account/email`) and the mailed links (verify, unsubscribe).

use super::model::{check_address, page, token_of, verify_mail};
use super::{site, store};
use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::account::security::{self, Client};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use crate::infra::util::{random_token, sha256_hex};
use axum::extract::{Query, State};
use axum::response::Html;
use axum::{Json, Router, routing::get};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/email", get(read).put(write))
        .route("/account/email/verify", get(verify))
        .route("/unsubscribe", get(unsubscribe))
}

/// An account's address as the account page shows it.
#[derive(Serialize)]
pub struct EmailView {
    /// The address, if one was given.
    pub email: Option<String>,
    /// Whether its link was followed.
    pub verified: bool,
    /// Whether it gets mail (not unsubscribed).
    pub subscribed: bool,
    /// A new address waiting for its link to be followed (a change).
    pub pending: Option<String>,
    /// Whether this server sends mail at all (`--smtp`).
    pub enabled: bool,
}

/// Body of `PUT /api/account/email`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewAddress {
    email: String,
    /// The account's password: giving or changing the address needs it.
    password: String,
    /// For an account with two-factor: a code of its app.
    #[serde(default)]
    totp: Option<String>,
}

async fn view(app: &AppState, user_id: &str) -> ApiResult<EmailView> {
    let stored = store::stored(&app.db, user_id).await?;
    Ok(EmailView {
        verified: stored.as_ref().is_some_and(|s| s.verified_at.is_some()),
        subscribed: stored.as_ref().is_none_or(|s| s.subscribed),
        email: stored.map(|s| s.email),
        pending: security::store::pending_email(&app.db, user_id, app.now_ms()).await?,
        enabled: app.mailer.is_some(),
    })
}

async fn read(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<EmailView>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    Ok(Json(view(&app, &s.user.id).await?))
}

fn mail_failed(e: String) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::BAD_GATEWAY,
        "mail_failed",
        format!("the mail could not be sent: {e}"),
    )
}

/// `PUT /api/account/email`: gives the account an address (unverified, a
/// link mailed to it), or, when it has a verified one, asks to change it:
/// the link goes to the new address, a notice to the old one, and the old
/// one stays until the link is followed.
async fn write(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: Client,
    Body(body): Body<NewAddress>,
) -> ApiResult<Json<EmailView>> {
    s.user
        .require_account("register to give an e-mail address")?;
    let Some(mailer) = app.mailer.clone() else {
        return Err(ApiError::conflict(
            "mail_disabled",
            "this server sends no e-mail (started without --smtp)",
        ));
    };
    let email = check_address(&body.email)?;
    security::confirm_identity(&app, &s.user, &client, &body.password, body.totp.as_deref())
        .await?;
    let old = store::stored(&app.db, &s.user.id)
        .await?
        .filter(|o| o.verified_at.is_some());
    if let Some(old) = old.filter(|o| !o.email.eq_ignore_ascii_case(&email)) {
        let token = random_token();
        let now = app.now_ms();
        security::store::insert_email_change(
            &app.db,
            &sha256_hex(&token),
            &s.user.id,
            &email,
            now,
            now + security::model::EMAIL_CHANGE_TTL_MS,
        )
        .await?;
        let link = format!("{}/api/account/email/verify?token={token}", site(&app));
        let (subject, text) = security::model::change_verify_mail(&s.user.username, &link);
        mailer
            .send_security(&email, &subject, &text)
            .await
            .map_err(mail_failed)?;
        let (subject, text) = security::model::change_notice_mail(&s.user.username, &email);
        mailer
            .send_security(&old.email, &subject, &text)
            .await
            .map_err(mail_failed)?;
        let detail = Some(security::model::masked(&email));
        security::log(
            &app,
            &s.user.id,
            security::event::EMAIL_CHANGE_REQUESTED,
            Some(&client),
            detail,
        )
        .await?;
        return Ok(Json(view(&app, &s.user.id).await?));
    }
    let verify = random_token();
    store::set_address(
        &app.db,
        &s.user.id,
        &email,
        &verify,
        &random_token(),
        app.now_ms(),
    )
    .await?;
    let token = store::unsubscribe_token(&app.db, &s.user.id).await?;
    let link = format!("{}/api/account/email/verify?token={verify}", site(&app));
    let unsubscribe = format!("{}/api/unsubscribe?token={token}", site(&app));
    let (subject, text) = verify_mail(&s.user.username, &link);
    mailer
        .send(&email, &subject, &text, &unsubscribe)
        .await
        .map_err(mail_failed)?;
    Ok(Json(view(&app, &s.user.id).await?))
}

/// `GET /api/account/email/verify?token=`: the link in the verification mail.
async fn verify(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Html<String>> {
    let token = token_of(&q)?;
    if !store::verify(&app.db, token, app.now_ms()).await? {
        // A change of address: its token is stored as a hash.
        let changed =
            security::store::confirm_email_change(&app.db, &sha256_hex(token), app.now_ms())
                .await?;
        let Some((user_id, email)) = changed else {
            return Err(ApiError::not_found(
                "this link was used already, has expired, or was replaced by a newer one",
            ));
        };
        let detail = Some(security::model::masked(&email));
        security::log(&app, &user_id, security::event::EMAIL_CHANGED, None, detail).await?;
    }
    Ok(page(
        "Address verified",
        "thaiboard will mail you about your correspondence games.",
    ))
}

/// `GET /api/unsubscribe?token=`: the link at the end of every mail.
async fn unsubscribe(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Html<String>> {
    if !store::unsubscribe(&app.db, token_of(&q)?, app.now_ms()).await? {
        return Err(ApiError::not_found("no address has this unsubscribe link"));
    }
    Ok(page(
        "Unsubscribed",
        "thaiboard will send no more mail to this address.",
    ))
}
