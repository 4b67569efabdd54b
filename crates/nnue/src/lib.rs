//! The training pipeline of the engine's networks (NNUE), Makruk's and
//! Mak-hot's, on CPUs:
//!
//! - [`data`]: training positions in shards of fixed-size binary records
//!   (board, side to move, search score, game result), Makruk's there and
//!   Mak-hot's in [`makhos_data`], both a [`data::Sample`];
//! - [`selfplay`]: self-play at a fixed node count from random openings,
//!   appending shards (resumable);
//! - [`label`]: the positions of existing shards scored again by an
//!   external UCI engine (a native Fairy-Stockfish), into new shards
//!   (resumable);
//! - [`model`]: the network in floating point, its forward and backward
//!   passes, and quantisation to the engine's int16 [`engine::eval::nnue::Network`];
//! - [`train`]: Adam on a WDL-blended target with a validation split and
//!   checkpoints (resumable);
//! - [`check`]: a network's and the classical evaluation's agreement with
//!   the search scores of held-out positions.
//!
//! Imports run one way: `data` at the bottom, `makhos_data` on it, `model`
//! beside them, then `selfplay`, `label` (on `data` and the `arena` crate's
//! UCI client) and `train`; `check` on `model`.

pub mod check;
pub mod data;
pub mod label;
pub mod makhos_data;
pub mod model;
pub mod selfplay;
pub mod train;
