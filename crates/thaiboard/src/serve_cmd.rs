//! `thaiboard serve`: the game server with the web board (options in
//! [`thaiboard_server::cli`]).

use crate::error::CliError;
pub use thaiboard_server::cli::ServeArgs;

/// Starts the server and serves until interrupted.
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    args.run().map_err(CliError::input)
}
