//! What a Makruk evaluation is to the search: a value carried along with
//! each position (nothing for the classical sum; the network's
//! accumulators for NNUE), brought up to date as moves are played, and a
//! score that includes the rules' corrections.

use super::rules::evaluate_makruk;
use super::weights::MakrukWeights;
use makruk::{Move, Position};

/// A Makruk evaluation as the search carries it from position to position.
pub trait MakrukEvaluator: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The evaluator's state for `after`, the position after the legal move
    /// `m` from `before` (whose state `self` is).
    fn played(&self, before: &Position, m: Move, after: &Position) -> Self;
    /// The score of `pos` in centipawns from the side to move's view, with
    /// the counting fade, mop-up and material that cannot mate applied
    /// (`w` holds their weights).
    fn evaluate(&self, pos: &Position, w: &MakrukWeights) -> i32;
}

/// The classical evaluation: the fitted feature sum of
/// [`super`], computed whole at each position (no state).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Classical;

impl MakrukEvaluator for Classical {
    #[inline]
    fn played(&self, _before: &Position, _m: Move, _after: &Position) -> Classical {
        Classical
    }

    #[inline]
    fn evaluate(&self, pos: &Position, w: &MakrukWeights) -> i32 {
        evaluate_makruk(pos, w)
    }
}
