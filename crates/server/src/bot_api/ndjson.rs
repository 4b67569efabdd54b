//! Streaming ndjson answers (`application/x-ndjson`): a task writes lines
//! into a channel that the response body reads. When the client goes, the
//! body is dropped (with whatever it holds, such as a stream slot) and the
//! task's next write fails, which ends it; keep-alive newlines every
//! [`KEEP_ALIVE`] make that write come soon. A stream whose token is
//! revoked ends at its next keep-alive.

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often an idle stream sends an empty line (lichess sends one every
/// few seconds so that clients and proxies know the stream lives).
pub const KEEP_ALIVE: Duration = Duration::from_secs(4);

/// The writing end of an ndjson stream.
pub struct Lines {
    tx: mpsc::Sender<String>,
}

impl Lines {
    /// Writes one JSON line; `false` once the client has gone.
    pub async fn send(&self, value: &Value) -> bool {
        self.send_text(format!("{value}\n")).await
    }

    /// Writes a ready line (with its newline); `false` once the client has gone.
    pub async fn send_text(&self, line: String) -> bool {
        self.tx.send(line).await.is_ok()
    }

    /// Writes the keep-alive empty line; `false` once the client has gone.
    pub async fn keep_alive(&self) -> bool {
        self.send_text("\n".into()).await
    }

    /// Resolves when the client has gone.
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// Writes the keep-alive line if token `token_id` still stands; `false`
/// (the stream ends) once the client has gone or the token was revoked.
/// Revocations are known in memory; the database is asked now and then
/// (see [`super::token_cache`]).
pub async fn keep_alive_while(lines: &Lines, app: &crate::AppState, token_id: &str) -> bool {
    let tokens = &app.bots.tokens;
    let mut live = !tokens.revoked(token_id);
    if live && tokens.check_due(token_id) {
        live = super::store::token_exists(&app.db, token_id)
            .await
            .unwrap_or(true);
        if !live {
            tokens.forget_token(token_id);
        }
    }
    live && lines.keep_alive().await
}

/// A keep-alive timer whose first tick is one period away.
pub fn keep_alive_timer() -> tokio::time::Interval {
    let mut timer = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    timer
}

/// An ndjson response whose lines `writer` writes on its own task; `hold`
/// lives as long as the response body (until the client goes).
pub fn response<F>(hold: impl Send + 'static, writer: impl FnOnce(Lines) -> F) -> Response
where
    F: Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<String>(32);
    tokio::spawn(writer(Lines { tx }));
    let lines = futures_util::stream::unfold((rx, hold), |(mut rx, hold)| async move {
        let line = rx.recv().await?;
        Some((Ok::<_, Infallible>(line), (rx, hold)))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response()
}
