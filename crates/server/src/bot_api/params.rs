//! Request bodies as lichess takes them: form-encoded (lichess-bot) or a
//! JSON object (berserk), read into one map of text values. JSON `null`s
//! are left out, booleans and numbers become their text.

use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde_json::Value;
use std::collections::HashMap;

/// The parameters of a form or JSON body (an empty body: none).
pub struct Params(pub HashMap<String, String>);

impl FromRequest<AppState> for Params {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &AppState) -> ApiResult<Self> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("request body refused: {e}"),
            )
        })?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Params(HashMap::new()));
        }
        if json {
            parse_json(&body)
        } else {
            parse_form(&body)
        }
        .map(Params)
    }
}

fn parse_json(body: &[u8]) -> ApiResult<HashMap<String, String>> {
    let bad = |m: String| ApiError::bad_request("malformed_json", m);
    let value: Value = serde_json::from_slice(body).map_err(|e| bad(e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(bad("the body must be a JSON object".into()));
    };
    let mut out = HashMap::new();
    for (k, v) in map {
        let text = match v {
            Value::Null => continue,
            Value::String(s) => s,
            Value::Bool(_) | Value::Number(_) => v.to_string(),
            _ => return Err(bad(format!("{k:?} must be a string, number or boolean"))),
        };
        out.insert(k, text);
    }
    Ok(out)
}

fn parse_form(body: &[u8]) -> ApiResult<HashMap<String, String>> {
    let bad = || {
        ApiError::bad_request(
            "malformed_form",
            "send the parameters form-encoded (application/x-www-form-urlencoded) or as a JSON object",
        )
    };
    let text = std::str::from_utf8(body).map_err(|_| bad())?;
    let mut out = HashMap::new();
    for pair in text.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.insert(decode(k).ok_or_else(bad)?, decode(v).ok_or_else(bad)?);
    }
    Ok(out)
}

/// Decodes one form-encoded component (`+` is a space, `%XX` a byte).
fn decode(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut it = text.bytes();
    while let Some(b) = it.next() {
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hi = (it.next()? as char).to_digit(16)?;
                let lo = (it.next()? as char).to_digit(16)?;
                bytes.push((hi * 16 + lo) as u8);
            }
            _ => bytes.push(b),
        }
    }
    String::from_utf8(bytes).ok()
}

impl Params {
    /// The text of `key`, if sent and not empty.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// `key` as a boolean (`true`/`false`); `default` when absent.
    pub fn flag(&self, key: &str, default: bool) -> ApiResult<bool> {
        match self.get(key) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(ApiError::bad_request(
                "invalid_parameter",
                format!("{key} must be true or false, not {v:?}"),
            )),
        }
    }

    /// `key` as a whole number, if sent.
    pub fn number(&self, key: &str) -> ApiResult<Option<u32>> {
        self.get(key)
            .map(|v| {
                v.parse().map_err(|_| {
                    ApiError::bad_request(
                        "invalid_parameter",
                        format!("{key} must be a whole number, not {v:?}"),
                    )
                })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_bodies_decode_plus_and_percent_escapes() {
        let p = parse_form(b"clock.limit=300&text=good+game%21&empty=").unwrap();
        assert_eq!(p["clock.limit"], "300");
        assert_eq!(p["text"], "good game!");
        assert_eq!(p["empty"], "");
        assert!(parse_form(b"bad=%zz").is_err());
    }

    #[test]
    fn json_bodies_become_text_and_drop_nulls() {
        let p = parse_json(br#"{"rated": false, "clock.limit": 60, "fen": null}"#).unwrap();
        assert_eq!(p["rated"], "false");
        assert_eq!(p["clock.limit"], "60");
        assert!(!p.contains_key("fen"));
        assert!(parse_json(b"[1]").is_err());
        assert!(parse_json(br#"{"a": [1]}"#).is_err());
    }
}
