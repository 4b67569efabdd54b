//! Attack tables, all computed at compile time: step patterns for every
//! piece, and kindergarten-bitboard lookups for the ruea (the only sliding
//! piece of Makruk), whose tables fit in a few kilobytes of cache.

use crate::{Bitboard, Color, Square};

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq & 7) as i8, (sq >> 3) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KING: [(i8, i8); 8] = [
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
];
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

static KING_ATTACKS: [u64; 64] = step_table(&KING);
static KNIGHT_ATTACKS: [u64; 64] = step_table(&KNIGHT);
static MET_ATTACKS: [u64; 64] = step_table(&DIAGONAL);
static KHON_ATTACKS: [[u64; 64]; 2] = [
    step_table(&[(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1)]),
    step_table(&[(1, 1), (-1, 1), (1, -1), (-1, -1), (0, -1)]),
];
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    step_table(&[(1, 1), (-1, 1)]),
    step_table(&[(1, -1), (-1, -1)]),
];
static KING_LEAPS: [[u64; 64]; 2] = [
    step_table(&[(2, 1), (-2, 1)]),
    step_table(&[(2, -1), (-2, -1)]),
];

/// Ruea attacks along one line of 8 squares: `pos` is the ruea's place on
/// the line, `occ` the occupied squares of the line (bit i = place i).
const fn line_attacks(pos: i32, occ: u32) -> u32 {
    let mut att = 0;
    let mut i = pos + 1;
    while i < 8 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos - 1;
    while i >= 0 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i -= 1;
    }
    att
}

/// `RANK_ATTACKS[file][inner]`: attacks along a rank for a ruea on `file`,
/// `inner` being the occupancy of files b to g.
static RANK_ATTACKS: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            t[file][inner] = line_attacks(file as i32, (inner as u32) << 1) as u8;
            inner += 1;
        }
        file += 1;
    }
    t
};

/// Multiplying the a-file (ranks 2 to 7) by the c2-h7 diagonal gathers its
/// six inner squares in the top six bits.
const FILE_GATHER: u64 = 0x0080_4020_1008_0400;
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// `FILE_ATTACKS[rank][index]`: attacks along the a-file for a ruea on
/// `rank`, `index` being the gathered occupancy of a2 to a7.
static FILE_ATTACKS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut rank = 0;
    while rank < 8 {
        let mut inner = 0u32;
        while inner < 64 {
            let occ_line = inner << 1;
            let mut occ = 0u64;
            let mut i = 0;
            while i < 8 {
                if occ_line & (1 << i) != 0 {
                    occ |= 1u64 << (8 * i);
                }
                i += 1;
            }
            let index = (occ.wrapping_mul(FILE_GATHER) >> 58) as usize;
            let line = line_attacks(rank as i32, occ_line);
            let mut att = 0u64;
            let mut i = 0;
            while i < 8 {
                if line & (1 << i) != 0 {
                    att |= 1u64 << (8 * i);
                }
                i += 1;
            }
            t[rank][index] = att;
            inner += 1;
        }
        rank += 1;
    }
    t
};

/// `BETWEEN[a][b]`: squares strictly between two squares on a rank or file.
static BETWEEN: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let dirs: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut d = 0;
        while d < 4 {
            let (mut f, mut r) = ((a & 7) as i32, (a >> 3) as i32);
            let mut ray = 0u64;
            loop {
                f += dirs[d].0;
                r += dirs[d].1;
                if f < 0 || f > 7 || r < 0 || r > 7 {
                    break;
                }
                let b = (r * 8 + f) as usize;
                t[a][b] = ray;
                ray |= 1u64 << b;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// Squares a khun on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a ma on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// Squares a met on `sq` attacks (the four diagonal neighbours).
#[inline]
pub fn met_attacks(sq: Square) -> Bitboard {
    Bitboard(MET_ATTACKS[sq.index()])
}

/// Squares a khon of `color` on `sq` attacks (diagonal neighbours and the square in front).
#[inline]
pub fn khon_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(KHON_ATTACKS[color.index()][sq.index()])
}

/// Squares a bia of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Ouk Chatrang: where an unmoved khun of `color` on `sq` may leap (a knight
/// move to the rank in front).
#[inline]
pub fn king_leaps(color: Color, sq: Square) -> Bitboard {
    Bitboard(KING_LEAPS[color.index()][sq.index()])
}

/// Squares a ruea on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file() as u32, sq.rank() as u32);
    let inner_rank = ((occupied.0 >> (8 * rank + 1)) & 63) as usize;
    let rank_att = (RANK_ATTACKS[file as usize][inner_rank] as u64) << (8 * rank);
    let file_occ = (occupied.0 >> file) & FILE_A;
    let index = (file_occ.wrapping_mul(FILE_GATHER) >> 58) as usize;
    let file_att = FILE_ATTACKS[rank as usize][index] << file;
    Bitboard(rank_att | file_att)
}

/// Squares strictly between `a` and `b` if they share a rank or file; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole rank or file through `a` and `b`; empty if they share neither (or are equal).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    if a == b {
        Bitboard::EMPTY
    } else if a.file() == b.file() {
        Bitboard::file(a.file())
    } else if a.rank() == b.rank() {
        Bitboard::rank(a.rank())
    } else {
        Bitboard::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ruea attacks from `sq`, walking each ray.
    fn slow_rook_attacks(sq: Square, occupied: u64) -> u64 {
        let mut attacks = 0;
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
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

    #[test]
    fn rook_attacks_equal_ray_walks() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for sq in Square::all() {
            for _ in 0..500 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = x & (x >> 3);
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
        assert_eq!(between(sq("h5"), sq("b5")).count(), 5);
        assert!(between(sq("a1"), sq("b2")).is_empty());
        assert_eq!(line(sq("c3"), sq("c7")), Bitboard::file(2));
        assert_eq!(
            king_leaps(Color::White, sq("d1")),
            Bitboard::from_square(sq("b2")) | Bitboard::from_square(sq("f2"))
        );
    }
}
