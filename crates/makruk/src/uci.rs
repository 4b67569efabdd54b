//! Reading moves in UCI form against a position.

use crate::{Move, MoveError, Position, Square};

impl Position {
    /// Reads a move in UCI form (`e3e4`, `c5c6m`) and checks it is legal.
    /// A promotion may be written with or without its `m` suffix.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let b = text.trim().as_bytes();
        let syntax = || MoveError::Syntax(text.trim().to_string());
        if b.len() != 4 && b.len() != 5 {
            return Err(syntax());
        }
        let from = Square::from_ascii(&b[0..2]).ok_or_else(syntax)?;
        let to = Square::from_ascii(&b[2..4]).ok_or_else(syntax)?;
        let suffix = b.get(4).map(|c| c.to_ascii_lowercase());
        if !matches!(suffix, None | Some(b'm') | Some(b'q')) {
            return Err(syntax());
        }
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && (suffix.is_none() || m.is_promotion()))
            .ok_or_else(|| MoveError::Illegal(text.trim().to_string()))
    }
}
