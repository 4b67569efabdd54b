//! A Bot API client for the tests: a bot account with a personal token,
//! its requests, and ndjson streams read line by line.

use super::Client;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;

/// A client of the Bot API with a personal token.
pub struct Bot {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
    pub name: String,
}

/// Makes a token with `scopes` for the session user of `c`.
pub async fn token_of(c: &Client, scopes: &[&str]) -> (String, String) {
    let (s, v) = c
        .post(
            "/api/account/tokens",
            json!({ "description": "test bot", "scopes": scopes }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (
        v["token"].as_str().unwrap().to_string(),
        v["id"].as_str().unwrap().to_string(),
    )
}

pub async fn answer(resp: reqwest::Response) -> (StatusCode, Value) {
    let status = resp.status();
    let text = resp.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

impl Bot {
    /// A new account with a token of `scopes` (upgraded to a bot when `bot`).
    pub async fn new(server: &Server, scopes: &[&str], bot: bool) -> (Bot, Client) {
        let c = Client::registered(server, "bot").await;
        let (token, _) = token_of(&c, scopes).await;
        let b = Bot {
            http: reqwest::Client::new(),
            base: c.base.clone(),
            token,
            name: c.name(),
        };
        if bot {
            let (s, v) = b.post("/api/bot/account/upgrade").await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        (b, c)
    }

    pub async fn send_get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        answer(self.send_get(path).await).await
    }

    pub async fn post(&self, path: &str) -> (StatusCode, Value) {
        self.post_body(path, "", "").await
    }

    pub async fn post_form(&self, path: &str, form: &str) -> (StatusCode, Value) {
        self.post_body(path, "application/x-www-form-urlencoded", form)
            .await
    }

    pub async fn post_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_body(path, "application/json", &body.to_string())
            .await
    }

    pub async fn post_body(&self, path: &str, kind: &str, body: &str) -> (StatusCode, Value) {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .body(body.to_string());
        if !kind.is_empty() {
            req = req.header("content-type", kind);
        }
        answer(req.send().await.unwrap()).await
    }

    /// Opens an ndjson stream.
    pub async fn stream(&self, path: &str) -> Result<Nd, (StatusCode, Value)> {
        let resp = self.send_get(path).await;
        if resp.status() != StatusCode::OK {
            return Err(answer(resp).await);
        }
        assert_eq!(resp.headers()["content-type"], "application/x-ndjson");
        Ok(Nd {
            resp,
            buf: String::new(),
        })
    }
}

/// An open ndjson stream.
pub struct Nd {
    pub resp: reqwest::Response,
    pub buf: String,
}

impl Nd {
    /// The next line (empty for a keep-alive), within 10 s; `None` at the end.
    pub async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.find('\n') {
                let line = self.buf[..i].to_string();
                self.buf.drain(..=i);
                return Some(line);
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.resp.chunk())
                .await
                .expect("timed out waiting for an ndjson line")
                .unwrap()?;
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next JSON line of type `kind`, skipping keep-alives and others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let line = self.line().await.expect("stream ended");
            if line.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

/// A new server and a bot account on it with a `bot:play` token.
pub async fn server_with_bot() -> (Server, Bot) {
    let server = super::start().await;
    let (bot, _) = Bot::new(&server, &["bot:play"], true).await;
    (server, bot)
}

pub fn assert_refused((s, v): (StatusCode, Value), status: StatusCode, code: &str) {
    assert_eq!((s, v["error"].as_str()), (status, Some(code)), "{v}");
}
