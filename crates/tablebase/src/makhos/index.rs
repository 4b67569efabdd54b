//! Material signatures of Mak-hot tables and the index of a position within its table.
//!
//! A table holds every placement of one [`Material`] with either side to move. Only one
//! material of each colour-flipped pair is stored ([`Material::is_canonical`]: White holds
//! more pieces, or as many and more kings); a position of the other is looked up as
//! [`Position::flipped`]. The index
//! is built so that all positions with the same men (the *layout*) are contiguous: man
//! moves and captures leave the layout, king moves stay in it, so the generator solves
//! one layout at a time.
//!
//! `index = (layout · 2 + turn) · K + kings`, where
//! - `layout = rank(white men among the 28 squares off rank 8) · C(28, black men)
//!   + rank(black men among the 28 squares off rank 1)`; a layout whose men share a square
//!   holds no position (its entries are [`super::INVALID`]);
//! - `K = C(F, wk) · C(F − wk, bk)` with `F = 32 − men`, and `kings = rank(white kings among
//!   the F free squares) · C(F − wk, bk) + rank(black kings among the squares still free)`.

use crate::combin::{binomial, compress, expand, rank, unrank};
use core::fmt;
use core::str::FromStr;
use makhos::{Bitboard, Color, Position};

/// Squares a white man may stand on (every square but rank 8, indices 0..4).
const WHITE_MAN_SQUARES: u64 = 0xFFFF_FFF0;
/// Squares a black man may stand on (every square but rank 1, indices 28..32).
const BLACK_MAN_SQUARES: u64 = 0x0FFF_FFFF;
/// All 32 squares.
const ALL_SQUARES: u64 = 0xFFFF_FFFF;
/// Squares a man may stand on, per side.
const MAN_SQUARE_COUNT: usize = 28;
/// Squares on the board.
const SQUARE_COUNT: usize = 32;

/// How many men and kings each side has: one table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        Material {
            white_men: pos.men(Color::White).count() as u8,
            white_kings: pos.kings(Color::White).count() as u8,
            black_men: pos.men(Color::Black).count() as u8,
            black_kings: pos.kings(Color::Black).count() as u8,
        }
    }

    /// Pieces on the board.
    pub fn total(self) -> u32 {
        (self.white_men + self.white_kings + self.black_men + self.black_kings) as u32
    }

    /// Men on the board.
    pub fn men(self) -> u32 {
        (self.white_men + self.black_men) as u32
    }

    /// Every canonical material ([`Material::is_canonical`]) with each side holding a piece
    /// and at most `pieces` in all, in the order tables must be generated: fewer pieces
    /// first (captures lead there), then fewer men (promotions lead there). One king
    /// against one king is left out: it is a draw by rule.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let cap = pieces.min(2 * makhos::MAX_PIECES_PER_SIDE) as u8;
        for wm in 0..=cap {
            for wk in 0..=cap - wm {
                for bm in 0..=cap - wm - wk {
                    for bk in 0..=cap - wm - wk - bm {
                        let m = Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        };
                        let side_ok = |n: u8| n >= 1 && n as u32 <= makhos::MAX_PIECES_PER_SIDE;
                        if side_ok(wm + wk)
                            && side_ok(bm + bk)
                            && m.is_canonical()
                            && !m.is_kings_only_draw()
                        {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.total(), m.men(), *m));
        all
    }

    /// One king each and nothing else.
    pub fn is_kings_only_draw(self) -> bool {
        self == Material {
            white_men: 0,
            white_kings: 1,
            black_men: 0,
            black_kings: 1,
        }
    }

    /// The material with the colours swapped (the material of [`Position::flipped`]).
    pub fn flipped(self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// Whether this is the material of its colour-flipped pair that has a table: White holds
    /// more pieces, or as many and at least as many kings. A material equal to its flip
    /// (the same men and kings each) is canonical and its table holds both sides to move.
    pub fn is_canonical(self) -> bool {
        let side = |men: u8, kings: u8| (men + kings, kings);
        side(self.white_men, self.white_kings) >= side(self.black_men, self.black_kings)
    }

    /// The material of this pair that has a table.
    pub fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.flipped()
        }
    }

    /// The 16-byte signature field of the file header.
    pub fn signature(self) -> [u8; crate::format::SIGNATURE_LEN] {
        let mut s = [0u8; crate::format::SIGNATURE_LEN];
        s[..4].copy_from_slice(&[
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
        ]);
        s
    }

    /// The material of a header's signature field.
    pub fn from_signature(s: &[u8; crate::format::SIGNATURE_LEN]) -> Option<Material> {
        if s[4..].iter().any(|&b| b != 0) {
            return None;
        }
        let m = Material {
            white_men: s[0],
            white_kings: s[1],
            black_men: s[2],
            black_kings: s[3],
        };
        let side = |n: u8| n as u32 <= makhos::MAX_PIECES_PER_SIDE;
        (side(m.white_men + m.white_kings) && side(m.black_men + m.black_kings)).then_some(m)
    }
}

