//! Adapters from the rules crates (`makruk`, `makhos`) to [`crate::rules::GameRules`].
//!
//! The rules crates are still being written; until their APIs land these
//! constructors report that the game is not available yet.

use crate::rules::{GameRules, Variant};

/// A Makruk or Ouk Chatrang game from the start position.
pub fn makruk_game(variant: Variant) -> Result<Box<dyn GameRules>, String> {
    Err(format!(
        "{variant} is not available yet: the rules crate is not ready"
    ))
}

/// A Mak-hot game from the start position with rule option `option`.
pub fn makhos_game(option: &str) -> Result<Box<dyn GameRules>, String> {
    Err(format!(
        "makhos ({option}) is not available yet: the rules crate is not ready"
    ))
}
