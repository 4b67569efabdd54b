//! Move text: reading every accepted form against a position, and writing.
//!
//! Forms (all read by [`parse_move`]):
//! - algebraic for people: `c3-d4`, `c3xe5xc7` (every landing square);
//! - the engine protocol: `c3d4`, `c3e5c7` (the same squares without separators);
//! - rulebook/PDN numbers: `22-18`, `25x18`, `25x18x9x2`, and PDN's `25-18-9`;
//! - a capture given by its start and end square only (`c3xc7`, `25x11`), or with some of
//!   its landing squares left out, when that names one legal move.
//!
//! An ambiguous text is an error listing the candidates; a text naming no legal move is an
//! error naming it.

use crate::bitboard::{NEXT, NONE, reverse};
use crate::moves::{Move, MoveParseError};
use crate::position::{Position, promotion_rank};
use crate::rules::Rules;
use crate::square::{Role, Square, SquareError};
use core::fmt;

/// The squares of a move text and whether it marked a capture with `x`.
fn tokenize(text: &str) -> Result<(Vec<Square>, bool), MoveParseError> {
    let syntax = |reason: String| MoveParseError::Syntax {
        text: text.to_string(),
        reason,
    };
    let body = text.trim().trim_end_matches(['!', '?']);
    if body.is_empty() {
        return Err(MoveParseError::Empty);
    }
    let b = body.as_bytes();
    let mut squares = Vec::new();
    let mut capture = false;
    // What came last: 0 = nothing, 1 = separator, 2 = algebraic square, 3 = number.
    let mut last = 0u8;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'-' || c == b'x' || c == b'X' || c == b':' {
            if last == 0 || last == 1 {
                return Err(syntax(format!("unexpected '{}'", c as char)));
            }
            if c != b'-' {
                capture = true;
            }
            last = 1;
            i += 1;
        } else if c.is_ascii_digit() {
            if last == 2 || last == 3 {
                return Err(syntax(
                    "square numbers must be separated by '-' or 'x'".into(),
                ));
            }
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let tok = &body[start..i];
            let sq = Square::parse_number(tok).map_err(|e| syntax(format!("'{tok}': {e}")))?;
            squares.push(sq);
            last = 3;
        } else if c.is_ascii_alphabetic() {
            if last == 3 {
                return Err(syntax(
                    "a square number must be followed by '-' or 'x'".into(),
                ));
            }
            let tok = body.get(i..i + 2).unwrap_or(&body[i..]);
            let sq = Square::parse_algebraic(tok).map_err(|e| match e {
                SquareError::LightSquare => syntax(format!("'{tok}' is {e}")),
                _ => syntax(format!("'{tok}' is not a square")),
            })?;
            squares.push(sq);
            last = 2;
            i += 2;
        } else {
            let ch = body[i..].chars().next().unwrap_or('?');
            return Err(syntax(format!("unexpected character '{ch}'")));
        }
    }
    if last == 1 {
        return Err(syntax("ends with a separator".into()));
    }
    if squares.len() < 2 {
        return Err(syntax("a move needs a start and an end square".into()));
    }
    Ok((squares, capture))
}

/// Direction and distance from `a` to `b` if they share a diagonal.
fn direction(a: Square, b: Square) -> Option<(usize, u8)> {
    let df = b.file() as i8 - a.file() as i8;
    let dr = b.rank() as i8 - a.rank() as i8;
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let d = match (df > 0, dr > 0) {
        (false, true) => crate::bitboard::NW,
        (true, true) => crate::bitboard::NE,
        (false, false) => crate::bitboard::SW,
        (true, false) => crate::bitboard::SE,
    };
    Some((d, df.unsigned_abs()))
}

