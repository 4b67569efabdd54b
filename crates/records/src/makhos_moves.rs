//! The Mak-hot move layer: PDN numbers (`32-28`, `25x18`, `25x11`,
//! `25x18x9x2`, `25-18-9`) and algebraic squares (`c3-d4`, `c3xe5xc7`),
//! read through the rules crate; written in numbers or algebraic squares
//! with every landing square.

use crate::error::ErrorKind;
use makhos::{Move, MoveParseError, Position, Rules};

/// How Mak-hot moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum SquareStyle {
    /// PDN numbers with every landing square: `22-18`, `25x18x9`.
    #[default]
    Numeric,
    /// Algebraic squares with every landing square: `c3-d4`, `c3xe5xc7`.
    Algebraic,
}

/// Reads a move text against `pos`.
pub(crate) fn parse(pos: &Position, rules: Rules, text: &str) -> Result<Move, ErrorKind> {
    match makhos::parse_move(pos, rules, text) {
        Ok(m) => Ok(m),
        Err(MoveParseError::Empty) => Err(ErrorKind::BadMove("empty move".into())),
        Err(MoveParseError::Syntax { reason, .. }) => Err(ErrorKind::BadMove(reason)),
        Err(MoveParseError::Illegal { .. }) => Err(ErrorKind::IllegalMove),
        Err(MoveParseError::Ambiguous { candidates, .. }) => {
            Err(ErrorKind::AmbiguousMove(candidates))
        }
    }
}

/// Writes a move in `style`.
pub(crate) fn write(mv: &Move, style: SquareStyle) -> String {
    match style {
        SquareStyle::Numeric => mv.to_numeric(),
        SquareStyle::Algebraic => mv.to_algebraic(),
    }
}
