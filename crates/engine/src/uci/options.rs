//! The engine's UCI options: the list `uci` answers with, and the plain
//! settings `setoption` changes (the session applies the others: the game,
//! the hash, the tables and the evaluation).

use super::Output;
use super::command::echo;
use crate::SearchParams;
use crate::eval::nnue::{self, Layout};

/// Lowest `UCI_Elo`.
pub(crate) const ELO_MIN: u32 = 500;
/// Highest `UCI_Elo` (and its default).
pub(crate) const ELO_MAX: u32 = 2850;

/// The UCI option that switches `layout`'s network on and off.
pub(crate) fn use_nnue_option(layout: Layout) -> &'static str {
    match layout {
        Layout::Makruk => "Use NNUE",
        Layout::Makhos => "Use NNUE Makhos",
    }
}

/// The `option name …` lines of the answer to `uci`, in order.
pub(crate) fn option_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "option name UCI_Variant type combo default makruk var makruk var cambodian var makhos",
        // `default` is a UCI keyword: the standard rules are `standard` here
        // (cutechess refuses an option line with a `var default`).
        "option name Makhos Rules type combo default standard var standard var no-reverse",
        "option name Hash type spin default 16 min 1 max 4096",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        // GUIs ponder only engines that declare it (`go ponder` and
        // `ponderhit` work whatever its value).
        "option name Ponder type check default false",
        "option name UCI_ShowWDL type check default false",
    ]
    .map(String::from)
    .into();
    let (lo, hi) = crate::SLOW_MOVER_RANGE;
    lines.push(format!(
        "option name Slow Mover type spin default {} min {lo} max {hi}",
        crate::SLOW_MOVER_DEFAULT
    ));
    lines.push("option name Skill Level type spin default 20 min 0 max 20".into());
    lines.push("option name UCI_LimitStrength type check default false".into());
    lines.push(format!(
        "option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"
    ));
    lines.push("option name Random Mover type check default false".into());
    lines.push("option name TablebasePath type string default <empty>".into());
    for layout in Layout::ALL {
        lines.push(format!(
            "option name {} type check default {}",
            use_nnue_option(layout),
            nnue::on_by_default(layout)
        ));
    }
    lines.push("option name EvalFile type string default <empty>".into());
    lines
}

/// The Mak-hot rules a `Makhos Rules` value names: `standard` (written
/// `default` before, still read) or `no-reverse`.
pub(crate) fn makhos_rules(value: &str) -> Result<makhos::Rules, String> {
    if value.trim().eq_ignore_ascii_case("standard") {
        return Ok(makhos::Rules::Default);
    }
    value
        .parse::<makhos::Rules>()
        .map_err(|_| format!("'{}' unknown (standard, no-reverse)", echo(value)))
}

/// `value` of option `name` as a number from `lo` to `hi`; anything else is
/// said and gives `None`.
pub(crate) fn number(out: &Output, name: &str, value: &str, lo: u64, hi: u64) -> Option<u64> {
    match value.parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => Some(v),
        _ => {
            out.say(&format!(
                "info string setoption {name}: '{}' is not a number from {lo} to {hi}",
                echo(value)
            ));
            None
        }
    }
}

/// The options that only change how the next search runs.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// `MultiPV`.
    pub(crate) multipv: usize,
    /// Search threads (`Threads`).
    pub(crate) threads: usize,
    /// `Move Overhead`, ms.
    pub(crate) overhead: u64,
    /// `Slow Mover`: percent of the planned time a clock-based search spends.
    pub(crate) slow_mover: u64,
    /// `Skill Level`.
    skill_level: u32,
    /// `UCI_LimitStrength`.
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: u32,
    /// Testing aid: answer `go` with a uniformly random legal move.
    pub(crate) random_mover: bool,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    pub(crate) show_wdl: bool,
    /// The search's tunable numbers: options not listed by `uci` (they are
    /// for tuning, see `thaiboard tune spsa`), each set by its name in
    /// [`crate::SEARCH_TUNABLES`].
    pub(crate) params: SearchParams,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            multipv: 1,
            threads: 1,
            overhead: 10,
            slow_mover: crate::SLOW_MOVER_DEFAULT,
            skill_level: 20,
            limit_strength: false,
            elo: ELO_MAX,
            random_mover: false,
            show_wdl: false,
            params: SearchParams::default(),
        }
    }
}

impl Settings {
    /// The skill the search plays at (`None`: full strength).
    pub(crate) fn skill(&self) -> Option<u32> {
        if self.limit_strength {
            let elo = self.elo.clamp(ELO_MIN, ELO_MAX);
            Some((elo - ELO_MIN) * 20 / (ELO_MAX - ELO_MIN))
        } else if self.skill_level < 20 {
            Some(self.skill_level)
        } else {
            None
        }
    }

    /// Sets option `name` (`lower` is its lower-case form) to `value`, saying
    /// what is wrong with a bad value; `false` when it is not one of these.
    pub(crate) fn set(&mut self, out: &Output, name: &str, lower: &str, value: &str) -> bool {
        let num = |lo: u64, hi: u64| number(out, name, value, lo, hi);
        let check = |option: &str| match value.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => {
                out.say(&format!("info string {option}: expected true or false"));
                None
            }
        };
        match lower {
            "threads" => {
                if let Some(n) = num(1, 256) {
                    self.threads = n as usize;
                }
            }
            "multipv" => {
                if let Some(n) = num(1, 256) {
                    self.multipv = n as usize;
                }
            }
            "move overhead" => {
                if let Some(n) = num(0, 5000) {
                    self.overhead = n;
                }
            }
            "slow mover" => {
                let (lo, hi) = crate::SLOW_MOVER_RANGE;
                if let Some(n) = num(lo, hi) {
                    self.slow_mover = n;
                }
            }
            "skill level" => {
                if let Some(n) = num(0, 20) {
                    self.skill_level = n as u32;
                }
            }
            "uci_limitstrength" => {
                if let Some(b) = check("UCI_LimitStrength") {
                    self.limit_strength = b;
                }
            }
            "uci_elo" => {
                if let Some(n) = num(ELO_MIN as u64, ELO_MAX as u64) {
                    self.elo = n as u32;
                }
            }
            "random mover" => {
                if let Some(b) = check("Random Mover") {
                    self.random_mover = b;
                }
            }
            "uci_showwdl" => {
                if let Some(b) = check("UCI_ShowWDL") {
                    self.show_wdl = b;
                }
            }
            _ => match crate::search_tunable_index(lower) {
                Some(i) => {
                    let t = &crate::SEARCH_TUNABLES[i];
                    let lo = i64::from(t.min);
                    let set = value
                        .trim()
                        .parse::<i64>()
                        .ok()
                        .and_then(|v| i32::try_from(v).ok())
                        .map(|v| self.params.set(t.name, v));
                    if !matches!(set, Some(Ok(()))) {
                        out.say(&format!(
                            "info string setoption {}: '{}' is not a number from {lo} to {}",
                            t.name,
                            echo(value),
                            t.max
                        ));
                    }
                }
                None => return false,
            },
        }
        true
    }
}
