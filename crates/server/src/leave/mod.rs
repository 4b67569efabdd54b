//! Leave (vacation) for correspondence players, as SchemingMind has it.
//!
//! Each registered player has a yearly allowance of leave days
//! ([`crate::Config::leave_days`], `--leave-days`). Leave is booked ahead for
//! a range of days, or started at once; days are whole days in the player's
//! time zone (a setting), stored times are UTC. While a player is on leave
//! the clocks of their correspondence games stand still, whoever is to
//! move: [`crate::game::Game::time_left`] and `deadline` leave the pauses
//! out, so the timers that end games on time, the clocks shown and the
//! deadline mail all follow. Live games never stop; a tournament may forbid
//! leave or cap it (see [`model::LeaveRule`]).
//!
//! Routes, under `/api`:
//! - `GET /account/leave`: the allowance, the days used per year and the periods;
//! - `POST /account/leave` `{"from": "2026-12-01", "to": "2026-12-10"}` books
//!   leave (`from` left out: from this moment);
//! - `DELETE /account/leave/{id}`: cancels leave not begun, or ends running leave now.

pub mod model;
pub mod store;

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use crate::infra::util::random_id;
use axum::extract::{Path, State};
use axum::{Json, Router, routing::delete, routing::get};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use model::{Booking, Period};
use serde::{Deserialize, Serialize};

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/leave", get(list).post(add))
        .route("/account/leave/{id}", delete(remove))
}

/// Where a period stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum LeaveState {
    /// It has not begun.
    Booked,
    /// The player is on leave now.
    Running,
    /// It is over.
    Over,
}

/// A period of leave as its owner sees it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct LeaveItem {
    /// Its id (to cancel or end it).
    pub id: String,
    /// It begins, ms since the epoch.
    pub from: i64,
    /// It ends.
    pub until: i64,
    /// Its first day, in the player's time zone.
    pub first_day: String,
    /// Its last day.
    pub last_day: String,
    /// Days it takes from the allowance.
    pub days: i64,
    /// Booked, running or over.
    pub state: LeaveState,
}

/// One year's use of the allowance.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct YearUse {
    /// The calendar year.
    pub year: i16,
    /// Days taken or booked.
    pub used: i64,
    /// Days left.
    pub left: i64,
}

/// `GET /api/account/leave`.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct LeaveOverview {
    /// Days of leave a year.
    pub allowance_days: i64,
    /// The time zone days are counted in.
    pub time_zone: String,
    /// Today in that zone.
    pub today: String,
    /// This year's use, and every other year with leave.
    pub years: Vec<YearUse>,
    /// Every period, in time order.
    pub periods: Vec<LeaveItem>,
    /// When the running leave ends, if the player is on leave.
    pub on_leave_until: Option<i64>,
}

/// `POST /api/account/leave` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaveRequest {
    /// First day (`YYYY-MM-DD`); left out: from this moment.
    #[serde(default)]
    pub from: Option<String>,
    /// Last day (`YYYY-MM-DD`).
    pub to: String,
}

/// A player's time zone: their setting, or UTC.
pub async fn zone_of(app: &AppState, user_id: &str) -> ApiResult<(TimeZone, String)> {
    zone_in(&app.db, user_id).await
}

/// [`zone_of`] for callers that hold the database only (a game reading its
/// players' leave).
pub async fn zone_in(db: &crate::infra::db::Db, user_id: &str) -> ApiResult<(TimeZone, String)> {
    let name = crate::account::settings::of_db(db, user_id)
        .await?
        .time_zone;
    let tz = TimeZone::get(&name).unwrap_or(TimeZone::UTC);
    Ok((tz, name))
}

fn parse_day(field: &str, text: &str) -> ApiResult<Date> {
    text.trim().parse::<Date>().map_err(|_| {
        ApiError::bad_request(
            "invalid_date",
            format!("{field} must be a date written YYYY-MM-DD, not {text:?}"),
        )
    })
}

fn refuse_guests(guest: bool) -> ApiResult<()> {
    if guest {
        return Err(ApiError::forbidden(
            "account_required",
            "guests do not take leave: register to play correspondence games",
        ));
    }
    Ok(())
}

/// A period of leave as players read it: its first and last days
/// (inclusive, in the on-leave player's time zone) and how many days that is.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct LeaveDays {
    /// Its first day, `YYYY-MM-DD`.
    pub first_day: String,
    /// Its last day (inclusive), `YYYY-MM-DD`.
    pub last_day: String,
    /// Days from the first to the last, both counted.
    pub days: i64,
}

