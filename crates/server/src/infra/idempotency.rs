//! The `Idempotency-Key` request header (the IETF httpapi draft
//! "The Idempotency-Key HTTP Header Field"), honoured by one middleware
//! around every route under `/api`.
//!
//! A `POST` or `PATCH` that carries the header from a session (its cookie)
//! or a token (its `Authorization` header) is remembered for
//! [`WINDOW_MS`] in the table `idempotency_keys`, which every server
//! process on one database shares:
//!
//! - the first request with a key runs, and its answer (status, content
//!   type, body) is stored; an answer of 5xx is not kept, so a retry runs
//!   again;
//! - a repeat with the same key and the same request (method, path, body)
//!   gets the stored answer, with `Idempotent-Replayed: true`, and changes
//!   nothing;
//! - the same key with another request is refused: 422
//!   `idempotency_key_reused`;
//! - a repeat that arrives while the first still runs waits for its answer
//!   up to [`WAIT_MS`], then is refused: 409 `idempotency_key_in_flight`.
//!
//! Keys are scoped to the SHA-256 of the cookie's token or of the
//! `Authorization` header: one client's key never answers another's request.
//! A request with neither runs as if the header were absent.

use crate::AppState;
use crate::infra::db::Db;
use crate::infra::error::ApiError;
use crate::infra::time::TimeSource;
use crate::infra::util::{sha256_hex, sha256_hex_bytes};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sqlx::Row;

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// The answer header that marks a stored answer given again.
pub const REPLAYED: &str = "idempotent-replayed";
/// How long a key is remembered, ms: five minutes.
pub const WINDOW_MS: i64 = 5 * 60 * 1000;
/// How long a repeat waits for the first request's answer, ms.
pub const WAIT_MS: u64 = 5000;
/// Longest key accepted, in bytes.
pub const MAX_KEY_LEN: usize = 255;
/// Largest answer stored, in bytes; a larger one is given once, not kept.
const MAX_STORED: usize = 256 * 1024;

/// What is known of a key already taken.
struct Taken {
    request_hash: String,
    status: i64,
    content_type: Option<String>,
    body: Option<String>,
    created_at: i64,
}

/// The key of a request, if it carries one: the header's value, without
/// the quotes of the draft's structured-field string. Bad keys are refused.
fn key_of(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(HEADER) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    if text.is_empty()
        || text.len() > MAX_KEY_LEN
        || !text.bytes().all(|b| b.is_ascii_graphic() && b != b'"')
    {
        return Err(ApiError::bad_request(
            "bad_idempotency_key",
            format!(
                "the Idempotency-Key header must be 1 to {MAX_KEY_LEN} visible ASCII characters (a UUID, say)"
            ),
        ));
    }
    Ok(Some(text.to_string()))
}

/// Whose keys these are: the SHA-256 of the session cookie's token or of
/// the `Authorization` header; `None` for a request with neither.
fn scope_of(headers: &HeaderMap) -> Option<String> {
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == crate::account::auth::SESSION_COOKIE)
        .map(|(_, v)| format!("cookie {v}"));
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(|v| format!("authorization {v}"));
    bearer.or(cookie).map(|s| sha256_hex(&s))
}

/// The middleware: see the module's doc.
pub async fn layer(State(app): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST && req.method() != Method::PATCH {
        return next.run(req).await;
    }
    let key = match key_of(req.headers()) {
        Ok(Some(key)) => key,
        Ok(None) => return next.run(req).await,
        Err(e) => return e.into_response(),
    };
    let Some(scope) = scope_of(req.headers()) else {
        return next.run(req).await;
    };
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, app.config.max_body_bytes).await {
        Ok(b) => b,
        Err(_) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!(
                    "request body too large (at most {} bytes) or not readable",
                    app.config.max_body_bytes
                ),
            )
            .into_response();
        }
    };
    let mut hashed = format!("{} {}\n", parts.method, parts.uri).into_bytes();
    hashed.extend_from_slice(&bytes);
    let request_hash = sha256_hex_bytes(&hashed);
    let keys = Keys {
        db: app.db.clone(),
        time: app.games.time.clone(),
        scope,
        key,
    };
    match keys.take(&request_hash).await {
        Ok(None) => {}
        Ok(Some(answer)) => return answer,
        Err(e) => return ApiError::from(e).into_response(),
    }
    // Carried out to the end, and its answer kept, even when the client
    // goes away meanwhile: its retry (same key) then gets that answer.
    let req = Request::from_parts(parts, Body::from(bytes));
    let owner = keys.clone();
    let run = tokio::spawn(async move {
        let resp = next.run(req).await;
        owner.finish(resp).await
    });
    match run.await {
        Ok(resp) => resp,
        Err(_) => {
            keys.forget().await;
            ApiError::internal("the request failed").into_response()
        }
    }
}

