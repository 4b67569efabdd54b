//! Precomputed attack tables: step patterns for every piece and magic
//! bitboards for the ruea (the only sliding piece of Makruk).

use crate::{Bitboard, Color, Square};
use std::sync::LazyLock;

/// One square's magic-bitboard entry for ruea attacks.
#[derive(Copy, Clone, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// All attack tables, built once on first use.
struct Tables {
    king: [u64; 64],
    knight: [u64; 64],
    met: [u64; 64],
    khon: [[u64; 64]; 2],
    pawn: [[u64; 64]; 2],
    king_leap: [[u64; 64]; 2],
    rook_magics: [Magic; 64],
    rook_table: Vec<u64>,
    between: Vec<[u64; 64]>,
    line: Vec<[u64; 64]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

fn step_set(sq: Square, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| sq.offset(df, dr))
        .fold(0, |acc, s| acc | 1 << s.index())
}

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Ruea attacks from `sq` given the occupied squares, computed ray by ray.
fn slow_rook_attacks(sq: Square, occupied: u64) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in &ORTHOGONAL {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            attacks |= 1 << next.index();
            if occupied & (1 << next.index()) != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// The squares whose occupancy matters for a ruea on `sq` (edges excluded).
fn rook_relevant_mask(sq: Square) -> u64 {
    let mut mask = 0;
    for &(df, dr) in &ORTHOGONAL {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next.index();
            cur = next;
        }
    }
    mask
}

/// A small deterministic generator for the magic search.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for `sq` and fills its slice of the attack table.
fn find_rook_magic(sq: Square, offset: usize, table: &mut Vec<u64>, rng: &mut XorShift) -> Magic {
    let mask = rook_relevant_mask(sq);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let mut occupancies = Vec::with_capacity(size);
    let mut attacks = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        occupancies.push(subset);
        attacks.push(slow_rook_attacks(sq, subset));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    table.resize(offset + size, 0);
    let mut epoch = vec![0u32; size];
    let shift = 64 - bits;
    for attempt in 1u32.. {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let slots = &mut table[offset..offset + size];
        let ok = occupancies.iter().zip(&attacks).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                slots[idx] = att;
                true
            } else {
                slots[idx] == att
            }
        });
        if ok {
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
    unreachable!("the magic search loops until it succeeds")
}

impl Tables {
    fn build() -> Tables {
        let mut t = Tables {
            king: [0; 64],
            knight: [0; 64],
            met: [0; 64],
            khon: [[0; 64]; 2],
            pawn: [[0; 64]; 2],
            king_leap: [[0; 64]; 2],
            rook_magics: [Magic::default(); 64],
            rook_table: Vec::new(),
            between: vec![[0; 64]; 64],
            line: vec![[0; 64]; 64],
        };
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for sq in Square::all() {
            let i = sq.index();
            t.met[i] = step_set(sq, &DIAGONAL);
            t.king[i] = t.met[i] | step_set(sq, &ORTHOGONAL);
            t.knight[i] = step_set(sq, &KNIGHT);
            t.khon[0][i] = t.met[i] | step_set(sq, &[(0, 1)]);
            t.khon[1][i] = t.met[i] | step_set(sq, &[(0, -1)]);
            t.pawn[0][i] = step_set(sq, &[(1, 1), (-1, 1)]);
            t.pawn[1][i] = step_set(sq, &[(1, -1), (-1, -1)]);
            t.king_leap[0][i] = step_set(sq, &[(2, 1), (-2, 1)]);
            t.king_leap[1][i] = step_set(sq, &[(2, -1), (-2, -1)]);
            let offset = t.rook_table.len();
            t.rook_magics[i] = find_rook_magic(sq, offset, &mut t.rook_table, &mut rng);
        }
        for a in Square::all() {
            for &(df, dr) in &ORTHOGONAL {
                let mut ray = 0u64;
                let mut cur = a;
                while let Some(b) = cur.offset(df, dr) {
                    t.between[a.index()][b.index()] = ray;
                    ray |= 1 << b.index();
                    cur = b;
                }
            }
            for b in Square::all() {
                if a != b && (a.file() == b.file() || a.rank() == b.rank()) {
                    let full = if a.file() == b.file() {
                        Bitboard::file(a.file())
                    } else {
                        Bitboard::rank(a.rank())
                    };
                    t.line[a.index()][b.index()] = full.0;
                }
            }
        }
        t
    }
}

/// Squares a khun on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(TABLES.king[sq.index()])
}

/// Squares a ma on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(TABLES.knight[sq.index()])
}

/// Squares a met on `sq` attacks (the four diagonal neighbours).
#[inline]
pub fn met_attacks(sq: Square) -> Bitboard {
    Bitboard(TABLES.met[sq.index()])
}

/// Squares a khon of `color` on `sq` attacks (diagonal neighbours and the square in front).
#[inline]
pub fn khon_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.khon[color.index()][sq.index()])
}

/// Squares a bia of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.pawn[color.index()][sq.index()])
}

/// Ouk Chatrang: where an unmoved khun of `color` on `sq` may leap (a knight
/// move to the rank in front).
#[inline]
pub fn king_leaps(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.king_leap[color.index()][sq.index()])
}

/// Squares a ruea on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let m = &t.rook_magics[sq.index()];
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(t.rook_table[m.offset + idx])
}

/// Squares strictly between `a` and `b` if they share a rank or file; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.between[a.index()][b.index()])
}

/// The whole rank or file through `a` and `b`; empty if they share neither (or are equal).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.line[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_rook_attacks_equal_ray_walks() {
        let mut rng = XorShift(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    slow_rook_attacks(sq, occ),
                    "{sq} {occ:#x}"
                );
            }
        }
    }

    #[test]
    fn step_patterns() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(khon_attacks(Color::White, sq("e3")).count(), 5);
        assert!(khon_attacks(Color::White, sq("e3")).contains(sq("e4")));
        assert!(!khon_attacks(Color::White, sq("e3")).contains(sq("e2")));
        assert!(khon_attacks(Color::Black, sq("e3")).contains(sq("e2")));
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(met_attacks(sq("d4")).count(), 4);
        assert_eq!(
            pawn_attacks(Color::Black, sq("a6")),
            Bitboard::from_square(sq("b5"))
        );
        assert_eq!(between(sq("a1"), sq("a4")).count(), 2);
        assert!(between(sq("a1"), sq("b2")).is_empty());
        assert_eq!(line(sq("c3"), sq("c7")), Bitboard::file(2));
        assert_eq!(
            king_leaps(Color::White, sq("d1")),
            Bitboard::from_square(sq("b2")) | Bitboard::from_square(sq("f2"))
        );
    }
}
