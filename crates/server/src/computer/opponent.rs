//! The seam for computer opponents.
//!
//! A game against the engine is a game whose other player is one of the
//! engine's accounts (`engine-level-1` ... `engine-level-8`, made by the
//! migrations). Whenever such a game stands with the engine to move (after
//! the human's move, at the start when the engine has White, and at server
//! startup), the game service asks its [`Opponent`] for a move and plays it
//! through the same path as a human move (validation, transaction,
//! broadcast). [`crate::computer::engine::EngineOpponent`] implements it with
//! the engine crate.

use games::AnyGame;
use std::future::Future;
use std::pin::Pin;

/// The lowest engine level.
pub const MIN_LEVEL: u8 = 1;
/// The highest engine level.
pub const MAX_LEVEL: u8 = 8;

/// Id of the engine account playing at `level` (1..=8).
pub fn engine_user_id(level: u8) -> String {
    format!("engine{level}")
}

/// Name of the engine account playing at `level`.
pub fn engine_username(level: u8) -> String {
    format!("engine-level-{level}")
}

/// The level of an engine account id, `None` for a person.
pub fn engine_level(user_id: &str) -> Option<u8> {
    let level: u8 = user_id.strip_prefix("engine")?.parse().ok()?;
    (MIN_LEVEL..=MAX_LEVEL).contains(&level).then_some(level)
}

/// A computer player.
pub trait Opponent: Send + Sync {
    /// Chooses a move (engine form, as [`AnyGame::play_engine`] takes it)
    /// for the side to move in `position`, playing at `level` (1..=8), spending at
    /// most about `budget_ms`. `None` when it has no move to offer.
    fn choose(
        &self,
        position: AnyGame,
        level: u8,
        budget_ms: u64,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + '_>>;
    /// Whether the side to move, playing at `level`, declares a
    /// board's-honour count (Makruk) before moving. Never, unless the
    /// opponent says otherwise.
    fn wants_count(&self, _position: &AnyGame, _level: u8) -> bool {
        false
    }
    /// Whether the side to move in `position` accepts its opponent's draw
    /// offer (instead of moving, which declines it). Never, unless the
    /// opponent says otherwise.
    fn accepts_draw(&self, _position: AnyGame) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        Box::pin(async { false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_ids_round_trip_and_reject_people() {
        for level in MIN_LEVEL..=MAX_LEVEL {
            assert_eq!(engine_level(&engine_user_id(level)), Some(level));
        }
        assert_eq!(engine_level("engine0"), None);
        assert_eq!(engine_level("engine9"), None);
        assert_eq!(engine_level("engineX"), None);
        assert_eq!(engine_level("a1b2c3d4e5f6a7b8"), None);
    }
}
