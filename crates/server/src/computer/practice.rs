//! "Practise this ending": a game against perfect play from a position the
//! endgame tables cover. It is a game against the computer at full strength
//! ([`MAX_LEVEL`]), which plays the tables' own move in every position they
//! cover ([`super::engine::choose_blocking`]): the longest resistance or a
//! held draw when it defends, the fastest win the count allows when it
//! attacks, and declares a Makruk count whenever the tables do not see it
//! winning. The game shows its count as players count it, as every game does.

use super::opponent::MAX_LEVEL;
use super::play::EngineGameRequest;
use crate::account::auth::User;
use crate::analysis::tablebase::{Tablebases, Uncovered};
use crate::game::service::kind_of;
use crate::game::start::start_of;
use crate::game::{GameView, Games};
use crate::infra::error::{ApiError, ApiResult};
use games::AnyGame;
use serde::Deserialize;

/// A practice game as a client asks for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeRequest {
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[serde(default)]
    pub rules: Option<String>,
    /// The position (FEN; Mak-hot: position text), with its counting fields.
    pub fen: String,
    /// The player's side: `white` or `black` (default: the side to move).
    #[serde(default)]
    pub color: Option<String>,
}

/// Why a position cannot be practised, as the API says it (400 with a code).
fn refused(e: Uncovered) -> ApiError {
    match e {
        Uncovered::NoTables(_) => ApiError::bad_request("no_tablebases", e.to_string()),
        Uncovered::Outside(_) => ApiError::bad_request("not_in_tablebases", e.to_string()),
        Uncovered::Broken(_) => ApiError::internal(e),
    }
}

/// Starts a practice game of `user` from the position of `req`: 400
/// `no_tablebases` when the server has no tables of the game,
/// `not_in_tablebases` when they do not cover the position, `bad_fen` /
/// `position_over` for a position that cannot be played.
pub async fn create_practice_game(
    games: &Games,
    tables: Option<&Tablebases>,
    user: &User,
    req: PracticeRequest,
) -> ApiResult<GameView> {
    let kind = kind_of(&req.variant, req.rules.as_deref())?;
    let Some(tables) = tables else {
        return Err(refused(Uncovered::NoTables(kind)));
    };
    // The standard start is no ending the tables hold.
    let start = start_of(kind, Some(&req.fen))?.ok_or_else(|| refused(Uncovered::Outside(kind)))?;
    let color = match req.color.as_deref() {
        None => start.turn().name(),
        Some(c @ ("white" | "black")) => c,
        Some(other) => {
            return Err(ApiError::bad_request(
                "invalid_color",
                format!("color must be white or black, not {other:?}"),
            ));
        }
    };
    tables
        .judge(&AnyGame::from_position_declared(start))
        .map_err(refused)?;
    games
        .create_engine_game(
            user,
            EngineGameRequest {
                variant: req.variant,
                rules: req.rules,
                color: Some(color.to_string()),
                level: i64::from(MAX_LEVEL),
                time_control: None,
                fen: Some(req.fen),
            },
        )
        .await
}
