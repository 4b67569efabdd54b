//! Standard algebraic notation (SAN): writing in Fairy-Stockfish or
//! SchemingMind letters, reading every convention of RULES.md.

use crate::{Bitboard, Letters, Move, Position, Role, Square, State};
use std::fmt;

/// A move read from SAN, with the marks that came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanMove {
    /// The legal move.
    pub mv: Move,
    /// SchemingMind's trailing `=`: the mover offers a draw.
    pub draw_offer: bool,
    /// Annotation marks written after the move (`!`, `?`, `!?`, ...).
    pub annotation: String,
}

/// Why SAN text could not be read as a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// No legal move matches.
    Illegal {
        /// The text.
        text: String,
    },
    /// More than one legal move matches.
    Ambiguous {
        /// The text.
        text: String,
        /// The matching moves, in SAN.
        candidates: Vec<String>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { text, message } => write!(f, "'{text}' is not a move: {message}"),
            SanError::Illegal { text } => {
                write!(f, "'{text}' is not a legal move in this position")
            }
            SanError::Ambiguous { text, candidates } => write!(
                f,
                "'{text}' is ambiguous: it could be {}",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for SanError {}

impl Position {
    /// The SAN of a legal move in Fairy-Stockfish letters (`Me2`, `Sxd4`,
    /// `c6=M`, `Nf6+`, `Rd8#`).
    pub fn san(&self, m: Move) -> String {
        self.san_with(m, Letters::Fsf)
    }

    /// The SAN of a legal move in the given letters. SchemingMind letters
    /// also write promotions with no suffix, as SchemingMind does.
    pub fn san_with(&self, m: Move, letters: Letters) -> String {
        let mut out = self.san_without_suffix(m, letters);
        out.extend(self.check_mark(m));
        out
    }

    /// The mark a legal move ends with: `#` when it mates, `+` when it
    /// gives check, none otherwise.
    pub(crate) fn check_mark(&self, m: Move) -> Option<char> {
        let after = self.played(m);
        after.is_check().then(|| {
            if after.state() == State::Checkmate {
                '#'
            } else {
                '+'
            }
        })
    }

    fn san_without_suffix(&self, m: Move, letters: Letters) -> String {
        let mut out = String::with_capacity(8);
        let Some(role) = self.role_at(m.from()) else {
            return m.to_uci();
        };
        let capture = self.is_capture(m);
        if role == Role::Pawn {
            if capture {
                out.push(m.from().file_char());
            }
        } else {
            out.push(role.upper_char(letters));
            let (file, rank) = self.disambiguation(m, role);
            if file {
                out.push(m.from().file_char());
            }
            if rank {
                out.push(m.from().rank_char());
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&m.to().to_string());
        if m.is_promotion() && letters == Letters::Fsf {
            out.push_str("=M");
        }
        out
    }

    /// Which parts of the origin square a piece move writes so that no
    /// other legal move of a piece of the same role to the same square
    /// reads the same, as Fairy-Stockfish decides it: nothing, the file,
    /// else the rank, else both. Returns (file, rank). Promoted and
    /// unpromoted mets count as one role.
    pub(crate) fn disambiguation(&self, m: Move, role: Role) -> (bool, bool) {
        let others: Bitboard = self
            .legal_moves()
            .iter()
            .filter(|o| o.to() == m.to() && o.from() != m.from())
            .filter(|o| self.role_at(o.from()) == Some(role))
            .fold(Bitboard::EMPTY, |bb, o| bb.with(o.from()));
        if others.is_empty() {
            (false, false)
        } else if (others & Bitboard::file(m.from().file())).is_empty() {
            (true, false)
        } else if (others & Bitboard::rank(m.from().rank())).is_empty() {
            (false, true)
        } else {
            (true, true)
        }
    }

    /// Reads a move in SAN, in any convention of RULES.md, and returns it
    /// with its marks. Accepts M/S and Q/B letters, promotion with no
    /// suffix or with `=M`, `=Q`, `=P`, PlayOK's `P` for a promoted bia's
    /// moves, long algebraic (`Nb1-c3`, `e3e4`), a trailing `=` (draw offer),
    /// and `+`, `#`, `!`, `?`.
    pub fn parse_san_full(&self, text: &str) -> Result<SanMove, SanError> {
        let original = text.trim();
        let syntax = |message: &str| SanError::Syntax {
            text: original.into(),
            message: message.into(),
        };
        let mut s = original;
        let mut annotation = String::new();
        let mut draw_offer = false;
        loop {
            if let Some(rest) = s.strip_suffix(['!', '?']) {
                annotation.insert(0, s.as_bytes()[s.len() - 1] as char);
                s = rest;
            } else if let Some(rest) = s.strip_suffix(['+', '#']) {
                s = rest;
            } else if let Some(rest) = s.strip_suffix('=') {
                draw_offer = true;
                s = rest;
            } else {
                break;
            }
        }
        // Promotion suffix: `=M`, `=Q`, `=P`, or the letter alone after the square.
        let b = s.as_bytes();
        let mut promotion_given = false;
        if b.len() >= 3 && matches!(b[b.len() - 1].to_ascii_uppercase(), b'M' | b'Q' | b'P') {
            let before = b[b.len() - 2];
            if before == b'=' {
                promotion_given = true;
                s = &s[..s.len() - 2];
            } else if before.is_ascii_digit() && b[b.len() - 1].is_ascii_uppercase() {
                promotion_given = true;
                s = &s[..s.len() - 1];
            }
        }
        let b = s.as_bytes();
        if b.is_empty() {
            return Err(syntax("empty move"));
        }
        let (letter, rest) = match b[0] {
            c @ (b'K' | b'M' | b'Q' | b'S' | b'B' | b'N' | b'R' | b'P') => (Some(c), &b[1..]),
            _ => (None, b),
        };
        if rest.len() < 2 {
            return Err(syntax("no destination square"));
        }
        let to = Square::from_ascii(&rest[rest.len() - 2..])
            .ok_or_else(|| syntax("it does not end with a destination square"))?;
        let mut head = &rest[..rest.len() - 2];
        if let [h @ .., b'x' | b':' | b'-'] = head {
            head = h;
        }
        let (from_file, from_rank) = match head {
            [] => (None, None),
            [f @ b'a'..=b'h'] => (Some(f - b'a'), None),
            [r @ b'1'..=b'8'] => (None, Some(r - b'1')),
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some(f - b'a'), Some(r - b'1')),
            _ => {
                return Err(syntax(
                    "unexpected characters before the destination square",
                ));
            }
        };
        let full_from = from_file.is_some() && from_rank.is_some();
        let roles: &[Role] = match letter {
            Some(b'K') => &[Role::King],
            Some(b'M' | b'Q') => &[Role::Met],
            Some(b'S' | b'B') => &[Role::Khon],
            Some(b'N') => &[Role::Knight],
            Some(b'R') => &[Role::Rook],
            Some(b'P') => &[Role::Pawn],
            None if full_from => &Role::ALL,
            _ => &[Role::Pawn],
        };
        let legal = self.legal_moves();
        let matches = |pred: &dyn Fn(Square) -> bool| -> Vec<Move> {
            legal
                .iter()
                .copied()
                .filter(|m| m.to() == to)
                .filter(|m| from_file.is_none_or(|f| m.from().file() == f))
                .filter(|m| from_rank.is_none_or(|r| m.from().rank() == r))
                .filter(|m| pred(m.from()))
                .collect()
        };
        let mut candidates =
            matches(&|from| self.role_at(from).is_some_and(|r| roles.contains(&r)));
        if candidates.is_empty() && letter == Some(b'P') {
            // PlayOK writes the moves of a promoted bia (now a met) with P.
            candidates = matches(&|from| self.promoted.contains(from));
            if candidates.is_empty() {
                candidates = matches(&|from| self.role_at(from) == Some(Role::Met));
            }
        }
        if promotion_given {
            // A promotion mark on a move that does not promote is wrong,
            // not a detail to overlook.
            candidates.retain(|m| m.is_promotion());
        }
        match candidates.as_slice() {
            [m] => Ok(SanMove {
                mv: *m,
                draw_offer,
                annotation,
            }),
            [] => Err(SanError::Illegal {
                text: original.into(),
            }),
            many => Err(SanError::Ambiguous {
                text: original.into(),
                candidates: many.iter().map(|&m| self.san(m)).collect(),
            }),
        }
    }

    /// Reads a move in SAN (see [`Position::parse_san_full`]).
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_full(text).map(|s| s.mv)
    }
}
