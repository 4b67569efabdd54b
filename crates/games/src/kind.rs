//! [`GameKind`]: which game, and under which rule option.

use std::fmt;
use std::str::FromStr;

/// Which game is played, with the rules that decide it: Makruk or Ouk
/// Chatrang (a [`makruk::Variant`]), or Mak-hot under a [`makhos::Rules`]
/// option. Stored and sent as two names, the variant
/// ([`GameKind::variant_name`]) and the rule option
/// ([`GameKind::rules_name`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Makruk or Ouk Chatrang.
    Makruk(makruk::Variant),
    /// Mak-hot under a rule option.
    Makhos(makhos::Rules),
}

/// Why a game's names were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameKindError {
    /// No game has this name.
    UnknownVariant(String),
    /// The game has no such rule option.
    UnknownRules {
        /// The game, by its name.
        variant: &'static str,
        /// The option asked for.
        rules: String,
    },
}

impl fmt::Display for GameKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameKindError::UnknownVariant(name) => write!(
                f,
                "unknown variant {name:?}: use {}",
                GameKind::VARIANT_NAMES.join(", ")
            ),
            GameKindError::UnknownRules { variant, rules } => {
                let options = GameKind::rule_options(variant);
                write!(
                    f,
                    "unknown rule option {rules:?} for {variant}; expected one of {options:?}"
                )
            }
        }
    }
}

impl std::error::Error for GameKindError {}

/// The name of every rule option that is not a game's default.
const NO_REVERSE: &str = "no-reverse";
/// The default rule option's name, for every game.
const DEFAULT_RULES: &str = "default";

impl GameKind {
    /// Makruk, Thai chess.
    pub const MAKRUK: GameKind = GameKind::Makruk(makruk::Variant::Makruk);
    /// Ouk Chatrang, Cambodian chess.
    pub const CAMBODIAN: GameKind = GameKind::Makruk(makruk::Variant::Cambodian);
    /// Mak-hot, Thai checkers, under its default rules.
    pub const MAKHOS: GameKind = GameKind::Makhos(makhos::Rules::Default);
    /// Every game under every rule option, in the order menus list them.
    pub const ALL: [GameKind; 4] = [
        GameKind::MAKRUK,
        GameKind::CAMBODIAN,
        GameKind::MAKHOS,
        GameKind::Makhos(makhos::Rules::NoReverse),
    ];
    /// The variant names, as APIs, storage, UCI and records write them.
    pub const VARIANT_NAMES: [&'static str; 3] = ["makruk", "cambodian", "makhos"];

    /// The variant's name: `makruk`, `cambodian` or `makhos` (as UCI's
    /// `UCI_Variant`, PGN's `[Variant]` and pychess spell them).
    pub const fn variant_name(self) -> &'static str {
        match self {
            GameKind::Makruk(v) => v.name(),
            GameKind::Makhos(_) => "makhos",
        }
    }

    /// The game's name as players read it: `Makruk`, `Ouk Chatrang`, `Mak-hot`.
    pub const fn display_name(self) -> &'static str {
        match self {
            GameKind::Makruk(makruk::Variant::Makruk) => "Makruk",
            GameKind::Makruk(makruk::Variant::Cambodian) => "Ouk Chatrang",
            GameKind::Makhos(_) => "Mak-hot",
        }
    }

    /// The rule option's name: `default`, or Mak-hot's `no-reverse`.
    pub const fn rules_name(self) -> &'static str {
        match self {
            GameKind::Makhos(makhos::Rules::NoReverse) => NO_REVERSE,
            _ => DEFAULT_RULES,
        }
    }

    /// The rule options a variant (by name) accepts, the default first.
    pub fn rule_options(variant: &str) -> &'static [&'static str] {
        if variant == "makhos" {
            &[DEFAULT_RULES, NO_REVERSE]
        } else {
            &[DEFAULT_RULES]
        }
    }

    /// The game named `variant` (any accepted alias, case ignored: `makruk`,
    /// `thai`, `cambodian`, `ouk`, `makhos`, `mak-hot`, ...) under the rule
    /// option `rules` (`None`: the default).
    pub fn from_names(variant: &str, rules: Option<&str>) -> Result<GameKind, GameKindError> {
        let key = variant.trim().to_ascii_lowercase();
        let kind = if let Some(v) = makruk::Variant::from_name(&key) {
            GameKind::Makruk(v)
        } else if matches!(
            key.as_str(),
            "makhos" | "mak-hot" | "makhot" | "mak hot" | "thai checkers" | "thai draughts"
        ) {
            GameKind::MAKHOS
        } else {
            return Err(GameKindError::UnknownVariant(variant.to_string()));
        };
        let Some(rules) = rules else {
            return Ok(kind);
        };
        match (kind, rules) {
            (_, DEFAULT_RULES) => Ok(kind),
            (GameKind::Makhos(_), NO_REVERSE) => Ok(GameKind::Makhos(makhos::Rules::NoReverse)),
            _ => Err(GameKindError::UnknownRules {
                variant: kind.variant_name(),
                rules: rules.to_string(),
            }),
        }
    }

    /// Whether this is Makruk or Ouk Chatrang (a chess game).
    pub const fn is_makruk(self) -> bool {
        matches!(self, GameKind::Makruk(_))
    }

    /// The start position: a FEN (Makruk) or a position text (Mak-hot).
    pub fn start_fen(self) -> String {
        match self {
            GameKind::Makruk(v) => v.start_fen().to_string(),
            GameKind::Makhos(_) => makhos::Position::start().to_string(),
        }
    }
}

impl fmt::Display for GameKind {
    /// The variant's name, and a rule option that is not the default after a
    /// colon: `makruk`, `makhos`, `makhos:no-reverse`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.variant_name())?;
        if self.rules_name() != DEFAULT_RULES {
            write!(f, ":{}", self.rules_name())?;
        }
        Ok(())
    }
}

impl FromStr for GameKind {
    type Err = GameKindError;

    /// Reads what [`fmt::Display`] writes: `makruk`, `makhos:no-reverse`.
    fn from_str(text: &str) -> Result<GameKind, GameKindError> {
        match text.split_once(':') {
            Some((variant, rules)) => GameKind::from_names(variant, Some(rules)),
            None => GameKind::from_names(text, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_names_and_its_text() {
        for kind in GameKind::ALL {
            let named = GameKind::from_names(kind.variant_name(), Some(kind.rules_name()));
            assert_eq!(named, Ok(kind));
            assert_eq!(kind.to_string().parse::<GameKind>(), Ok(kind));
        }
    }

    #[test]
    fn aliases_name_the_same_games() {
        assert_eq!(GameKind::from_names("Ouk", None), Ok(GameKind::CAMBODIAN));
        assert_eq!(GameKind::from_names("thai", None), Ok(GameKind::MAKRUK));
        assert_eq!(GameKind::from_names("Mak-hot", None), Ok(GameKind::MAKHOS));
    }

    #[test]
    fn unknown_names_and_options_are_refused_with_what_was_expected() {
        let e = GameKind::from_names("chess", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown variant \"chess\": use makruk, cambodian, makhos"
        );
        let e = GameKind::from_names("makruk", Some("no-reverse")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule option \"no-reverse\" for makruk; expected one of [\"default\"]"
        );
    }
}