impl fmt::Display for Material {
    /// `KKMvK`: White's kings then men, `v`, Black's kings then men.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |kings: u8, men: u8| "K".repeat(kings as usize) + &"M".repeat(men as usize);
        write!(
            f,
            "{}v{}",
            side(self.white_kings, self.white_men),
            side(self.black_kings, self.black_men)
        )
    }
}

/// A material name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialParseError(pub String);

impl fmt::Display for MaterialParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Mak-hot material '{}' (expected e.g. KKMvK)", self.0)
    }
}

impl std::error::Error for MaterialParseError {}

impl FromStr for Material {
    type Err = MaterialParseError;
    fn from_str(s: &str) -> Result<Material, MaterialParseError> {
        let err = || MaterialParseError(s.to_string());
        let (w, b) = s.split_once('v').ok_or_else(err)?;
        let side = |t: &str| -> Result<(u8, u8), MaterialParseError> {
            let kings = t.bytes().take_while(|&c| c == b'K').count();
            let men = t[kings..].bytes().take_while(|&c| c == b'M').count();
            if kings + men != t.len() || t.is_empty() || t.len() > 8 {
                return Err(err());
            }
            Ok((kings as u8, men as u8))
        };
        let (wk, wm) = side(w)?;
        let (bk, bm) = side(b)?;
        Ok(Material {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        })
    }
}

/// The index arithmetic of one material's table.
#[derive(Copy, Clone, Debug)]
pub struct TableIndex {
    material: Material,
    /// Black-men placements per white-men placement.
    black_men_count: u64,
    /// Black-king placements per white-king placement.
    black_kings_count: u64,
    /// King placements per layout and side to move (`K`).
    kings_count: u64,
    /// Layouts (men placements, some invalid).
    layouts: u64,
}

impl TableIndex {
    /// The index of `material`'s table.
    pub fn new(material: Material) -> TableIndex {
        let free = SQUARE_COUNT - material.men() as usize;
        let black_men_count = binomial(MAN_SQUARE_COUNT, material.black_men as usize);
        let black_kings_count = binomial(
            free - material.white_kings as usize,
            material.black_kings as usize,
        );
        TableIndex {
            material,
            black_men_count,
            black_kings_count,
            kings_count: binomial(free, material.white_kings as usize) * black_kings_count,
            layouts: binomial(MAN_SQUARE_COUNT, material.white_men as usize) * black_men_count,
        }
    }

    /// The table's material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Entries in the table (both sides to move).
    pub fn len(&self) -> u64 {
        self.layouts * 2 * self.kings_count
    }

    /// Whether the table has no entries (never, for a real material).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of layouts.
    pub fn layouts(&self) -> u64 {
        self.layouts
    }

