//! Reading Thai notation without a position: the text becomes one or two
//! readings (ข, ค and ง are piece letters and files too), or an error that
//! names the character where reading stopped.

use super::{FILES, RANKS};
use crate::Square;
use std::fmt;

/// A piece letter of Thai notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThaiPiece {
    /// ข, the khun.
    Khun,
    /// ม็, a met (Fairy-Stockfish: one that was never a bia).
    Met,
    /// ง, a met that is a promoted bia (Fairy-Stockfish).
    PromotedMet,
    /// ค, a khon.
    Khon,
    /// ม, a ma.
    Ma,
    /// ร, a ruea.
    Ruea,
    /// บ, a bia.
    Bia,
}

/// Thai text that has the shape of a move, not yet matched to a position
/// (see [`ThaiMove::to_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThaiMove {
    text: String,
    readings: Vec<Reading>,
}

/// One way to read the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The piece letter, if the reading has one.
    pub(crate) piece: Option<ThaiPiece>,
    /// The origin's file, if written.
    pub(crate) from_file: Option<u8>,
    /// The origin's rank, if written.
    pub(crate) from_rank: Option<u8>,
    /// `-` or `x` before the destination, if written.
    pub(crate) separator: Option<Separator>,
    /// The destination.
    pub(crate) to: Square,
    /// A promotion suffix (`=M`, `=ม็`, `=`) was written.
    pub(crate) promotion: bool,
}

/// The mark between the origin and the destination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Separator {
    /// `-`: a move that captures nothing.
    Quiet,
    /// `x`, `×` or `:`: a capture.
    Capture,
}

/// Why text is not a move in Thai notation: what was expected at which
/// character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseThaiError {
    /// The text.
    pub text: String,
    /// Where reading stopped, in characters (Unicode scalar values) from
    /// the start of the text, counting from 0.
    pub at: usize,
    /// The character found there; `None` when the text ended.
    pub found: Option<char>,
    /// What could have come there instead.
    pub expected: &'static str,
}

impl fmt::Display for ParseThaiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move in Thai notation: at character {}, ",
            self.text,
            self.at + 1
        )?;
        match self.found {
            Some(c) => write!(f, "'{c}' (U+{:04X})", c as u32)?,
            None => f.write_str("the end of the text")?,
        }
        write!(f, " where {} was expected", self.expected)
    }
}

impl std::error::Error for ParseThaiError {}

/// Full piece names, read as their letters.
const NAMES: [(&str, ThaiPiece); 6] = [
    ("ขุน", ThaiPiece::Khun),
    ("เม็ด", ThaiPiece::Met),
    ("โคน", ThaiPiece::Khon),
    ("ม้า", ThaiPiece::Ma),
    ("เรือ", ThaiPiece::Ruea),
    ("เบี้ย", ThaiPiece::Bia),
];

/// Letters that are pieces only (the mai taikhu of ม็ is checked first).
const PIECE_ONLY: [(char, ThaiPiece); 3] = [
    ('ม', ThaiPiece::Ma),
    ('ร', ThaiPiece::Ruea),
    ('บ', ThaiPiece::Bia),
];

/// Letters that are pieces and files.
const PIECE_OR_FILE: [(char, ThaiPiece); 3] = [
    ('ข', ThaiPiece::Khun),
    ('ค', ThaiPiece::Khon),
    ('ง', ThaiPiece::PromotedMet),
];

/// The mai taikhu, the mark that makes ม (ma) into ม็ (met).
const MAI_TAIKHU: char = '\u{0E47}';

/// Promotion letters after `=`.
const PROMOTIONS: [&str; 7] = ["เม็ด", "ม็", "ง", "M", "m", "Q", "q"];

impl ThaiMove {
    /// Reads the shape of a move in Thai notation (see
    /// [`Position::parse_thai`](crate::Position::parse_thai) for the forms).
    pub fn parse(text: &str) -> Result<ThaiMove, ParseThaiError> {
        let chars: Vec<char> = text.chars().collect();
        let mut cur = Cursor {
            chars: &chars,
            at: 0,
        };
        cur.skip_spaces();
        let start = cur.at;
        let mut starts: Vec<(Option<ThaiPiece>, usize)> = Vec::with_capacity(2);
        match piece_at(&chars, start) {
            Some((piece, len, also_file)) => {
                starts.push((Some(piece), start + len));
                if also_file {
                    starts.push((None, start));
                }
            }
            None => starts.push((None, start)),
        }
        let mut readings = Vec::with_capacity(2);
        let mut error: Option<(usize, Option<char>, &'static str)> = None;
        for (piece, at) in starts {
            let mut cur = Cursor { chars: &chars, at };
            match cur.body(piece) {
                Ok(r) => readings.push(r),
                Err(e) => {
                    if error.is_none_or(|(best, _, _)| e.0 > best) {
                        error = Some(e);
                    }
                }
            }
        }
        if readings.is_empty() {
            let (at, found, expected) = error.unwrap_or((start, None, "a move"));
            return Err(ParseThaiError {
                text: text.to_string(),
                at,
                found,
                expected,
            });
        }
        Ok(ThaiMove {
            text: text.trim().to_string(),
            readings,
        })
    }

    /// The text as given (without surrounding spaces).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn readings(&self) -> &[Reading] {
        &self.readings
    }
}

