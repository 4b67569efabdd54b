//! Accounts as lichess shows them: `GET /api/account` (the token's user),
//! `GET /api/user/{name}` (anyone; the engine's levels are bot accounts),
//! `POST /api/token/test` and `POST /api/bot/account/upgrade`.

use super::token_cache::KnownToken;
use super::tokens::{AnyScope, Bearer, BotPlay, lookup};
use super::{ok, store};
use crate::AppState;
use crate::account::store::registered_by_name;
use crate::infra::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Map, Value, json};

/// Most tokens one `POST /api/token/test` may ask about.
pub const MAX_TESTED_TOKENS: usize = 1000;

/// A user in lichess's shape: `id` (the lower-cased name), `username`,
/// `title` (`BOT` for bot accounts, absent otherwise), `createdAt`.
pub async fn user_json(
    app: &AppState,
    id: &str,
    username: &str,
    created_at: i64,
) -> ApiResult<Value> {
    let mut user = json!({
        "id": username.to_lowercase(),
        "username": username,
        "createdAt": created_at,
        "perfs": {},
        "url": format!("/@/{username}"),
    });
    if store::is_bot(&app.db, id).await? {
        user["title"] = json!("BOT");
    }
    Ok(user)
}

/// `GET /api/account`: the token's user.
pub async fn account(
    State(app): State<AppState>,
    auth: Bearer<AnyScope>,
) -> ApiResult<Json<Value>> {
    let created_at = store::created_at(&app.db, store::Made::User, &auth.user.id).await?;
    Ok(Json(
        user_json(&app, &auth.user.id, &auth.user.username, created_at).await?,
    ))
}

/// `GET /api/user/{name}`: a registered user, or one of the engine's levels.
pub async fn user(State(app): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let p = registered_by_name(&app.db, &name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user named {name:?}")))?;
    Ok(Json(
        user_json(&app, &p.id, &p.username, p.created_at).await?,
    ))
}

/// `POST /api/token/test`: the body is tokens separated by commas; the
/// answer maps each to its user and scopes, or `null`.
pub async fn token_test(State(app): State<AppState>, body: String) -> ApiResult<Json<Value>> {
    let tokens: Vec<&str> = body
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MAX_TESTED_TOKENS {
        return Err(ApiError::bad_request(
            "too_many_tokens",
            format!("test at most {MAX_TESTED_TOKENS} tokens at once"),
        ));
    }
    let mut answer = Map::new();
    for text in tokens {
        let info = lookup(&app, text)
            .await?
            .map(|KnownToken { token, user, .. }| {
                json!({
                    "userId": user.username.to_lowercase(),
                    "scopes": token.scopes.join(","),
                    "expires": null,
                })
            });
        answer.insert(text.to_string(), info.unwrap_or(Value::Null));
    }
    Ok(Json(Value::Object(answer)))
}

/// `POST /api/bot/account/upgrade`: makes the token's user a bot account,
/// for good; only an account that has played no game may.
pub async fn upgrade(State(app): State<AppState>, auth: Bearer<BotPlay>) -> ApiResult<Json<Value>> {
    if store::is_bot(&app.db, &auth.user.id).await? {
        return Ok(ok());
    }
    if store::has_played(&app.db, &auth.user.id).await? {
        return Err(ApiError::bad_request(
            "has_played",
            "an account that has played games cannot become a bot account: make a new one",
        ));
    }
    store::make_bot(&app.db, &auth.user.id, app.now_ms()).await?;
    app.bots.user_changed(&auth.user.id).await;
    Ok(ok())
}
