//! Errors of the HTTP and WebSocket API: a status, a stable code and a message.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error answered to a client, as JSON `{"error": code, "message": text}`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable machine-readable code, e.g. `illegal_move`.
    pub code: &'static str,
    /// What is wrong, for a person.
    pub message: String,
    /// Seconds to wait before trying again, sent as `Retry-After`.
    pub retry_after_secs: Option<u64>,
}

/// The JSON body of an error.
#[derive(Serialize)]
pub struct ErrorBody<'a> {
    /// Stable machine-readable code.
    pub error: &'a str,
    /// What is wrong, for a person.
    pub message: &'a str,
}

impl ApiError {
    /// An error with a status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
        }
    }
    /// The same error, telling the client to wait `wait` (rounded up to a
    /// whole second, at least one) in `Retry-After`.
    pub fn retry_after(mut self, wait: std::time::Duration) -> Self {
        self.retry_after_secs = Some(wait.as_secs_f64().ceil().max(1.0) as u64);
        self
    }
    /// 400: a malformed or invalid request.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    /// 401: no valid session or wrong credentials.
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, message)
    }
    /// 403: not allowed for this user.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }
    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    /// 409: the request conflicts with the current state (not your turn, game over...).
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    /// 422: a well-formed move that the rules do not allow.
    pub fn illegal_move(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", message)
    }
    /// 500: a failure on our side; the message is logged, the client gets a generic text.
    pub fn internal(message: impl std::fmt::Display) -> Self {
        eprintln!("thaiboard-server: internal error: {message}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal server error",
        )
    }
    /// The JSON body.
    pub fn body(&self) -> ErrorBody<'_> {
        ErrorBody {
            error: self.code,
            message: &self.message,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.code,
            self.status.as_u16(),
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        ApiError::internal(format!("database: {err}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status, Json(self.body())).into_response();
        if let Some(secs) = self.retry_after_secs {
            resp.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        resp
    }
}

/// Result of an API operation.
pub type ApiResult<T> = Result<T, ApiError>;
