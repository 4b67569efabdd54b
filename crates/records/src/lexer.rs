//! The tokenizer: PGN/PDN text, read line by line from any [`BufRead`], cut
//! into tags, comments, parentheses, NAGs, move numbers, move texts and
//! results, each with its line and column.
//!
//! Memory stays bounded whatever the size of the source: one line (at most
//! [`MAX_LINE`] bytes; longer lines are read in pieces) and one comment (its
//! text is cut at [`MAX_COMMENT`] bytes) at a time.

use crate::error::{ErrorKind, shorten};
use crate::tree::GameResult;
use std::io::{self, BufRead, Read};

/// The longest piece of a line read at once.
pub const MAX_LINE: u64 = 1 << 20;
/// The most bytes of one comment kept.
pub const MAX_COMMENT: usize = 1 << 20;

/// A token of PGN/PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `[Name "value"]`.
    Tag { name: String, value: String },
    /// `{...}` or `;...`, whitespace collapsed.
    Comment(String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `$n`, or `!`, `?`, `!!`, `??`, `!?`, `?!` as NAGs 1 to 6.
    Nag(u8),
    /// `12.`, `12...` (the value is not used).
    MoveNumber,
    /// A move text.
    Symbol(String),
    /// `1-0`, `0-1`, `1/2-1/2`, `*` (and PDN's `2-0`, `0-2`, `1-1`).
    Result(GameResult),
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub column: usize,
    /// Only whitespace comes before the token on its line.
    pub line_start: bool,
}

/// A piece of text that is not a token.
#[derive(Clone, Debug)]
pub(crate) struct LexError {
    pub kind: ErrorKind,
    pub line: usize,
    pub column: usize,
    pub text: String,
}

/// The tokenizer over a buffered source.
pub(crate) struct Lexer<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    line: usize,
    col_base: usize,
    counted_to: usize,
    counted: usize,
    chunk_starts_line: bool,
    ended_with_newline: bool,
    eof: bool,
    first: bool,
    bytes: u64,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_symbol_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'#' | b'=' | b':' | b'-' | b'/' | b'_')
}

/// Whether a whole line reads as one tag pair (`[Name "value"]`).
fn looks_like_tag_line(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    let Some(inner) = t.strip_prefix(b"[").and_then(|t| t.strip_suffix(b"\"]")) else {
        return false;
    };
    let name_len = inner
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if name_len == 0 {
        return false;
    }
    let rest = &inner[name_len..];
    let spaces = rest
        .iter()
        .take_while(|c| **c == b' ' || **c == b'\t')
        .count();
    spaces > 0 && rest.get(spaces) == Some(&b'"')
}

fn result_of(text: &str) -> Option<GameResult> {
    Some(match text {
        "1-0" | "2-0" => GameResult::WhiteWins,
        "0-1" | "0-2" => GameResult::BlackWins,
        "1/2-1/2" | "1-1" => GameResult::Draw,
        _ => return None,
    })
}

