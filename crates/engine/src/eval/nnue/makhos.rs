//! The Mak-hot network's inputs and its evaluation.
//!
//! - Inputs: (side, man or king, dark square) from each side's own end of
//!   the board (Black's squares turned 180 degrees, index `i` to `31 - i`):
//!   [`INPUTS`] per perspective, the perspective's own pieces first.
//! - [`HIDDEN`] units per perspective, summed afresh for each position: at
//!   most 16 pieces, so no accumulator is carried from move to move.
//! - One output of [`OUTPUT_BUCKETS`], by the number of pieces.
//!
//! The rules stay outside the net: the search scores a side that cannot
//! move, one king each and the 32-ply rule itself.

use super::layout::Layout;
use super::network::Network;
use super::simd::{self, Kernel};
use makhos::{Color, Position, Square};

/// Inputs per perspective: 2 sides x 2 roles x 32 squares.
pub const INPUTS: usize = Layout::Makhos.inputs();
/// Hidden units per perspective.
pub const HIDDEN: usize = Layout::Makhos.hidden();
/// Output buckets, by the number of pieces.
pub const OUTPUT_BUCKETS: usize = Layout::Makhos.buckets();

const _: () = assert!(INPUTS == 2 * 2 * Square::COUNT);
/// The most pieces on the board.
pub const MAX_PIECES: usize = 16;

/// The feature of a `color` piece (a king if `king`) on `sq`, as
/// `perspective` sees it.
#[inline]
pub fn feature(perspective: Color, color: Color, king: bool, sq: Square) -> usize {
    let turn = if perspective == Color::White { 0 } else { 31 };
    let side = usize::from(color != perspective);
    (side * 2 + usize::from(king)) * Square::COUNT + (sq.index() ^ turn)
}

/// Calls `f` with every feature on in `pos` as `perspective` sees it.
pub fn each_active(pos: &Position, perspective: Color, mut f: impl FnMut(usize)) {
    for color in [Color::White, Color::Black] {
        for sq in pos.men(color).squares() {
            f(feature(perspective, color, false, sq));
        }
        for sq in pos.kings(color).squares() {
            f(feature(perspective, color, true, sq));
        }
    }
}

/// The output bucket of a position with `pieces` pieces (1 to 16): four
/// piece counts a bucket.
#[inline]
pub fn output_bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(1) / 4) as usize).min(OUTPUT_BUCKETS - 1)
}

/// The score of `pos` by the Mak-hot network `net`, in centi-men from the
/// side to move's view.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    evaluate_with(net, pos, simd::kernel())
}

/// [`evaluate`] with a chosen kernel (tests compare them).
pub fn evaluate_with(net: &Network, pos: &Position, kernel: Kernel) -> i32 {
    debug_assert_eq!(net.layout, Layout::Makhos);
    let us = pos.turn();
    let mut units = [[0i16; HIDDEN]; 2];
    for (half, perspective) in [us, us.other()].into_iter().enumerate() {
        let mut rows: [&[i16]; MAX_PIECES] = [&[]; MAX_PIECES];
        let mut n = 0;
        each_active(pos, perspective, |f| {
            if n < MAX_PIECES {
                rows[n] = net.feature_row(f);
                n += 1;
            }
        });
        simd::update(
            kernel,
            &mut units[half],
            &net.feature_biases,
            &rows[..n],
            &[],
        );
    }
    let bucket = output_bucket(pos.occupied().count());
    net.output(kernel, &units[0], &units[1], bucket)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_distinct_and_both_ends_see_the_start_alike() {
        for perspective in [Color::White, Color::Black] {
            let mut seen = std::collections::HashSet::new();
            for color in [Color::White, Color::Black] {
                for king in [false, true] {
                    for sq in Square::all() {
                        let f = feature(perspective, color, king, sq);
                        assert!(f < INPUTS);
                        assert!(seen.insert(f));
                    }
                }
            }
        }
        let pos = Position::start();
        let (mut white, mut black) = (Vec::new(), Vec::new());
        each_active(&pos, Color::White, |f| white.push(f));
        each_active(&pos, Color::Black, |f| black.push(f));
        white.sort_unstable();
        black.sort_unstable();
        assert_eq!(white.len(), 16);
        assert_eq!(white, black);
    }

    #[test]
    fn output_buckets_cover_one_to_sixteen_pieces() {
        assert_eq!(output_bucket(1), 0);
        assert_eq!(output_bucket(4), 0);
        assert_eq!(output_bucket(5), 1);
        assert_eq!(output_bucket(16), OUTPUT_BUCKETS - 1);
    }
}
