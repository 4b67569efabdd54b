//! Games from a set-up position (the board editor's "Continue from here"):
//! the one place a position given by a client is read and checked by the
//! rules crates, for new games and for the analysis board alike.

use crate::infra::error::{ApiError, ApiResult};
use games::{AnyGame, AnyPosition, GameKind};

/// Longest position text accepted (a FEN is at most about 90 characters).
pub const MAX_POSITION: usize = 200;

/// Reads a client's position of `kind`: a FEN (Makruk, Ouk Chatrang) or a
/// position text (Mak-hot), checked by the rules crates. A bad one is a 400
/// `bad_fen` saying what is wrong.
pub fn read_position(kind: GameKind, fen: &str) -> ApiResult<AnyPosition> {
    if fen.len() > MAX_POSITION {
        return Err(ApiError::bad_request(
            "bad_fen",
            format!("position text longer than {MAX_POSITION} characters"),
        ));
    }
    AnyPosition::from_fen(kind, fen).map_err(|e| {
        ApiError::bad_request(
            "bad_fen",
            format!("{} position {:?}: {e}", kind.variant_name(), fen.trim()),
        )
    })
}

/// The start of a new game of `kind` asked for with `fen`: `None` for the
/// standard start (no `fen`, or the standard one), otherwise the position,
/// which must be legal and not already over (400 `bad_fen` /
/// `position_over` with the reason).
pub fn start_of(kind: GameKind, fen: Option<&str>) -> ApiResult<Option<AnyPosition>> {
    let Some(fen) = fen.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    let pos = read_position(kind, fen)?;
    if pos.is_standard_start() {
        return Ok(None);
    }
    if let Some(outcome) = AnyGame::from_position_declared(pos.clone()).outcome() {
        return Err(ApiError::bad_request(
            "position_over",
            format!(
                "the game is already over in this position ({}, {}): set up one with a move to play",
                outcome.result(),
                outcome.reason.name().replace('_', " ")
            ),
        ));
    }
    Ok(Some(pos))
}

/// A new game's rules state: from `start` (its FEN, as stored), or from the
/// standard start of `kind`.
pub fn rules_from(kind: GameKind, start: Option<&str>) -> Result<AnyGame, games::GameError> {
    Ok(match start {
        Some(fen) => AnyGame::from_position_declared(AnyPosition::from_fen(kind, fen)?),
        None => AnyGame::new_declared(kind),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_checked_by_the_rules_crates() {
        let refused = |kind, fen: &str| start_of(kind, Some(fen)).unwrap_err().message;
        assert!(start_of(GameKind::MAKRUK, None).unwrap().is_none());
        assert!(
            start_of(GameKind::MAKRUK, Some(&GameKind::MAKRUK.start_fen()))
                .unwrap()
                .is_none()
        );
        assert!(refused(GameKind::MAKRUK, "8/8/8/8/8/8/8/4K3 w - - 0 1").contains("no khun"));
        assert!(
            refused(GameKind::MAKRUK, "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1")
                .contains("side not to move is in check")
        );
        // Checkmated already: nothing to play.
        assert!(
            refused(GameKind::MAKRUK, "k7/1R6/1K6/8/8/8/8/8 b - - 0 1").contains("already over")
        );
        assert!(refused(GameKind::MAKHOS, "W:Wz9:Ba7").contains("makhos position"));
        let long = "8/".repeat(120);
        assert!(refused(GameKind::MAKRUK, &long).contains("longer than"));
        // Ouk Chatrang's leap rights are kept.
        let fen = GameKind::CAMBODIAN.start_fen().replacen("pppppppp", "8", 1);
        let pos = start_of(GameKind::CAMBODIAN, Some(&fen)).unwrap().unwrap();
        assert_eq!(pos.fen(), fen);
        assert!(fen.contains("DEde"));
    }
}
