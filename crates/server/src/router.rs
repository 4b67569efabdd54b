//! The HTTP application: every feature's routes under `/api`, the web board,
//! and the layers every request passes (body limits, timeouts, the
//! per-address rate limit, security headers, the access log).

use crate::infra::error::ApiError;
use crate::{
    AppState, account, analysis, bot_api, computer, conditional, explorer, game, infra, leave,
    players, pools, puzzle, social, tags, tournament, tv,
};
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;

/// Every feature's routes, under `/api`.
fn api_routes() -> Router<AppState> {
    Router::new()
        .merge(account::routes())
        .merge(game::routes())
        .merge(conditional::routes())
        .merge(tags::routes())
        .merge(computer::routes())
        .merge(analysis::routes())
        .merge(explorer::routes())
        .merge(social::routes())
        .merge(players::routes())
        .merge(tournament::routes())
        .merge(leave::routes())
        .merge(pools::routes())
        .merge(puzzle::routes())
        .merge(bot_api::routes())
        .merge(tv::routes())
        .fallback(|| async { ApiError::not_found("no such API endpoint") })
}

/// The whole HTTP application.
pub fn router(app: AppState) -> Router {
    let max_body = app.config.max_body_bytes;
    let body_timeout = std::time::Duration::from_millis(app.config.body_read_timeout_ms);
    let request_timeout = std::time::Duration::from_millis(app.config.request_timeout_ms);
    Router::new()
        .nest(
            "/api",
            // Inside the body limits, so that it reads a bounded body.
            api_routes().layer(middleware::from_fn_with_state(
                app.clone(),
                infra::idempotency::layer,
            )),
        )
        // lichess's address of a game's PGN, which lichess-bot fetches.
        .route("/game/export/{id}", axum::routing::get(game::routes::pgn))
        .merge(infra::assets::routes())
        .layer(DefaultBodyLimit::max(max_body))
        // A body that stalls fails; one announced larger than the limit is
        // refused before a byte of it is read.
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            body_timeout,
        ))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(max_body))
        // A request whose answer does not begin in time is answered 503
        // (said as JSON by `guard`); streams and sockets run on after it.
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            request_timeout,
        ))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Rate limit per session or client IP, errors of the layers said as JSON, security
/// headers on every answer, and the access log.
async fn guard(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let logged = app
        .config
        .access_log
        .then(|| (req.method().clone(), req.uri().path().to_string()));
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let ip = infra::proxy::client_ip(peer, req.headers(), &app.config.trusted_proxies);
    let mut req = req;
    req.extensions_mut().insert(infra::extract::ClientIp(ip));
    // `--exempt-loopback` (the load tool's server) lifts this per-address
    // limit for loopback clients, as it lifts the other per-address caps.
    let exempt = app.config.exempt_loopback && ip.is_loopback();
    let session = crate::account::auth::live_session_key(&app, req.headers());
    let mut resp = if !exempt && !app.limiter.allow(ip, session.as_deref()) {
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many requests: slow down and retry",
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        r
    } else {
        next.run(req).await
    };
    if resp.status() == StatusCode::PAYLOAD_TOO_LARGE
        && resp.headers().get(header::CONTENT_TYPE)
            != Some(&HeaderValue::from_static("application/json"))
    {
        // tower-http's limit answers in plain text: say it as every error is said.
        resp = ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "request body too large (at most {} bytes)",
                app.config.max_body_bytes
            ),
        )
        .into_response();
    }
    if resp.status() == StatusCode::SERVICE_UNAVAILABLE
        && resp.headers().get(header::CONTENT_TYPE).is_none()
    {
        // tower-http's timeout answers with an empty body.
        resp = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!(
                "the server took longer than {} ms to answer: try again",
                app.config.request_timeout_ms
            ),
        )
        .into_response();
    }
    if let Some((method, path)) = logged {
        eprintln!(
            "{} {ip} {method} {path} {} {:.1}ms",
            jiff::Timestamp::now()
                .round(jiff::Unit::Millisecond)
                .unwrap_or(jiff::Timestamp::now()),
            resp.status().as_u16(),
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    let h = resp.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    resp
}