    /// Entries per layout (both sides to move): a layout is `layout_len` consecutive entries.
    pub fn layout_len(&self) -> u64 {
        2 * self.kings_count
    }

    /// White's and Black's men of a layout, or `None` when they share a square.
    pub fn layout_men(&self, layout: u64) -> Option<(u64, u64)> {
        let m = self.material;
        let white = expand(
            unrank(
                layout / self.black_men_count,
                m.white_men as usize,
                MAN_SQUARE_COUNT,
            ),
            WHITE_MAN_SQUARES,
        );
        let black = expand(
            unrank(
                layout % self.black_men_count,
                m.black_men as usize,
                MAN_SQUARE_COUNT,
            ),
            BLACK_MAN_SQUARES,
        );
        (white & black == 0).then_some((white, black))
    }

    /// How far a layout's men have advanced (ranks moved by White's men plus Black's): a man
    /// move raises it by one, so layouts are solved from the most advanced down.
    pub fn advancement(&self, layout: u64) -> u32 {
        let Some((white, black)) = self.layout_men(layout) else {
            return 0;
        };
        let mut sum = 0;
        for sq in Bitboard(white as u32).squares() {
            sum += sq.rank() as u32;
        }
        for sq in Bitboard(black as u32).squares() {
            sum += 7 - sq.rank() as u32;
        }
        sum
    }

    /// The index of `pos`, which must have this table's material.
    pub fn index_of(&self, pos: &Position) -> u64 {
        let wm = pos.men(Color::White).0 as u64;
        let bm = pos.men(Color::Black).0 as u64;
        let wk = pos.kings(Color::White).0 as u64;
        let bk = pos.kings(Color::Black).0 as u64;
        let layout = rank(compress(wm, WHITE_MAN_SQUARES)) * self.black_men_count
            + rank(compress(bm, BLACK_MAN_SQUARES));
        let free = ALL_SQUARES & !(wm | bm);
        let kings =
            rank(compress(wk, free)) * self.black_kings_count + rank(compress(bk, free & !wk));
        let turn = pos.turn().index() as u64;
        (layout * 2 + turn) * self.kings_count + kings
    }

    /// The position at `index`, or `None` for an entry that holds none (men sharing a
    /// square, or an index past the end).
    pub fn position_at(&self, index: u64) -> Option<Position> {
        if index >= self.len() {
            return None;
        }
        let layout = self.layout_index(index / self.layout_len())?;
        Some(layout.position_at(index - layout.base()))
    }

    /// The arithmetic of one layout, or `None` when its men share a square.
    pub fn layout_index(&self, layout: u64) -> Option<LayoutIndex> {
        let (white_men, black_men) = self.layout_men(layout)?;
        let free = (ALL_SQUARES & !(white_men | black_men)) as u32;
        let mut slot = [0u8; SQUARE_COUNT];
        let mut next = 0;
        for (sq, s) in slot.iter_mut().enumerate() {
            if free >> sq & 1 != 0 {
                *s = next;
                next += 1;
            }
        }
        Some(LayoutIndex {
            white_men: white_men as u32,
            black_men: black_men as u32,
            free,
            slot,
            white_kings: self.material.white_kings as usize,
            black_kings: self.material.black_kings as usize,
            black_kings_count: self.black_kings_count,
            kings_count: self.kings_count,
            base: layout * self.layout_len(),
        })
    }
}

/// One layout of a table: its men fixed, its kings on the free squares. The generator
/// works within a layout and finds entries through this, without the general arithmetic
/// of [`TableIndex::index_of`] (which it equals, as the tests check).
#[derive(Clone, Debug)]
pub struct LayoutIndex {
    white_men: u32,
    black_men: u32,
    free: u32,
    /// The rank of each free square among the free squares.
    slot: [u8; SQUARE_COUNT],
    white_kings: usize,
    black_kings: usize,
    black_kings_count: u64,
    kings_count: u64,
    base: u64,
}

