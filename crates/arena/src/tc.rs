//! Time controls (`10+0.1`, `40/60+0.5`, `1:30+1`) and the clock the
//! runner keeps for each side.

use std::fmt;
use std::str::FromStr;

/// A time control: a base time, an increment per move, and optionally a
/// number of moves after which the base time is added again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40` in `40/60`); `None` for the whole game.
    pub moves: Option<u32>,
    /// Base time in milliseconds.
    pub base_ms: u64,
    /// Increment per move in milliseconds.
    pub inc_ms: u64,
}

/// Reads seconds (`10`, `0.5`) or minutes and seconds (`1:30`) as ms.
fn parse_seconds(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not a time in seconds (e.g. 10, 0.5 or 1:30)");
    let (min, sec) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().map_err(|_| bad())?, s),
        None => (0, text),
    };
    let sec: f64 = sec.parse().map_err(|_| bad())?;
    if !(0.0..=1e9).contains(&sec) || min > 1_000_000 {
        return Err(bad());
    }
    Ok(min * 60_000 + (sec * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = String;

    /// `[moves/]base[+inc]`, times in seconds (or `m:ss`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 =
                    m.parse().ok().filter(|&m| m > 0).ok_or_else(|| {
                        format!("time control '{text}': '{m}' is not a move count")
                    })?;
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let wrap = |e: String| format!("time control '{text}': {e}");
        let base_ms = parse_seconds(base).map_err(wrap)?;
        let inc_ms = match inc {
            Some(i) => parse_seconds(i).map_err(wrap)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("time control '{text}': no time at all"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `[TimeControl]` form: `60+0.1`, `40/60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            if ms % 1000 == 0 {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", secs(self.inc_ms))?;
        }
        Ok(())
    }
}

/// One side's clock under a time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left in ms (negative once flagged within the margin).
    left_ms: i64,
    moves_made: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_ms: tc.base_ms as i64,
            moves_made: 0,
        }
    }

    /// Time left in ms, never below zero (what `go wtime` sends).
    pub fn left_ms(&self) -> u64 {
        self.left_ms.max(0) as u64
    }

    /// The increment in ms.
    pub fn inc_ms(&self) -> u64 {
        self.tc.inc_ms
    }

    /// Moves to the next time control, if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// Charges a move that took `used_ms`. Returns `false` if the flag fell
    /// (more than `margin_ms` past zero); otherwise adds the increment and,
    /// at the end of a period, the base time.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> bool {
        self.left_ms -= used_ms as i64;
        if self.left_ms < -(margin_ms as i64) {
            return false;
        }
        self.left_ms = self.left_ms.max(0) + self.tc.inc_ms as i64;
        self.moves_made += 1;
        if let Some(m) = self.tc.moves
            && self.moves_made % m == 0
        {
            self.left_ms += self.tc.base_ms as i64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            tc("10+0.1"),
            TimeControl {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(
            tc("40/60+0.5"),
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(tc("1:30").base_ms, 90_000);
        assert_eq!(tc("0+1").inc_ms, 1000);
        assert_eq!(tc("2.5").base_ms, 2500);
        assert_eq!(tc("10+0.1").to_string(), "10+0.1");
        assert_eq!(tc("40/60").to_string(), "40/60");
    }

    #[test]
    fn rejects_bad_time_controls() {
        for bad in [
            "", "abc", "10+", "+1", "0/10", "x/10", "10+y", "-5", "0", "0+0", "1:xx",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.contains("time control"), "{bad}: {e}");
        }
    }

    #[test]
    fn clock_charges_increment_and_flags() {
        let mut c = Clock::new(tc("1+0.1"));
        assert!(c.charge(300, 0));
        assert_eq!(c.left_ms(), 800);
        // Past zero by 50 ms with a 100 ms margin: still alive, no debt.
        assert!(c.charge(850, 100));
        assert_eq!(c.left_ms(), 100);
        assert!(!c.charge(250, 100));
    }

    #[test]
    fn clock_adds_base_after_a_period() {
        let mut c = Clock::new(tc("2/10"));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(1000, 0));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(1000, 0));
        assert_eq!(c.left_ms(), 18_000);
        assert_eq!(c.moves_to_go(), Some(2));
    }
}
