//! Thai notation: Fairy-Stockfish's two Thai forms, written byte for byte,
//! and a reader for them and for the form this project used before.
//!
//! Files a–h are the Thai letters ก ข ค ง จ ฉ ช ญ and ranks 1–8 the Thai
//! digits ๑–๘. Pieces are the first letters of their Thai names: ข ขุน
//! (khun), ม็ เม็ด (met; ง for a met that is a promoted bia), ค โคน (khon),
//! ม ม้า (ma), ร เรือ (ruea), บ เบี้ย (bia).
//!
//! - The short form ([`Notation::ThaiSan`](crate::Notation::ThaiSan)) is SAN
//!   with Thai letters: a bia move has no letter (`จ๔`, `ฉxจ๕`), a piece
//!   move has `-` before its square (`ม-ง๗`, `คจ-ง๔`, `ง-ง๕`).
//! - The long form ([`Notation::ThaiLan`](crate::Notation::ThaiLan)), the
//!   book form, always writes the piece and both squares: `บ จ๓-จ๔`,
//!   `ค ฉ๘-ฉ๗`, `ม ข๑-ค๓`; it is never ambiguous.
//!
//! Both end a promotion with `=M` and a check with `+` or `#`.
//!
//! Reading is split as in SAN: [`ThaiMove::parse`] reads the text without
//! a position (a [`ParseThaiError`] names the character where reading
//! stopped); [`ThaiMove::to_move`] finds the legal move it names.

mod parse;

pub use parse::{ParseThaiError, ThaiMove, ThaiPiece};

use crate::{Move, Position, Role, Square};
use std::fmt;

/// Thai file letters, a to h.
pub(crate) const FILES: [char; 8] = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
/// Thai digits, 1 to 8.
pub(crate) const RANKS: [char; 8] = ['๑', '๒', '๓', '๔', '๕', '๖', '๗', '๘'];

/// A square in Thai letters (`f3` is `ฉ๓`).
pub fn thai_square(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(FILES[sq.file() as usize]);
    s.push(RANKS[sq.rank() as usize]);
    s
}

impl ThaiPiece {
    /// The piece's letters as Fairy-Stockfish writes them (`ม็` is two
    /// characters: ม and the mai taikhu).
    pub const fn letters(self) -> &'static str {
        match self {
            ThaiPiece::Khun => "ข",
            ThaiPiece::Met => "ม็",
            ThaiPiece::PromotedMet => "ง",
            ThaiPiece::Khon => "ค",
            ThaiPiece::Ma => "ม",
            ThaiPiece::Ruea => "ร",
            ThaiPiece::Bia => "บ",
        }
    }

    /// The role this letter names.
    pub const fn role(self) -> Role {
        match self {
            ThaiPiece::Khun => Role::King,
            ThaiPiece::Met | ThaiPiece::PromotedMet => Role::Met,
            ThaiPiece::Khon => Role::Khon,
            ThaiPiece::Ma => Role::Knight,
            ThaiPiece::Ruea => Role::Rook,
            ThaiPiece::Bia => Role::Pawn,
        }
    }
}

/// Why Thai text could not be read as a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThaiError {
    /// The text is not Thai notation.
    Parse(ParseThaiError),
    /// No legal move matches.
    Illegal {
        /// The text.
        text: String,
    },
    /// More than one legal move matches.
    Ambiguous {
        /// The text.
        text: String,
        /// The matching moves, in the long Thai form.
        candidates: Vec<String>,
    },
}

