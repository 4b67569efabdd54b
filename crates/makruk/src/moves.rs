//! Moves, move lists and the UCI move form.

use crate::{Role, Square};
use std::fmt;

/// A move: from a square to a square, promoting when a bia reaches its
/// sixth rank. Moves are only meaningful for the position they came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    promotion: bool,
}

impl Move {
    /// A move from `from` to `to`; `promotion` when a bia promotes.
    #[inline]
    pub const fn new(from: Square, to: Square, promotion: bool) -> Move {
        Move {
            from,
            to,
            promotion,
        }
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece lands on.
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// Whether a bia promotes to a met.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.promotion
    }

    /// The UCI form: `e3e4`, with `m` appended for a promotion (`c5c6m`).
    pub fn to_uci(self) -> String {
        self.to_string()
    }

    /// The role a promotion creates, if this is one.
    pub const fn promotion_role(self) -> Option<Role> {
        if self.promotion {
            Some(Role::Met)
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if self.promotion {
            f.write_str("m")?;
        }
        Ok(())
    }
}

/// The largest number of legal moves a Makruk position can have is below
/// 110 (nine mets, two rueas, two mas, two khons, a khun); this leaves room.
const CAPACITY: usize = 192;

/// A list of moves held on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        let filler = Move::new(Square::from_index(0), Square::from_index(0), false);
        MoveList {
            moves: [filler; CAPACITY],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Why a move given as text could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not of the form `e3e4` / `c5c6m`.
    Syntax(String),
    /// The move is well formed but not legal here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(
                f,
                "'{t}' is not a move in UCI form (expected e.g. 'e3e4', or 'c5c6m' for a promotion)"
            ),
            MoveError::Illegal(t) => write!(f, "'{t}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}
