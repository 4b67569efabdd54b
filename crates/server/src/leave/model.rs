//! Leave as arithmetic, with no I/O: periods, the pauses they make in a
//! game's clock, the days they take from a yearly allowance in a player's
//! time zone, and the checks a booking must pass.
//!
//! A correspondence clock stands still while either player is on leave
//! (SchemingMind's rule: the player on leave neither moves nor receives
//! moves). So the time a player used on a turn is the wall time since the
//! turn began less the [`Pauses`] in it, and the turn's deadline is pushed
//! back by every pause that begins before it.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use std::collections::BTreeMap;

/// One day, ms.
pub const DAY_MS: i64 = 86_400_000;

/// How far ahead leave may start, in days.
pub const MAX_DAYS_AHEAD: i64 = 365;

/// Longest single period, in days (a year's allowance can be no longer).
pub const MAX_PERIOD_DAYS: i64 = 366;

/// A stretch of time `[start, end)`, ms since the epoch.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Period {
    /// First instant.
    pub start: i64,
    /// First instant after it.
    pub end: i64,
}

impl Period {
    /// Whether the two share an instant.
    pub fn overlaps(&self, other: &Period) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// Whether `t` lies in it.
    pub fn contains(&self, t: i64) -> bool {
        self.start <= t && t < self.end
    }
}

/// The moments a game's clock stands still: the union of its players'
/// leave, sorted and merged so that no two periods touch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pauses(Vec<Period>);

impl Pauses {
    /// The union of `periods` (in any order, overlapping or not).
    pub fn new(mut periods: Vec<Period>) -> Pauses {
        periods.retain(|p| p.end > p.start);
        periods.sort();
        let mut merged: Vec<Period> = Vec::with_capacity(periods.len());
        for p in periods {
            match merged.last_mut() {
                Some(last) if p.start <= last.end => last.end = last.end.max(p.end),
                _ => merged.push(p),
            }
        }
        Pauses(merged)
    }

    /// The merged periods, in time order.
    pub fn periods(&self) -> &[Period] {
        &self.0
    }

    /// How much of `[from, to)` lies in a pause, ms.
    pub fn paused_between(&self, from: i64, to: i64) -> i64 {
        self.0
            .iter()
            .map(|p| (p.end.min(to) - p.start.max(from)).max(0))
            .sum()
    }

    /// Clock time that ran in `[from, to)`: wall time less the pauses.
    pub fn running_between(&self, from: i64, to: i64) -> i64 {
        (to - from) - self.paused_between(from, to)
    }

    /// When a clock that starts at `from` with `budget` ms has run them all:
    /// `from + budget`, pushed back by every pause that begins before then.
    pub fn deadline(&self, from: i64, budget: i64) -> i64 {
        let (mut t, mut left) = (from, budget.max(0));
        for p in self.0.iter().filter(|p| p.end > from) {
            if p.start > t {
                let run = p.start - t;
                if run >= left {
                    return t + left;
                }
                left -= run;
            }
            t = t.max(p.end);
        }
        t + left
    }
}

/// A tournament's rule on leave (chosen when it is created).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LeaveRule {
    /// Leave stops the tournament's clocks like any other game's.
    Allowed,
    /// Leave does not stop the tournament's clocks.
    Forbidden,
    /// At most this many days of each player's leave, from the tournament's
    /// start, stop its clocks; the rest does not.
    Capped(i64),
}

impl LeaveRule {
    /// The stored form: name and cap in days.
    pub fn stored(self) -> (&'static str, i64) {
        match self {
            LeaveRule::Allowed => ("allowed", 0),
            LeaveRule::Forbidden => ("forbidden", 0),
            LeaveRule::Capped(days) => ("capped", days),
        }
    }

    /// Reads the stored form (anything unknown reads as allowed).
    pub fn from_stored(name: &str, cap_days: i64) -> LeaveRule {
        match name {
            "forbidden" => LeaveRule::Forbidden,
            "capped" => LeaveRule::Capped(cap_days.max(0)),
            _ => LeaveRule::Allowed,
        }
    }

