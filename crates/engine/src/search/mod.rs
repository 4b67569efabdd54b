//! Iterative deepening PVS alpha-beta over any [`Game`].
//!
//! - `root`: iterative deepening, MultiPV, time, skill;
//! - `smp`: aspiration windows, lazy-SMP helper threads and their vote;
//! - `node`: one node of the main search, as numbered steps;
//! - `qsearch`: quiescence;
//! - `ordering`: move-ordering tiers and the history tables;
//! - `correction`: the correction history of the static evaluation;
//! - `memory`: the histories one search hands to the next of the game;
//! - `params`: every margin, reduction and pruning threshold, and the
//!   tunable ones ([`SearchParams`]);
//! - `score`: mate and endgame-table scores and the table's bounds;
//! - `state`: one thread's search state.
//!
//! Imports run one way: `score` and `params` at the bottom, then
//! `correction`, `memory` and `state`,
//! `ordering`, `qsearch` and `node`, then `smp`, and `root` on top.

mod correction;
mod memory;
mod node;
mod ordering;
mod params;
mod qsearch;
mod root;
mod score;
mod smp;
mod state;

pub use memory::SearchMemory;
pub use params::{SEARCH_TUNABLES, SearchParams, SearchTunable, search_tunable_index};
pub use root::{
    SearchInfo, SearchOptions, SearchResult, search, search_with_memory, search_with_tables,
};
pub use score::{MATE, MAX_PLY, Score};
