//! Perft: counting move paths to a depth, with bulk counting at the last ply.

use crate::movegen::{count_legal_moves_with, generate_legal_moves, perft2};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Number of move paths of length `depth` from `pos` (1 at depth 0).
pub fn perft(pos: &Position, rules: Rules, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(2)).map(|_| Vec::with_capacity(64)).collect();
    perft_with(pos, rules, depth, &mut buffers)
}

/// The recursive body; `$attr` lets one copy be compiled with extra CPU features.
macro_rules! perft_body {
    ($(#[$attr:meta])* [$($unsafety:tt)*] fn $name:ident) => {
        $(#[$attr])*
        $($unsafety)* fn $name(pos: &Position, rules: Rules, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
            match depth {
                0 => 1,
                1 => match buffers.first_mut() {
                    Some(scratch) => count_legal_moves_with(pos, rules, scratch),
                    None => 0,
                },
                2 => {
                    let [list, scratch, ..] = buffers else {
                        return 0;
                    };
                    perft2(pos, rules, list, scratch)
                }
                _ => {
                    let Some((list, rest)) = buffers.split_first_mut() else {
                        return 0;
                    };
                    list.clear();
                    generate_legal_moves(pos, rules, list);
                    let mut n = 0;
                    for m in list.iter() {
                        // SAFETY (for the feature-enabled copy): it only calls itself, and it
                        // is entered only after the features were detected.
                        #[allow(unused_unsafe)]
                        let sub = unsafe { $name(&pos.after_generated(m), rules, depth - 1, rest) };
                        n += sub;
                    }
                    n
                }
            }
        }
    };
}

perft_body!([] fn perft_portable);

#[cfg(target_arch = "x86_64")]
perft_body!(
    /// # Safety
    /// The CPU must support `popcnt`.
    #[target_feature(enable = "popcnt")]
    [unsafe] fn perft_popcnt
);

/// Perft with the fastest code the CPU supports (a hardware population count when present).
fn perft_with(pos: &Position, rules: Rules, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports popcnt, the only feature the function enables.
        return unsafe { perft_popcnt(pos, rules, depth, buffers) };
    }
    perft_portable(pos, rules, depth, buffers)
}

/// Perft split by root move, in the order the moves are generated.
pub fn perft_divide(pos: &Position, rules: Rules, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(2)).map(|_| Vec::with_capacity(64)).collect();
    pos.legal_moves(rules)
        .into_iter()
        .map(|m| {
            (
                m,
                perft_with(&pos.played(&m), rules, depth - 1, &mut buffers),
            )
        })
        .collect()
}
