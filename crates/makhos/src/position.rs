//! The validated [`Position`]: bitboards of both sides' men and kings plus the side to move.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveParseError};
use crate::rules::Rules;
use crate::setup::{Setup, SetupParseError};
use crate::square::{Color, Piece, Role, Square};
use core::fmt;
use core::str::FromStr;

/// At most this many pieces a side (a side starts with eight men and never gains pieces).
pub const MAX_PIECES_PER_SIDE: u32 = 8;

/// A legal Mak-hot position: where every piece stands and who moves.
///
/// Built only through validation ([`Position::from_setup`], [`FromStr`]) or by playing
/// legal moves, so it always has at most 8 pieces a side, no men on their promotion rank
/// and no square used twice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces of each side, indexed by [`Color::index`].
    pub(crate) pieces: [u32; 2],
    /// Kings of both sides.
    pub(crate) kings: u32,
    /// Side to move.
    pub(crate) turn: Color,
}

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Two pieces on one square.
    DuplicateSquare {
        /// The square named twice.
        square: Square,
    },
    /// A man on the rank where it would already have become a king.
    ManOnPromotionRank {
        /// Whose man.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// More than eight pieces for one side.
    TooManyPieces {
        /// Which side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::DuplicateSquare { square } => {
                write!(f, "square {square} holds more than one piece")
            }
            PositionError::ManOnPromotionRank { color, square } => write!(
                f,
                "{color} man on {square} stands on its promotion rank (it would be a king)"
            ),
            PositionError::TooManyPieces { color, count } => write!(
                f,
                "{color} has {count} pieces (at most {MAX_PIECES_PER_SIDE} a side)"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Position text that could not be read: a syntax error or an invalid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    /// The text is malformed.
    Syntax(SetupParseError),
    /// The text is well formed but describes an invalid position.
    Invalid(PositionError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::Syntax(e) => write!(f, "bad position text: {e}"),
            PositionTextError::Invalid(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for PositionTextError {}

impl From<SetupParseError> for PositionTextError {
    fn from(e: SetupParseError) -> Self {
        PositionTextError::Syntax(e)
    }
}

impl From<PositionError> for PositionTextError {
    fn from(e: PositionError) -> Self {
        PositionTextError::Invalid(e)
    }
}

/// The promotion rank of each colour's men.
#[inline(always)]
pub(crate) const fn promotion_rank(color: Color) -> u32 {
    match color {
        Color::White => Bitboard::RANK_8.0,
        Color::Black => Bitboard::RANK_1.0,
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start position: White men on a1 c1 e1 g1 b2 d2 f2 h2, Black men on
    /// b8 d8 f8 h8 a7 c7 e7 g7, White to move.
    pub const fn start() -> Position {
        Position {
            pieces: [0xFF00_0000, 0x0000_00FF],
            kings: 0,
            turn: Color::White,
        }
    }

    /// The start position with the given side to move.
    pub const fn start_with_turn(turn: Color) -> Position {
        let mut p = Position::start();
        p.turn = turn;
        p
    }

    /// The position with no pieces at all (the side to move has lost).
    pub const fn empty(turn: Color) -> Position {
        Position {
            pieces: [0, 0],
            kings: 0,
            turn,
        }
    }

    /// Validates a [`Setup`].
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pieces = [0u32; 2];
        let mut kings = 0u32;
        for &(sq, piece) in &setup.pieces {
            if (pieces[0] | pieces[1]) & sq.bit() != 0 {
                return Err(PositionError::DuplicateSquare { square: sq });
            }
            pieces[piece.color.index()] |= sq.bit();
            match piece.role {
                Role::King => kings |= sq.bit(),
                Role::Man => {
                    if promotion_rank(piece.color) & sq.bit() != 0 {
                        return Err(PositionError::ManOnPromotionRank {
                            color: piece.color,
                            square: sq,
                        });
                    }
                }
            }
        }
        for color in [Color::White, Color::Black] {
            let count = pieces[color.index()].count_ones();
            if count > MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces { color, count });
            }
        }
        Ok(Position {
            pieces,
            kings,
            turn: setup.turn,
        })
    }

    /// The position with these pieces (bitboards of each side's pieces and of all kings),
    /// checked as [`Position::from_setup`] checks a setup (a square in both sides' sets is a
    /// [`PositionError::DuplicateSquare`]); king bits on empty squares are ignored.
    /// Tablebases build positions from their index this way, without a [`Setup`].
    pub fn from_bitboards(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Result<Position, PositionError> {
        let overlap = white.0 & black.0;
        if overlap != 0 {
            return Err(PositionError::DuplicateSquare {
                square: Square::from_index_unchecked(overlap.trailing_zeros() as u8),
            });
        }
        let kings = kings.0 & (white.0 | black.0);
        for (color, side) in [(Color::White, white.0), (Color::Black, black.0)] {
            let men_on_last = side & !kings & promotion_rank(color);
            if men_on_last != 0 {
                return Err(PositionError::ManOnPromotionRank {
                    color,
                    square: Square::from_index_unchecked(men_on_last.trailing_zeros() as u8),
                });
            }
            let count = side.count_ones();
            if count > MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces { color, count });
            }
        }
        Ok(Position {
            pieces: [white.0, black.0],
            kings,
            turn,
        })
    }

    /// The unchecked description of this position (pieces in writing order).
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for color in [Color::White, Color::Black] {
            for sq in writing_order(Bitboard(self.pieces[color.index()])) {
                pieces.push((
                    sq,
                    self.piece_at(sq).unwrap_or(Piece {
                        color,
                        role: Role::Man,
                    }),
                ));
            }
        }
        Setup {
            turn: self.turn,
            pieces,
        }
    }

    /// The side to move.
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// All pieces of `color`.
    pub const fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()])
    }

    /// The men of `color`.
    pub const fn men(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()] & !self.kings)
    }

    /// The kings of `color`.
    pub const fn kings(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()] & self.kings)
    }

    /// Every occupied square.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.pieces[0] | self.pieces[1])
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        let color = if self.pieces[0] & bit != 0 {
            Color::White
        } else if self.pieces[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings & bit != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// The same pieces with the other side to move.
    pub const fn with_turn(&self, turn: Color) -> Position {
        Position {
            pieces: self.pieces,
            kings: self.kings,
            turn,
        }
    }

    /// The same position seen from the other side: the board turned half a turn (square
    /// index `i` becomes `31 - i`, so b8 becomes g1), the colours swapped and the other side
    /// to move. The rules are symmetric, so the side to move has the same moves (turned)
    /// and the same result; tablebases store one of each such pair.
    pub const fn flipped(&self) -> Position {
        Position {
            pieces: [self.pieces[1].reverse_bits(), self.pieces[0].reverse_bits()],
            kings: self.kings.reverse_bits(),
            turn: self.turn.other(),
        }
    }

    /// Whether each side has exactly one king and nothing else (a draw).
    pub const fn is_kings_only_draw(&self) -> bool {
        let w = self.pieces[0];
        let b = self.pieces[1];
        w.count_ones() == 1 && b.count_ones() == 1 && (w | b) & !self.kings == 0
    }

    /// Plays `mv` if it is legal here under `rules`; returns the move as
    /// generated (with its landing path). An illegal move leaves the position
    /// unchanged and the error names it.
    pub fn play(&mut self, rules: Rules, mv: &Move) -> Result<Move, MoveParseError> {
        let legal = self
            .find_legal(rules, mv)
            .ok_or_else(|| MoveParseError::Illegal {
                text: mv.to_algebraic(),
            })?;
        *self = self.after_generated(&legal);
        Ok(legal)
    }

    /// Plays a move the caller knows is legal (from [`Position::legal_moves`]
    /// or the notation readers), without checking it. Playing any other move
    /// gives an unspecified (but valid) position; it never panics.
    #[inline]
    pub fn play_unchecked(&mut self, mv: &Move) {
        *self = self.played(mv);
    }

    /// The position after the legal move `mv`, unchecked (as
    /// [`Position::play_unchecked`], on a copy).
    #[inline]
    pub fn played(&self, mv: &Move) -> Position {
        let us = self.turn.index();
        let them = 1 - us;
        let from = 1u32 << mv.from().index();
        let to = 1u32 << mv.to().index();
        let captured = mv.captured().0 & self.pieces[them];
        let mut pieces = self.pieces;
        // Only move a piece that is really ours (keeps the position valid whatever `mv` is).
        // The landing square may hold a piece this very move captures: captured pieces
        // leave as they are jumped, so a king may end on one's square (RULES.md).
        if pieces[us] & from == 0 || (pieces[0] | pieces[1]) & to & !from & !captured != 0 {
            return self.with_turn(self.turn.other());
        }
        let was_king = self.kings & from != 0;
        pieces[us] = (pieces[us] & !from) | to;
        pieces[them] &= !captured;
        let mut kings = self.kings & !captured & !from;
        if was_king || promotion_rank(self.turn) & to != 0 {
            kings |= to;
        }
        Position {
            pieces,
            kings,
            turn: self.turn.other(),
        }
    }

    /// The position after `mv`, which the caller guarantees is a legal move of this position
    /// (as in perft, which plays only the moves it generated). No check is made.
    #[inline(always)]
    pub(crate) fn after_generated(&self, mv: &Move) -> Position {
        let us = self.turn.index();
        let from = mv.from().bit();
        let to = mv.to().bit();
        let captured = mv.captured().0;
        let mut pieces = self.pieces;
        pieces[us] = (pieces[us] & !from) | to;
        pieces[1 - us] &= !captured;
        let promoted = (self.kings & from) | (promotion_rank(self.turn) & to);
        let kings = (self.kings & !captured & !from) | if promoted != 0 { to } else { 0 };
        Position {
            pieces,
            kings,
            turn: self.turn.other(),
        }
    }

    /// Whether `mv` moves a man (a man move resets the no-progress count).
    pub const fn is_man_move(&self, mv: &Move) -> bool {
        self.pieces[self.turn.index()] & !self.kings & mv.from().bit() != 0
    }
}

