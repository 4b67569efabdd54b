//! The Makruk evaluation: a tapered sum of features (material, piece-square
//! tables, mobility, bia structure, ruea files, khun safety, threats), each
//! with a middlegame and an endgame weight fitted by `thaiboard tune fit`,
//! followed by the rules-driven corrections that are not fitted: mop-up of a
//! bare khun, material that cannot mate, and the counting fade.
//!
//! The feature walk ([`trace`]) is generic over a [`Sink`], so the engine
//! sums weights while the tuner records which features fired.
//!
//! - [`terms`]: the features' layout (indices), shared with the tuner.
//! - [`fitted_weights`]: their fitted weights, written by `thaiboard tune fit`.
//! - `weights`: [`MakrukWeights`], the fitted weights and the corrections' own.
//! - `trace`: the feature walk, and the tapered sum ([`linear_white`]).
//! - `sum`: the fast path of that sum, equal to the walk summed.
//! - `attacks`: the attack terms both share.
//! - `rules`: the rules' corrections and the whole classical evaluation.
//! - `evaluator`: what an evaluation is to the search ([`MakrukEvaluator`]).
//! - `shared`: what they all use (the [`Sink`], the weights' type).

mod attacks;
mod evaluator;
pub mod fitted_weights;
mod rules;
mod shared;
mod sum;
#[cfg(test)]
mod sum_checks;
pub mod terms;
mod trace;
mod weights;

pub use evaluator::{Classical, MakrukEvaluator};
pub use rules::{
    count_fade, evaluate_makruk, makruk_cannot_mate, makruk_white, rules_white, stalled_count,
};
pub use shared::{Sink, TermWeights};
pub use trace::{Trace, linear_white, phase, trace};
pub use weights::MakrukWeights;
