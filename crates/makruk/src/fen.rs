//! FEN reading and writing (Fairy-Stockfish conventions).
//!
//! Field 3 holds Ouk Chatrang's special first-move rights (`DEde`) or `-`.
//! While a count runs, field 4 holds the counting limit and field 5 the
//! counting ply (both in plies); otherwise field 4 is `-` and field 5 the
//! halfmove clock.

use crate::{Bitboard, Color, Piece, Position, Role, Setup, SetupError, Square, Variant};
use std::fmt;

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board field does not describe 8 ranks of 8 squares.
    Board {
        /// 1-based character position within the board field.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// Field 2 is not `w` or `b`.
    Turn(String),
    /// Field 3 is not `-` or a list of file letters.
    Rights(String),
    /// A numeric field is not a number.
    Number {
        /// 1-based field number.
        field: usize,
        /// The text found.
        text: String,
    },
    /// More than six fields.
    TooManyFields(usize),
    /// The text reads, but the position is impossible.
    Invalid(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::Board { column, message } => {
                write!(f, "FEN board field, character {column}: {message}")
            }
            FenError::Turn(t) => write!(
                f,
                "FEN field 2 (side to move) is '{t}'; expected 'w' or 'b'"
            ),
            FenError::Rights(t) => write!(
                f,
                "FEN field 3 (special first-move rights) is '{t}'; expected '-' or file letters such as 'DEde'"
            ),
            FenError::Number { field, text } => {
                write!(f, "FEN field {field} is '{text}'; expected a number")
            }
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields; at most 6 are expected"),
            FenError::Invalid(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<SetupError> for FenError {
    fn from(e: SetupError) -> FenError {
        FenError::Invalid(e)
    }
}

fn parse_board(text: &str, setup: &mut Setup) -> Result<(), FenError> {
    let err = |column: usize, message: String| FenError::Board { column, message };
    let mut rank: i32 = 7;
    let mut file: u8 = 0;
    let mut last: Option<Square> = None;
    for (i, c) in text.chars().enumerate() {
        let column = i + 1;
        match c {
            '/' => {
                if file != 8 {
                    return Err(err(
                        column,
                        format!("rank {} has {file} squares, not 8", rank + 1),
                    ));
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return Err(err(column, "more than 8 ranks".into()));
                }
                last = None;
            }
            '1'..='8' => {
                file += c as u8 - b'0';
                if file > 8 {
                    return Err(err(
                        column,
                        format!("rank {} has more than 8 squares", rank + 1),
                    ));
                }
                last = None;
            }
            '~' => match last {
                Some(sq) => setup.promoted = setup.promoted.with(sq),
                None => return Err(err(column, "'~' must follow a piece letter".into())),
            },
            _ => {
                let role = Role::from_char(c)
                    .ok_or_else(|| err(column, format!("'{c}' is not a piece letter")))?;
                if file >= 8 {
                    return Err(err(
                        column,
                        format!("rank {} has more than 8 squares", rank + 1),
                    ));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = Square::from_coords(file, rank as u8).expect("file and rank are in range");
                setup.board[sq.index()] = Some(Piece { color, role });
                last = Some(sq);
                file += 1;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(err(
            text.chars().count() + 1,
            format!(
                "the board ends early (on rank {} after {file} squares)",
                rank + 1
            ),
        ));
    }
    Ok(())
}

fn parse_rights(text: &str, setup: &mut Setup) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    for c in text.chars() {
        let (color, file) = match c {
            'A'..='H' => (Color::White, c as u8 - b'A'),
            'a'..='h' => (Color::Black, c as u8 - b'a'),
            _ => return Err(FenError::Rights(text.into())),
        };
        let rank = color.fold(0, 7);
        let sq = Square::from_coords(file, rank).expect("file and rank are in range");
        setup.special_rights = setup.special_rights.with(sq);
    }
    Ok(())
}

fn parse_number(field: usize, text: &str) -> Result<u32, FenError> {
    text.parse().map_err(|_| FenError::Number {
        field,
        text: text.into(),
    })
}

impl Setup {
    /// Reads a FEN. Missing trailing fields take defaults (`w - - 0 1`).
    /// Field 4 may be `-` or any counting limit in plies (`0`: no count, as
    /// cutechess writes it), with field 5 the count's ply; move number 0
    /// reads as 1.
    /// Piece letters may be Fairy-Stockfish's (`m`, `s`) or SchemingMind's
    /// (`q`, `b`); `~` after a met marks a promoted bia.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut setup = Setup::empty();
        parse_board(fields[0], &mut setup)?;
        setup.turn = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(FenError::Turn(other.into())),
        };
        parse_rights(fields.get(2).copied().unwrap_or("-"), &mut setup)?;
        let counting = fields.get(3).copied().unwrap_or("-");
        let fifth = parse_number(5, fields.get(4).copied().unwrap_or("0"))?;
        if counting == "-" {
            setup.halfmoves = fifth;
        } else {
            setup.counting_limit = parse_number(4, counting)?;
            if setup.counting_limit > 0 {
                setup.counting_ply = fifth;
            } else {
                setup.halfmoves = fifth;
            }
        }
        // Move number 0, a common slip, reads as 1 (as Fairy-Stockfish reads it).
        setup.fullmoves = parse_number(6, fields.get(5).copied().unwrap_or("1"))?.max(1);
        Ok(setup)
    }

    /// Writes the setup as FEN, in Fairy-Stockfish letters, with no `~` marks
    /// (as Fairy-Stockfish writes Makruk by default).
    pub fn to_fen(&self) -> String {
        self.to_fen_with_marks(false)
    }

    /// Writes the setup as FEN; with `promoted_marks`, a promoted bia is
    /// written `M~`/`m~` as Fairy-Stockfish does when asked (pychess asks),
    /// so that a marked FEN read and written again is unchanged.
    pub fn to_fen_with_marks(&self, promoted_marks: bool) -> String {
        let mut out = String::with_capacity(80);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_coords(file, rank).expect("in range");
                match self.board[sq.index()] {
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.char());
                        if promoted_marks && self.promoted.contains(sq) {
                            out.push('~');
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.turn.char());
        out.push(' ');
        out.push_str(&self.rights_field());
        if self.counting_limit > 0 {
            out.push_str(&format!(" {} {}", self.counting_limit, self.counting_ply));
        } else {
            out.push_str(&format!(" - {}", self.halfmoves));
        }
        out.push_str(&format!(" {}", self.fullmoves));
        out
    }
}

impl Setup {
    /// FEN field 3: the special first-move rights as file letters, White's
    /// upper case first (`DEde`), or `-`.
    pub(crate) fn rights_field(&self) -> String {
        if self.special_rights.is_empty() {
            return "-".into();
        }
        let mut out = String::with_capacity(4);
        for color in Color::ALL {
            for sq in self.special_rights & Bitboard::rank(color.fold(0, 7)) {
                out.push(right_letter(sq));
            }
        }
        out
    }
}

/// The letter of FEN field 3 that gives the right on `sq` (a first-rank
/// square): its file, upper case for White's first rank.
pub(crate) fn right_letter(sq: Square) -> char {
    let c = sq.file_char();
    if sq.rank() == 0 {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

impl Position {
    /// Reads a FEN and checks that it is a legal position of `variant`.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen)?;
        Ok(Position::from_setup(variant, &setup)?)
    }

    /// The position as FEN, byte-for-byte as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The position as FEN, with promoted bias marked `M~`/`m~` when
    /// `promoted_marks` is set (Fairy-Stockfish's `showPromoted`).
    pub fn fen_with_marks(&self, promoted_marks: bool) -> String {
        self.to_setup().to_fen_with_marks(promoted_marks)
    }
}
