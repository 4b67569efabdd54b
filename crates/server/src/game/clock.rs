//! Time controls and the server-kept clock.
//!
//! One model serves both kinds: a Fischer clock (initial time, increment per
//! move, optional cap). Live games count minutes and seconds; correspondence
//! games count days (e.g. 30 days + 1 day per move, at most 45 days).

use crate::infra::error::{ApiError, ApiResult};
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

const SECOND: f64 = 1000.0;
const MINUTE: f64 = 60_000.0;
const HOUR: f64 = 3_600_000.0;
const DAY: f64 = 86_400_000.0;

/// A duration in ms as a person writes it: `1 second`, `6 hours`,
/// `2.5 minutes`, `60 days` (the largest unit it is at least one of).
pub fn human_duration(ms: f64) -> String {
    let units = [
        (DAY, "day"),
        (HOUR, "hour"),
        (MINUTE, "minute"),
        (SECOND, "second"),
    ];
    let (size, name) = units
        .into_iter()
        .find(|(size, _)| ms.abs() >= *size)
        .unwrap_or((SECOND, "second"));
    let n = ms / size;
    let n = (n * 100.0).round() / 100.0;
    let plural = if n == 1.0 { "" } else { "s" };
    format!("{n} {name}{plural}")
}

/// `value` (in units of `unit` ms) if it lies in `lo..=hi`; else an error
/// that says, in words, what `what` must be and what was asked.
fn in_range(what: &str, value: f64, unit: f64, lo: f64, hi: f64) -> ApiResult<f64> {
    if !value.is_finite() || value < lo || value > hi {
        let asked = if value.is_finite() {
            human_duration(value * unit)
        } else {
            "a number that is none".to_string()
        };
        return Err(ApiError::bad_request(
            "invalid_time_control",
            format!(
                "{what} must be between {} and {}, not {asked}",
                human_duration(lo * unit),
                human_duration(hi * unit)
            ),
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
                let minutes = in_range(
                    "the time on each clock",
                    self.minutes.unwrap_or(10.0),
                    MINUTE,
                    1.0 / 60.0,
                    360.0,
                )?;
                let inc = in_range(
                    "the time added per move",
                    self.increment.unwrap_or(0.0),
                    SECOND,
                    0.0,
                    180.0,
                )?;
                Ok(TimeControl {
                    kind: TcKind::Live,
                    initial_ms: (minutes * MINUTE).round() as i64,
                    increment_ms: (inc * 1000.0).round() as i64,
                    max_ms: 0,
                })
            }
            TcKind::Correspondence => {
                let days = in_range(
                    "the time on each clock",
                    self.days.unwrap_or(3.0),
                    DAY,
                    1.0 / 24.0,
                    60.0,
                )?;
                let inc = in_range(
                    "the time added per move",
                    self.increment_days.unwrap_or(1.0),
                    DAY,
                    0.0,
                    30.0,
                )?;
                let max = in_range(
                    "the most a clock may hold",
                    self.max_days.unwrap_or(days.max(inc)),
                    DAY,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_writes_them() {
        assert_eq!(human_duration(1000.0), "1 second");
        assert_eq!(human_duration(0.0), "0 seconds");
        assert_eq!(human_duration(6.0 * HOUR), "6 hours");
        assert_eq!(human_duration(90_000.0), "1.5 minutes");
        assert_eq!(human_duration(60.0 * DAY), "60 days");
        assert_eq!(human_duration(HOUR), "1 hour");
    }

    #[test]
    fn out_of_range_time_controls_say_why_in_words() {
        let live = |minutes: f64| TimeControlRequest {
            kind: Some(TcKind::Live),
            minutes: Some(minutes),
            ..Default::default()
        };
        let e = live(0.0).resolve().unwrap_err();
        assert_eq!(
            e.message,
            "the time on each clock must be between 1 second and 6 hours, not 0 seconds"
        );
        let e = TimeControlRequest {
            kind: Some(TcKind::Correspondence),
            days: Some(100.0),
            ..Default::default()
        }
        .resolve()
        .unwrap_err();
        assert_eq!(
            e.message,
            "the time on each clock must be between 1 hour and 60 days, not 100 days"
        );
        assert!(
            live(f64::NAN)
                .resolve()
                .unwrap_err()
                .message
                .ends_with("not a number that is none")
        );
    }
}
