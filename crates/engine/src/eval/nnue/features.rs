//! The network's inputs: which (piece, square) features are on, as each
//! side sees the board.
//!
//! Each side (the *perspective*) sees the board from its own end: Black's
//! squares are turned 180 degrees (the khuns start on d1 and e8, so the
//! start position is point-symmetric), then the board is mirrored left to
//! right when the perspective's own khun stands on files e-h, so its khun
//! is always on files a-d (Makruk's moves are all symmetric left to
//! right). The own khun's square, so turned and mirrored, picks one of
//! [`KING_BUCKETS`] buckets; each bucket has its own weights for every
//! (side, role, square): [`PLANES`] planes of 64 squares, the
//! perspective's own pieces first.
//!
//! A promoted bia is a met here: it moves as one, and the rule that tells
//! them apart (the counting rules, `RULES.md`) is applied outside the net.

use makruk::{Color, Position, Role, Square};

/// Squares on the board.
pub const SQUARES: usize = 64;
/// Piece planes per bucket: 2 sides (own, other) x 6 roles.
pub const PLANES: usize = 12;
/// Buckets of the own khun's square.
pub const KING_BUCKETS: usize = 4;
/// Inputs of the network, per perspective.
pub const INPUTS: usize = KING_BUCKETS * PLANES * SQUARES;
/// The most features on at once (every piece of a full board).
pub const MAX_ACTIVE: usize = 32;

/// The bucket of the own khun's square (turned to the perspective's end
/// and mirrored onto files a-d): its home rank or not, files a-b or c-d.
const fn king_bucket(sq: usize) -> usize {
    let (file, rank) = (sq % 8, sq / 8);
    (if rank == 0 { 0 } else { 2 }) + if file < 2 { 0 } else { 1 }
}

/// How one perspective numbers the features of a position: fixed while its
/// own khun stays on the same bucket and half of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    /// XOR on square indices: 63 turns the board, 7 mirrors it.
    flip: usize,
    /// The first feature of the bucket.
    base: usize,
}

impl View {
    /// The view of `perspective`, whose khun stands on `own_khun`.
    pub fn new(perspective: Color, own_khun: Square) -> View {
        let turn = perspective.fold(0, 63);
        let turned = own_khun.index() ^ turn;
        let mirror = if turned % 8 >= 4 { 7 } else { 0 };
        View {
            perspective,
            flip: turn ^ mirror,
            base: king_bucket(turned ^ mirror) * PLANES * SQUARES,
        }
    }

    /// The view of `perspective` in `pos`.
    pub fn of(pos: &Position, perspective: Color) -> View {
        View::new(perspective, pos.king_of(perspective))
    }

    /// The feature of a `color` `role` on `sq`, below [`INPUTS`].
    #[inline]
    pub fn feature(&self, color: Color, role: Role, sq: Square) -> usize {
        let side = usize::from(color != self.perspective);
        self.base + (side * 6 + role.index()) * SQUARES + (sq.index() ^ self.flip)
    }

    /// Every feature that is on in `pos`, appended to `out`.
    pub fn active(&self, pos: &Position, out: &mut Vec<usize>) {
        self.each_active(pos, |f| out.push(f));
    }

    /// Calls `f` with every feature that is on in `pos`.
    #[inline]
    pub fn each_active(&self, pos: &Position, mut f: impl FnMut(usize)) {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    f(self.feature(color, role, sq));
                }
            }
        }
    }
}

/// Output buckets, by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (khuns and bias
/// included, 2 to 32): four piece counts a bucket.
#[inline]
pub fn output_bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(OUTPUT_BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: usize) -> Square {
        Square::new(i as u8).expect("square index")
    }

    #[test]
    fn the_start_position_looks_the_same_from_both_ends() {
        let pos = Position::new(makruk::Variant::Makruk);
        let (mut white, mut black) = (Vec::new(), Vec::new());
        View::of(&pos, Color::White).active(&pos, &mut white);
        View::of(&pos, Color::Black).active(&pos, &mut black);
        white.sort_unstable();
        black.sort_unstable();
        assert_eq!(white.len(), 32);
        assert_eq!(white, black);
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        for k in 0..64 {
            let ksq = sq(k);
            let view = View::new(Color::Black, ksq);
            let mut seen = std::collections::HashSet::new();
            for color in Color::ALL {
                for role in Role::ALL {
                    for s in 0..64 {
                        let f = view.feature(color, role, sq(s));
                        assert!(f < INPUTS);
                        assert!(seen.insert(f), "feature {f} twice");
                    }
                }
            }
        }
    }

    #[test]
    fn mirrored_positions_give_the_same_features() {
        // A khun on e1 sees the board mirrored: the same as a khun on d1
        // with every piece mirrored.
        let a = View::new(Color::White, sq(4));
        let b = View::new(Color::White, sq(3));
        assert_eq!(
            a.feature(Color::Black, Role::Rook, sq(0)),
            b.feature(Color::Black, Role::Rook, sq(7))
        );
    }

    #[test]
    fn output_buckets_cover_two_to_thirty_two_pieces() {
        assert_eq!(output_bucket(2), 0);
        assert_eq!(output_bucket(32), OUTPUT_BUCKETS - 1);
        assert_eq!(output_bucket(17), 3);
    }
}