/// One key of one scope.
#[derive(Clone)]
struct Keys {
    db: Db,
    time: TimeSource,
    scope: String,
    key: String,
}

impl Keys {
    /// Takes the key for this request: `None` if it is this request's to
    /// run, else the answer to give (the stored one, or a refusal).
    async fn take(&self, request_hash: &str) -> Result<Option<Response>, sqlx::Error> {
        let waited_since = std::time::Instant::now();
        loop {
            let now = self.time.now_ms();
            let inserted = sqlx::query(
                "INSERT INTO idempotency_keys (scope, idem_key, request_hash, status, created_at) \
                 VALUES ($1, $2, $3, 0, $4) ON CONFLICT (scope, idem_key) DO NOTHING",
            )
            .bind(&self.scope)
            .bind(&self.key)
            .bind(request_hash)
            .bind(now)
            .execute(&self.db.pool)
            .await?
            .rows_affected();
            if inserted == 1 {
                return Ok(None);
            }
            let Some(taken) = self.read().await? else {
                continue; // forgotten in between: take it again
            };
            if taken.created_at < now - WINDOW_MS {
                // Expired: forgotten, then taken afresh.
                sqlx::query(
                    "DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND created_at = $3",
                )
                .bind(&self.scope)
                .bind(&self.key)
                .bind(taken.created_at)
                .execute(&self.db.pool)
                .await?;
                continue;
            }
            if taken.request_hash != request_hash {
                return Ok(Some(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "idempotency_key_reused",
                    "this Idempotency-Key was sent with another request (method, path or body): use a new key for a new request",
                ).into_response()));
            }
            if taken.status != 0 {
                return Ok(Some(replay(taken)));
            }
            if waited_since.elapsed().as_millis() as u64 >= WAIT_MS {
                return Ok(Some(ApiError::conflict(
                    "idempotency_key_in_flight",
                    "a request with this Idempotency-Key is still being answered: retry in a moment with the same key",
                ).into_response()));
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    }

    async fn read(&self) -> Result<Option<Taken>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT request_hash, status, content_type, body, created_at FROM idempotency_keys \
             WHERE scope = $1 AND idem_key = $2",
        )
        .bind(&self.scope)
        .bind(&self.key)
        .fetch_optional(&self.db.pool)
        .await?;
        Ok(row.map(|r| Taken {
            request_hash: r.get(0),
            status: r.get(1),
            content_type: r.get(2),
            body: r.get(3),
            created_at: r.get(4),
        }))
    }

    async fn forget(&self) {
        let _ = sqlx::query("DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2")
            .bind(&self.scope)
            .bind(&self.key)
            .execute(&self.db.pool)
            .await;
    }

    /// Stores the first request's answer and gives it; a server error, a
    /// stream or an answer too large to keep is given and forgotten.
    async fn finish(&self, resp: Response) -> Response {
        let streamed = resp
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/x-ndjson"));
        if resp.status().is_server_error() || streamed {
            self.forget().await;
            return resp;
        }
        let (parts, body) = resp.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_STORED).await else {
            self.forget().await;
            return ApiError::internal("the answer could not be read").into_response();
        };
        let content_type = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let stored = match std::str::from_utf8(&bytes) {
            Ok(text) => sqlx::query(
                "UPDATE idempotency_keys SET status = $1, content_type = $2, body = $3 \
                 WHERE scope = $4 AND idem_key = $5",
            )
            .bind(i64::from(parts.status.as_u16()))
            .bind(content_type)
            .bind(text)
            .bind(&self.scope)
            .bind(&self.key)
            .execute(&self.db.pool)
            .await
            .is_ok(),
            Err(_) => false,
        };
        if !stored {
            self.forget().await;
        }
        Response::from_parts(parts, Body::from(bytes))
    }
}

/// The stored answer, given again.
fn replay(taken: Taken) -> Response {
    let status = u16::try_from(taken.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::OK);
    let mut resp = (status, taken.body.unwrap_or_default()).into_response();
    let h = resp.headers_mut();
    if let Some(ct) = taken
        .content_type
        .and_then(|c| HeaderValue::from_str(&c).ok())
    {
        h.insert(header::CONTENT_TYPE, ct);
    }
    h.insert(REPLAYED, HeaderValue::from_static("true"));
    resp
}

/// Forgets keys older than [`WINDOW_MS`] once a minute, until the server stops.
pub fn start_sweeper(db: &Db, time: &TimeSource, mut stopping: tokio::sync::watch::Receiver<bool>) {
    let (db, time) = (db.clone(), time.clone());
    tokio::spawn(async move {
        while !*stopping.borrow() {
            let _ = sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
                .bind(time.now_ms() - WINDOW_MS)
                .execute(&db.pool)
                .await;
            tokio::select! {
                _ = tokio::time::sleep(std::time::Duration::from_secs(60)) => {}
                changed = stopping.changed() => if changed.is_err() { return },
            }
        }
    });
}
