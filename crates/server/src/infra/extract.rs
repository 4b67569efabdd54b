//! Shared request extractors and checks: JSON bodies whose rejections are
//! JSON errors, id checks, and the game named by query parameters. Route
//! modules import these from here, never from the router.

use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use games::{GameKind, GameKindError};
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// The client's IP address, as the router's guard found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub std::net::IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, ApiError> {
        let peer = || {
            parts
                .extensions
                .get::<ConnectInfo<std::net::SocketAddr>>()
                .map(|c| ClientIp(c.0.ip()))
        };
        parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .or_else(peer)
            .ok_or_else(|| ApiError::internal("the client's address is unknown"))
    }
}

/// A JSON request body whose every rejection is a JSON [`ApiError`].
pub struct Body<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(JsonRejection::MissingJsonContentType(_)) => Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "content_type",
                "send the body as JSON with Content-Type: application/json",
            )),
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    format!(
                        "request body too large (at most {} bytes)",
                        state.config.max_body_bytes
                    ),
                ))
            }
            Err(e) => Err(ApiError::bad_request("malformed_json", e.body_text())),
        }
    }
}

/// A name from a path (a game's, a puzzle's, a streak run's id): ASCII
/// letters and digits, its length in `len`; else 404 "no {what} ...".
pub fn check_token(id: &str, len: std::ops::RangeInclusive<usize>, what: &str) -> ApiResult<()> {
    if !len.contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::not_found(format!("no {what} {id:?}")));
    }
    Ok(())
}

/// Refuses game ids that cannot exist (empty, too long, not alphanumeric) as 404.
pub fn check_id(id: &str) -> ApiResult<()> {
    check_token(id, 1..=32, "game")
}

/// The game named by the query parameters `variant` (default `makruk`) and
/// `rules` (default: the game's default).
pub fn query_kind(params: &HashMap<String, String>) -> ApiResult<GameKind> {
    let name = params
        .get("variant")
        .map(String::as_str)
        .unwrap_or("makruk");
    GameKind::from_names(name, params.get("rules").map(String::as_str)).map_err(|e| match e {
        GameKindError::UnknownVariant(_) => ApiError::bad_request(
            "bad_variant",
            format!("variant must be makruk, cambodian or makhos, not {name:?}"),
        ),
        e => ApiError::bad_request("bad_rules", e.to_string()),
    })
}