/// Squares in the order position text is written: rank 1 first, files a to h within a rank.
fn writing_order(b: Bitboard) -> impl Iterator<Item = Square> {
    let mut v: Vec<Square> = b.squares().collect();
    v.sort_by_key(|s| (s.rank(), s.file()));
    v.into_iter()
}

impl fmt::Display for Position {
    /// Position text, e.g. `W:Wa1,c1,Kd4:Bb8,Ke5` (rank 1 first, files a to h in a rank).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

impl FromStr for Position {
    type Err = PositionTextError;
    fn from_str(s: &str) -> Result<Position, PositionTextError> {
        let setup: Setup = s.parse()?;
        Ok(Position::from_setup(&setup)?)
    }
}

impl TryFrom<&Setup> for Position {
    type Error = PositionError;
    fn try_from(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup(setup)
    }
}

#[cfg(test)]
mod bitboard_tests {
    use super::*;

    /// A king that captures five pieces in a loop and lands on the square of the first
    /// one it took: `played` must play it as the generator produced it.
    #[test]
    fn a_capture_may_end_on_the_square_of_a_piece_it_took() {
        let pos: Position = "W:WKb8:BKe3,Kb4,Ke5,Kb6,Kc7".parse().unwrap();
        let moves = pos.legal_moves(Rules::Default);
        let mv = moves
            .iter()
            .find(|m| m.to_algebraic() == "b8xd6xf4xd2xa5xc7")
            .expect("the loop capture is legal");
        let after = pos.played(mv);
        assert_eq!(after, pos.after_generated(mv));
        assert_eq!(after.to_string(), "B:WKc7:B");
    }

    #[test]
    fn from_bitboards_checks_like_a_setup() {
        let pos: Position = "B:WKa1,c3:BKh8,d6".parse().unwrap();
        let built = Position::from_bitboards(
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            Bitboard(pos.kings(Color::White).0 | pos.kings(Color::Black).0),
            Color::Black,
        );
        assert_eq!(built, Ok(pos));
        let a1 = Square::parse("a1").unwrap().bit();
        let b8 = Square::parse("b8").unwrap().bit();
        assert!(matches!(
            Position::from_bitboards(Bitboard(a1), Bitboard(a1), Bitboard(a1), Color::White),
            Err(PositionError::DuplicateSquare { .. })
        ));
        assert!(matches!(
            Position::from_bitboards(Bitboard(b8), Bitboard(a1), Bitboard(a1), Color::White),
            Err(PositionError::ManOnPromotionRank { .. })
        ));
    }
}
