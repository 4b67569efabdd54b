//! The Makruk move layer: SAN in every convention of RULES.md (read through
//! the rules crate) and SAN in Fairy-Stockfish or SchemingMind letters.

use crate::error::ErrorKind;
use makruk::{Letters, Move, Position, SanError};

/// Reads a move text: the move and whether it carried SchemingMind's
/// trailing `=` (a draw offer).
pub(crate) fn parse(pos: &Position, text: &str) -> Result<(Move, bool), ErrorKind> {
    match pos.parse_san_full(text) {
        Ok(san) => Ok((san.mv, san.draw_offer)),
        Err(SanError::Syntax { message, .. }) => Err(ErrorKind::BadMove(message)),
        Err(SanError::Illegal { .. }) => Err(ErrorKind::IllegalMove),
        Err(SanError::Ambiguous { candidates, .. }) => Err(ErrorKind::AmbiguousMove(candidates)),
    }
}

/// The SAN of a legal move in `letters`, with `=` appended for a draw offer.
pub(crate) fn write(pos: &Position, mv: Move, letters: Letters, draw_offer: bool) -> String {
    let mut s = pos.san_with(mv, letters);
    if draw_offer {
        s.push('=');
    }
    s
}
