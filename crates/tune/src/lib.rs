//! Texel tuning of the evaluation weights: labelled positions from fast
//! self-play ([`selfplay::generate`]), the fit of the weights to the game
//! results ([`data::tune`], maths in [`fit`]), and self-play matches
//! between two sets of weights at a fixed node count
//! ([`selfplay::play_match`]) to check a tuned set before adopting it.
//! `thaiboard tune gen|run|match` drives it from the command line.
//!
//! [`spsa`] tunes the search's parameters (not the evaluation's) from
//! match results; `thaiboard tune spsa` plays its games.

pub mod data;
pub mod driver;
pub mod fit;
pub mod linear;
pub mod params;
pub mod selfplay;
pub mod spsa;

pub use params::Tunable;
