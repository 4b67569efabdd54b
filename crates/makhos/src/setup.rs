//! Position text, read into an unchecked [`Setup`].
//!
//! The text is PDN-style FEN with algebraic squares: the side to move, then each side's
//! pieces, `K` marking kings, e.g. `W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7`.
//! Pieces may come in any order, the two piece fields in either order; rulebook numbers
//! (`1`..`32`) are read as squares too. A [`Setup`] holds what the text says, even if it is
//! not a valid position (duplicates, men on the last rank, too many pieces); turn it into a
//! [`Position`](crate::Position) to validate it.

use crate::square::{Color, Piece, Role, Square, SquareError};
use core::fmt;
use core::str::FromStr;

/// What a position text says, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub turn: Color,
    /// The pieces, in the order given (may hold duplicate squares until validated).
    pub pieces: Vec<(Square, Piece)>,
}

/// A syntax error in position text: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupParseError {
    /// The text is empty.
    Empty,
    /// The side-to-move field is not `W` or `B`.
    BadSide {
        /// The field as found.
        found: String,
    },
    /// The text does not have three `:`-separated fields.
    FieldCount {
        /// How many fields were found.
        found: usize,
    },
    /// A piece field does not start with `W` or `B`.
    BadPieceField {
        /// The field as found.
        field: String,
    },
    /// The same colour has two piece fields.
    RepeatedColor {
        /// The colour given twice.
        color: Color,
    },
    /// A piece entry is not a square (bad name, light square, number out of range).
    BadSquare {
        /// The colour of the field the entry is in.
        color: Color,
        /// The entry as found.
        item: String,
        /// Why the square was refused.
        reason: SquareError,
    },
}

impl fmt::Display for SetupParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupParseError::Empty => f.write_str("empty position text"),
            SetupParseError::BadSide { found } => {
                write!(f, "side to move must be 'W' or 'B', found '{found}'")
            }
            SetupParseError::FieldCount { found } => write!(
                f,
                "position text needs 3 fields separated by ':' (side, White pieces, Black pieces), found {found}"
            ),
            SetupParseError::BadPieceField { field } => {
                write!(f, "piece field '{field}' must start with 'W' or 'B'")
            }
            SetupParseError::RepeatedColor { color } => {
                write!(f, "{color}'s pieces are given twice")
            }
            SetupParseError::BadSquare {
                color,
                item,
                reason,
            } => {
                write!(f, "{color} piece '{item}': {reason}")
            }
        }
    }
}

impl std::error::Error for SetupParseError {}

fn parse_side(field: &str) -> Result<Color, SetupParseError> {
    match field.trim() {
        "W" | "w" => Ok(Color::White),
        "B" | "b" => Ok(Color::Black),
        other => Err(SetupParseError::BadSide {
            found: other.to_string(),
        }),
    }
}

impl FromStr for Setup {
    type Err = SetupParseError;

    fn from_str(text: &str) -> Result<Setup, SetupParseError> {
        let text = text.trim();
        let text = text.strip_suffix('.').unwrap_or(text).trim_end();
        if text.is_empty() {
            return Err(SetupParseError::Empty);
        }
        let fields: Vec<&str> = text.split(':').collect();
        if fields.len() != 3 {
            return Err(SetupParseError::FieldCount {
                found: fields.len(),
            });
        }
        let turn = parse_side(fields[0])?;
        let mut seen = [false; 2];
        let mut pieces = Vec::new();
        for field in &fields[1..] {
            let field = field.trim();
            let mut chars = field.chars();
            let color = match chars.next() {
                Some('W') | Some('w') => Color::White,
                Some('B') | Some('b') => Color::Black,
                _ => {
                    return Err(SetupParseError::BadPieceField {
                        field: field.to_string(),
                    });
                }
            };
            if seen[color.index()] {
                return Err(SetupParseError::RepeatedColor { color });
            }
            seen[color.index()] = true;
            let list = chars.as_str().trim();
            if list.is_empty() {
                continue;
            }
            for item in list.split(',') {
                let item = item.trim();
                let (role, name) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (Role::King, rest.trim_start()),
                    None => (Role::Man, item),
                };
                let square = Square::parse(name).map_err(|reason| SetupParseError::BadSquare {
                    color,
                    item: item.to_string(),
                    reason,
                })?;
                pieces.push((square, Piece { color, role }));
            }
        }
        Ok(Setup { turn, pieces })
    }
}

impl fmt::Display for Setup {
    /// Writes the pieces in the order held, White's field first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.turn.letter())?;
        for color in [Color::White, Color::Black] {
            write!(f, ":{}", color.letter())?;
            let mut first = true;
            for (sq, p) in self.pieces.iter().filter(|(_, p)| p.color == color) {
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                if p.role == Role::King {
                    f.write_str("K")?;
                }
                write!(f, "{sq}")?;
            }
        }
        Ok(())
    }
}
