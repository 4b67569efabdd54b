//! TV: the highest-rated game in progress of each game type
//! (`makruk`, `cambodian`, `makhos`), chosen by
//! [`crate::game::lists::tv_game`]. `GET /api/tv/channels` answers every
//! type at once, `GET /api/tv/{variant}` one; each channel is
//! `{"game": GameSummary | null, "spectators": N}`. The page `/tv/{variant}`
//! watches the channel's game over its socket and asks again when it ends,
//! so it switches to the next.

use crate::AppState;
use crate::game::GameSummary;
use crate::game::lists;
use crate::infra::error::{ApiError, ApiResult};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use games::GameKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tv/channels", get(channels))
        .route("/tv/{variant}", get(channel))
}

/// One game type's TV.
#[derive(Debug, Serialize)]
pub struct Channel {
    /// The game shown, if any game of the type is in progress.
    pub game: Option<GameSummary>,
    /// Its spectators now (this process's sockets).
    pub spectators: usize,
}

async fn channel_of(app: &AppState, variant: &str) -> ApiResult<Channel> {
    let game = lists::tv_game(&app.db, variant).await?;
    let spectators = game.as_ref().map_or(0, |g| app.spectators.count(&g.id));
    Ok(Channel { game, spectators })
}

/// `GET /api/tv/channels`: every game type's channel, by type.
async fn channels(State(app): State<AppState>) -> ApiResult<Json<BTreeMap<&'static str, Channel>>> {
    let mut out = BTreeMap::new();
    for variant in GameKind::VARIANT_NAMES {
        out.insert(variant, channel_of(&app, variant).await?);
    }
    Ok(Json(out))
}

/// `GET /api/tv/{variant}`: one type's channel.
async fn channel(
    State(app): State<AppState>,
    Path(variant): Path<String>,
) -> ApiResult<Json<Channel>> {
    let Some(variant) = GameKind::VARIANT_NAMES.into_iter().find(|v| *v == variant) else {
        return Err(ApiError::not_found(format!(
            "no TV channel {variant:?}: one of {}",
            GameKind::VARIANT_NAMES.join(", ")
        )));
    };
    Ok(Json(channel_of(&app, variant).await?))
}