impl LayoutIndex {
    /// The layout's first entry in its table.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Entries in the layout (both sides to move).
    pub fn len(&self) -> u64 {
        2 * self.kings_count
    }

    /// Whether the layout has no entries (never: a table has a piece on each side).
    pub fn is_empty(&self) -> bool {
        self.kings_count == 0
    }

    /// White's and Black's men.
    pub fn men(&self) -> (Bitboard, Bitboard) {
        (Bitboard(self.white_men), Bitboard(self.black_men))
    }

    /// The entry (within the layout) of the position with these kings and side to move.
    #[inline]
    pub fn entry(&self, turn: Color, white_kings: Bitboard, black_kings: Bitboard) -> u64 {
        let wk = white_kings.0;
        let mut white_rank = 0;
        for (i, sq) in Bitboard(wk).squares().enumerate() {
            white_rank += binomial(self.slot[sq.index()] as usize, i + 1);
        }
        let mut black_rank = 0;
        for (i, sq) in black_kings.squares().enumerate() {
            // Ranked among the free squares not holding a white king.
            let below = (wk & (sq.bit() - 1)).count_ones() as usize;
            black_rank += binomial(self.slot[sq.index()] as usize - below, i + 1);
        }
        turn.index() as u64 * self.kings_count + white_rank * self.black_kings_count + black_rank
    }

    /// The side to move and the kings of entry `i` (within the layout).
    #[inline]
    pub fn kings_at(&self, i: u64) -> (Color, Bitboard, Bitboard) {
        let turn = if i / self.kings_count == 0 {
            Color::White
        } else {
            Color::Black
        };
        let kings = i % self.kings_count;
        let free = self.free as u64;
        let free_count = self.free.count_ones() as usize;
        let wk = expand(
            unrank(kings / self.black_kings_count, self.white_kings, free_count),
            free,
        );
        let bk = expand(
            unrank(
                kings % self.black_kings_count,
                self.black_kings,
                free_count - self.white_kings,
            ),
            free & !wk,
        );
        (turn, Bitboard(wk as u32), Bitboard(bk as u32))
    }

    /// The position of entry `i` (within the layout).
    pub fn position_at(&self, i: u64) -> Position {
        let (turn, wk, bk) = self.kings_at(i);
        Position::from_bitboards(
            Bitboard(self.white_men | wk.0),
            Bitboard(self.black_men | bk.0),
            Bitboard(wk.0 | bk.0),
            turn,
        )
        .expect("a layout's men and kings are on distinct squares, men off their last rank")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_valid_entry_round_trips_through_its_position() {
        for m in Material::all_up_to(3) {
            let t = TableIndex::new(m);
            let mut valid = 0;
            for i in 0..t.len() {
                if let Some(pos) = t.position_at(i) {
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(t.index_of(&pos), i, "{m} {pos}");
                    let layout = t.layout_index(i / t.layout_len()).unwrap();
                    let local =
                        layout.entry(pos.turn(), pos.kings(Color::White), pos.kings(Color::Black));
                    assert_eq!(layout.base() + local, i, "{m} {pos}");
                    valid += 1;
                }
            }
            assert!(valid > 0, "{m}");
        }
    }

    #[test]
    fn material_names_round_trip() {
        for m in Material::all_up_to(4) {
            assert_eq!(m.to_string().parse::<Material>(), Ok(m));
            assert_eq!(Material::from_signature(&m.signature()), Some(m));
        }
        assert!("KvX".parse::<Material>().is_err());
        assert!("KK".parse::<Material>().is_err());
    }

    #[test]
    fn generation_order_puts_captures_and_promotions_first() {
        let all = Material::all_up_to(3);
        assert!(!all.iter().any(|m| m.is_kings_only_draw()));
        let pos = |s: &str| all.iter().position(|m| *m == s.parse().unwrap()).unwrap();
        assert!(pos("KvM") < pos("KKvK"));
        assert!(pos("KKvK") < pos("KMvK"));
    }
}
