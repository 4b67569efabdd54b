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

/// Whether `path` is a content-hashed name written by `web/build.mjs`
/// (`app.<12 hex>.js`): its bytes never change, so browsers keep it for a year.
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut parts = name.rsplit('.');
    let (_ext, hash) = (parts.next(), parts.next());
    parts.next().is_some()
        && hash.is_some_and(|h| h.len() == 12 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// How long browsers may keep `path`: the page itself is checked on every
/// visit, hashed names forever, the rest (pieces, icon) for an hour.
fn cache_control(path: &str) -> &'static str {
    if path == "index.html" {
        "no-cache"
    } else if is_hashed(path) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    }
}

fn serve(path: &str) -> Response {
    match file(path) {
        Some(bytes) => {
            let cache = cache_control(path);
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

/// Page routes (all served by the single-page app) and `/assets/*`,
/// compressed (brotli or gzip, as the browser accepts) when worth it.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/lobby", get(index))
        .route("/login", get(index))
        .route("/my-games", get(index))
        .route("/analysis", get(index))
        .route("/editor", get(index))
        .route("/game/{id}", get(index))
        .route("/tournaments", get(index))
        .route("/tournaments/{id}", get(index))
        .route("/leaderboard", get(index))
        .route("/tv", get(index))
        .route("/tv/{variant}", get(index))
        .route("/@/{name}", get(index))
        .route("/account", get(index))
        .route("/reset-password", get(index))
        .route("/settings", get(index))
        .route("/puzzle", get(index))
        .route("/puzzle/{id}", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/favicon.ico", get(favicon))
        .fallback(not_found)
        .layer(
            tower_http::compression::CompressionLayer::new()
                .br(true)
                .gzip(true),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names_are_told_apart() {
        assert!(is_hashed("assets/app.973a94726407.js"));
        assert!(is_hashed("assets/chessground.base.fddd031e7a89.css"));
        assert!(!is_hashed("assets/app.js"));
        assert!(!is_hashed("assets/style.css"));
        assert!(!is_hashed("assets/pieces/white-k.svg"));
        assert!(!is_hashed("assets/app.973a9472640z.js"));
        assert!(!is_hashed("index.html"));
        assert_eq!(cache_control("index.html"), "no-cache");
        assert_eq!(
            cache_control("assets/app.973a94726407.js"),
            "public, max-age=31536000, immutable"
        );
    }

    #[test]
    fn the_page_links_hashed_assets_that_exist() {
        let html = std::str::from_utf8(file("index.html").unwrap()).unwrap();
        if !html.contains("<script") {
            return; // the placeholder page of a build without node
        }
        for link in html.split("\"/assets/").skip(1) {
            let name = link.split('"').next().unwrap();
            let path = format!("assets/{name}");
            assert!(
                file(&path).is_some(),
                "index.html links {path}, not embedded"
            );
            if name != "favicon.svg" {
                assert!(is_hashed(&path), "{path} is not content-hashed");
            }
        }
    }
}
