//! Search limits and time management.

/// What limits a search, as in the UCI `go` command. Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
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
}

/// The time plan of one search: a soft limit (no new iteration after it) and
/// a hard limit (abort), in milliseconds; `None` when untimed.
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
            let t = mt.saturating_sub(self.overhead).max(1);
            return Plan {
                soft: Some(t),
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
        // Long controls (correspondence) just divide the clock the same way.
        let mtg = self.movestogo.unwrap_or(30).clamp(1, 50);
        let base = left / mtg + inc * 3 / 4;
        let hard_cap = if mtg == 1 { left * 9 / 10 } else { left / 3 };
        let hard = (base * 4).min(hard_cap).max(1);
        let soft = (base * 6 / 10).min(hard).max(1);
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
