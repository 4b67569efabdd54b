//! What the Makruk evaluation modules share, below all of them: the
//! feature weights, the [`Sink`] the features are fed to, a sink that sums
//! weights, and the king distance. The trace ([`super`]), the
//! attack terms ([`super::attacks`]) and the fast sum
//! ([`super::sum`]) import from here and never from each other's
//! upward, so the module graph has no cycle.

use super::terms as t;
use makruk::{Color, Square};

/// Middlegame and endgame weights of every feature of
/// [`super::terms`].
#[derive(Clone, Debug, PartialEq)]
pub struct TermWeights {
    /// Middlegame weights, by feature index.
    pub mg: [i16; t::COUNT],
    /// Endgame weights, by feature index.
    pub eg: [i16; t::COUNT],
}

/// Receives the features of a position as [`super::trace::trace`] walks it.
pub trait Sink {
    /// Feature `feature` fired `count` times for `color`.
    fn add(&mut self, color: Color, feature: usize, count: i32);
}

/// Sums middlegame and endgame weights, from White's view: the definition
/// the fast path of [`super::trace::linear_white`] is checked against, and how that path
/// sums the terms both share ([`super::attacks`]).
pub(super) struct Summer<'a> {
    pub(super) w: &'a TermWeights,
    pub(super) mg: i32,
    pub(super) eg: i32,
}

impl Sink for Summer<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, feature: usize, count: i32) {
        let n = color.fold(count, -count);
        self.mg += self.w.mg[feature] as i32 * n;
        self.eg += self.w.eg[feature] as i32 * n;
    }
}

/// King steps between two squares, by square index.
const DISTANCE: [[u8; 64]; 64] = {
    let mut d = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let (df, dr) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            d[a][b] = if df > dr { df } else { dr } as u8;
            b += 1;
        }
        a += 1;
    }
    d
};

/// King steps between two squares.
#[inline(always)]
pub(super) fn chebyshev(a: Square, b: Square) -> i32 {
    DISTANCE[a.index() & 63][b.index() & 63] as i32
}