/// The days of `p` in time zone `tz`: the one inclusive form every page shows.
pub fn leave_days(p: &Period, tz: &TimeZone) -> LeaveDays {
    LeaveDays {
        first_day: model::local_date(p.start, tz).to_string(),
        last_day: model::local_date(p.end - 1, tz).to_string(),
        days: model::days_per_year(p, tz).values().sum(),
    }
}

/// The days of the leave `user_id` is on at `now`, or has booked next, in
/// their time zone.
pub async fn current_or_next_days(
    app: &AppState,
    user_id: &str,
    now: i64,
) -> ApiResult<Option<LeaveDays>> {
    let Some(p) = current_or_next(app, user_id, now).await? else {
        return Ok(None);
    };
    let (tz, _) = zone_of(app, user_id).await?;
    Ok(Some(leave_days(&p, &tz)))
}

/// The overview of `user_id`'s leave at `now`.
pub async fn overview(app: &AppState, user_id: &str, now: i64) -> ApiResult<LeaveOverview> {
    let (tz, zone) = zone_of(app, user_id).await?;
    let stored = store::of_user(&app.db, user_id).await?;
    let allowance = app.config.leave_days;
    let periods: Vec<Period> = stored.iter().map(|l| l.period).collect();
    let mut used = model::used_per_year(&periods, &tz);
    let today = model::local_date(now, &tz);
    used.entry(today.year()).or_insert(0);
    Ok(LeaveOverview {
        allowance_days: allowance,
        time_zone: zone,
        today: today.to_string(),
        years: used
            .into_iter()
            .map(|(year, used)| YearUse {
                year,
                used,
                left: (allowance - used).max(0),
            })
            .collect(),
        on_leave_until: periods.iter().find(|p| p.contains(now)).map(|p| p.end),
        periods: stored
            .into_iter()
            .map(|l| {
                let p = l.period;
                let LeaveDays {
                    first_day,
                    last_day,
                    days,
                } = leave_days(&p, &tz);
                LeaveItem {
                    id: l.id,
                    from: p.start,
                    until: p.end,
                    first_day,
                    last_day,
                    days,
                    state: if p.end <= now {
                        LeaveState::Over
                    } else if p.start <= now {
                        LeaveState::Running
                    } else {
                        LeaveState::Booked
                    },
                }
            })
            .collect(),
    })
}

/// Leave that `user_id` is on at `now`, or has booked next: (from, until).
pub async fn current_or_next(app: &AppState, user_id: &str, now: i64) -> ApiResult<Option<Period>> {
    Ok(store::periods(&app.db, user_id)
        .await?
        .into_iter()
        .find(|p| p.end > now))
}

async fn list(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<LeaveOverview>> {
    let Some(s) = s else {
        return Err(ApiError::unauthorized(
            "not_logged_in",
            "log in to see your leave",
        ));
    };
    refuse_guests(s.user.guest)?;
    let now = app.games.time.now_ms();
    Ok(Json(overview(&app, &s.user.id, now).await?))
}

async fn add(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<LeaveRequest>,
) -> ApiResult<Json<LeaveOverview>> {
    refuse_guests(s.user.guest)?;
    let booking = Booking {
        from: req
            .from
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| parse_day("from", t))
            .transpose()?,
        to: parse_day("to", &req.to)?,
    };
    let now = app.games.time.now_ms();
    let (tz, zone) = zone_of(&app, &s.user.id).await?;
    let existing = store::periods(&app.db, &s.user.id).await?;
    let period = model::book(booking, &tz, &zone, now, &existing, app.config.leave_days)
        .map_err(|e| ApiError::bad_request("invalid_leave", e.to_string()))?;
    store::insert(&app.db, &random_id(10), &s.user.id, period, now).await?;
    app.games.leave_changed(&s.user.id).await?;
    Ok(Json(overview(&app, &s.user.id, now).await?))
}

async fn remove(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<LeaveOverview>> {
    refuse_guests(s.user.guest)?;
    check_id(&id)?;
    let now = app.games.time.now_ms();
    let leave = store::of_user(&app.db, &s.user.id)
        .await?
        .into_iter()
        .find(|l| l.id == id)
        .ok_or_else(|| ApiError::not_found(format!("you have no leave {id:?}")))?;
    if leave.period.end <= now {
        return Err(ApiError::conflict(
            "leave_over",
            "this leave is over: it can no longer be changed",
        ));
    }
    if leave.period.start > now {
        store::delete(&app.db, &id, &s.user.id).await?;
    } else {
        store::end_at(&app.db, &id, &s.user.id, now).await?;
    }
    app.games.leave_changed(&s.user.id).await?;
    Ok(Json(overview(&app, &s.user.id, now).await?))
}
