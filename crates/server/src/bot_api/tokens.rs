//! Personal API tokens, as lichess has them: made and revoked by a logged-in
//! user through session-authenticated JSON routes, shown once, stored as
//! their SHA-256 only, each with scopes. [`Bearer`] is the extractor of
//! `Authorization: Bearer <token>`; its type parameter names the scopes a
//! route needs.

use super::store::{self, TokenRow};
use super::token_cache::KnownToken;
use crate::AppState;
use crate::account::auth::{Actor, User, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use crate::infra::util::{random_id, random_token, sha256_hex};
use axum::Json;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::header;
use axum::http::request::Parts;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// The scopes a token may carry (lichess's names).
pub const SCOPES: [&str; 6] = [
    "bot:play",
    "board:play",
    "challenge:read",
    "challenge:write",
    "email:read",
    "preference:read",
];

/// What a token starts with, so that it is recognised when pasted.
pub const TOKEN_PREFIX: &str = "tbp_";
/// Most tokens a user may hold.
pub const MAX_TOKENS: usize = 50;

/// The scopes a route accepts: any one of them will do.
pub trait Scope: Send + Sync {
    /// The accepted scopes; empty: any valid token.
    const ANY_OF: &'static [&'static str];
}

/// Any valid token (`GET /api/account`).
pub struct AnyScope;
impl Scope for AnyScope {
    const ANY_OF: &'static [&'static str] = &[];
}

/// Playing as a bot: `bot:play`.
pub struct BotPlay;
impl Scope for BotPlay {
    const ANY_OF: &'static [&'static str] = &["bot:play"];
}

/// Reading one's challenges and games (the event stream).
pub struct ChallengeRead;
impl Scope for ChallengeRead {
    const ANY_OF: &'static [&'static str] = &["challenge:read", "bot:play", "board:play"];
}

/// Making, accepting and declining challenges.
pub struct ChallengeWrite;
impl Scope for ChallengeWrite {
    const ANY_OF: &'static [&'static str] = &["challenge:write", "bot:play", "board:play"];
}

/// A request authenticated by a token with one of `S`'s scopes.
pub struct Bearer<S: Scope> {
    /// The token's user.
    pub user: User,
    /// The token (its stored row).
    pub token: TokenRow,
    /// Whether the user is a bot account.
    pub bot: bool,
    scope: PhantomData<S>,
}

/// The token of an `Authorization: Bearer` header, if the request has one.
fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (kind, token) = value.split_once(' ')?;
    kind.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The token `text` and its user, if it is a live token (from this
/// process's [`TokenCache`](super::token_cache::TokenCache) when fresh).
pub async fn lookup(app: &AppState, text: &str) -> ApiResult<Option<KnownToken>> {
    if !text.starts_with(TOKEN_PREFIX) || text.len() > 100 {
        return Ok(None);
    }
    let hash = sha256_hex(text);
    if let Some(known) = app.bots.tokens.get(&hash) {
        return Ok(Some(known));
    }
    let found = store::token_by_hash(&app.db, &hash).await?;
    if let Some(known) = &found {
        app.bots.tokens.put(&hash, known.clone());
    }
    Ok(found)
}

impl<S: Scope> FromRequestParts<AppState> for Bearer<S> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> ApiResult<Self> {
        let text = bearer_token(parts).ok_or_else(|| {
            ApiError::unauthorized(
                "no_token",
                "send a personal API token: Authorization: Bearer <token>",
            )
        })?;
        let KnownToken { token, user, bot } = lookup(app, text)
            .await?
            .ok_or_else(|| ApiError::unauthorized("no_such_token", "No such token"))?;
        if !S::ANY_OF.is_empty()
            && !S::ANY_OF
                .iter()
                .any(|s| token.scopes.iter().any(|t| t == s))
        {
            return Err(ApiError::forbidden(
                "missing_scope",
                format!("Missing scope: this needs one of {}", S::ANY_OF.join(", ")),
            ));
        }
        Ok(Bearer {
            user,
            token,
            bot,
            scope: PhantomData,
        })
    }
}

/// Body of `POST /api/account/tokens`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What the token is for (shown in the list).
    pub description: String,
    /// Its scopes, from [`SCOPES`].
    pub scopes: Vec<String>,
}

/// A token as listed (never the token itself, except once when made).
#[derive(Serialize)]
pub struct TokenInfo {
    /// Id, for revoking.
    pub id: String,
    /// What it is for.
    pub description: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// When it was made, ms since the epoch.
    pub created_at: i64,
    /// The token: only in the answer that made it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

impl From<TokenRow> for TokenInfo {
    fn from(row: TokenRow) -> TokenInfo {
        TokenInfo {
            id: row.id,
            description: row.description,
            scopes: row.scopes,
            created_at: row.created_at,
            token: None,
        }
    }
}

fn registered(user: &User) -> ApiResult<()> {
    if user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register or log in to make API tokens",
        ));
    }
    Ok(())
}

/// `POST /api/account/tokens`: makes a token; the answer shows it once.
pub async fn create(
    State(app): State<AppState>,
    Actor(s): Actor,
    client: crate::account::security::Client,
    Body(req): Body<NewToken>,
) -> ApiResult<(StatusCode, Json<TokenInfo>)> {
    registered(&s.user)?;
    let description = req.description.trim().to_string();
    if description.is_empty() || description.chars().count() > 100 {
        return Err(ApiError::bad_request(
            "invalid_description",
            "a token's description has 1 to 100 characters",
        ));
    }
    let mut scopes = Vec::new();
    for scope in req.scopes {
        if !SCOPES.contains(&scope.as_str()) {
            return Err(ApiError::bad_request(
                "invalid_scope",
                format!("unknown scope {scope:?}: use {}", SCOPES.join(", ")),
            ));
        }
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if store::tokens_of(&app.db, &s.user.id).await?.len() >= MAX_TOKENS {
        return Err(ApiError::conflict(
            "too_many_tokens",
            format!("at most {MAX_TOKENS} tokens: revoke one first"),
        ));
    }
    let token = format!("{TOKEN_PREFIX}{}", random_token());
    let row = TokenRow {
        id: random_id(12),
        description,
        scopes,
        created_at: app.now_ms(),
    };
    store::insert_token(&app.db, &s.user.id, &sha256_hex(&token), &row).await?;
    let what = Some(format!("{} ({})", row.description, row.scopes.join(" ")));
    let created = crate::account::security::event::TOKEN_CREATED;
    crate::account::security::log(&app, &s.user.id, created, Some(&client), what).await?;
    let mut info = TokenInfo::from(row);
    info.token = Some(token);
    Ok((StatusCode::CREATED, Json(info)))
}

/// `GET /api/account/tokens`: the session user's tokens.
pub async fn list(
    State(app): State<AppState>,
    Viewer(s): Viewer,
) -> ApiResult<Json<Vec<TokenInfo>>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    let rows = store::tokens_of(&app.db, &s.user.id).await?;
    Ok(Json(rows.into_iter().map(TokenInfo::from).collect()))
}

/// `DELETE /api/account/tokens/{id}`: revokes one of the session user's tokens.
pub async fn revoke(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    if !store::delete_token(&app.db, &s.user.id, &id).await? {
        return Err(ApiError::not_found(format!("you have no token {id:?}")));
    }
    app.bots.token_revoked(&id).await;
    Ok(Json(serde_json::json!({ "ok": true })))
}
