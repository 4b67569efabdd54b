//! Search limits and time management.

/// What limits a search, as in the UCI `go` command. Times in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until stopped.
    pub infinite: bool,
    /// Milliseconds kept back for communication delays (`Move Overhead`).
    pub overhead: u64,
    /// When the `go` command arrived: the search's clock counts from here
    /// (the time to start the search thread is the mover's time too).
    /// `None`: from the start of the search.
    pub started: Option<std::time::Instant>,
    /// Percent of the planned time a clock-based search spends (UCI
    /// `Slow Mover`, as in Fairy-Stockfish; [`SLOW_MOVER_DEFAULT`] plans as
    /// designed). The caps that keep a clock from running out still hold.
    pub slow_mover: u64,
}

/// The `Slow Mover` default: the time plan as designed.
pub const SLOW_MOVER_DEFAULT: u64 = 100;
/// The `Slow Mover` bounds (those of Fairy-Stockfish).
pub const SLOW_MOVER_RANGE: (u64, u64) = (10, 1000);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            wtime: None,
            btime: None,
            winc: None,
            binc: None,
            movestogo: None,
            movetime: None,
            depth: None,
            nodes: None,
            infinite: false,
            overhead: 0,
            started: None,
            slow_mover: SLOW_MOVER_DEFAULT,
        }
    }
}

/// The longest a clock-based search starts new iterations (3 minutes):
/// correspondence-length clocks (days per move) still get an answer within
/// minutes. An explicit `movetime` is obeyed as given.
pub const MAX_SOFT_MS: u64 = 3 * 60 * 1000;
/// The longest a clock-based search runs at all (10 minutes).
pub const MAX_HARD_MS: u64 = 10 * 60 * 1000;

/// The reserve a clock with an increment keeps, in increments: no move
/// may take the clock below it (a move takes at most the increment less
/// the overhead plus what the clock holds above the reserve), so once the
/// base is spent each move takes at most the increment less the overhead,
/// the clock can only grow while the delays stay within the overhead, and
/// the reserve absorbs delays beyond it (a game of thousands of moves
/// cannot drift into a time loss).
pub const RESERVE_INCREMENTS: u64 = 10;

/// The most a move may take on a clock with an increment, from `left`
/// (the clock less the overhead): the increment less the overhead plus
/// what the clock holds above the reserve of [`RESERVE_INCREMENTS`]; below
/// the reserve, the increment less the overhead in proportion to how full
/// the reserve is (at least 1 ms). So a clock at or below its reserve
/// never plans past the increment less the overhead, and one that delays
/// beyond the overhead (a loaded machine) have pushed below the reserve
/// gains back more each move the lower it falls, settling where the
/// delays are paid for instead of drifting to a time loss. `None` when
/// the increment does not exceed the overhead (no cap from it).
pub(crate) fn increment_cap(left: u64, inc: u64, overhead: u64) -> Option<u64> {
    let inc_budget = inc.checked_sub(overhead).filter(|&b| b > 0)?;
    let reserve = inc.saturating_mul(RESERVE_INCREMENTS);
    Some(if left >= reserve {
        inc_budget.saturating_add(left - reserve)
    } else {
        let share = u128::from(inc_budget) * u128::from(left) / u128::from(reserve);
        (share as u64).max(1)
    })
}

/// The share of a fixed `go movetime` kept back for the answer to reach
/// the GUI: one fiftieth of it (at least 1 ms), never more than the
/// `overhead`. So 100 ms searches 98 ms and a second 990 ms (with the
/// default overhead of 10 ms); the overhead of clocks, meant for delays
/// that add up over a game, would take a tenth of a 100 ms move.
pub(crate) fn movetime_reserve(movetime: u64, overhead: u64) -> u64 {
    (movetime / 50).max(1).min(overhead)
}

/// The time plan of one search: a soft limit (no new iteration after it;
/// it stretches and shrinks with the best move's stability) and a hard
/// limit (abort), in milliseconds; `None` when untimed. A fixed move time
/// has no soft limit: it is searched whole.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