/// Collapses runs of whitespace to one space and trims the ends.
pub(crate) fn normalize_comment(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

impl<R: BufRead> Lexer<R> {
    /// A tokenizer reading `src` from its current place.
    pub fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            buf: Vec::new(),
            pos: 0,
            line: 0,
            col_base: 0,
            counted_to: 0,
            counted: 0,
            chunk_starts_line: true,
            ended_with_newline: true,
            eof: false,
            first: true,
            bytes: 0,
        }
    }

    /// Bytes taken from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The line and column of byte `at` of the current chunk.
    fn place(&mut self, at: usize) -> (usize, usize) {
        let at = at.min(self.buf.len());
        if at < self.counted_to {
            self.counted_to = 0;
            self.counted = 0;
        }
        self.counted += self.buf[self.counted_to..at]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        self.counted_to = at;
        (self.line.max(1), self.col_base + self.counted + 1)
    }

    /// Where the next token would start (for errors at the end of input).
    pub fn here(&mut self) -> (usize, usize) {
        self.place(self.pos)
    }

    /// Reads the next piece of a line; `false` at the end of the source.
    fn next_chunk(&mut self) -> Result<bool, LexError> {
        if self.eof {
            return Ok(false);
        }
        let prev_chars = if self.ended_with_newline {
            0
        } else {
            self.place(self.buf.len());
            self.counted
        };
        let mut chunk = std::mem::take(&mut self.buf);
        chunk.clear();
        let read = loop {
            match (&mut self.src).take(MAX_LINE).read_until(b'\n', &mut chunk) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        self.buf = chunk;
        self.pos = 0;
        self.counted_to = 0;
        self.counted = 0;
        match read {
            Ok(0) => {
                self.eof = true;
                self.buf.clear();
                Ok(false)
            }
            Ok(n) => {
                self.bytes += n as u64;
                if self.ended_with_newline {
                    self.line += 1;
                    self.col_base = 0;
                    self.chunk_starts_line = true;
                } else {
                    self.col_base += prev_chars;
                    self.chunk_starts_line = false;
                }
                self.ended_with_newline = self.buf.last() == Some(&b'\n');
                if self.first {
                    self.first = false;
                    if self.buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
                        self.buf.drain(..3);
                    }
                }
                Ok(true)
            }
            Err(e) => {
                self.eof = true;
                self.buf.clear();
                let (line, column) = (self.line + 1, 1);
                Err(LexError {
                    kind: ErrorKind::Io(e.to_string()),
                    line,
                    column,
                    text: String::new(),
                })
            }
        }
    }

    /// The next token, `None` at the end of the source. After an error the
    /// tokenizer has moved past the offending text, so reading can go on.
    pub fn next_token(&mut self) -> Result<Option<Token>, LexError> {
        loop {
            if self.pos >= self.buf.len() {
                if !self.next_chunk()? {
                    return Ok(None);
                }
                if self.chunk_starts_line && self.buf.first() == Some(&b'%') {
                    // An escape line: ignored.
                    self.pos = self.buf.len();
                }
                // The chunk may be empty (a byte-order mark alone): look again.
                continue;
            }
            let c = self.buf[self.pos];
            if is_space(c) || c == b'.' {
                self.pos += 1;
                continue;
            }
            let start = self.pos;
            let (line, column) = self.place(start);
            let token = |tok| Token {
                tok,
                line,
                column,
                line_start: false,
            };
            return match c {
                b'[' => self.lex_tag(line, column),
                b'{' => self.lex_comment(line, column),
                b';' => {
                    let end = self.buf.len();
                    let text = normalize_comment(&self.buf[start + 1..end]);
                    self.pos = end;
                    Ok(Some(token(Tok::Comment(text))))
                }
                b'(' => {
                    self.pos += 1;
                    Ok(Some(token(Tok::Open)))
                }
                b')' => {
                    self.pos += 1;
                    Ok(Some(token(Tok::Close)))
                }
                b'*' => {
                    self.pos += 1;
                    Ok(Some(token(Tok::Result(GameResult::Unknown))))
                }
                b'$' => {
                    let mut end = start + 1;
                    while end < self.buf.len() && self.buf[end].is_ascii_digit() {
                        end += 1;
                    }
                    self.pos = end;
                    let digits = &self.buf[start + 1..end];
                    let value = if digits.is_empty() || digits.len() > 3 {
                        None
                    } else {
                        std::str::from_utf8(digits)
                            .ok()
                            .and_then(|d| d.parse::<u8>().ok())
                    };
                    match value {
                        Some(v) => Ok(Some(token(Tok::Nag(v)))),
                        None => Err(LexError {
                            kind: ErrorKind::BadNag,
                            line,
                            column,
                            text: shorten(&String::from_utf8_lossy(&self.buf[start..end]), 20),
                        }),
                    }
                }
                b'!' | b'?' => {
                    let mut end = start;
                    while end < self.buf.len() && matches!(self.buf[end], b'!' | b'?') {
                        end += 1;
                    }
                    self.pos = end;
                    let nag = match &self.buf[start..end] {
                        b"!" => 1,
                        b"?" => 2,
                        b"!!" => 3,
                        b"??" => 4,
                        b"!?" => 5,
                        b"?!" => 6,
                        other => {
                            return Err(LexError {
                                kind: ErrorKind::BadNag,
                                line,
                                column,
                                text: shorten(&String::from_utf8_lossy(other), 20),
                            });
                        }
                    };
                    Ok(Some(token(Tok::Nag(nag))))
                }
                c if is_symbol_byte(c) => {
                    let mut end = start;
                    while end < self.buf.len() && is_symbol_byte(self.buf[end]) {
                        end += 1;
                    }
                    let run = &self.buf[start..end];
                    // Only ASCII bytes are symbol bytes, so this is valid UTF-8.
                    let text = String::from_utf8_lossy(run).into_owned();
                    self.pos = end;
                    if run.iter().all(u8::is_ascii_digit) {
                        while self.pos < self.buf.len() && self.buf[self.pos] == b'.' {
                            self.pos += 1;
                        }
                        Ok(Some(token(Tok::MoveNumber)))
                    } else if let Some(r) = result_of(&text) {
                        Ok(Some(token(Tok::Result(r))))
                    } else {
                        Ok(Some(token(Tok::Symbol(text))))
                    }
                }
                _ => {
                    let mut end = start + 1;
                    while end < self.buf.len() && self.buf[end] & 0xC0 == 0x80 {
                        end += 1;
                    }
                    self.pos = end;
                    Err(LexError {
                        kind: ErrorKind::UnexpectedChar,
                        line,
                        column,
                        text: String::from_utf8_lossy(&self.buf[start..end]).into_owned(),
                    })
                }
            };
        }
    }

    fn lex_tag(&mut self, line: usize, column: usize) -> Result<Option<Token>, LexError> {
        let start = self.pos;
        let line_start = self.chunk_starts_line && self.buf[..start].iter().all(|&c| is_space(c));
        let b = &self.buf;
        let len = b.len();
        let mut i = start + 1;
        let skip_spaces = |mut i: usize| {
            while i < len && matches!(b[i], b' ' | b'\t') {
                i += 1;
            }
            i
        };
        let fail = |reason: &str, this: &mut Self| {
            let end = this.buf.len();
            let text = String::from_utf8_lossy(&this.buf[start..end]);
            let text = shorten(text.trim_end(), 60);
            this.pos = end;
            Err(LexError {
                kind: ErrorKind::BadTag(reason.to_string()),
                line,
                column,
                text,
            })
        };
        i = skip_spaces(i);
        let name_start = i;
        while i < len && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i == name_start {
            return fail("no tag name", self);
        }
        let name = String::from_utf8_lossy(&b[name_start..i]).into_owned();
        i = skip_spaces(i);
        if i >= len || b[i] != b'"' {
            return fail("the value must be in double quotes", self);
        }
        i += 1;
        let mut value = Vec::new();
        loop {
            match b.get(i) {
                None | Some(b'\n') | Some(b'\r') => {
                    return fail("the value's closing quote is missing", self);
                }
                Some(b'\\') if matches!(b.get(i + 1), Some(b'"') | Some(b'\\')) => {
                    value.push(b[i + 1]);
                    i += 2;
                }
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(&c) => {
                    value.push(c);
                    i += 1;
                }
            }
        }
        i = skip_spaces(i);
        if i >= len || b[i] != b']' {
            return fail("the closing ']' is missing", self);
        }
        let value = String::from_utf8_lossy(&value).into_owned();
        self.pos = i + 1;
        Ok(Some(Token {
            tok: Tok::Tag { name, value },
            line,
            column,
            line_start,
        }))
    }

    fn lex_comment(&mut self, line: usize, column: usize) -> Result<Option<Token>, LexError> {
        let mut text: Vec<u8> = Vec::new();
        self.pos += 1;
        let unterminated = |text: &[u8]| LexError {
            kind: ErrorKind::UnterminatedComment,
            line,
            column,
            text: format!("{{{}", shorten(&normalize_comment(text), 40)),
        };
        loop {
            let rest = &self.buf[self.pos..];
            match rest.iter().position(|&c| c == b'}') {
                Some(j) => {
                    let keep = j.min(MAX_COMMENT.saturating_sub(text.len()));
                    text.extend_from_slice(&rest[..keep]);
                    self.pos += j + 1;
                    return Ok(Some(Token {
                        tok: Tok::Comment(normalize_comment(&text)),
                        line,
                        column,
                        line_start: false,
                    }));
                }
                None => {
                    let keep = rest.len().min(MAX_COMMENT.saturating_sub(text.len()));
                    text.extend_from_slice(&rest[..keep]);
                    self.pos = self.buf.len();
                    if !self.next_chunk()? {
                        return Err(unterminated(&text));
                    }
                    if self.chunk_starts_line && looks_like_tag_line(&self.buf) {
                        // The next game's tags: the comment was never closed.
                        return Err(unterminated(&text));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Result<Tok, ErrorKind>> {
        let mut lx = Lexer::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            match lx.next_token() {
                Ok(Some(t)) => out.push(Ok(t.tok)),
                Ok(None) => break,
                Err(e) => out.push(Err(e.kind)),
            }
        }
        out
    }

    #[test]
    fn tokens_of_movetext() {
        let t = toks(
            "[Event \"a \\\"b\\\"\"]\n1.e4 e5!? {a  b\n c} (1... d5 $2) ; rest\n2. Nf3 1/2-1/2",
        );
        assert_eq!(
            t,
            vec![
                Ok(Tok::Tag {
                    name: "Event".into(),
                    value: "a \"b\"".into()
                }),
                Ok(Tok::MoveNumber),
                Ok(Tok::Symbol("e4".into())),
                Ok(Tok::Symbol("e5".into())),
                Ok(Tok::Nag(5)),
                Ok(Tok::Comment("a b c".into())),
                Ok(Tok::Open),
                Ok(Tok::MoveNumber),
                Ok(Tok::Symbol("d5".into())),
                Ok(Tok::Nag(2)),
                Ok(Tok::Close),
                Ok(Tok::Comment("rest".into())),
                Ok(Tok::MoveNumber),
                Ok(Tok::Symbol("Nf3".into())),
                Ok(Tok::Result(GameResult::Draw)),
            ]
        );
    }

    #[test]
    fn places_and_errors() {
        let mut lx = Lexer::new("% escape\n  é e4 [Bad\n{never closed\n[Event \"x\"]\n".as_bytes());
        let e = lx.next_token().unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 3, ErrorKind::UnexpectedChar)
        );
        let t = lx.next_token().unwrap().unwrap();
        assert_eq!((t.line, t.column), (2, 5));
        let e = lx.next_token().unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert!(matches!(e.kind, ErrorKind::BadTag(_)));
        let e = lx.next_token().unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (3, 1, ErrorKind::UnterminatedComment)
        );
        let t = lx.next_token().unwrap().unwrap();
        assert!(t.line_start);
        assert_eq!(t.line, 4);
        assert!(lx.next_token().unwrap().is_none());
    }
}
