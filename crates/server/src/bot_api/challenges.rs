//! Challenges as lichess takes them: `POST /api/challenge/{username}`
//! (form-encoded or JSON: `rated`, `clock.limit`, `clock.increment`, `days`,
//! `color`, `variant`), then `/api/challenge/{id}/accept`, `/decline` and
//! `/cancel`, mapped onto the game service's challenges (a challenge's id
//! is its game's). Variant keys are `makruk`, `cambodian` and `makhos`.

use super::params::Params;
use super::tokens::{Bearer, ChallengeWrite};
use super::{ok, shapes, store};
use crate::AppState;
use crate::account::store::registered_by_name;
use crate::game::clock::{TcKind, TimeControlRequest};
use crate::game::{ChallengeRequest, PlayerView, kind_of};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::check_id;
use axum::Json;
use axum::extract::{Path, Query, State};
use games::GameKind;
use serde_json::{Value, json};
use std::collections::HashMap;

/// lichess's reasons for declining (`reason`).
pub const DECLINE_REASONS: [&str; 11] = [
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "standard",
    "variant",
    "noBot",
    "onlyBot",
];

/// Checks a variant key of the Bot API.
fn variant_key(key: &str) -> ApiResult<&str> {
    if !GameKind::VARIANT_NAMES.contains(&key) {
        return Err(ApiError::bad_request(
            "invalid_variant",
            format!("unknown variant {key:?}: the keys are makruk, cambodian and makhos"),
        ));
    }
    Ok(key)
}

/// The time control of `clock.limit` + `clock.increment` (seconds) or
/// `days` (per move); none when neither is sent.
fn time_control(p: &Params) -> ApiResult<Option<TimeControlRequest>> {
    let limit = p.number("clock.limit")?;
    let increment = p.number("clock.increment")?;
    let days = p.number("days")?;
    match (limit, days) {
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "invalid_time_control",
            "send either clock.limit (a live game) or days (correspondence), not both",
        )),
        (Some(limit), None) => Ok(Some(TimeControlRequest {
            kind: Some(TcKind::Live),
            minutes: Some(f64::from(limit) / 60.0),
            increment: Some(f64::from(increment.unwrap_or(0))),
            ..Default::default()
        })),
        // Days per move: the clock is refilled to `days` after each move.
        (None, Some(days)) => Ok(Some(TimeControlRequest {
            kind: Some(TcKind::Correspondence),
            days: Some(f64::from(days)),
            increment_days: Some(f64::from(days)),
            max_days: Some(f64::from(days)),
            ..Default::default()
        })),
        (None, None) => Ok(None),
    }
}

/// `POST /api/challenge/{username}`: challenges a user; answers the
/// challenge in lichess's shape.
pub async fn create(
    State(app): State<AppState>,
    auth: Bearer<ChallengeWrite>,
    Path(name): Path<String>,
    params: Params,
) -> ApiResult<Json<Value>> {
    let variant = variant_key(params.get("variant").unwrap_or("makruk"))?;
    let rules = params.get("rules").map(str::to_string);
    kind_of(variant, rules.as_deref())?;
    let rated = params.flag("rated", false)?;
    let time_control = time_control(&params)?;
    let found = registered_by_name(&app.db, &name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user named {name:?}")))?;
    let (dest_id, dest_name) = found.open().map(|p| (p.id, p.username)).ok_or_else(|| {
        ApiError::bad_request("account_closed", format!("{name} has closed their account"))
    })?;
    let bots = (
        store::is_bot(&app.db, &auth.user.id).await?,
        store::is_bot(&app.db, &dest_id).await?,
    );
    if rated && bots.0 != bots.1 {
        return Err(ApiError::bad_request(
            "rated_bot",
            "a bot account plays people in casual games only: send rated=false",
        ));
    }
    let req = ChallengeRequest {
        variant: variant.to_string(),
        rules,
        color: params.get("color").map(str::to_string),
        time_control,
        opponent: Some(dest_name.clone()),
        rated: Some(rated),
        fen: params.get("fen").map(str::to_string),
    };
    let view = app.games.create_challenge(&auth.user, req).await?;
    let dest = PlayerView {
        id: dest_id,
        username: dest_name,
        rating: None,
        rating_diff: None,
    };
    let mut challenge = shapes::challenge(&view, &dest, bots, "created");
    challenge["direction"] = json!("out");
    Ok(Json(challenge))
}

/// `POST /api/challenge/{id}/accept`; a `variant` (in the body or the
/// query) must be the challenge's.
pub async fn accept(
    State(app): State<AppState>,
    auth: Bearer<ChallengeWrite>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    params: Params,
) -> ApiResult<Json<Value>> {
    check_id(&id)?;
    let view = app.games.view(&id, false).await?;
    let asked = params
        .get("variant")
        .or(query.get("variant").map(String::as_str));
    if let Some(key) = asked
        && variant_key(key)? != view.variant
    {
        return Err(ApiError::conflict(
            "variant_mismatch",
            format!("this challenge is for {}, not {key}", view.variant),
        ));
    }
    app.games.accept(&auth.user, &id).await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/decline` with an optional `reason`.
pub async fn decline(
    State(app): State<AppState>,
    auth: Bearer<ChallengeWrite>,
    Path(id): Path<String>,
    params: Params,
) -> ApiResult<Json<Value>> {
    check_id(&id)?;
    let reason = params.get("reason").unwrap_or("generic");
    if !DECLINE_REASONS.contains(&reason) {
        return Err(ApiError::bad_request(
            "invalid_reason",
            format!("reason must be one of {}", DECLINE_REASONS.join(", ")),
        ));
    }
    app.bots.set_declining(&id, Some(reason)).await;
    let done = app.games.decline(&auth.user, &id).await;
    if done.is_err() {
        app.bots.set_declining(&id, None).await;
    }
    done?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws it.
pub async fn cancel(
    State(app): State<AppState>,
    auth: Bearer<ChallengeWrite>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    check_id(&id)?;
    app.games.cancel(&auth.user, &id).await?;
    Ok(ok())
}
