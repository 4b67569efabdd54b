//! The rule options of a game.

use core::fmt;
use core::str::FromStr;

/// The rule set a game is played under (part of the game's settings and records).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The rules of RULES.md: a capturing king may continue in any direction,
    /// including straight back along the line it came (a 180-degree turn). Name `default`.
    #[default]
    Default,
    /// Option `no-reverse`: a capturing king continues only in the same or a perpendicular
    /// direction, never straight back.
    NoReverse,
}

impl Rules {
    /// Every rule set.
    pub const ALL: [Rules; 2] = [Rules::Default, Rules::NoReverse];

    /// The name used in settings, records and on the command line: `default` or `no-reverse`.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Default => "default",
            Rules::NoReverse => "no-reverse",
        }
    }

    /// Whether a capturing king may turn straight back between jumps.
    pub const fn king_may_reverse(self) -> bool {
        matches!(self, Rules::Default)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown rule-set name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesParseError(pub String);

impl fmt::Display for RulesParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown Mak-hot rules '{}' (expected 'default' or 'no-reverse')",
            self.0
        )
    }
}

impl std::error::Error for RulesParseError {}

impl FromStr for Rules {
    type Err = RulesParseError;
    /// Reads `default` or `no-reverse` (case-insensitive; `noreverse` and `no_reverse` too).
    fn from_str(s: &str) -> Result<Rules, RulesParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "default" | "" => Ok(Rules::Default),
            "no-reverse" | "noreverse" | "no_reverse" => Ok(Rules::NoReverse),
            _ => Err(RulesParseError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Rules::ALL {
            assert_eq!(r.name().parse::<Rules>(), Ok(r));
            assert_eq!(r.to_string(), r.name());
        }
        assert_eq!(Rules::default(), Rules::Default);
        assert!("reverse".parse::<Rules>().is_err());
    }
}
