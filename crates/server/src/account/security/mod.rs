//! Accounts people can trust (issue 38): password reset by e-mail
//! ([`reset`]), two-factor authentication by TOTP ([`totp`]), the sessions
//! signed in and the security log ([`sessions`]), and closing an account
//! with the export of its data ([`closing`]). The change of e-mail address
//! is the mail feature's (`crate::social::mail::routes`), with its SQL here.
//!
//! - [`model`]: the pure part (codes, steps, texts, limits);
//! - [`store`]: every SQL statement of them;
//! - here: the [`Client`] a request comes from, the log's writer
//!   ([`log`]), the ending of an account's sessions and tokens
//!   ([`end_other_sessions`]) and the second factor's check
//!   ([`second_factor`]), which login and the password change call.

pub mod closing;
pub mod model;
pub mod reset;
pub mod sessions;
pub mod store;
pub mod totp;

use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::ClientIp;
use crate::infra::login_throttle::{Attempt, name_key};
use crate::infra::util::{random_id, sha256_hex};
use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use std::net::IpAddr;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(reset::routes())
        .merge(totp::routes())
        .merge(sessions::routes())
        .merge(closing::routes())
}

/// The client a request comes from: its address and its User-Agent (cut
/// to 300 characters), for the signed-in sessions and the log. (Not the
/// device cookie of `crate::account::known_browsers`.)
#[derive(Clone, Debug)]
pub struct Client {
    /// The client's address.
    pub ip: IpAddr,
    /// Its User-Agent header ("" if none).
    pub user_agent: String,
}

impl FromRequestParts<AppState> for Client {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> ApiResult<Self> {
        let ClientIp(ip) = ClientIp::from_request_parts(parts, app).await?;
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .chars()
            .take(300)
            .collect();
        Ok(Client { ip, user_agent })
    }
}

/// The kinds of event the security log keeps.
pub mod event {
    /// A login (or a registration) made a session.
    pub const LOGIN: &str = "login";
    /// A login with this account's name failed (password or second factor).
    pub const LOGIN_FAILED: &str = "login_failed";
    /// The password was changed (knowing the old one).
    pub const PASSWORD_CHANGED: &str = "password_changed";
    /// A reset link was mailed.
    pub const RESET_REQUESTED: &str = "password_reset_requested";
    /// The password was set through a reset link.
    pub const PASSWORD_RESET: &str = "password_reset";
    /// A change of address was asked (the link mailed to the new one).
    pub const EMAIL_CHANGE_REQUESTED: &str = "email_change_requested";
    /// The address changed (its link followed).
    pub const EMAIL_CHANGED: &str = "email_changed";
    /// An API token was made.
    pub const TOKEN_CREATED: &str = "token_created";
    /// Two-factor was turned on.
    pub const TOTP_ENABLED: &str = "totp_enabled";
    /// Two-factor was turned off.
    pub const TOTP_DISABLED: &str = "totp_disabled";
    /// New recovery codes were made.
    pub const RECOVERY_CODES: &str = "recovery_codes_made";
    /// A recovery code was used.
    pub const RECOVERY_USED: &str = "recovery_code_used";
    /// A signed-in session was ended from the sessions list.
    pub const SESSION_REVOKED: &str = "session_revoked";
}

/// Adds an event of `kind` to `user_id`'s security log.
pub async fn log(
    app: &AppState,
    user_id: &str,
    kind: &str,
    client: Option<&Client>,
    detail: Option<String>,
) -> ApiResult<()> {
    let row = store::EventRow {
        at: app.now_ms(),
        kind: kind.to_string(),
        ip: client.map(|d| d.ip.to_string()),
        user_agent: client.map(|d| d.user_agent.clone()),
        detail,
    };
    store::insert_event(&app.db, &random_id(16), user_id, &row, model::LOG_KEPT).await
}

/// A login or registration made session `token` for `user_id` from
/// `client`: the client is kept with the session, and the log says so.
pub async fn signed_in(
    app: &AppState,
    user_id: &str,
    token: &str,
    client: &Client,
) -> ApiResult<()> {
    let now = app.now_ms();
    store::set_client(
        &app.db,
        &sha256_hex(token),
        &client.user_agent,
        &client.ip.to_string(),
        now,
    )
    .await?;
    log(app, user_id, event::LOGIN, Some(client), None).await
}

/// What [`end_other_sessions`] ended.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Ended {
    /// Sessions (signed-in browsers) ended.
    pub sessions: usize,
    /// API and bot tokens revoked.
    pub tokens: usize,
}

/// Ends every session of `user_id` but `keep_session` (a session's token
/// hash; `None`: all of them) and revokes every API and bot token of the
/// user: the sessions are deleted and their sockets closed (in this
/// process and, through PostgreSQL, in the others), the tokens deleted and
/// forgotten everywhere (their event streams end at the next keep-alive).
/// For a password change (keeping the browser that made it) and a reset.
pub async fn end_other_sessions(
    app: &AppState,
    user_id: &str,
    keep_session: Option<&str>,
) -> ApiResult<Ended> {
    let mut ended = Ended::default();
    for hash in crate::account::store::sessions_of(&app.db, user_id).await? {
        if Some(hash.as_str()) == keep_session {
            continue;
        }
        crate::account::auth::end_session(app, &hash).await?;
        ended.sessions += 1;
    }
    for id in crate::bot_api::store::delete_tokens_of(&app.db, user_id).await? {
        app.bots.token_revoked(&id).await;
        ended.tokens += 1;
    }
    Ok(ended)
}

