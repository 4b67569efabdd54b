//! The Makruk side of the commands.

use crate::GameArgs;
use crate::error::CliError;

/// `thaiboard perft --variant makruk`.
pub fn perft(_game: &GameArgs, _depth: u32, _bench: bool) -> Result<(), CliError> {
    Err(CliError::input("Makruk is not built yet"))
}

/// `thaiboard moves --variant makruk`.
pub fn moves(_game: &GameArgs) -> Result<(), CliError> {
    Err(CliError::input("Makruk is not built yet"))
}

/// `thaiboard fen --variant makruk`.
pub fn fen(_game: &GameArgs, _moves: &str) -> Result<(), CliError> {
    Err(CliError::input("Makruk is not built yet"))
}