    /// Of one player's `periods`, the parts that stop a game under this rule
    /// whose tournament started at `since`.
    pub fn apply(self, periods: &[Period], since: i64) -> Vec<Period> {
        match self {
            LeaveRule::Allowed => periods.to_vec(),
            LeaveRule::Forbidden => Vec::new(),
            LeaveRule::Capped(days) => {
                let mut left = days * DAY_MS;
                let mut sorted = periods.to_vec();
                sorted.sort();
                let mut out = Vec::new();
                for p in sorted {
                    let start = p.start.max(since);
                    if start >= p.end {
                        continue;
                    }
                    if left <= 0 {
                        break;
                    }
                    let end = p.end.min(start + left);
                    left -= end - start;
                    out.push(Period { start, end });
                }
                out
            }
        }
    }
}

/// Why a booking is refused; each says what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookingError {
    /// The first day is before today.
    #[error("leave cannot start in the past: today is {today} in {zone}, not {from}")]
    InThePast {
        /// Today in the player's zone.
        today: Date,
        /// The first day asked.
        from: Date,
        /// The player's zone.
        zone: String,
    },
    /// The last day is before the first.
    #[error("leave ends before it starts: {to} is before {from}")]
    EndsBeforeStart {
        /// The first day.
        from: Date,
        /// The last day.
        to: Date,
    },
    /// It starts too far ahead.
    #[error("leave may start at most {MAX_DAYS_AHEAD} days ahead (by {latest}), not on {from}")]
    TooFarAhead {
        /// The first day asked.
        from: Date,
        /// The last first day allowed.
        latest: Date,
    },
    /// It is longer than any allowance.
    #[error("one leave lasts at most {MAX_PERIOD_DAYS} days, not {days}")]
    TooLong {
        /// Days asked.
        days: i64,
    },
    /// It overlaps leave already booked.
    #[error("this leave overlaps your leave from {from} to {to}")]
    Overlaps {
        /// First day of the other leave.
        from: Date,
        /// Last day of the other leave.
        to: Date,
    },
    /// It needs more days than the allowance has left in a year.
    #[error("this leave needs {needed} days in {year}, but you have {left} of {allowance} left")]
    OverAllowance {
        /// The calendar year.
        year: i16,
        /// Days it would take in that year.
        needed: i64,
        /// Days left that year.
        left: i64,
        /// The yearly allowance.
        allowance: i64,
    },
}

/// A booking as asked: from the first day (or now, when `None`) to the last
/// day, both in the player's time zone and both taken whole.
#[derive(Copy, Clone, Debug)]
pub struct Booking {
    /// First day; `None`: from this moment.
    pub from: Option<Date>,
    /// Last day (leave ends at the following midnight).
    pub to: Date,
}

/// The local date of instant `ms` in `tz`.
pub fn local_date(ms: i64, tz: &TimeZone) -> Date {
    Timestamp::from_millisecond(ms)
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .to_zoned_datetime(tz.clone())
        .date()
}

/// The instant the day `date` begins in `tz`, ms.
pub fn day_start(date: Date, tz: &TimeZone) -> i64 {
    date.to_zoned_datetime(tz.clone())
        .map(|z| z.timestamp().as_millisecond())
        .unwrap_or(0)
}

/// The local days (in `tz`) that `period` touches, counted per year: a day
/// of leave is any day it covers, in whole or in part.
pub fn days_per_year(period: &Period, tz: &TimeZone) -> BTreeMap<i16, i64> {
    let mut out = BTreeMap::new();
    if period.end <= period.start {
        return out;
    }
    let (first, last) = (local_date(period.start, tz), local_date(period.end - 1, tz));
    let mut day = first;
    while day <= last {
        *out.entry(day.year()).or_insert(0) += 1;
        match day.tomorrow() {
            Ok(next) => day = next,
            Err(_) => break,
        }
    }
    out
}

/// All the local days of `periods`, per year.
pub fn used_per_year(periods: &[Period], tz: &TimeZone) -> BTreeMap<i16, i64> {
    let mut out = BTreeMap::new();
    for p in periods {
        for (year, days) in days_per_year(p, tz) {
            *out.entry(year).or_insert(0) += days;
        }
    }
    out
}