/// The piece letter or name at `at`: the piece, its length in characters,
/// and whether the letter is also a file.
fn piece_at(chars: &[char], at: usize) -> Option<(ThaiPiece, usize, bool)> {
    let rest = &chars[at..];
    for (name, piece) in NAMES {
        if starts_with(rest, name) {
            return Some((piece, name.chars().count(), false));
        }
    }
    match rest {
        ['ม', MAI_TAIKHU, ..] => return Some((ThaiPiece::Met, 2, false)),
        [c, ..] => {
            if let Some(&(_, p)) = PIECE_ONLY.iter().find(|(l, _)| l == c) {
                return Some((p, 1, false));
            }
            if let Some(&(_, p)) = PIECE_OR_FILE.iter().find(|(l, _)| l == c) {
                return Some((p, 1, true));
            }
        }
        [] => {}
    }
    None
}

fn starts_with(chars: &[char], s: &str) -> bool {
    let n = s.chars().count();
    chars.len() >= n && chars[..n].iter().copied().eq(s.chars())
}

/// Where reading stopped: the character index, the character, what was expected.
type Stop = (usize, Option<char>, &'static str);

struct Cursor<'a> {
    chars: &'a [char],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn stop(&self, expected: &'static str) -> Stop {
        (self.at, self.peek(), expected)
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn file(&mut self) -> Option<u8> {
        let f = FILES.iter().position(|&c| Some(c) == self.peek())?;
        self.at += 1;
        Some(f as u8)
    }

    fn rank(&mut self) -> Option<u8> {
        let c = self.peek()?;
        let r = RANKS
            .iter()
            .position(|&d| d == c)
            .or_else(|| ('1'..='8').position(|d| d == c))?;
        self.at += 1;
        Some(r as u8)
    }

    fn eat(&mut self, s: &str) -> bool {
        if starts_with(&self.chars[self.at..], s) {
            self.at += s.chars().count();
            true
        } else {
            false
        }
    }

    /// Origin, separator, destination, then the suffixes and the end.
    fn body(&mut self, piece: Option<ThaiPiece>) -> Result<Reading, Stop> {
        self.skip_spaces();
        let first_at = self.at;
        let file = self.file();
        let rank = self.rank();
        if file.is_none() && rank.is_none() && piece.is_none() {
            return Err(self.stop("a piece letter or a square"));
        }
        self.skip_spaces();
        let separator = match self.peek() {
            Some('-') => Some(Separator::Quiet),
            Some('x' | 'X' | '×' | ':') => Some(Separator::Capture),
            _ => None,
        };
        if separator.is_some() {
            self.at += 1;
            self.skip_spaces();
        }
        let (from_file, from_rank, to) = if let Some(to_file) = self.file() {
            let Some(to_rank) = self.rank() else {
                return Err(self.stop("a rank (๑–๘)"));
            };
            (file, rank, Square::from_coords(to_file, to_rank))
        } else if let (None, Some(f), Some(r)) = (separator, file, rank) {
            (None, None, Square::from_coords(f, r))
        } else if file.is_some() && rank.is_none() && separator.is_none() {
            return Err(self.stop("a rank (๑–๘)"));
        } else {
            return Err(self.stop("a file (ก–ญ)"));
        };
        let to = to.expect("files and ranks are 0-7");
        if piece.is_none() && from_file.is_some() != from_rank.is_some() {
            // A bia names its origin by the file alone only when it captures.
            if from_rank.is_some() || separator != Some(Separator::Capture) {
                let mut at = Cursor {
                    chars: self.chars,
                    at: first_at,
                };
                at.file();
                return Err(at.stop("a rank (๑–๘) or 'x'"));
            }
        }
        self.skip_spaces();
        let mut promotion = false;
        if self.peek() == Some('=') {
            self.at += 1;
            promotion = true;
            for p in PROMOTIONS {
                if self.eat(p) {
                    break;
                }
            }
        }
        while matches!(self.peek(), Some('+' | '#')) {
            self.at += 1;
        }
        while matches!(self.peek(), Some('!' | '?')) {
            self.at += 1;
        }
        self.skip_spaces();
        if self.peek().is_some() {
            return Err(self.stop("the end of the move"));
        }
        Ok(Reading {
            piece,
            from_file,
            from_rank,
            separator,
            to,
            promotion,
        })
    }
}
