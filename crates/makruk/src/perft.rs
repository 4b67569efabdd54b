//! Perft: counting move paths, the standard test of move generation.

use crate::Position;

/// The number of move paths of `depth` plies from `pos` (bulk-counted at the
/// last ply). Paths do not stop at counting draws, as in Fairy-Stockfish.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.played(m), depth - 1))
            .sum(),
    }
}

/// Perft split by root move: each legal move with its path count, in move
/// generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.played(m), depth - 1)))
        .collect()
}
