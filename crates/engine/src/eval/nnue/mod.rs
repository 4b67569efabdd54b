//! NNUE: an efficiently updatable neural network evaluation of Makruk,
//! and a small network of the same kind for Mak-hot ([`makhos`]).
//!
//! - Inputs ([`features`]): (side, role, square) from each side's own
//!   end of the board, mirrored so the own khun is on files a-d, in four
//!   buckets of the own khun's square: 3,072 inputs per perspective.
//! - A feature transformer into [`HIDDEN`] int16 units per perspective
//!   ([`Accumulator`]), updated incrementally as moves are played.
//! - The clipped ReLU (0 to [`QA`]) of both perspectives' units, the side to
//!   move's first, into one output neuron of eight chosen by the number of
//!   pieces on the board ([`output_bucket`]).
//! - int16 arithmetic, with AVX2 kernels when the processor has them and a
//!   portable scalar path that gives identical results ([`simd`]).
//! - What the output is added to ([`Base`]): nothing, or the classical
//!   feature sum, so that the network learns a correction to it.
//! - The rules stay outside the net: the counting fade, material that
//!   cannot mate and mop-up of a bare khun are applied to its output as to
//!   the classical sum ([`super::rules_white`], [`super::count_fade`]).
//!
//! The file format is in `network.rs`. Training and quantisation are the
//! `thaiboard nnue` commands (crate `thaiboard-nnue`).

mod accumulator;
mod base;
mod embedded;
pub mod features;
mod layout;
pub mod makhos;
mod network;
pub mod simd;

pub use accumulator::Accumulator;
pub use base::Base;
pub use embedded::{default_network, embedded, on_by_default};
pub use features::{INPUTS, KING_BUCKETS, OUTPUT_BUCKETS, View, output_bucket};
pub use network::{
    HIDDEN, Layout, MAGIC, MAX_DESCRIPTION, Network, NetworkError, OUTPUT_SCALE, QA, QB, VERSION,
    WEIGHT_CLIP_HUNDREDTHS,
};

use super::makruk::MakrukEvaluator;
use super::makruk::{MakrukWeights, count_fade, rules_white};
use makruk::{Move, Position};

/// The NNUE evaluation as the search carries it: the network and the
/// position's accumulators.
#[derive(Clone, Debug)]
pub struct Nnue {
    net: &'static Network,
    acc: Accumulator,
}

impl Nnue {
    /// The evaluation of `pos` by `net` (accumulators computed in full).
    pub fn new(net: &'static Network, pos: &Position) -> Nnue {
        Nnue {
            net,
            acc: Accumulator::refresh(net, pos),
        }
    }

    /// The accumulators (tests compare them with a full refresh).
    pub fn accumulator(&self) -> &Accumulator {
        &self.acc
    }

    /// The network's raw score of `pos` in centipawns, side to move's
    /// view, before the rules' corrections.
    pub fn raw(&self, pos: &Position) -> i32 {
        self.acc.evaluate(self.net, pos, simd::kernel())
    }
}

impl MakrukEvaluator for Nnue {
    #[inline]
    fn played(&self, before: &Position, m: Move, after: &Position) -> Nnue {
        Nnue {
            net: self.net,
            acc: self.acc.played(self.net, before, m, after),
        }
    }

    fn evaluate(&self, pos: &Position, w: &MakrukWeights) -> i32 {
        let raw = self.raw(pos);
        let total = pos.turn().fold(raw, -raw) + self.net.base.white(pos, w);
        let white = rules_white(pos, w, total);
        count_fade(pos, w, pos.turn().fold(white, -white))
    }
}
