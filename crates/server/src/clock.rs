//! Time controls and the server-kept clock.
//!
//! One model serves both kinds: a Fischer clock (initial time, increment per
//! move, optional cap). Live games count minutes and seconds; correspondence
//! games count days (e.g. 30 days + 1 day per move, at most 45 days).

use crate::error::{ApiError, ApiResult};
use serde::{Deserialize, Serialize};

/// The kind of time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum TcKind {
    /// No clock.
    None,
    /// Minutes + increment, clocks running while a player thinks.
    Live,
    /// Days per move with a maximum.
    Correspondence,
}

impl TcKind {
    /// API/database name.
    pub fn name(self) -> &'static str {
        match self {
            TcKind::None => "none",
            TcKind::Live => "live",
            TcKind::Correspondence => "correspondence",
        }
    }
    /// Parses a database name.
    pub fn parse(text: &str) -> Option<TcKind> {
        match text {
            "none" => Some(TcKind::None),
            "live" => Some(TcKind::Live),
            "correspondence" => Some(TcKind::Correspondence),
            _ => None,
        }
    }
}

/// A time control as stored: everything in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct TimeControl {
    /// Kind.
    pub kind: TcKind,
    /// Time on each clock at the start.
    pub initial_ms: i64,
    /// Added to the mover's clock after each move.
    pub increment_ms: i64,
    /// A clock never holds more than this (0: no cap).
    pub max_ms: i64,
}

/// A time control as a client asks for it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlRequest {
    /// `none`, `live` or `correspondence`.
    pub kind: Option<TcKind>,
    /// Live: minutes on each clock (fractions allowed, at least 1/60).
    pub minutes: Option<f64>,
    /// Live: seconds added per move.
    pub increment: Option<f64>,
    /// Correspondence: days on each clock at the start.
    pub days: Option<f64>,
    /// Correspondence: days added per move (default 1).
    pub increment_days: Option<f64>,
    /// Correspondence: most days a clock may hold (default: `days`).
    pub max_days: Option<f64>,
}

const MINUTE: f64 = 60_000.0;
const DAY: f64 = 86_400_000.0;

fn in_range(name: &str, value: f64, lo: f64, hi: f64) -> ApiResult<f64> {
    if !value.is_finite() || value < lo || value > hi {
        return Err(ApiError::bad_request(
            "invalid_time_control",
            format!("{name} must be between {lo} and {hi}"),
        ));
    }
    Ok(value)
}

impl TimeControlRequest {
    /// Checks the request and converts it.
    pub fn resolve(&self) -> ApiResult<TimeControl> {
        match self.kind.unwrap_or(TcKind::None) {
            TcKind::None => Ok(TimeControl {
                kind: TcKind::None,
                initial_ms: 0,
                increment_ms: 0,
                max_ms: 0,
            }),
            TcKind::Live => {
                let minutes = in_range("minutes", self.minutes.unwrap_or(10.0), 1.0 / 60.0, 360.0)?;
                let inc = in_range("increment", self.increment.unwrap_or(0.0), 0.0, 180.0)?;
                Ok(TimeControl {
                    kind: TcKind::Live,
                    initial_ms: (minutes * MINUTE).round() as i64,
                    increment_ms: (inc * 1000.0).round() as i64,
                    max_ms: 0,
                })
            }
            TcKind::Correspondence => {
                let days = in_range("days", self.days.unwrap_or(3.0), 1.0 / 24.0, 60.0)?;
                let inc = in_range(
                    "increment_days",
                    self.increment_days.unwrap_or(1.0),
                    0.0,
                    30.0,
                )?;
                let max = in_range(
                    "max_days",
                    self.max_days.unwrap_or(days.max(inc)),
                    days.max(inc),
                    120.0,
                )?;
                Ok(TimeControl {
                    kind: TcKind::Correspondence,
                    initial_ms: (days * DAY).round() as i64,
                    increment_ms: (inc * DAY).round() as i64,
                    max_ms: (max * DAY).round() as i64,
                })
            }
        }
    }
}

impl TimeControl {
    /// Whether the clock runs at `ply` (moves made so far). Live clocks start
    /// after each side's first move; correspondence clocks from the start.
    pub fn runs_at(&self, ply: u32) -> bool {
        match self.kind {
            TcKind::None => false,
            TcKind::Live => ply >= 2,
            TcKind::Correspondence => true,
        }
    }
    /// The mover's clock after a move that left it `left` ms: plus increment, capped.
    pub fn after_move(&self, left: i64) -> i64 {
        let t = left + self.increment_ms;
        if self.max_ms > 0 {
            t.min(self.max_ms)
        } else {
            t
        }
    }
}
