//! Zobrist keys: a 64-bit fingerprint of a position, kept up to date move by move.
//!
//! The key covers the pieces, the side to move and Ouk Chatrang's special
//! first-move rights; it leaves out the counting state and the move clocks.

use crate::{Bitboard, Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const PIECE_KEYS: usize = 2 * 6 * 64;
const RIGHTS_BASE: usize = PIECE_KEYS;
const TURN_KEY: usize = RIGHTS_BASE + 64;
const KEY_COUNT: usize = TURN_KEY + 1;

const KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x5448_4149_424f_4152; // "THAIBOAR"
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, value) = splitmix(state);
        state = next;
        keys[i] = value;
        i += 1;
    }
    keys
};

/// The key of `color`'s piece of `role` on `sq`.
#[inline]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

/// The key of a special first-move right on `sq`.
#[inline]
pub(crate) fn right(sq: Square) -> u64 {
    KEYS[RIGHTS_BASE + sq.index()]
}

/// The key of a set of special first-move rights.
#[inline]
pub(crate) fn rights(set: Bitboard) -> u64 {
    set.fold(0, |k, sq| k ^ right(sq))
}

/// The key mixed in when Black is to move.
#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS[TURN_KEY]
}
