//! Sets of squares as 64-bit masks.

use crate::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` is square `i` (a1 = bit 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set of one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Every square on a rank (0 = first rank).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * (rank as u32 & 7)))
    }

    /// Every square on a file (0 = a file).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << (file as u32 & 7))
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is in the set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros()))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set moved one rank up (towards rank 8), squares on rank 8 dropped.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// The set moved one rank down (towards rank 1), squares on rank 1 dropped.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// The set moved one file towards the a-file, squares on the a-file
    /// dropped.
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !FILE_A) >> 1)
    }

    /// The set moved one file towards the h-file, squares on the h-file
    /// dropped.
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !FILE_H) << 1)
    }

    /// The set moved one file either way: the squares beside its squares on
    /// their rank (a square of the set is in it only when a neighbour is).
    #[inline]
    pub const fn sideways(self) -> Bitboard {
        Bitboard(self.west().0 | self.east().0)
    }

    /// The set moved one rank forward from `color`'s side (White: towards
    /// rank 8), squares on the last rank dropped: where bias of `color`
    /// on the set step to.
    #[inline]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// The squares bias of `color` on the set attack: one step diagonally
    /// forward, towards the a-file (`west`) or the h-file (`east`); see
    /// [`Bitboard::bia_attacks`] for both at once.
    #[inline]
    pub const fn bia_attacks_towards(self, color: Color) -> (Bitboard, Bitboard) {
        let ahead = self.forward(color);
        (ahead.west(), ahead.east())
    }

    /// The squares bias of `color` on the set attack (one step diagonally
    /// forward).
    #[inline]
    pub const fn bia_attacks(self, color: Color) -> Bitboard {
        let (west, east) = self.bia_attacks_towards(color);
        Bitboard(west.0 | east.0)
    }

    /// Every square strictly behind a square of the set on its file, from
    /// `color`'s side (White: towards rank 1). A bia of `color` there has
    /// a square of the set ahead of it on its file.
    #[inline]
    pub const fn span_behind(self, color: Color) -> Bitboard {
        let mut s = self.forward(color.other());
        match color {
            Color::White => {
                s.0 |= s.0 >> 8;
                s.0 |= s.0 >> 16;
                s.0 |= s.0 >> 32;
            }
            Color::Black => {
                s.0 |= s.0 << 8;
                s.0 |= s.0 << 16;
                s.0 |= s.0 << 32;
            }
        }
        s
    }

    /// Every square of each file that holds a square of the set.
    #[inline]
    pub const fn file_fill(self) -> Bitboard {
        let mut s = self.0;
        s |= s >> 32;
        s |= s >> 16;
        s |= s >> 8;
        Bitboard((s & 0xff).wrapping_mul(FILE_A))
    }

    /// Every square on the ranks strictly ahead of `rank` from `color`'s
    /// side (White: the ranks above it).
    #[inline]
    pub const fn ranks_ahead(color: Color, rank: u8) -> Bitboard {
        let rank = rank as u32 & 7;
        match color {
            Color::White => match u64::MAX.checked_shl(8 * (rank + 1)) {
                Some(s) => Bitboard(s),
                None => Bitboard::EMPTY,
            },
            Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
        }
    }
}

/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = FILE_A << 7;

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $op:tt, $atrait:ident, $afn:ident) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atrait for Bitboard {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> Bitboard {
        names
            .iter()
            .map(|n| Bitboard::from_square(n.parse().expect("square")))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }

    #[test]
    fn west_and_east_drop_the_squares_that_leave_the_board() {
        assert_eq!(set(&["a3", "d4", "h5"]).west(), set(&["c4", "g5"]));
        assert_eq!(set(&["a3", "d4", "h5"]).east(), set(&["b3", "e4"]));
        assert_eq!(
            set(&["a3", "d4", "h5"]).sideways(),
            set(&["b3", "c4", "e4", "g5"])
        );
    }

    #[test]
    fn forward_is_north_for_white_and_south_for_black() {
        let s = set(&["a1", "e4", "h8"]);
        assert_eq!(s.forward(Color::White), set(&["a2", "e5"]));
        assert_eq!(s.forward(Color::Black), set(&["e3", "h7"]));
    }

    #[test]
    fn bia_attack_one_step_diagonally_forward_and_never_wrap() {
        let s = set(&["a3", "h4"]);
        assert_eq!(s.bia_attacks(Color::White), set(&["b4", "g5"]));
        assert_eq!(s.bia_attacks(Color::Black), set(&["b2", "g3"]));
        assert_eq!(
            set(&["d4"]).bia_attacks_towards(Color::White),
            (set(&["c5"]), set(&["e5"]))
        );
        assert_eq!(
            set(&["d4"]).bia_attacks_towards(Color::Black),
            (set(&["c3"]), set(&["e3"]))
        );
    }

    #[test]
    fn span_behind_is_every_square_behind_on_the_file_from_that_side() {
        let s = set(&["c4", "f1"]);
        assert_eq!(s.span_behind(Color::White), set(&["c1", "c2", "c3"]));
        assert_eq!(
            s.span_behind(Color::Black),
            set(&[
                "c5", "c6", "c7", "c8", "f2", "f3", "f4", "f5", "f6", "f7", "f8"
            ])
        );
    }

    #[test]
    fn file_fill_covers_the_files_of_the_set() {
        assert_eq!(
            set(&["b3", "g8"]).file_fill(),
            Bitboard::file(1) | Bitboard::file(6)
        );
        assert_eq!(Bitboard::EMPTY.file_fill(), Bitboard::EMPTY);
    }

    #[test]
    fn ranks_ahead_exclude_the_rank_itself() {
        assert_eq!(
            Bitboard::ranks_ahead(Color::White, 5),
            Bitboard::rank(6) | Bitboard::rank(7)
        );
        assert_eq!(Bitboard::ranks_ahead(Color::White, 7), Bitboard::EMPTY);
        assert_eq!(
            Bitboard::ranks_ahead(Color::Black, 2),
            Bitboard::rank(0) | Bitboard::rank(1)
        );
        assert_eq!(Bitboard::ranks_ahead(Color::Black, 0), Bitboard::EMPTY);
    }
}
