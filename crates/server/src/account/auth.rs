//! Accounts and sessions: argon2 passwords, session cookies, CSRF tokens.
//!
//! A visitor who acts holds a session (a guest user until they register or
//! log in); one who only reads needs none (the web board asks
//! `GET /api/session?guest=no`, and makes the guest on the first action). The cookie `tb_session` carries a random token; the database keeps
//! only its SHA-256. Each session has a CSRF token, returned by
//! `GET /api/session`, that every state-changing request must echo in the
//! `X-CSRF-Token` header (and the cookie is `SameSite=Strict`; a cross-site
//! `Origin` is refused too).

use super::store;
pub use super::user::User;
use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::util::{constant_time_eq, random_id, random_token, sha256_hex};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "tb_session";
/// Header that must carry the session's CSRF token on state-changing requests.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// A valid session.
#[derive(Clone, Debug)]
pub struct Session {
    /// Its user.
    pub user: User,
    /// Its CSRF token.
    pub csrf: String,
    /// SHA-256 of its cookie token.
    pub token_hash: String,
    /// When it expires, ms since the Unix epoch.
    pub expires_at: i64,
}

impl crate::infra::sessions::CachedSession for Session {
    fn token_hash(&self) -> &str {
        &self.token_hash
    }
    fn expires_at(&self) -> i64 {
        self.expires_at
    }
}

/// This process's cache of sessions (see `crate::infra::sessions`).
pub type SessionCache = crate::infra::sessions::SessionCache<Session>;

/// What a socket holds to learn that its session ended.
pub type SessionWatch = crate::infra::sessions::SessionWatch<Session>;

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Looks up the session named by the request's cookie; `None` if absent, forged or expired.
pub async fn session_from_headers(
    app: &AppState,
    headers: &HeaderMap,
) -> ApiResult<Option<Session>> {
    let Some(token) = cookie_value(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    session_by_hash(app, &sha256_hex(token)).await
}

/// The key (token hash) of the session the request's cookie names, if this
/// process knows it as live: what the request limit counts per session
/// (`crate::infra::ratelimit::RequestLimiter`). Asks only the cache, never
/// the database, so that a forged cookie costs nothing and counts under
/// its address.
pub fn live_session_key(app: &AppState, headers: &HeaderMap) -> Option<String> {
    let token = cookie_value(headers, SESSION_COOKIE)?;
    if token.len() > 128 {
        return None;
    }
    let hash = sha256_hex(token);
    app.sessions.get(&hash).map(|_| hash)
}

/// The session whose token has SHA-256 `hash`, if it stands: from this
/// process's [`SessionCache`], else from the database.
pub async fn session_by_hash(app: &AppState, hash: &str) -> ApiResult<Option<Session>> {
    if let Some(session) = app.sessions.get(hash) {
        return Ok(Some(session));
    }
    let now = app.now_ms();
    let stored = store::session(&app.db, hash, now).await?;
    // Read from the database at most once per cache lifetime: the device's
    // "last seen" is written when it is older than a few minutes.
    if let Some(s) = stored.as_ref().filter(|s| !s.user.guest) {
        let stale = now - crate::account::security::model::LAST_SEEN_EVERY_MS;
        if s.last_seen.is_none_or(|seen| seen < stale) {
            crate::account::security::store::touch(&app.db, hash, now, stale).await?;
        }
    }
    let session = stored.map(|s| Session {
        csrf: s.csrf,
        user: s.user,
        token_hash: hash.to_string(),
        expires_at: s.expires_at,
    });
    if let Some(s) = &session {
        app.sessions.put(s);
    }
    Ok(session)
}

/// Whether `session` still stands (not ended, not expired): what a socket
/// asks before each command. Cheap: the cache answers but once per
/// [`crate::Config::session_cache_ttl_ms`].
pub async fn still_valid(app: &AppState, session: &Session) -> ApiResult<bool> {
    Ok(session_by_hash(app, &session.token_hash)
        .await?
        .is_some_and(|s| s.user.id == session.user.id))
}

/// Creates a session for `user_id`; returns the cookie token and the CSRF token.
pub async fn create_session(app: &AppState, user_id: &str) -> ApiResult<(String, String)> {
    let token = random_token();
    let csrf = random_token();
    let now = app.now_ms();
    let expires_at = now + app.config.session_ttl_secs * 1000;
    store::insert_session(
        &app.db,
        &sha256_hex(&token),
        user_id,
        &csrf,
        now,
        expires_at,
    )
    .await?;
    Ok((token, csrf))
}

/// Ends a session: deleted, forgotten by the cache, and its sockets (in
/// this process, and through PostgreSQL in the others) closed.
pub async fn end_session(app: &AppState, token_hash: &str) -> ApiResult<()> {
    store::delete_session(&app.db, token_hash).await?;
    app.sessions.end_everywhere(&app.db, token_hash).await?;
    Ok(())
}

/// The `Set-Cookie` value for a session token (empty token: clear the cookie).
pub fn session_cookie(app: &AppState, token: &str) -> HeaderValue {
    let max_age = if token.is_empty() {
        0
    } else {
        app.config.session_ttl_secs
    };
    let secure = if app.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .expect("cookie is ASCII")
}

/// Creates a guest user.
pub async fn create_guest(app: &AppState) -> ApiResult<User> {
    let id = random_id(16);
    let username = format!("guest-{}", &id[..8]);
    store::insert_user(&app.db, &id, &username, None, None, app.now_ms()).await?;
    Ok(User {
        id,
        username,
        guest: true,
    })
}

/// How many characters (Unicode scalar values, not bytes) a password has:
/// the one rule for registering, logging in and changing a password.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// Checks a password against [`PASSWORD_CHARS`]. Registration and password
/// changes answer its error; a login answers "wrong username or password"
/// (no account can have a password outside the rule).
pub fn validate_password(password: &str) -> ApiResult<()> {
    // Counting stops past the upper bound, so a huge password costs little.
    let chars = password.chars().take(PASSWORD_CHARS.end() + 1).count();
    if !PASSWORD_CHARS.contains(&chars) {
        return Err(ApiError::bad_request(
            "invalid_password",
            format!(
                "a password has {} to {} characters (this one has {}{})",
                PASSWORD_CHARS.start(),
                PASSWORD_CHARS.end(),
                chars.min(*PASSWORD_CHARS.end() + 1),
                if chars > *PASSWORD_CHARS.end() {
                    " or more"
                } else {
                    ""
                },
            ),
        ));
    }
    Ok(())
}

/// Refuses to make a session for a request a browser marks as coming from
/// another site (`Sec-Fetch-Site: cross-site` or `same-site`): a link or
/// form on another site arrives without the `SameSite=Strict` cookie, and
/// a new guest session would overwrite the player's. The site's own pages
/// (`same-origin`), an address typed by the player (`none`) and clients
/// that send no such header (bots, scripts) get a session.
pub fn check_may_mint_session(headers: &HeaderMap) -> ApiResult<()> {
    let site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("none");
    if site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site") {
        return Err(ApiError::forbidden(
            "cross_site",
            format!(
                "no session is made for a request from another site (Sec-Fetch-Site: {site}): open this site's own page"
            ),
        ));
    }
    Ok(())
}

