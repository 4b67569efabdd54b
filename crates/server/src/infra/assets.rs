//! The web board: files built from `web/` by `build.rs` and embedded in the binary.

use crate::AppState;
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "map" => "application/json",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path`, if any.
pub fn file(path: &str) -> Option<&'static [u8]> {
    ASSETS.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

fn serve(path: &str) -> Response {
    match file(path) {
        Some(bytes) => {
            let cache = if path == "index.html" {
                "no-cache"
            } else {
                "public, max-age=300"
            };
            (
                [
                    (header::CONTENT_TYPE, mime(path)),
                    (header::CACHE_CONTROL, cache),
                ],
                bytes,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

async fn index() -> Response {
    page(StatusCode::OK)
}

/// An address that is no page: the app's page (which says so, with the
/// site's header) answered as 404.
async fn not_found() -> Response {
    page(StatusCode::NOT_FOUND)
}

/// The browser's default icon request.
async fn favicon() -> Response {
    serve("assets/favicon.svg")
}

fn page(status: StatusCode) -> Response {
    let mut resp = serve("index.html");
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
        ),
    );
    resp
}

async fn asset(Path(path): Path<String>) -> Response {
    serve(&format!("assets/{path}"))
}

/// Page routes (all served by the single-page app) and `/assets/*`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/lobby", get(index))
        .route("/login", get(index))
        .route("/my-games", get(index))
        .route("/analysis", get(index))
        .route("/game/{id}", get(index))
        .route("/tournaments", get(index))
        .route("/tournaments/{id}", get(index))
        .route("/leaderboard", get(index))
        .route("/@/{name}", get(index))
        .route("/account", get(index))
        .route("/reset-password", get(index))
        .route("/settings", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/favicon.ico", get(favicon))
        .fallback(not_found)
}
