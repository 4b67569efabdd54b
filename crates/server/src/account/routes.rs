//! The account's HTTP routes: the session (a guest's, made on first use),
//! registration, login and logout.

use super::auth::{self, Actor, AuthActor};
use super::store;
use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, ClientIp};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The account routes, under `/api`: the session, registration, login, logout.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/session", get(session))
        .route("/register", post(register))
        .route("/login", post(login))
        .route("/logout", post(logout))
        .merge(super::password::routes())
        .merge(super::settings::routes())
}

/// The answer of `GET /api/session` and of login/registration.
#[derive(Serialize)]
pub struct SessionInfo {
    /// The user.
    pub user: auth::User,
    /// Token to send in `X-CSRF-Token` on every state-changing request.
    pub csrf: String,
}

fn with_cookie(app: &AppState, token: &str, body: impl IntoResponse) -> Response {
    let mut resp = body.into_response();
    resp.headers_mut()
        .append(header::SET_COOKIE, auth::session_cookie(app, token));
    resp
}

/// The query of `GET /api/session`: `?guest=no` answers a visitor without
/// a session with `{"user": null, "csrf": null}` instead of making a guest.
#[derive(Deserialize)]
struct SessionQuery {
    guest: Option<String>,
}

async fn session(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<SessionQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(s) = auth::session_from_headers(&app, &headers).await? {
        return Ok(Json(SessionInfo {
            user: s.user,
            csrf: s.csrf,
        })
        .into_response());
    }
    match q.guest.as_deref() {
        None | Some("yes") => {}
        // Reading pages: no guest is made for a visitor who only reads.
        Some("no") => return Ok(Json(json!({ "user": null, "csrf": null })).into_response()),
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_query",
                format!("guest must be yes or no, not {other:?}"),
            ));
        }
    }
    auth::check_may_mint_session(&headers)?;
    let exempt = app.config.exempt_loopback && ip.is_loopback();
    if !exempt && !app.guest_limiter.allow(ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_guests",
            "too many players from your address are playing as guests now: log in or register to play (reading the site needs neither)",
        ));
    }
    let user = auth::create_guest(&app).await?;
    let (token, csrf) = auth::create_session(&app, &user.id).await?;
    Ok(with_cookie(&app, &token, Json(SessionInfo { user, csrf })))
}

/// Username and password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// Username.
    pub username: String,
    /// Password.
    pub password: String,
}

async fn register(
    State(app): State<AppState>,
    AuthActor(old): AuthActor,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    auth::validate_username(&c.username)?;
    auth::validate_password(&c.password)?;
    if store::name_taken(&app.db, &c.username).await? {
        return Err(ApiError::conflict(
            "username_taken",
            format!("the name {:?} is taken", c.username),
        ));
    }
    let hash = app.passwords.hash(c.password).await?;
    let id = crate::infra::util::random_id(16);
    let inserted = store::insert_user(&app.db, &id, &c.username, Some(&hash), app.now_ms()).await;
    if inserted.is_err() {
        return Err(ApiError::conflict(
            "username_taken",
            format!("the name {:?} is taken", c.username),
        ));
    }
    if let Some(old) = old {
        auth::end_session(&app, &old.token_hash).await?;
    }
    let (token, csrf) = auth::create_session(&app, &id).await?;
    let user = auth::User {
        id,
        username: c.username,
        guest: false,
    };
    Ok(with_cookie(
        &app,
        &token,
        (StatusCode::CREATED, Json(SessionInfo { user, csrf })),
    ))
}

async fn login(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    AuthActor(old): AuthActor,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let bad = || ApiError::unauthorized("bad_credentials", "wrong username or password");
    // The name as counted by the throttle: bounded, whether or not it exists.
    let key: String = c
        .username
        .chars()
        .take(64)
        .collect::<String>()
        .to_lowercase();
    if let Some(wait) = app.login_throttle.wait(&key, ip) {
        return Ok(throttled(wait));
    }
    let well_formed = c.username.len() <= 64 && auth::validate_password(&c.password).is_ok();
    let row = if well_formed {
        store::login_user(&app.db, &key).await?
    } else {
        None
    };
    // A missing account is checked against a stand-in hash: as slow as a real one.
    let hash: Option<String> = row.as_ref().and_then(|(_, _, hash)| hash.clone());
    let matches = well_formed && app.passwords.verify(c.password, hash).await?;
    let Some((id, username, _)) = row.filter(|_| matches) else {
        app.login_throttle.failed(&key, ip);
        return Err(bad());
    };
    app.login_throttle.succeeded(&key);
    if let Some(old) = old {
        auth::end_session(&app, &old.token_hash).await?;
    }
    let (token, csrf) = auth::create_session(&app, &id).await?;
    let user = auth::User {
        id,
        username,
        guest: false,
    };
    Ok(with_cookie(&app, &token, Json(SessionInfo { user, csrf })))
}

/// The answer to a login while its name or address is locked: 429 with `Retry-After`.
fn throttled(wait: std::time::Duration) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut resp = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "login_throttled",
        format!("too many failed logins for this name or from this address: retry in {secs} s"),
    )
    .into_response();
    resp.headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    resp
}

async fn logout(State(app): State<AppState>, Actor(s): Actor) -> ApiResult<Response> {
    auth::end_session(&app, &s.token_hash).await?;
    Ok(with_cookie(
        &app,
        "",
        Json(serde_json::json!({ "ok": true })),
    ))
}
