//! Sets of squares as 32-bit masks, and the direction tables behind move generation.
//!
//! Bit `i` is the square with index `i` (see [`Square`]): bit 0 is b8, bit 31 is g1.
//! Rows of four squares alternate between "even" rows (ranks 8, 6, 4, 2: files b, d, f, h)
//! and "odd" rows (ranks 7, 5, 3, 1: files a, c, e, g), so a diagonal step is a shift by 3, 4
//! or 5 depending on the row, done below with masks.

use crate::square::Square;
use core::fmt;

/// A set of squares.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const ALL: Bitboard = Bitboard(u32::MAX);
    /// Rank 8, where White men become kings.
    pub const RANK_8: Bitboard = Bitboard(0x0000_000F);
    /// Rank 1, where Black men become kings.
    pub const RANK_1: Bitboard = Bitboard(0xF000_0000);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The squares in index order.
    pub fn squares(self) -> BitIter {
        BitIter(self.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        Bitboard(iter.into_iter().fold(0, |b, s| b | s.bit()))
    }
}

impl fmt::Display for Bitboard {
    /// Comma-separated algebraic names in index order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.squares().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct BitIter(u32);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

// ---- internal direction machinery -------------------------------------------------------

/// Rows holding files b, d, f, h (ranks 8, 6, 4, 2).
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows holding files a, c, e, g (ranks 7, 5, 3, 1).
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// First square of each row (files a or b).
const COL0: u32 = 0x1111_1111;
/// Last square of each row (files g or h).
const COL3: u32 = 0x8888_8888;

/// Diagonal directions: up-left, up-right (towards rank 8), down-left, down-right.
pub(crate) const NW: usize = 0;
pub(crate) const NE: usize = 1;
pub(crate) const SW: usize = 2;
pub(crate) const SE: usize = 3;

/// The direction straight back along the same line.
#[inline]
pub(crate) const fn reverse(dir: usize) -> usize {
    3 - dir
}

/// Every square of `b` moved one step in direction `dir` (off-board steps vanish).
#[inline(always)]
pub(crate) const fn shift(b: u32, dir: usize) -> u32 {
    match dir {
        NW => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !COL0) >> 5),
        NE => ((b & EVEN_ROWS & !COL3) >> 3) | ((b & ODD_ROWS) >> 4),
        SW => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !COL0) << 3),
        _ => ((b & EVEN_ROWS & !COL3) << 5) | ((b & ODD_ROWS) << 4),
    }
}

/// No square (end of a ray).
pub(crate) const NONE: u8 = 32;

const fn step_coords(sq: u8, dir: usize) -> u8 {
    let s = Square::from_index_unchecked(sq);
    let (df, dr): (i8, i8) = match dir {
        NW => (-1, 1),
        NE => (1, 1),
        SW => (-1, -1),
        _ => (1, -1),
    };
    let f = s.file() as i8 + df;
    let r = s.rank() as i8 + dr;
    if f < 0 || f > 7 || r < 0 || r > 7 {
        return NONE;
    }
    match Square::from_coords(f as u8, r as u8) {
        Some(t) => t.index() as u8,
        None => NONE,
    }
}

const fn build_next() -> [[u8; 33]; 4] {
    let mut t = [[NONE; 33]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            t[d][s] = step_coords(s as u8, d);
            s += 1;
        }
        d += 1;
    }
    t
}

const fn build_rays() -> [[u32; 33]; 4] {
    let mut t = [[0u32; 33]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            let mut bits = 0u32;
            let mut cur = step_coords(s as u8, d);
            while cur != NONE {
                bits |= 1 << cur;
                cur = step_coords(cur, d);
            }
            t[d][s] = bits;
            s += 1;
        }
        d += 1;
    }
    t
}

/// `NEXT[dir][sq]`: the neighbour of `sq` in direction `dir`, or [`NONE`] (index 32 maps to NONE).
pub(crate) static NEXT: [[u8; 33]; 4] = build_next();
/// `RAY[dir][sq]`: all squares from `sq` (exclusive) to the board edge in direction `dir`.
pub(crate) static RAY: [[u32; 33]; 4] = build_rays();

/// The square of `blockers` (non-empty, all on one ray from some square in direction `dir`)
/// that is nearest to the ray's origin.
#[inline(always)]
pub(crate) fn nearest(blockers: u32, dir: usize) -> u8 {
    if dir <= NE {
        // Towards rank 8 the index decreases: the nearest is the highest bit.
        (31 - blockers.leading_zeros()) as u8
    } else {
        blockers.trailing_zeros() as u8
    }
}

/// Squares a king on `sq` can slide to in direction `dir` when `occupied` squares block.
#[inline(always)]
pub(crate) fn slide(sq: usize, dir: usize, occupied: u32) -> u32 {
    let ray = RAY[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let b = nearest(blockers, dir) as usize;
        ray & !(RAY[dir][b] | (1 << b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree_with_coordinates() {
        for d in 0..4 {
            for s in 0..32u8 {
                let by_shift = shift(1 << s, d);
                let n = NEXT[d][s as usize];
                let expect = if n == NONE { 0 } else { 1u32 << n };
                assert_eq!(by_shift, expect, "dir {d} square {s}");
                if n != NONE {
                    assert_eq!(NEXT[reverse(d)][n as usize], s);
                }
            }
        }
    }

    #[test]
    fn rays() {
        let c3 = Square::parse("c3").unwrap().index();
        let ne: Bitboard = Bitboard(RAY[NE][c3]);
        assert_eq!(ne.to_string(), "h8,g7,f6,e5,d4");
        let occ = Square::parse("f6").unwrap().bit();
        assert_eq!(Bitboard(slide(c3, NE, occ)).to_string(), "e5,d4");
    }
}
