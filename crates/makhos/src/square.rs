//! Squares, colours and pieces.
//!
//! Only the 32 dark squares exist. A [`Square`] is stored as its index
//! `0..32`, which is the square's number in the Thai rulebook and PDN minus
//! one: index 0 is b8 (number 1), index 31 is g1 (number 32).

use core::fmt;

/// One of the 32 playable (dark) squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square name was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a square name at all (neither `a1`..`h8` nor a number `1`..`32`).
    NotASquare,
    /// A light square such as `a2`: no piece ever stands there.
    LightSquare,
    /// A number outside `1..=32`.
    NumberOutOfRange,
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SquareError::NotASquare => "not a square name",
            SquareError::LightSquare => "a light square (play is on the dark squares only)",
            SquareError::NumberOutOfRange => "square numbers run from 1 to 32",
        })
    }
}

impl Square {
    /// Number of playable squares.
    pub const COUNT: usize = 32;

    /// The square with this index (`0..32`; index = number - 1).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 32`.
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index & 31)
    }

    /// The square with this rulebook/PDN number (`1..=32`; 1 is b8, 32 is g1).
    pub const fn from_number(number: u32) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square((number - 1) as u8))
        } else {
            None
        }
    }

    /// The dark square on this file (`0` = a .. `7` = h) and rank (`0` = rank 1 .. `7` = rank 8),
    /// or `None` for a light or off-board square.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank > 7 || (file + rank) % 2 != 0 {
            return None;
        }
        let row = 7 - rank;
        Some(Square(row * 4 + file / 2))
    }

    /// Index `0..32` (number - 1).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Rulebook/PDN number `1..=32`.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// File, `0` (a) to `7` (h).
    pub const fn file(self) -> u8 {
        let row = self.0 >> 2;
        let col = self.0 & 3;
        if row % 2 == 0 { 2 * col + 1 } else { 2 * col }
    }

    /// Rank, `0` (rank 1) to `7` (rank 8).
    pub const fn rank(self) -> u8 {
        7 - (self.0 >> 2)
    }

    /// The one-bit set of this square.
    pub const fn bit(self) -> u32 {
        1u32 << self.0
    }

    /// All 32 squares in index order (b8, d8, ..., g1).
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..32).map(Square)
    }

    /// Reads an algebraic name such as `c3` (lower or upper case).
    pub fn parse_algebraic(text: &str) -> Result<Square, SquareError> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return Err(SquareError::NotASquare);
        }
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&b[1]) {
            return Err(SquareError::NotASquare);
        }
        Square::from_coords(file - b'a', b[1] - b'1').ok_or(SquareError::LightSquare)
    }

    /// Reads a rulebook/PDN number `1`..`32`.
    pub fn parse_number(text: &str) -> Result<Square, SquareError> {
        if text.is_empty() || text.len() > 2 || !text.bytes().all(|c| c.is_ascii_digit()) {
            return Err(SquareError::NotASquare);
        }
        let n: u32 = text.parse().map_err(|_| SquareError::NotASquare)?;
        Square::from_number(n).ok_or(SquareError::NumberOutOfRange)
    }

    /// Reads either form: an algebraic name or a number.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        if text.bytes().next().is_some_and(|c| c.is_ascii_digit()) {
            Square::parse_number(text)
        } else {
            Square::parse_algebraic(text)
        }
    }

    /// The algebraic name, e.g. `c3`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Square {
    /// Writes the algebraic name, e.g. `c3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl core::str::FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::parse(s)
    }
}

/// A side: White (moves first by default, starts on ranks 1-2) or Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White (the light pieces), starting on a1..h2 and moving up the board.
    White,
    /// Black (the dark pieces), starting on a7..h8 and moving down the board.
    Black,
}

impl Color {
    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W` or `B`, as in position text.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// Man or king.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A man: moves and captures diagonally forward one square.
    Man,
    /// A king (hot): moves and captures along diagonals at a distance.
    King,
}

/// A piece: colour and role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_rulebook() {
        let names: Vec<String> = Square::all().map(|s| s.name()).collect();
        assert_eq!(
            &names[..8],
            ["b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7"]
        );
        assert_eq!(&names[28..], ["a1", "c1", "e1", "g1"]);
        for s in Square::all() {
            assert_eq!(Square::from_coords(s.file(), s.rank()), Some(s));
            assert_eq!(Square::parse(&s.name()), Ok(s));
            assert_eq!(Square::parse(&s.number().to_string()), Ok(s));
        }
    }

    #[test]
    fn bad_names() {
        assert_eq!(Square::parse("a2"), Err(SquareError::LightSquare));
        assert_eq!(Square::parse("i1"), Err(SquareError::NotASquare));
        assert_eq!(Square::parse("33"), Err(SquareError::NumberOutOfRange));
        assert_eq!(Square::parse("0"), Err(SquareError::NumberOutOfRange));
        assert_eq!(Square::parse(""), Err(SquareError::NotASquare));
        assert_eq!(Square::parse("a"), Err(SquareError::NotASquare));
    }
}