impl Limits {
    /// The time plan for the side to move (`white` = White to move).
    pub(crate) fn plan(&self, white: bool) -> Plan {
        if self.infinite {
            return Plan {
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = self.movetime {
            // The GUI gives the search this time (Fairy-Stockfish searches
            // all of it): keep back only what the answer needs to arrive
            // in time, never more than the overhead. No soft limit, so a
            // stable best move does not end the search early.
            let t = mt
                .saturating_sub(movetime_reserve(mt, self.overhead))
                .max(1);
            return Plan {
                soft: None,
                hard: Some(t),
            };
        }
        let (time, inc) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        let Some(time) = time else {
            return Plan {
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or(0);
        let left = time.saturating_sub(self.overhead).max(1);
        // Long controls (correspondence) divide the clock the same way, but
        // no move takes more than MAX_HARD_MS.
        // Without a move count, plan for 22 more moves: Makruk games are
        // decided in the middlegame, so early moves get more than a share
        // of a long game (Fairy-Stockfish spends about as much).
        let mtg = self.movestogo.unwrap_or(22).clamp(1, 50);
        let slow_mover = self
            .slow_mover
            .clamp(SLOW_MOVER_RANGE.0, SLOW_MOVER_RANGE.1);
        let base = (left / mtg)
            .saturating_add(inc / 4 * 3)
            .saturating_mul(slow_mover)
            / SLOW_MOVER_DEFAULT;
        let hard_cap = if mtg == 1 { left / 10 * 9 } else { left / 3 };
        let mut hard = base.saturating_mul(4).min(hard_cap).clamp(1, MAX_HARD_MS);
        hard = hard.min(increment_cap(left, inc, self.overhead).unwrap_or(u64::MAX));
        let soft = (base / 20 * 13).min(hard).clamp(1, MAX_SOFT_MS);
        Plan {
            soft: Some(soft),
            hard: Some(hard),
        }
    }
}

impl Limits {
    /// `Some(true)` when a node limit is set and reached.
    pub(crate) fn node_limit_reached(&self, nodes: u64) -> Option<bool> {
        self.nodes.map(|n| nodes >= n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(limits: Limits) -> Plan {
        limits.plan(true)
    }

    #[test]
    fn correspondence_clocks_are_capped_to_minutes() {
        let month = 30 * 24 * 3600 * 1000;
        let p = plan(Limits {
            wtime: Some(month),
            btime: Some(month),
            ..Limits::default()
        });
        assert_eq!(p.soft, Some(MAX_SOFT_MS));
        assert_eq!(p.hard, Some(MAX_HARD_MS));
        // A huge increment too, and no overflow with absurd numbers.
        let p = plan(Limits {
            wtime: Some(u64::MAX),
            winc: Some(u64::MAX),
            movestogo: Some(1),
            ..Limits::default()
        });
        assert_eq!(p.hard, Some(MAX_HARD_MS));
        assert!(p.soft.unwrap() <= MAX_SOFT_MS);
    }

    #[test]
    fn a_spent_clock_leaves_each_move_the_increment_less_the_overhead() {
        // 0.05 s increments, 10 ms overhead: once the base is spent (here
        // clocks from 0 to the threshold), no move may plan past 40 ms.
        for time in [0, 1, 5, 20, 50, 60, 100, 200, 300, 499, 509] {
            let p = plan(Limits {
                wtime: Some(time),
                winc: Some(50),
                overhead: 10,
                ..Limits::default()
            });
            assert!(p.hard.unwrap() <= 40, "clock {time}: {p:?}");
            assert!(p.soft.unwrap() <= p.hard.unwrap(), "clock {time}: {p:?}");
        }
        // A clock well above the increments may spend more than one.
        let p = plan(Limits {
            wtime: Some(5_000),
            winc: Some(50),
            overhead: 10,
            ..Limits::default()
        });
        assert!(p.hard.unwrap() > 50, "{p:?}");
    }

    #[test]
    fn a_long_game_at_a_tiny_increment_keeps_its_reserve() {
        // The clock of a 3,000-move game at 1+0.05 where every move uses
        // its whole hard limit plus delays up to the overhead: it never
        // falls below the reserve of ten increments.
        for delay in [0, 5, 10] {
            let mut clock: i64 = 1_000;
            for _ in 0..3_000 {
                let p = plan(Limits {
                    wtime: Some(clock as u64),
                    winc: Some(50),
                    overhead: 10,
                    ..Limits::default()
                });
                clock -= p.hard.unwrap() as i64 + delay;
                assert!(clock >= 500 - 50, "delay {delay}: clock {clock}");
                clock += 50;
            }
        }
        // A clock below the reserve (after a stall) grows back by the
        // overhead less the delay each move.
        let mut clock: i64 = 100;
        for _ in 0..40 {
            let p = plan(Limits {
                wtime: Some(clock as u64),
                winc: Some(50),
                overhead: 10,
                ..Limits::default()
            });
            clock += 50 - p.hard.unwrap() as i64 - 5;
        }
        assert!(clock >= 100 + 40 * 5, "clock {clock}");
    }

    /// Replays games at tiny controls (0.5+0.03 and 1+0.05) through the
    /// plan: at or below the reserve no move plans past the increment
    /// less the overhead, above it no move past the increment less the
    /// overhead plus the clock above the reserve; and with every move
    /// spending its whole hard limit plus a delay of up to twice the
    /// overhead (a loaded machine; less than the increment), the clock
    /// settles where the budget pays for the delays, never lower (a
    /// cushion for stalls), in 5,000 moves.
    #[test]
    fn tiny_controls_cap_each_move_and_never_drift_out() {
        for (base, inc) in [(500u64, 30u64), (1_000, 50)] {
            for overhead in [0u64, 10, 20] {
                // Delays must stay below the increment for any plan to last.
                for delay in [0, overhead, 2 * overhead].into_iter().filter(|&d| d < inc) {
                    let mut clock = base as i64;
                    let reserve = (inc * RESERVE_INCREMENTS) as i64;
                    // Where the clock settles: the move budget below the
                    // reserve, (inc - overhead) * left / reserve, equals
                    // inc - delay. Rounding costs up to an increment.
                    let settled = reserve * (inc - delay) as i64 / (inc - overhead) as i64;
                    let floor = settled.min(reserve) - inc as i64;
                    for mv in 0..5_000 {
                        let p = plan(Limits {
                            wtime: Some(clock.max(0) as u64),
                            winc: Some(inc),
                            overhead,
                            ..Limits::default()
                        });
                        let hard = p.hard.unwrap() as i64;
                        let left = clock - overhead as i64;
                        let cap = (inc - overhead) as i64 + (left - reserve).max(0);
                        assert!(
                            hard <= cap.max(1),
                            "{base}+{inc} overhead {overhead} move {mv}: clock {clock}, {p:?}"
                        );
                        assert!(p.soft.unwrap() <= p.hard.unwrap());
                        clock -= hard + delay as i64;
                        assert!(
                            clock >= floor,
                            "{base}+{inc} overhead {overhead} delay {delay} move {mv}: clock {clock}"
                        );
                        clock += inc as i64;
                    }
                }
            }
        }
    }

    #[test]
    fn slow_mover_scales_the_plan_within_the_caps() {
        let at = |slow_mover| {
            plan(Limits {
                wtime: Some(300_000),
                slow_mover,
                ..Limits::default()
            })
        };
        let base = 13_636;
        assert_eq!(
            at(SLOW_MOVER_DEFAULT),
            plan(Limits {
                wtime: Some(300_000),
                ..Limits::default()
            })
        );
        assert_eq!(at(150).soft, Some(base * 3 / 2 / 20 * 13));
        assert_eq!(at(50).hard, Some(base / 2 * 4));
        // Out-of-range values count as the nearest bound.
        assert_eq!(at(0), at(SLOW_MOVER_RANGE.0));
        assert_eq!(at(u64::MAX), at(SLOW_MOVER_RANGE.1));
        // The caps hold however slow: a third of the clock ...
        assert_eq!(at(SLOW_MOVER_RANGE.1).hard, Some(100_000));
        // ... and the increment's cap at a tiny control.
        let p = plan(Limits {
            wtime: Some(500),
            winc: Some(50),
            overhead: 10,
            slow_mover: SLOW_MOVER_RANGE.1,
            ..Limits::default()
        });
        assert!(p.hard.unwrap() <= 40, "{p:?}");
    }

    #[test]
    fn the_increment_cap_by_hand() {
        // 1+0.05, 10 ms overhead: reserve 500 ms.
        assert_eq!(increment_cap(990, 50, 10), Some(40 + 490));
        assert_eq!(increment_cap(500, 50, 10), Some(40));
        assert_eq!(increment_cap(250, 50, 10), Some(20));
        assert_eq!(increment_cap(0, 50, 10), Some(1));
        // No increment beyond the overhead: no cap from it.
        assert_eq!(increment_cap(1_000, 10, 10), None);
        assert_eq!(increment_cap(1_000, 0, 10), None);
        assert_eq!(increment_cap(u64::MAX, u64::MAX, 0), Some(u64::MAX));
    }

    #[test]
    fn ordinary_clocks_divide_the_remaining_time() {
        // 5 minutes, 22 moves assumed: 13.6 s a move, soft 65% of it,
        // hard four times it.
        let p = plan(Limits {
            wtime: Some(300_000),
            ..Limits::default()
        });
        assert_eq!(p.soft, Some(13_636 / 20 * 13));
        assert_eq!(p.hard, Some(13_636 * 4));
        // The last move before the control may use most of the clock.
        let p = plan(Limits {
            wtime: Some(10_000),
            movestogo: Some(1),
            ..Limits::default()
        });
        assert_eq!(p.hard, Some(9_000));
        // Black's clock is used for Black.
        let l = Limits {
            wtime: Some(1_000),
            btime: Some(300_000),
            ..Limits::default()
        };
        assert_eq!(l.plan(false).soft, Some(13_636 / 20 * 13));
        // An explicit move time is obeyed, however long.
        let p = plan(Limits {
            movetime: Some(3_600_000),
            ..Limits::default()
        });
        assert_eq!(p.hard, Some(3_600_000));
        // A short one is searched nearly whole: the overhead is only a cap
        // on what is kept back.
        for (movetime, overhead, searched) in [
            (100, 10, 98),
            (100, 0, 100),
            (1_000, 10, 990),
            (10_000, 30, 9_970),
            (20, 10, 19),
            (1, 10, 1),
            (0, 10, 1),
        ] {
            let p = plan(Limits {
                movetime: Some(movetime),
                overhead,
                ..Limits::default()
            });
            assert_eq!(
                p.hard,
                Some(searched),
                "movetime {movetime}, overhead {overhead}"
            );
            assert_eq!(p.soft, None, "searched whole");
        }
        assert_eq!(plan(Limits::default()).hard, None);
    }
}
