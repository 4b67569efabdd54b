//! The thaiboard engine: one game-neutral alpha-beta search ([`search`]) over
//! the small [`Game`] trait, with adapters for Makruk / Ouk Chatrang
//! ([`MakrukGame`]) and Mak-hot ([`MakhosGame`]).
//!
//! - Iterative deepening with aspiration windows, PVS, a shared
//!   transposition table ([`Tt`]) with aging that also keeps static
//!   evaluations, quiescence (which reads and writes the table too).
//! - Move ordering by the stored move, MVV-LVA and static exchange, killers,
//!   and history: from-to plus continuation history of the last two moves,
//!   rewarded at cutoffs and penalised for the quiet moves tried before.
//! - Selectivity: reverse futility, razoring, null-move pruning where safe
//!   (never in Makruk endings with zugzwang, never in Mak-hot), internal
//!   iterative reduction, late-move, futility, history and static-exchange
//!   pruning (checks and Mak-hot moves that force a capture are exempt),
//!   late-move reductions driven by history and an "improving" signal.
//! - Extensions: check extension, singular extension of the stored move
//!   with multi-cut and negative extension.
//! - Time management from UCI-style [`Limits`] (the soft limit stretches
//!   while the best move changes or the score falls), and a stop flag polled
//!   often enough to answer `stop` within milliseconds.
//! - Evaluation weights live in [`eval`] so a tuner can change them.
//! - The UCI protocol ([`uci::run`], over any input and output), the fixed
//!   bench ([`mod@bench`]) and endgame tables as the search probes them
//!   ([`Tablebase`], implemented by the `thaiboard-tablebase` crate).
//!
//! ```
//! use engine::{Limits, MakrukGame, SearchOptions, Tt, search};
//! use std::sync::atomic::AtomicBool;
//! let game = MakrukGame::new(makruk::Position::new(makruk::Variant::Makruk));
//! let mut tt = Tt::new(1);
//! let stop = AtomicBool::new(false);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = search(&game, &[], &mut tt, &limits, &SearchOptions::default(), &stop, |_| {});
//! assert!(result.best.is_some());
//! ```

pub mod bench;
pub mod eval;
mod game;
mod makhos_game;
mod makruk_game;
mod search;
mod tables;
mod time;
mod tt;
pub mod uci;

pub use game::{Game, StandPat};
pub use makhos_game::MakhosGame;
pub use makruk_game::{MakrukGame, gives_check as makruk_gives_check, see as makruk_see};
pub use search::{
    MATE, MAX_PLY, SEARCH_TUNABLES, Score, SearchInfo, SearchMemory, SearchOptions, SearchParams,
    SearchResult, SearchTunable, search, search_tunable_index, search_with_memory,
    search_with_tables,
};
pub use tables::{PROBE_CACHE_SLOTS, ProbeCache, TableValue, Tablebase};
pub use time::{Limits, MAX_HARD_MS, MAX_SOFT_MS, SLOW_MOVER_DEFAULT, SLOW_MOVER_RANGE};
pub use tt::Tt;
