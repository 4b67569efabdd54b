//! Unchecked position input ([`Setup`]) and the reasons one can be rejected.

use crate::{Bitboard, Color, Piece, Role, Square, Variant};
use std::fmt;

/// A position as read from input, not yet checked for legality.
///
/// Turn it into a playable [`crate::Position`] with
/// [`crate::Position::from_setup`], which rejects impossible setups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square (index 0 = a1).
    pub board: [Option<Piece>; 64],
    /// Mets that are promoted bias (FEN `M~`); they move as any met.
    pub promoted: Bitboard,
    /// The side to move.
    pub turn: Color,
    /// Ouk Chatrang: squares of the unmoved khuns and mets that keep their
    /// special first move (FEN field 3, e.g. `DEde`). Empty in Makruk.
    pub special_rights: Bitboard,
    /// A running count's limit in plies (FEN field 4), 0 when no count runs.
    pub counting_limit: u32,
    /// A running count's current ply (FEN field 5 while a count runs).
    pub counting_ply: u32,
    /// Plies since the last capture or bia move (FEN field 5 when no count
    /// runs; no rule effect).
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

impl Setup {
    /// A board with no pieces, White to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            promoted: Bitboard::EMPTY,
            turn: Color::White,
            special_rights: Bitboard::EMPTY,
            counting_limit: 0,
            counting_ply: 0,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Squares holding `piece`.
    pub fn squares_of(&self, piece: Piece) -> Bitboard {
        Square::all()
            .filter(|&sq| self.board[sq.index()] == Some(piece))
            .fold(Bitboard::EMPTY, |bb, sq| bb.with(sq))
    }

    /// Checks everything about the setup that does not need move generation
    /// (the side not to move being in check is checked by `Position`).
    pub(crate) fn validate_material(&self, variant: Variant) -> Result<(), SetupError> {
        for color in Color::ALL {
            let count = |role| self.squares_of(Piece { color, role }).count();
            match count(Role::King) {
                0 => return Err(SetupError::MissingKing(color)),
                1 => {}
                n => return Err(SetupError::TooManyKings(color, n)),
            }
            let pawns = count(Role::Pawn);
            if pawns > 8 {
                return Err(SetupError::TooMany {
                    color,
                    role: Role::Pawn,
                    count: pawns,
                    max: 8,
                });
            }
            for role in [Role::Khon, Role::Knight, Role::Rook] {
                if count(role) > 2 {
                    return Err(SetupError::TooMany {
                        color,
                        role,
                        count: count(role),
                        max: 2,
                    });
                }
            }
            if count(Role::Met) + pawns > 9 {
                return Err(SetupError::TooMany {
                    color,
                    role: Role::Met,
                    count: count(Role::Met),
                    max: 9 - pawns,
                });
            }
            for sq in self.squares_of(Piece {
                color,
                role: Role::Pawn,
            }) {
                // A bia moves only forward and promotes on the sixth rank, so
                // it stands on its third to fifth rank.
                if !(2..=4).contains(&sq.relative_rank(color)) {
                    return Err(SetupError::PawnOnImpossibleRank(color, sq));
                }
            }
        }
        for sq in self.promoted {
            if self.piece_at(sq).map(|p| p.role) != Some(Role::Met) {
                return Err(SetupError::PromotedNotMet(sq));
            }
        }
        match variant {
            Variant::Makruk if self.special_rights.any() => {
                return Err(SetupError::SpecialRightsInMakruk {
                    rights: self.rights_field(),
                });
            }
            _ => {}
        }
        for sq in self.special_rights {
            // A right belongs to a khun or an original met (a promoted bia
            // never had one) standing on its own first rank.
            let ok = self.piece_at(sq).is_some_and(|p| {
                matches!(p.role, Role::King | Role::Met)
                    && sq.relative_rank(p.color) == 0
                    && !self.promoted.contains(sq)
            });
            if !ok {
                return Err(SetupError::BadSpecialRight {
                    square: sq,
                    rights: self.rights_field(),
                });
            }
        }
        // Any counting limit is accepted, with bias on the board or not, as
        // Fairy-Stockfish accepts it: peers write the counts of other rules
        // (cutechess writes Makruk limits in Ouk Chatrang) and a count that
        // runs is played on as the FEN gives it.
        if self.fullmoves == 0 {
            return Err(SetupError::ZeroFullmoves);
        }
        Ok(())
    }
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A side has no khun.
    MissingKing(Color),
    /// A side has more than one khun.
    TooManyKings(Color, u32),
    /// More pieces of a role than a game can have.
    TooMany {
        /// Whose pieces.
        color: Color,
        /// Which role.
        role: Role,
        /// How many there are.
        count: u32,
        /// How many there can be.
        max: u32,
    },
    /// A bia on its first, second, sixth, seventh or eighth rank.
    PawnOnImpossibleRank(Color, Square),
    /// A promotion mark (`~`) on something other than a met.
    PromotedNotMet(Square),
    /// Special first-move rights (Ouk Chatrang) given in a Makruk position.
    SpecialRightsInMakruk {
        /// FEN field 3 as the setup has it.
        rights: String,
    },
    /// A special first-move right on a square without an unmoved khun or
    /// original met.
    BadSpecialRight {
        /// The square the impossible right is on.
        square: Square,
        /// FEN field 3 as the setup has it.
        rights: String,
    },
    /// Move number 0.
    ZeroFullmoves,
    /// The side that just moved left its khun in check.
    OppositeCheck,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::MissingKing(c) => write!(f, "{c} has no khun (king)"),
            SetupError::TooManyKings(c, n) => {
                write!(f, "{c} has {n} khuns (kings); exactly one is needed")
            }
            SetupError::TooMany {
                color,
                role,
                count,
                max,
            } => {
                write!(
                    f,
                    "{color} has {count} {role} pieces; at most {max} are possible"
                )
            }
            SetupError::PawnOnImpossibleRank(c, sq) => write!(
                f,
                "{c} bia on {sq}: a bia can only stand on its third to fifth rank (it promotes on the sixth)"
            ),
            SetupError::PromotedNotMet(sq) => {
                write!(f, "promotion mark '~' on {sq}, which holds no met")
            }
            SetupError::SpecialRightsInMakruk { rights } => write!(
                f,
                "FEN field 3 (special first-move rights) is '{rights}': these are an Ouk Chatrang rule; use '-' in Makruk (or variant cambodian)"
            ),
            SetupError::BadSpecialRight { square, rights } => write!(
                f,
                "FEN field 3 (special first-move rights) is '{rights}': '{}' gives a right on {square}, where no khun or original met stands on its own first rank",
                crate::fen::right_letter(*square)
            ),
            SetupError::ZeroFullmoves => write!(f, "the move number must be at least 1"),
            SetupError::OppositeCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SetupError {}
