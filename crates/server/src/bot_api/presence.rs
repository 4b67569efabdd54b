//! Who is playing and who is online, as lichess-bot asks:
//! `GET /api/account/playing` (the token's ongoing games),
//! `GET /api/bot/online` (bots with an event stream open, ndjson) and
//! `GET /api/users/status?ids=` (online and playing, by name).
//!
//! "Online" is lichess's sense for bots: an event stream open on this
//! server process.

use super::account::user_json;
use super::tokens::{AnyScope, Bearer};
use super::{shapes, store};
use crate::AppState;
use crate::account::store::{Registered, registered_by_name};
use crate::infra::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use games::Color;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Most bots `GET /api/bot/online` lists (lichess's `nb`, default and cap).
pub const MAX_ONLINE_LISTED: usize = 300;
/// Most users one `GET /api/users/status` asks about (lichess's limit).
pub const MAX_STATUS_IDS: usize = 100;

/// `GET /api/account/playing`: the token's ongoing games, most urgent first.
pub async fn playing(
    State(app): State<AppState>,
    auth: Bearer<AnyScope>,
) -> ApiResult<Json<Value>> {
    let (ids, _) = store::pending_of(&app.db, &auth.user.id).await?;
    let mut games = Vec::new();
    for id in ids {
        let view = app.games.view(&id, true).await?;
        let Some(side) = Color::BOTH
            .into_iter()
            .find(|s| view.player(*s).is_some_and(|p| p.id == auth.user.id))
        else {
            continue;
        };
        let opponent = view.player(side.other()).map(|p| p.id.clone());
        let opponent_bot = match opponent {
            Some(o) => store::is_bot(&app.db, &o).await?,
            None => false,
        };
        games.push(shapes::event_game(&view, side, opponent_bot));
    }
    games.sort_by_key(|g| !g["isMyTurn"].as_bool().unwrap_or(false));
    Ok(Json(json!({ "nowPlaying": games })))
}

/// `GET /api/bot/online[?nb=N]`: the bots online, one user per line (ndjson).
pub async fn online_bots(
    State(app): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let nb = match query.get("nb") {
        None => MAX_ONLINE_LISTED,
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_ONLINE_LISTED).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_parameter",
                    format!("nb must be a number from 1 to {MAX_ONLINE_LISTED}"),
                )
            })?,
    };
    let online = app.bots.online_users();
    let mut body = String::new();
    for (id, username, created_at) in store::users_by_id(&app.db, &online).await? {
        if body.lines().count() >= nb {
            break;
        }
        if store::is_bot(&app.db, &id).await? {
            body.push_str(
                &user_json(&app, &id, &username, created_at)
                    .await?
                    .to_string(),
            );
            body.push('\n');
        }
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// `GET /api/users/status?ids=a,b`: for each known name, whether the user is
/// online and whether they are playing.
pub async fn users_status(
    State(app): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Vec<Value>>> {
    let names: Vec<&str> = query
        .get("ids")
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() || names.len() > MAX_STATUS_IDS {
        return Err(ApiError::bad_request(
            "invalid_parameter",
            format!("ids must name 1 to {MAX_STATUS_IDS} users, separated by commas"),
        ));
    }
    let mut out = Vec::new();
    for name in names {
        let Some(Registered { id, username, .. }) = registered_by_name(&app.db, name).await? else {
            continue;
        };
        let (games, _) = store::pending_of(&app.db, &id).await?;
        let mut status = json!({ "id": username.to_lowercase(), "name": username, "online": app.bots.listens(&id) });
        if !games.is_empty() {
            status["playing"] = json!(true);
        }
        if store::is_bot(&app.db, &id).await? {
            status["title"] = json!("BOT");
        }
        out.push(status);
    }
    Ok(Json(out))
}
