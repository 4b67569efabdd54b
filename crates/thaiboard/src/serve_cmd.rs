//! `thaiboard serve`: the game server with the web board.

use crate::error::CliError;
use clap::Args;

/// Options of `thaiboard serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {}

/// Starts the server.
pub fn serve(_args: ServeArgs) -> Result<(), CliError> {
    Err(CliError::input("the server is not built yet"))
}
