//! The part of lichess's HTTP API that lichess-bot and the berserk client
//! use, so that bots written for lichess play here:
//!
//! - [`tokens`]: personal API tokens with scopes, and the `Bearer` extractor;
//! - [`account`]: `GET /api/account`, `GET /api/user/{name}`,
//!   `POST /api/token/test`, the bot upgrade;
//! - [`events`]: the event stream `GET /api/stream/event` (fed by the game
//!   service's event bus);
//! - [`game_stream`]: `GET /api/bot/game/stream/{id}`;
//! - [`actions`]: moves, resigning, aborting and chat in a bot's game;
//! - [`challenges`]: challenging, accepting, declining and cancelling;
//! - [`shapes`]: lichess's JSON shapes; [`hub`]: channels and stream
//!   limits; [`ndjson`]: streaming answers; [`params`]: form or JSON bodies;
//!   [`store`]: the SQL.
//!
//! Every game action goes through [`crate::game::Games`]: the model checks
//! the player, the turn and the rules; nothing here knows a rule.

pub mod account;
pub mod actions;
pub mod challenges;
pub mod events;
pub mod game_stream;
pub mod hub;
pub mod ndjson;
pub mod params;
pub mod presence;
pub mod shapes;
pub mod store;
pub mod token_cache;
pub mod tokens;

pub use events::subscribe;
pub use hub::BotHub;

use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use axum::Router;
use axum::routing::{delete, get, post};

/// The Bot API's routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/tokens", get(tokens::list).post(tokens::create))
        .route("/account/tokens/{id}", delete(tokens::revoke))
        .route("/account", get(account::account))
        .route("/account/playing", get(presence::playing))
        .route("/bot/online", get(presence::online_bots))
        .route("/users/status", get(presence::users_status))
        .route("/user/{name}", get(account::user))
        .route("/token/test", post(account::token_test))
        .route("/bot/account/upgrade", post(account::upgrade))
        .route("/stream/event", get(events::stream))
        .route("/bot/game/stream/{id}", get(game_stream::stream))
        .route("/bot/game/{id}/move/{mv}", post(actions::play_move))
        .route("/bot/game/{id}/resign", post(actions::resign))
        .route("/bot/game/{id}/abort", post(actions::abort))
        .route("/bot/game/{id}/chat", post(actions::chat))
        .route("/bot/game/{id}/takeback/{answer}", post(actions::takeback))
        .route("/challenge/{name}", post(challenges::create))
        .route("/challenge/{id}/accept", post(challenges::accept))
        .route("/challenge/{id}/decline", post(challenges::decline))
        .route("/challenge/{id}/cancel", post(challenges::cancel))
}

/// Refuses a token whose user is not a bot account: the `/api/bot/...`
/// routes are for bots, as on lichess.
pub fn require_bot<S: tokens::Scope>(auth: &tokens::Bearer<S>) -> ApiResult<()> {
    if !auth.bot {
        return Err(ApiError::forbidden(
            "not_a_bot",
            "this endpoint is for bot accounts: upgrade with POST /api/bot/account/upgrade",
        ));
    }
    Ok(())
}

/// The `{"ok": true}` answer of lichess's actions.
pub fn ok() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({ "ok": true }))
}

/// 429 for a token that holds as many streams as it may.
pub fn too_many_streams() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::TOO_MANY_REQUESTS,
        "too_many_streams",
        format!(
            "this token has {} streams open already: close one first",
            hub::MAX_STREAMS_PER_TOKEN
        ),
    )
}