impl fmt::Display for ThaiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThaiError::Parse(e) => e.fmt(f),
            ThaiError::Illegal { text } => {
                write!(f, "'{text}' is not a legal move in this position")
            }
            ThaiError::Ambiguous { text, candidates } => write!(
                f,
                "'{text}' is ambiguous: it could be {}",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for ThaiError {}

impl From<ParseThaiError> for ThaiError {
    fn from(e: ParseThaiError) -> ThaiError {
        ThaiError::Parse(e)
    }
}

impl Position {
    /// The Thai letter of the piece on `sq` (`ง` for a promoted bia).
    fn thai_piece(&self, sq: Square) -> ThaiPiece {
        match self.role_at(sq) {
            Some(Role::King) => ThaiPiece::Khun,
            Some(Role::Met) if self.promoted.contains(sq) => ThaiPiece::PromotedMet,
            Some(Role::Met) => ThaiPiece::Met,
            Some(Role::Khon) => ThaiPiece::Khon,
            Some(Role::Knight) => ThaiPiece::Ma,
            Some(Role::Rook) => ThaiPiece::Ruea,
            Some(Role::Pawn) | None => ThaiPiece::Bia,
        }
    }

    /// A legal move in Fairy-Stockfish's short Thai form
    /// (`NOTATION_THAI_SAN`): `จ๔`, `ฉxจ๕`, `ม-ง๗`, `คจ-ง๔`, `ง-ง๕`,
    /// `ค๖=M`, `ร-ญ๘#`.
    pub fn thai_san(&self, m: Move) -> String {
        let mut out = String::with_capacity(24);
        let role = self.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = self.is_capture(m);
        if role == Role::Pawn {
            if capture {
                out.push(FILES[m.from().file() as usize]);
            }
        } else {
            out.push_str(self.thai_piece(m.from()).letters());
            let (file, rank) = self.disambiguation(m, role);
            if file {
                out.push(FILES[m.from().file() as usize]);
            }
            if rank {
                out.push(RANKS[m.from().rank() as usize]);
            }
        }
        if capture {
            out.push('x');
        } else if role != Role::Pawn {
            out.push('-');
        }
        self.finish_thai(m, out)
    }

    /// A legal move in Fairy-Stockfish's long Thai form
    /// (`NOTATION_THAI_LAN`), the book form: piece, space, both squares
    /// (`บ จ๓-จ๔`, `ค ฉ๘-ฉ๗`, `บ ฉ๔xจ๕`, `บ ค๕-ค๖=M`).
    pub fn thai_lan(&self, m: Move) -> String {
        let mut out = String::with_capacity(32);
        out.push_str(self.thai_piece(m.from()).letters());
        out.push(' ');
        out.push_str(&thai_square(m.from()));
        out.push(if self.is_capture(m) { 'x' } else { '-' });
        self.finish_thai(m, out)
    }

    /// The destination, the promotion suffix and the check mark.
    fn finish_thai(&self, m: Move, mut out: String) -> String {
        out.push_str(&thai_square(m.to()));
        if m.is_promotion() {
            out.push_str("=M");
        }
        out.extend(self.check_mark(m));
        out
    }

    /// Reads a move in Thai notation: either of Fairy-Stockfish's forms,
    /// or this project's earlier form (`บจ๔`, `มขง๒`, `บค๖=ม็`), with full
    /// piece names (`ม้าฉ๓`), Arabic rank digits, engine form (`จ๓จ๔`),
    /// `×` or `:` for captures, and `+`, `#`, `!`, `?`.
    ///
    /// A text exactly as Fairy-Stockfish writes one legal move (either form)
    /// names that move, even where another reading would also fit: `ง๔-ง๕`
    /// is the promoted bia's short form, though `ง๔` also reads as a square.
    pub fn parse_thai(&self, text: &str) -> Result<Move, ThaiError> {
        let read = ThaiMove::parse(text)?;
        let text = text.trim();
        let legal = self.legal_moves();
        let exact: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| self.thai_san(m) == text || self.thai_lan(m) == text)
            .collect();
        if let [m] = exact.as_slice() {
            return Ok(*m);
        }
        read.to_move(self)
    }
}

impl ThaiMove {
    /// The legal move of `pos` this text names. Where a letter can be read
    /// as a piece or as a file (ข ค ง), every reading is tried. Read
    /// strictly first: `-` means a move that captures nothing, no `=M`
    /// a move that does not promote, ม็ an original met and ง a promoted
    /// bia, as Fairy-Stockfish writes them; only when that finds no move
    /// are these read leniently (promotion with no suffix, as SchemingMind
    /// writes it; the earlier form's ม็ for every met).
    pub fn to_move(&self, pos: &Position) -> Result<Move, ThaiError> {
        let legal = pos.legal_moves();
        let mut found: Vec<Move> = Vec::new();
        for strict in [true, false] {
            for reading in self.readings() {
                for m in reading.candidates(pos, legal.as_slice(), strict) {
                    if !found.contains(&m) {
                        found.push(m);
                    }
                }
            }
            if !found.is_empty() {
                break;
            }
        }
        match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(ThaiError::Illegal {
                text: self.text().to_string(),
            }),
            many => Err(ThaiError::Ambiguous {
                text: self.text().to_string(),
                candidates: many.iter().map(|&m| pos.thai_lan(m)).collect(),
            }),
        }
    }
}

impl parse::Reading {
    /// The legal moves this reading names.
    fn candidates(&self, pos: &Position, legal: &[Move], strict: bool) -> Vec<Move> {
        let full_from = self.from_file.is_some() && self.from_rank.is_some();
        let role = match self.piece {
            Some(p) => Some(p.role()),
            // Engine form (`จ๓จ๔`) names any piece; read strictly, a
            // text with no piece letter is a bia's move, as written.
            None if full_from && !strict => None,
            None => Some(Role::Pawn),
        };
        let promoted = match self.piece {
            Some(ThaiPiece::Met) => Some(false),
            Some(ThaiPiece::PromotedMet) => Some(true),
            _ => None,
        };
        let out: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.to() == self.to)
            .filter(|m| self.from_file.is_none_or(|f| m.from().file() == f))
            .filter(|m| self.from_rank.is_none_or(|r| m.from().rank() == r))
            .filter(|m| role.is_none_or(|r| pos.role_at(m.from()) == Some(r)))
            .filter(|m| m.is_promotion() == self.promotion || (!strict && m.is_promotion()))
            .filter(|m| match self.separator {
                Some(parse::Separator::Capture) => pos.is_capture(*m),
                Some(parse::Separator::Quiet) if strict => !pos.is_capture(*m),
                _ => true,
            })
            .filter(|m| !strict || promoted.is_none_or(|p| pos.promoted.contains(m.from()) == p))
            .collect();
        out
    }
}
