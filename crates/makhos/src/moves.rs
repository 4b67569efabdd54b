//! [`Move`], a move of Mak-hot (a step, a slide or a whole capture
//! sequence), and [`MoveParseError`], why a move text names no move.

use crate::bitboard::Bitboard;
use crate::square::Square;
use core::fmt;
use core::hash::{Hash, Hasher};

/// Most jumps in one capture (a side has at most eight pieces to lose).
pub const MAX_CAPTURES: usize = 8;

/// A move: a plain step or slide, or a complete capture sequence.
///
/// Two moves are equal when they have the same start, end and captured set (the rules count
/// such sequences as one move); [`Move::path`] keeps one of the landing sequences.
#[derive(Copy, Clone, Debug)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) len: u8,
    pub(crate) path: [u8; MAX_CAPTURES],
    pub(crate) captured: u32,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured).hash(state);
    }
}

impl Move {
    /// A plain (non-capturing) move.
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            len: 0,
            path: [0; MAX_CAPTURES],
            captured: 0,
        }
    }

    /// A capture along `landings` (at least one, at most [`MAX_CAPTURES`] squares) taking the
    /// pieces on `captured`; `None` if the landing list is empty or too long.
    pub fn capture(from: Square, landings: &[Square], captured: Bitboard) -> Option<Move> {
        let last = *landings.last()?;
        if landings.len() > MAX_CAPTURES {
            return None;
        }
        let mut path = [0u8; MAX_CAPTURES];
        for (p, s) in path.iter_mut().zip(landings) {
            *p = s.index() as u8;
        }
        Some(Move {
            from: from.index() as u8,
            to: last.index() as u8,
            len: landings.len() as u8,
            path,
            captured: captured.0,
        })
    }

    /// The start square.
    pub const fn from(&self) -> Square {
        Square::from_index_unchecked(self.from)
    }

    /// The end square.
    pub const fn to(&self) -> Square {
        Square::from_index_unchecked(self.to)
    }

    /// Whether the move captures.
    pub const fn is_capture(&self) -> bool {
        self.len > 0
    }

    /// The captured pieces' squares.
    pub const fn captured(&self) -> Bitboard {
        Bitboard(self.captured)
    }

    /// Number of pieces captured.
    pub const fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The landing squares after the start: every landing square of a capture, or just the
    /// end square of a plain move.
    pub fn path(&self) -> Vec<Square> {
        if self.len == 0 {
            vec![self.to()]
        } else {
            self.path[..self.len as usize]
                .iter()
                .map(|&i| Square::from_index_unchecked(i))
                .collect()
        }
    }
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is empty.
    Empty,
    /// The text is not a move in any accepted notation.
    Syntax {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well formed, but no legal move matches.
    Illegal {
        /// The text as given.
        text: String,
    },
    /// Well formed, but more than one legal move matches.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching moves, in algebraic notation with full paths.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Empty => f.write_str("empty move text"),
            MoveParseError::Syntax { text, reason } => {
                write!(f, "bad move text '{text}': {reason}")
            }
            MoveParseError::Illegal { text } => write!(f, "illegal move '{text}'"),
            MoveParseError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move '{text}': could be {}",
                    candidates.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MoveParseError {}
