//! The notations moves are written in, named once for every program that
//! offers a choice (the CLI's `--notation`, the server's move lists).

use crate::{Letters, Move, Position, SanError, ThaiError};
use std::fmt;

/// A way of writing Makruk and Ouk Chatrang moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// SAN in Fairy-Stockfish letters (`Me2`, `Sxd4`, `c6=M`).
    #[default]
    San,
    /// SAN in SchemingMind and PlayOK letters (`Qe2`, `Bxd4`, `c6`).
    SchemingMind,
    /// Fairy-Stockfish's short Thai form (`จ๔`, `ม-ง๗`, `คจ-ง๔`).
    ThaiSan,
    /// Fairy-Stockfish's long Thai form, the book form (`บ จ๓-จ๔`).
    ThaiLan,
}

impl Notation {
    /// Every notation, in the order of their names.
    pub const ALL: [Notation; 4] = [
        Notation::San,
        Notation::SchemingMind,
        Notation::ThaiSan,
        Notation::ThaiLan,
    ];

    /// The name used on the command line and in the server's API.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::San => "san",
            Notation::SchemingMind => "schemingmind",
            Notation::ThaiSan => "thai-san",
            Notation::ThaiLan => "thai-lan",
        }
    }

    /// The notation of a name (see [`Notation::name`]).
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL.into_iter().find(|n| n.name() == name)
    }

    /// Whether moves are written in Thai letters.
    pub const fn is_thai(self) -> bool {
        matches!(self, Notation::ThaiSan | Notation::ThaiLan)
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move text could not be read in a notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// SAN that names no single legal move.
    San(SanError),
    /// Thai notation that names no single legal move.
    Thai(ThaiError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::San(e) => e.fmt(f),
            NotationError::Thai(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotationError {}

impl Position {
    /// A legal move written in `notation`.
    pub fn write_move(&self, m: Move, notation: Notation) -> String {
        match notation {
            Notation::San => self.san_with(m, Letters::Fsf),
            Notation::SchemingMind => self.san_with(m, Letters::SchemingMind),
            Notation::ThaiSan => self.thai_san(m),
            Notation::ThaiLan => self.thai_lan(m),
        }
    }

    /// Reads a move written in any notation: text with Thai letters or
    /// digits as Thai notation ([`Position::parse_thai`]), other text as
    /// SAN in any convention ([`Position::parse_san`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        if has_thai(text) {
            self.parse_thai(text).map_err(NotationError::Thai)
        } else {
            self.parse_san(text).map_err(NotationError::San)
        }
    }
}

/// Whether a text has characters of the Thai block (U+0E00–U+0E7F).
pub fn has_thai(text: &str) -> bool {
    text.chars().any(|c| ('\u{0E00}'..='\u{0E7F}').contains(&c))
}
