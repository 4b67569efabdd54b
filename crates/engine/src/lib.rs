//! The thaiboard engine: one game-neutral alpha-beta search ([`search`]) over
//! the small [`Game`] trait, with adapters for Makruk / Ouk Chatrang
//! ([`MakrukGame`]) and Mak-hot ([`MakhosGame`]).
//!
//! - Iterative deepening with aspiration windows, PVS, a shared
//!   transposition table ([`Tt`]) with aging, quiescence, killer and history
//!   ordering, null-move pruning where safe, late-move reductions and check
//!   extensions.
//! - Time management from UCI-style [`Limits`], and a stop flag polled often
//!   enough to answer `stop` within milliseconds.
//! - Evaluation weights live in [`eval`] so a tuner can change them.
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
mod time;
mod tt;
pub mod tune;

pub use game::{Game, StandPat};
pub use makhos_game::MakhosGame;
pub use makruk_game::{MakrukGame, gives_check as makruk_gives_check, see as makruk_see};
pub use search::{MATE, MAX_PLY, Score, SearchInfo, SearchOptions, SearchResult, search};
pub use time::{Limits, MAX_HARD_MS, MAX_SOFT_MS};
pub use tt::Tt;