/// `f` with the login throttle's attempt of `username`'s password or code
/// from `ip` (no device cookie: these checks come from a signed-in session
/// or a mailed link).
fn with_attempt<R>(username: &str, ip: IpAddr, f: impl FnOnce(&Attempt) -> R) -> R {
    let key = name_key(username);
    f(&Attempt {
        name: &key,
        ip,
        device: None,
    })
}

/// The login throttle's answer for checks of `username`'s password or
/// code from `ip`: `Err` 429 `login_throttled` while locked.
pub fn throttle_check(app: &AppState, username: &str, ip: IpAddr) -> ApiResult<()> {
    match with_attempt(username, ip, |a| app.login_throttle.wait(a)) {
        Some(wait) => Err(crate::account::password_check::throttled(wait)),
        None => Ok(()),
    }
}

/// Counts a wrong password or code for `username`'s account from `ip` in
/// the login throttle.
pub fn count_failure(app: &AppState, username: &str, ip: IpAddr) {
    with_attempt(username, ip, |a| app.login_throttle.failed(a));
}

/// Clears the login throttle's failures of `username` from `ip` after a
/// good check.
pub fn count_success(app: &AppState, username: &str, ip: IpAddr) {
    with_attempt(username, ip, |a| app.login_throttle.succeeded(a));
}

/// What the second factor said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondFactor {
    /// The account has no two-factor: nothing to ask.
    Off,
    /// A good code (or an unused recovery code), now used.
    Passed,
    /// No code was sent, and the account asks for one.
    Missing,
    /// A wrong, used or stale code.
    Wrong,
}

/// Checks `code` (a TOTP code or a recovery code) against `user_id`'s
/// second factor; a good code is used up (the same step, or the same
/// recovery code, does not pass twice).
pub async fn second_factor(
    app: &AppState,
    user_id: &str,
    username: &str,
    code: Option<&str>,
) -> ApiResult<SecondFactor> {
    let Some(row) = store::totp(&app.db, user_id).await?.filter(|t| t.enabled) else {
        return Ok(SecondFactor::Off);
    };
    let code = code.map(str::trim).unwrap_or("");
    if code.is_empty() {
        return Ok(SecondFactor::Missing);
    }
    if code.len() > 40 {
        return Ok(SecondFactor::Wrong);
    }
    if model::looks_like_recovery(code) {
        let used = store::use_recovery(&app.db, user_id, &model::recovery_hash(code), app.now_ms())
            .await?;
        if used {
            log(app, user_id, event::RECOVERY_USED, None, None).await?;
        }
        return Ok(if used {
            SecondFactor::Passed
        } else {
            SecondFactor::Wrong
        });
    }
    let totp = model::totp(&row.secret, username).map_err(ApiError::internal)?;
    let now_secs = (app.now_ms() / 1000).max(0) as u64;
    let Some(step) = model::totp_step(&totp, code, now_secs) else {
        return Ok(SecondFactor::Wrong);
    };
    if step as i64 <= row.last_step || !store::use_step(&app.db, user_id, step as i64).await? {
        return Ok(SecondFactor::Wrong);
    }
    Ok(SecondFactor::Passed)
}

/// The error of a missing second factor.
pub fn totp_required() -> ApiError {
    ApiError::unauthorized(
        "totp_required",
        "this account has two-factor authentication: send the code of your authenticator app (or a recovery code) as \"totp\"",
    )
}

/// The error of a wrong second factor.
pub fn bad_totp() -> ApiError {
    ApiError::unauthorized(
        "bad_totp",
        "wrong or already used two-factor code: wait for the next code of your app, or use a recovery code",
    )
}

/// Checks that the signed-in `user` knows the account's password and, when
/// it has two-factor, gives a good `code`: what turning two-factor on or
/// off, new recovery codes and closing the account ask. Every check goes
/// through the login throttle (`crate::infra::login_throttle`), counted
/// under the account's name and the client's address, as a login is.
pub async fn confirm_identity(
    app: &AppState,
    user: &crate::account::user::User,
    client: &Client,
    password: &str,
    code: Option<&str>,
) -> ApiResult<()> {
    user.require_account("guests have no password: register first")?;
    throttle_check(app, &user.username, client.ip)?;
    let hash = crate::account::store::password_hash(&app.db, &user.id).await?;
    if password.len() > 1024 || !app.passwords.verify(password.to_string(), hash).await? {
        count_failure(app, &user.username, client.ip);
        log(
            app,
            &user.id,
            event::LOGIN_FAILED,
            Some(client),
            Some("wrong password".into()),
        )
        .await?;
        return Err(ApiError::unauthorized(
            "bad_credentials",
            "the password is wrong",
        ));
    }
    match second_factor(app, &user.id, &user.username, code).await? {
        SecondFactor::Off | SecondFactor::Passed => Ok(()),
        SecondFactor::Missing => Err(totp_required()),
        SecondFactor::Wrong => {
            count_failure(app, &user.username, client.ip);
            log(
                app,
                &user.id,
                event::LOGIN_FAILED,
                Some(client),
                Some("wrong two-factor code".into()),
            )
            .await?;
            Err(bad_totp())
        }
    }
}
