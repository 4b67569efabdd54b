//! Static evaluation of both games. Every weight of the classical
//! evaluations lives in [`MakrukWeights`] and [`MakhosWeights`] (their
//! `DEFAULT` constants are what the engine uses), so a tuner can change them
//! in one place; the networks ([`nnue`]) score positions instead where they
//! are on (both games' shipped networks are, by default).
//!
//! - [`makruk`]: the Makruk evaluation (features, fitted weights, the rules'
//!   corrections).
//! - [`makhos`]: the Mak-hot evaluation.
//! - [`nnue`]: the networks of both games.

pub mod makhos;
pub mod makruk;
pub mod nnue;

pub use makhos::{MakhosWeights, evaluate_makhos};
pub use makruk::{
    Classical, MakrukEvaluator, MakrukWeights, Sink, TermWeights, Trace, count_fade,
    evaluate_makruk, linear_white, makruk_cannot_mate, makruk_white, phase as makruk_phase,
    rules_white, stalled_count, trace as makruk_trace,
};
