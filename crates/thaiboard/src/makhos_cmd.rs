//! The Mak-hot side of the commands.

use crate::GameArgs;
use crate::error::CliError;

/// `thaiboard perft --variant makhos`.
pub fn perft(_game: &GameArgs, _depth: u32, _bench: bool) -> Result<(), CliError> {
    Err(CliError::input("Mak-hot is not built yet"))
}

/// `thaiboard moves --variant makhos`.
pub fn moves(_game: &GameArgs) -> Result<(), CliError> {
    Err(CliError::input("Mak-hot is not built yet"))
}

/// `thaiboard fen --variant makhos`.
pub fn fen(_game: &GameArgs, _moves: &str) -> Result<(), CliError> {
    Err(CliError::input("Mak-hot is not built yet"))
}
