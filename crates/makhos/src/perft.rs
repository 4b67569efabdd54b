//! Perft: counting move paths to a depth, with bulk counting at the last ply.

use crate::movegen::{Move, count_legal_moves_with, generate_legal_moves};
use crate::position::Position;
use crate::rules::Rules;

/// Number of move paths of length `depth` from `pos` (1 at depth 0).
pub fn perft(pos: &Position, rules: Rules, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(pos, rules, depth, &mut buffers)
}

fn perft_with(pos: &Position, rules: Rules, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => match buffers.first_mut() {
            Some(scratch) => count_legal_moves_with(pos, rules, scratch),
            None => 0,
        },
        _ => {
            let Some((list, rest)) = buffers.split_first_mut() else {
                return 0;
            };
            list.clear();
            generate_legal_moves(pos, rules, list);
            let mut n = 0;
            for m in list.iter() {
                n += perft_with(&pos.play(m), rules, depth - 1, rest);
            }
            n
        }
    }
}

/// Perft split by root move, in the order the moves are generated.
pub fn perft_divide(pos: &Position, rules: Rules, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    pos.legal_moves(rules)
        .into_iter()
        .map(|m| (m, perft_with(&pos.play(&m), rules, depth - 1, &mut buffers)))
        .collect()
}
