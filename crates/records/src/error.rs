//! Errors of the reader: what went wrong, in which game, and where.

use std::fmt;

/// The deepest nesting of variations the reader follows.
pub const MAX_DEPTH: usize = 100;

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The source could not be read (the message of the I/O error).
    Io(String),
    /// A tag pair is not `[Name "value"]`.
    BadTag(String),
    /// A `{` comment is not closed before the end of the file or the next
    /// game's tags.
    UnterminatedComment,
    /// A character that has no place in movetext.
    UnexpectedChar,
    /// A NAG (`$n`, `!`, `?`, ...) that is malformed or follows no move.
    BadNag,
    /// A `)` with no open variation.
    UnexpectedClose,
    /// A variation still open at the end of the game.
    UnterminatedVariation,
    /// A `(` before any move of the line it would be an alternative to.
    VariationWithoutMove,
    /// A result inside a variation.
    ResultInVariation,
    /// The `[Variant]` or `[GameType]` tag names no game this crate plays.
    UnknownVariant,
    /// The `[Rules]` tag names no Mak-hot rule set.
    BadRules(String),
    /// The `[FEN]` tag is not a valid position (the reason).
    BadFen(String),
    /// The text is not a move in any accepted notation (the reason).
    BadMove(String),
    /// No legal move matches.
    IllegalMove,
    /// More than one legal move matches (the candidates).
    AmbiguousMove(Vec<String>),
    /// Variations nested deeper than the reader follows.
    TooDeep,
    /// The source holds no game.
    NoGame,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(m) => write!(f, "read error: {m}"),
            ErrorKind::BadTag(m) => write!(f, "bad tag: {m}"),
            ErrorKind::UnterminatedComment => f.write_str("unterminated comment"),
            ErrorKind::UnexpectedChar => f.write_str("unexpected character"),
            ErrorKind::BadNag => f.write_str("bad annotation"),
            ErrorKind::UnexpectedClose => f.write_str("')' closes no variation"),
            ErrorKind::UnterminatedVariation => f.write_str("unterminated variation"),
            ErrorKind::VariationWithoutMove => {
                f.write_str("variation before any move it could replace")
            }
            ErrorKind::ResultInVariation => f.write_str("result inside a variation"),
            ErrorKind::UnknownVariant => f.write_str("unknown variant"),
            ErrorKind::BadRules(m) => write!(f, "bad rules: {m}"),
            ErrorKind::BadFen(m) => write!(f, "bad FEN: {m}"),
            ErrorKind::BadMove(m) => write!(f, "bad move: {m}"),
            ErrorKind::IllegalMove => f.write_str("illegal move"),
            ErrorKind::AmbiguousMove(c) => write!(f, "ambiguous move (could be {})", c.join(", ")),
            ErrorKind::TooDeep => write!(f, "variations nested more than {} deep", MAX_DEPTH),
            ErrorKind::NoGame => f.write_str("no game found"),
        }
    }
}

/// A broken record: the game number (1 for the first game of the source),
/// the line and column (both from 1, columns in characters) where the
/// problem starts, the offending text, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The game's number in the source, from 1.
    pub game: usize,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// The offending text (shortened if long).
    pub text: String,
    /// For a move: its number as written in movetext (`23.` or `23...`).
    pub move_number: Option<String>,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.kind
        )?;
        match &self.move_number {
            Some(n) => write!(f, ": {n} {}", self.text),
            None if self.text.is_empty() => Ok(()),
            None => write!(f, ": {}", self.text),
        }
    }
}

impl std::error::Error for ReadError {}

/// Shortens `text` to at most `max` characters, marking a cut with `...`.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max).collect();
        s.push_str("...");
        s
    }
}
