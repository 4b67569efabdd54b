//! How a position stands: ongoing, or ended by mate, stalemate, a count or
//! bare khuns.

use crate::{Color, Position};
use std::fmt;

/// The rule state of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated and loses.
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// A count has run out: a draw.
    CountingDraw,
    /// Only the two khuns are left: a draw.
    InsufficientMaterial,
}

impl State {
    /// The name used in output and test vectors (`ongoing`, `checkmate`,
    /// `stalemate`, `counting_draw`, `insufficient_material`).
    pub const fn name(self) -> &'static str {
        match self {
            State::Ongoing => "ongoing",
            State::Checkmate => "checkmate",
            State::Stalemate => "stalemate",
            State::CountingDraw => "counting_draw",
            State::InsufficientMaterial => "insufficient_material",
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self, State::Ongoing)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Position {
    /// The rule state. Checkmate takes precedence over an expired count.
    pub fn state(&self) -> State {
        if !self.has_legal_move() {
            if self.is_check() {
                State::Checkmate
            } else {
                State::Stalemate
            }
        } else if self.counting_expired() {
            State::CountingDraw
        } else if self.is_insufficient_material() {
            State::InsufficientMaterial
        } else {
            State::Ongoing
        }
    }

    /// The winner if the game is decided by the rules here (only checkmate
    /// decides; the other endings are draws).
    pub fn winner(&self) -> Option<Color> {
        (self.state() == State::Checkmate).then(|| !self.turn)
    }
}