/// Refuses a request whose `Origin` (when sent) is not this server's own host.
pub fn check_origin(headers: &HeaderMap) -> ApiResult<()> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    if origin_host.is_empty() || !origin_host.eq_ignore_ascii_case(host) {
        return Err(ApiError::forbidden(
            "bad_origin",
            format!("cross-site request from origin {origin:?} refused"),
        ));
    }
    Ok(())
}

/// Extractor for GET handlers: the session if the request carries a valid one.
pub struct Viewer(pub Option<Session>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(Viewer(session_from_headers(app, &parts.headers).await?))
    }
}

/// Extractor of login and registration, which a visitor without a session
/// may send (reading the site makes no guest, and a spent guest budget must
/// not keep anyone from logging in): the session, when the request carries
/// one, is checked as [`Actor`] checks it; without one, the request must
/// come from this site's own pages (`Origin`, `Sec-Fetch-Site`), and its
/// body is JSON (a cross-site form cannot send that without CORS, which
/// this server never grants).
pub struct AuthActor(pub Option<Session>);

impl FromRequestParts<AppState> for AuthActor {
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        check_origin(&parts.headers)?;
        if session_from_headers(app, &parts.headers).await?.is_some() {
            return Actor::from_request_parts(parts, app)
                .await
                .map(|Actor(s)| AuthActor(Some(s)));
        }
        check_may_mint_session(&parts.headers)?;
        Ok(AuthActor(None))
    }
}

/// Extractor for state-changing handlers: a valid session whose CSRF token
/// is echoed in `X-CSRF-Token`, from this site's own origin.
pub struct Actor(pub Session);

impl FromRequestParts<AppState> for Actor {
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        check_origin(&parts.headers)?;
        let session = session_from_headers(app, &parts.headers).await?.ok_or_else(|| {
            ApiError::unauthorized("no_session", "no valid session: call GET /api/session first (session missing, forged or expired)")
        })?;
        let sent = parts
            .headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if sent.is_empty() || !constant_time_eq(sent, &session.csrf) {
            return Err(ApiError::forbidden(
                "csrf",
                "missing or wrong X-CSRF-Token header: send the csrf value from GET /api/session",
            ));
        }
        Ok(Actor(session))
    }
}
