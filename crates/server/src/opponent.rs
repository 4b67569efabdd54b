//! The seam for computer opponents.
//!
//! A game against the engine is a game whose other player is an
//! [`Opponent`]: after each committed move of the human, the game service
//! will ask the opponent for its reply and play it through the same path as
//! a human move (validation, transaction, broadcast). The engine crate does
//! not exist yet; nothing implements this trait so far.

use crate::rules::GameRules;
use std::future::Future;
use std::pin::Pin;

/// A computer player.
pub trait Opponent: Send + Sync {
    /// Name shown as the player (e.g. `engine-level-3`).
    fn name(&self) -> &str;
    /// Chooses a move (engine form) in the position, within `think_ms`.
    fn choose<'a>(
        &'a self,
        position: &'a dyn GameRules,
        think_ms: u64,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;
}
