//! Zobrist hashing for repetition detection and the engine's tables.
//!
//! [`hash`] computes a position's key from scratch; [`hash_after`] updates a key by a move
//! and always equals a fresh computation of the resulting position.

use crate::moves::Move;
use crate::position::{Position, promotion_rank};
use crate::square::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> ([[[u64; 32]; 2]; 2], u64) {
    let mut keys = [[[0u64; 32]; 2]; 2];
    let mut state = 0x4D61_6B2D_686F_7421; // "Mak-hot!"
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 2 {
            let mut s = 0;
            while s < 32 {
                let (st, k) = splitmix(state);
                state = st;
                keys[c][r][s] = k;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS_AND_SIDE: ([[[u64; 32]; 2]; 2], u64) = build_keys();
/// `KEYS[color][role][square]` (role 0 = man, 1 = king).
static KEYS: [[[u64; 32]; 2]; 2] = KEYS_AND_SIDE.0;
/// Added when Black is to move.
const BLACK_TO_MOVE: u64 = KEYS_AND_SIDE.1;

/// The key of one piece on one square.
pub fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[color.index()][role as usize][sq.index()]
}

/// The key of the side to move (zero for White).
pub const fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}

/// The key of `pos`, computed from scratch.
pub fn hash(pos: &Position) -> u64 {
    let mut h = turn_key(pos.turn);
    for (keys, &pieces) in KEYS.iter().zip(&pos.pieces) {
        let mut b = pieces;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            let role = ((pos.kings >> s) & 1) as usize;
            h ^= keys[role][s];
        }
    }
    h
}

/// The key after playing legal move `mv` in `pos`, given `key` = `hash(pos)`.
/// Equals `hash(&pos.played(mv))`.
pub fn hash_after(pos: &Position, key: u64, mv: &Move) -> u64 {
    let us = pos.turn.index();
    let them = 1 - us;
    let from = mv.from().index();
    let to = mv.to().index();
    if pos.pieces[us] & (1 << from) == 0
        || (pos.pieces[0] | pos.pieces[1]) & (1 << to) & !(1 << from) != 0
    {
        // Not a move of this position: `play` only passes the turn.
        return key ^ BLACK_TO_MOVE;
    }
    let was_king = (pos.kings >> from) & 1 == 1;
    let now_king = was_king || promotion_rank(pos.turn) & (1 << to) != 0;
    let mut h = key ^ BLACK_TO_MOVE;
    h ^= KEYS[us][was_king as usize][from];
    h ^= KEYS[us][now_king as usize][to];
    let mut cap = mv.captured().0 & pos.pieces[them];
    while cap != 0 {
        let s = cap.trailing_zeros() as usize;
        cap &= cap - 1;
        h ^= KEYS[them][((pos.kings >> s) & 1) as usize][s];
    }
    h
}

impl Position {
    /// This position's Zobrist key (pieces and side to move).
    pub fn zobrist(&self) -> u64 {
        hash(self)
    }

    /// The key of the position after the legal move `mv`, given this
    /// position's key `key` (updated, not recomputed).
    pub fn zobrist_after(&self, key: u64, mv: &Move) -> u64 {
        hash_after(self, key, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_equals_fresh_on_start_tree() {
        let rules = crate::Rules::Default;
        let mut frontier = vec![Position::start()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &frontier {
                let k = hash(p);
                for m in p.legal_moves(rules) {
                    let q = p.played(&m);
                    assert_eq!(hash_after(p, k, &m), hash(&q));
                    next.push(q);
                }
            }
            frontier = next;
        }
        assert_ne!(
            hash(&Position::start()),
            hash(&Position::start_with_turn(Color::Black))
        );
    }
}
