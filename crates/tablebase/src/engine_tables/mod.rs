//! The tables as the engine plays with them, at the root and inside the search.
//!
//! - [`search_probe`]: [`MakrukProbe`] and [`MakhosProbe`], the
//!   [`engine::Tablebase`] the search probes at every node below the root: a
//!   position the tables hold is scored with its exact value under its counts
//!   instead of being searched.
//! - [`root_move`]: [`makruk_root_move`] and [`makhos_root_move`], the tables'
//!   own move in a won or lost root position (the fastest win the count allows,
//!   the longest resistance), played instead of searching; drawn positions are
//!   left to the search.
//! - [`directory`]: [`TableDirectory`], the tables under one directory opened
//!   on first use — the [`engine::uci::UciTables`] of `thaiboard uci`
//!   (`setoption name TablebasePath value DIR`).
//!
//! # Giving tables to a search
//!
//! A caller that holds tables already opened (the server opens
//! [`MakrukTables`](crate::makruk::MakrukTables) and
//! [`MakhosTables`](crate::makhos::MakhosTables) at start) wraps them in an
//! [`Arc`](std::sync::Arc), asks [`root_move`] first, and otherwise hands the
//! probe to [`engine::search_with_tables`] (the same as [`engine::search`]
//! with one more argument, the tables, as `Option<&dyn Tablebase<G>>`):
//!
//! ```no_run
//! # use std::sync::{Arc, atomic::AtomicBool};
//! # use engine::{Limits, MakrukGame, SearchOptions, Tablebase, Tt, search_with_tables};
//! # use thaiboard_tablebase::engine_tables::{MakrukProbe, makruk_root_move};
//! # use thaiboard_tablebase::makruk::MakrukTables;
//! # fn play(tables: Arc<MakrukTables>, pos: makruk::Position) -> Option<String> {
//! // Once, when the tables are opened (`None`: no table in them).
//! let probe: Option<MakrukProbe> = MakrukProbe::new(Arc::clone(&tables));
//! // Each move: the tables' own move in a won or lost position ...
//! if let Ok(Some(m)) = makruk_root_move(&tables, &pos) {
//!     return Some(m.uci);
//! }
//! // ... or a search that probes them below the root.
//! let game = MakrukGame::new(pos);
//! let stop = AtomicBool::new(false);
//! let r = search_with_tables(
//!     &game,
//!     &[],
//!     &mut Tt::new(16),
//!     &Limits { depth: Some(12), ..Limits::default() },
//!     &SearchOptions::default(),
//!     probe.as_ref().map(|p| p as &dyn Tablebase<MakrukGame>),
//!     &stop,
//!     |_| {},
//! );
//! r.best.map(|m| m.to_uci())
//! # }
//! ```
//!
//! A [`MakrukProbe`] serves both evaluations (`MakrukGame` and the
//! network's `MakrukGame<Nnue>`); Mak-hot is the same with [`MakhosProbe`],
//! [`makhos_root_move`] (the tables of the game's rules, and its no-progress
//! count) and `engine::MakhosGame`. The probes are `Send + Sync`: one per
//! process, shared by every search through an `Arc`.

pub mod directory;
pub mod root_move;
pub mod search_probe;

pub use directory::TableDirectory;
pub use root_move::{makhos_root_move, makruk_root_move};
pub use search_probe::{MakhosProbe, MakrukProbe};