/// Checks `booking` at `now` for a player in `tz` with `existing` leave and
/// `allowance` days a year; the period to store.
pub fn book(
    booking: Booking,
    tz: &TimeZone,
    zone_name: &str,
    now: i64,
    existing: &[Period],
    allowance: i64,
) -> Result<Period, BookingError> {
    let today = local_date(now, tz);
    let from = booking.from.unwrap_or(today);
    if from < today {
        return Err(BookingError::InThePast {
            today,
            from,
            zone: zone_name.to_string(),
        });
    }
    if booking.to < from {
        return Err(BookingError::EndsBeforeStart {
            from,
            to: booking.to,
        });
    }
    let latest = today
        .checked_add(jiff::Span::new().days(MAX_DAYS_AHEAD))
        .unwrap_or(today);
    if from > latest {
        return Err(BookingError::TooFarAhead { from, latest });
    }
    let days = (booking.to - from).get_days() as i64 + 1;
    if days > MAX_PERIOD_DAYS {
        return Err(BookingError::TooLong { days });
    }
    // Today's leave (or leave from now) starts now: no leave in the past.
    let start = day_start(from, tz).max(now);
    let end = booking
        .to
        .tomorrow()
        .map(|d| day_start(d, tz))
        .unwrap_or(i64::MAX);
    let period = Period { start, end };
    if let Some(other) = existing
        .iter()
        .filter(|p| p.end > now)
        .find(|p| p.overlaps(&period))
    {
        return Err(BookingError::Overlaps {
            from: local_date(other.start, tz),
            to: local_date(other.end - 1, tz),
        });
    }
    let used = used_per_year(existing, tz);
    for (year, needed) in days_per_year(&period, tz) {
        let left = (allowance - used.get(&year).copied().unwrap_or(0)).max(0);
        if needed > left {
            return Err(BookingError::OverAllowance {
                year,
                needed,
                left,
                allowance,
            });
        }
    }
    Ok(period)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(start: i64, end: i64) -> Period {
        Period { start, end }
    }

    #[test]
    fn pauses_merge_overlapping_and_touching_periods() {
        let pauses = Pauses::new(vec![p(50, 60), p(10, 20), p(15, 30), p(30, 40), p(70, 70)]);
        assert_eq!(pauses.periods(), &[p(10, 40), p(50, 60)]);
    }

    #[test]
    fn a_clock_runs_only_outside_the_pauses() {
        let pauses = Pauses::new(vec![p(10, 20), p(30, 40)]);
        assert_eq!(pauses.running_between(0, 50), 30);
        assert_eq!(pauses.running_between(15, 35), 10);
        assert_eq!(pauses.running_between(12, 18), 0);
        assert_eq!(Pauses::default().running_between(0, 50), 50);
    }

    #[test]
    fn the_deadline_moves_by_exactly_the_pauses_before_it() {
        let pauses = Pauses::new(vec![p(10, 20), p(30, 40)]);
        assert_eq!(pauses.deadline(0, 5), 5);
        assert_eq!(pauses.deadline(0, 10), 10);
        assert_eq!(pauses.deadline(0, 11), 21);
        assert_eq!(pauses.deadline(0, 25), 45);
        // A turn that begins inside a pause starts when it ends.
        assert_eq!(pauses.deadline(12, 5), 25);
        assert_eq!(Pauses::default().deadline(7, 3), 10);
        // The deadline always leaves exactly the budget of running time.
        for from in 0..45 {
            for budget in 0..40 {
                let d = pauses.deadline(from, budget);
                assert_eq!(pauses.running_between(from, d), budget, "{from} {budget}");
            }
        }
    }

    #[test]
    fn a_capped_tournament_takes_only_the_first_days_of_leave() {
        let leave = [p(0, 2 * DAY_MS), p(5 * DAY_MS, 9 * DAY_MS)];
        let capped = LeaveRule::Capped(3).apply(&leave, DAY_MS);
        // From the tournament's start (day 1): one day of the first leave,
        // then two of the second.
        assert_eq!(
            capped,
            vec![p(DAY_MS, 2 * DAY_MS), p(5 * DAY_MS, 7 * DAY_MS)]
        );
        assert!(LeaveRule::Forbidden.apply(&leave, 0).is_empty());
        assert_eq!(LeaveRule::Allowed.apply(&leave, 0), leave.to_vec());
        assert_eq!(
            LeaveRule::from_stored("capped", 3),
            LeaveRule::Capped(3),
            "stored form reads back"
        );
    }

    fn date(text: &str) -> Date {
        text.parse().unwrap()
    }

    fn bangkok() -> TimeZone {
        TimeZone::get("Asia/Bangkok").unwrap()
    }

    /// 2026-11-24 12:00 in Bangkok (05:00 UTC).
    fn noon_in_bangkok() -> i64 {
        day_start(date("2026-11-24"), &bangkok()) + 12 * 3_600_000
    }

    #[test]
    fn days_are_whole_local_days_counted_in_the_players_zone() {
        let tz = bangkok();
        let start = day_start(date("2026-12-30"), &tz);
        let period = p(start, start + 4 * DAY_MS);
        let per_year = days_per_year(&period, &tz);
        assert_eq!(per_year.get(&2026), Some(&2));
        assert_eq!(per_year.get(&2027), Some(&2));
        // The same instants span five days in UTC (Bangkok is UTC+7).
        let utc = days_per_year(&period, &TimeZone::UTC);
        assert_eq!(utc.values().sum::<i64>(), 5);
    }

    /// Books `from` (a day, or now) to `to` in Bangkok at noon on 2026-11-24,
    /// with `existing` leave and an allowance of `allowance` days.
    fn book_in_bangkok(
        from: Option<&str>,
        to: &str,
        existing: &[Period],
        allowance: i64,
    ) -> Result<Period, BookingError> {
        let booking = Booking {
            from: from.map(date),
            to: date(to),
        };
        let now = noon_in_bangkok();
        book(
            booking,
            &bangkok(),
            "Asia/Bangkok",
            now,
            existing,
            allowance,
        )
    }

    #[test]
    fn a_booking_runs_from_local_midnight_to_the_midnight_after_its_last_day() {
        let tz = bangkok();
        let period = book_in_bangkok(Some("2026-12-01"), "2026-12-03", &[], 30).unwrap();
        assert_eq!(period.start, day_start(date("2026-12-01"), &tz));
        assert_eq!(period.end, day_start(date("2026-12-04"), &tz));
        assert_eq!(period.end - period.start, 3 * DAY_MS);
        // Leave from now, through tomorrow: starts this instant, two days used.
        let now_leave = book_in_bangkok(None, "2026-11-25", &[], 30).unwrap();
        assert_eq!(now_leave.start, noon_in_bangkok());
        assert_eq!(days_per_year(&now_leave, &tz).get(&2026), Some(&2));
    }

    #[test]
    fn bad_bookings_are_refused_with_the_reason() {
        let ask = |from: &str, to: &str, existing: &[Period], allowance: i64| {
            book_in_bangkok(Some(from), to, existing, allowance)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            ask("2026-11-20", "2026-11-30", &[], 30),
            "leave cannot start in the past: today is 2026-11-24 in Asia/Bangkok, not 2026-11-20"
        );
        assert_eq!(
            ask("2026-12-05", "2026-12-01", &[], 30),
            "leave ends before it starts: 2026-12-01 is before 2026-12-05"
        );
        assert_eq!(
            ask("2028-01-01", "2028-01-02", &[], 30),
            "leave may start at most 365 days ahead (by 2027-11-24), not on 2028-01-01"
        );
        assert_eq!(
            ask("2026-12-01", "2028-01-02", &[], 30),
            "one leave lasts at most 366 days, not 398"
        );
        let booked = book_in_bangkok(Some("2026-12-10"), "2026-12-20", &[], 30).unwrap();
        assert_eq!(
            ask("2026-12-20", "2026-12-22", &[booked], 30),
            "this leave overlaps your leave from 2026-12-10 to 2026-12-20"
        );
        assert_eq!(
            ask("2026-12-21", "2026-12-31", &[booked], 15),
            "this leave needs 11 days in 2026, but you have 4 of 15 left"
        );
        // The allowance is yearly: next year's days are free again.
        assert!(book_in_bangkok(Some("2027-01-01"), "2027-01-15", &[booked], 15).is_ok());
    }
}
