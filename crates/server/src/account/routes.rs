//! The account's HTTP routes: the session (a guest's, made on first use),
//! registration, login and logout.

use super::auth::{self, Actor, AuthActor};
use super::security::{self, Client, SecondFactor, event};
use super::{known_browsers, names, password_check, store};
use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, ClientIp};
use crate::infra::login_throttle::{Attempt, name_key};
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
        .merge(super::security::routes())
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

/// The body of `POST /api/login`: username, password and, for an account
/// with two-factor, its code.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Login {
    /// Username.
    pub username: String,
    /// Password.
    pub password: String,
    /// The code of the authenticator app, or a recovery code.
    #[serde(default)]
    pub totp: Option<String>,
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
    ClientIp(ip): ClientIp,
    AuthActor(old): AuthActor,
    client: Client,
    headers: HeaderMap,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let skeleton = names::check_new_name(&c.username)?;
    auth::validate_password(&c.password)?;
    let taken = |holder: Option<String>| {
        let like = match holder {
            Some(h) if h.to_lowercase() != c.username.to_lowercase() => {
                format!(" (or looks like {h:?}, which is)")
            }
            _ => String::new(),
        };
        ApiError::conflict(
            "username_taken",
            format!("the name {:?} is taken{like}", c.username),
        )
    };
    if let Some(holder) = store::name_taken(&app.db, &c.username, &skeleton).await? {
        return Err(taken(Some(holder)));
    }
    // Counted after the checks, so a typo costs nothing; before the hash,
    // whatever session the request comes with.
    let exempt = app.config.exempt_loopback && ip.is_loopback();
    if !exempt && !app.registrations.allow(ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_registrations",
            "too many new accounts from your address or network: log in to an account you have, or try again in an hour",
        )
        .retry_after(std::time::Duration::from_secs(3600)));
    }
    let hash = app.passwords.hash(c.password).await?;
    let id = crate::infra::util::random_id(16);
    let inserted = store::insert_user(
        &app.db,
        &id,
        &c.username,
        Some(&skeleton),
        Some(&hash),
        app.now_ms(),
    )
    .await;
    if inserted.is_err() {
        return Err(taken(None));
    }
    if let Some(old) = old {
        auth::end_session(&app, &old.token_hash).await?;
    }
    let (token, csrf) = auth::create_session(&app, &id).await?;
    security::signed_in(&app, &id, &token, &client).await?;
    let device = known_browsers::remember(&app, &headers, &id).await?;
    let user = auth::User {
        id,
        username: c.username,
        guest: false,
    };
    let mut resp = with_cookie(
        &app,
        &token,
        (StatusCode::CREATED, Json(SessionInfo { user, csrf })),
    );
    if let Some(device) = device {
        resp.headers_mut().append(header::SET_COOKIE, device);
    }
    Ok(resp)
}

async fn login(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    AuthActor(old): AuthActor,
    client: Client,
    headers: HeaderMap,
    Body(c): Body<Login>,
) -> ApiResult<Response> {
    // The name as counted by the throttle: bounded, whether or not it exists.
    let key = name_key(&c.username);
    let well_formed = c.username.len() <= 64 && auth::validate_password(&c.password).is_ok();
    let row = if well_formed {
        store::login_user(&app.db, &key).await?
    } else {
        None
    };
    let device = match &row {
        Some((id, _, _)) => known_browsers::known_browser(&app, &headers, id).await?,
        None => None,
    };
    let attempt = Attempt {
        name: &key,
        ip,
        device: device.as_deref(),
    };
    // A missing account is checked against a stand-in hash: as slow as a real one.
    let hash: Option<String> = row.as_ref().and_then(|(_, _, hash)| hash.clone());
    let password = if well_formed {
        c.password
    } else {
        String::new()
    };
    let matches = password_check::check_password(&app, &attempt, password, hash).await?;
    let Some((id, username, _)) = row.as_ref().filter(|_| matches).cloned() else {
        if let Some((id, _, _)) = &row {
            security::log(
                &app,
                id,
                event::LOGIN_FAILED,
                Some(&client),
                Some("wrong password".into()),
            )
            .await?;
        }
        return Err(ApiError::unauthorized(
            "bad_credentials",
            "wrong username or password",
        ));
    };
    match security::second_factor(&app, &id, &username, c.totp.as_deref()).await? {
        SecondFactor::Off | SecondFactor::Passed => {}
        SecondFactor::Missing => return Err(security::totp_required()),
        SecondFactor::Wrong => {
            app.login_throttle.failed(&attempt);
            let why = Some("wrong two-factor code".into());
            security::log(&app, &id, event::LOGIN_FAILED, Some(&client), why).await?;
            return Err(security::bad_totp());
        }
    }
    password_check::passed(&app, &attempt);
    if let Some(old) = old {
        auth::end_session(&app, &old.token_hash).await?;
    }
    let (token, csrf) = auth::create_session(&app, &id).await?;
    security::signed_in(&app, &id, &token, &client).await?;
    let device = known_browsers::remember(&app, &headers, &id).await?;
    let user = auth::User {
        id,
        username,
        guest: false,
    };
    let mut resp = with_cookie(&app, &token, Json(SessionInfo { user, csrf }));
    if let Some(device) = device {
        resp.headers_mut().append(header::SET_COOKIE, device);
    }
    Ok(resp)
}

async fn logout(State(app): State<AppState>, Actor(s): Actor) -> ApiResult<Response> {
    auth::end_session(&app, &s.token_hash).await?;
    Ok(with_cookie(
        &app,
        "",
        Json(serde_json::json!({ "ok": true })),
    ))
}