/// Follows a capture path given square by square; returns the captured set if every step
/// is a legal jump (whether or not the sequence is complete).
fn trace(pos: &Position, rules: Rules, squares: &[Square]) -> Option<u32> {
    let from = *squares.first()?;
    let piece = pos.piece_at(from)?;
    if piece.color != pos.turn() {
        return None;
    }
    let us = pos.turn().index();
    let others = pos.pieces[us] & !from.bit();
    let mut opp = pos.pieces[1 - us];
    let mut captured = 0u32;
    let mut cur = from;
    let mut last_dir: Option<usize> = None;
    let is_king = piece.role == Role::King;
    for (k, &next) in squares[1..].iter().enumerate() {
        let (d, dist) = direction(cur, next)?;
        if !is_king {
            let forward = match pos.turn() {
                crate::Color::White => d <= crate::bitboard::NE,
                crate::Color::Black => d >= crate::bitboard::SW,
            };
            if !forward || dist != 2 {
                return None;
            }
        } else if !rules.king_may_reverse() && last_dir == Some(reverse(d)) {
            return None;
        }
        let occ = others | opp;
        if occ & next.bit() != 0 {
            return None;
        }
        // Squares strictly between cur and next: exactly one piece, an enemy, next to `next`.
        let mut s = cur.index();
        let mut found: Option<usize> = None;
        for _ in 1..dist {
            let n = NEXT[d][s];
            if n == NONE {
                return None;
            }
            s = n as usize;
            if occ & (1 << s) != 0 {
                if found.is_some() {
                    return None;
                }
                found = Some(s);
            }
        }
        let mid = found?;
        if opp & (1 << mid) == 0 || NEXT[d][mid] as usize != next.index() {
            return None;
        }
        captured |= 1 << mid;
        opp &= !(1 << mid);
        if !is_king && promotion_rank(pos.turn()) & next.bit() != 0 && k + 2 < squares.len() {
            return None; // promotion ends the move
        }
        cur = next;
        last_dir = Some(d);
    }
    Some(captured)
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// Reads a move in any accepted notation and returns the legal move it names.
pub fn parse_move(pos: &Position, rules: Rules, text: &str) -> Result<Move, MoveParseError> {
    let (squares, marked_capture) = tokenize(text)?;
    let legal = pos.legal_moves(rules);
    let from = squares[0];
    let to = squares[squares.len() - 1];
    if let Some(captured) = trace(pos, rules, &squares) {
        if let Some(m) = legal
            .iter()
            .find(|m| m.from() == from && m.to() == to && m.captured().0 == captured)
        {
            return Ok(*m);
        }
    }
    let inner = &squares[1..squares.len() - 1];
    let candidates: Vec<Move> = legal
        .into_iter()
        .filter(|m| {
            if m.from() != from || m.to() != to || (marked_capture && !m.is_capture()) {
                return false;
            }
            let path = m.path();
            is_subsequence(inner, &path[..path.len() - 1])
        })
        .collect();
    match candidates.len() {
        0 => Err(MoveParseError::Illegal {
            text: text.trim().to_string(),
        }),
        1 => Ok(candidates[0]),
        _ => {
            let mut names: Vec<String> = candidates.iter().map(|m| m.to_algebraic()).collect();
            names.sort();
            Err(MoveParseError::Ambiguous {
                text: text.trim().to_string(),
                candidates: names,
            })
        }
    }
}

impl Move {
    /// Algebraic notation: `c3-d4`, or every landing square of a capture: `c3xe5xc7`.
    pub fn to_algebraic(&self) -> String {
        self.write(|s| s.to_string(), if self.is_capture() { "x" } else { "-" })
    }

    /// Engine-protocol notation: `c3d4`, `c3e5c7`.
    pub fn to_engine(&self) -> String {
        self.write(|s| s.to_string(), "")
    }

    /// Rulebook/PDN numbers with the full path: `22-18`, `25x18x9`.
    pub fn to_numeric(&self) -> String {
        self.write(
            |s| s.number().to_string(),
            if self.is_capture() { "x" } else { "-" },
        )
    }

    fn write(&self, name: impl Fn(Square) -> String, sep: &str) -> String {
        let mut out = name(self.from());
        for s in self.path() {
            out.push_str(sep);
            out.push_str(&name(s));
        }
        out
    }

    /// Rulebook/PDN numbers, giving a capture by start and end square only (`25x11`) when
    /// no other legal move of `pos` shares them, else the full path.
    pub fn to_numeric_short(&self, pos: &Position, rules: Rules) -> String {
        if self.is_capture() && self.is_unique_by_ends(pos, rules) {
            format!("{}x{}", self.from().number(), self.to().number())
        } else {
            self.to_numeric()
        }
    }

    /// Algebraic, giving a capture by start and end square only (`c3xc7`) when no other
    /// legal move of `pos` shares them, else the full path.
    pub fn to_algebraic_short(&self, pos: &Position, rules: Rules) -> String {
        if self.is_capture() && self.is_unique_by_ends(pos, rules) {
            format!("{}x{}", self.from(), self.to())
        } else {
            self.to_algebraic()
        }
    }

    fn is_unique_by_ends(&self, pos: &Position, rules: Rules) -> bool {
        pos.legal_moves(rules)
            .iter()
            .filter(|m| m.from() == self.from() && m.to() == self.to())
            .count()
            == 1
    }
}

impl fmt::Display for Move {
    /// Algebraic notation (`c3-d4`, `c3xe5xc7`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_algebraic())
    }
}

impl Position {
    /// Reads a move in any accepted notation (see [`parse_move`]).
    pub fn parse_move(&self, rules: Rules, text: &str) -> Result<Move, MoveParseError> {
        parse_move(self, rules, text)
    }
}
