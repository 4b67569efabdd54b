//! Endgame tablebases for the project's games.
//!
//! - [`makhos`]: Mak-hot databases, exact under RULES.md section 2 including the 32-ply
//!   no-progress rule (the metric and its proof are in that module's documentation).
//! - [`makruk`]: the design of the counting-aware Makruk and Ouk Chatrang tables (pieces'
//!   honour, board's honour, bias on the board) and the count arithmetic they share.
//! - [`mod@format`]: the table file format of our own (`.thtb`): a checksummed header, a block
//!   index and zstd-compressed blocks, memory-mapped for probing.
//!
//! The crate sits beside `engine` (layer 2): it uses only the rules crates.
//!
//! # Status (issue 16)
//!
//! Done: the file format; Mak-hot tables for both rule options (generated and tested to
//! 5 pieces); Makruk and Ouk Chatrang bare-khun tables with one piece (3 pieces); probes
//! with the count; `thaiboard tb gen|probe|verify`; the engine's root move and its
//! probes inside the search (`TablebasePath`; the engine's `Tablebase` trait, implemented
//! over these tables in the `thaiboard` binary); `GET /api/tablebase`.
//!
//! Next, in this order: Makruk 4-piece tables (two pieces against a bare khun: DTM as
//! [`makruk::BareTable`], but with an un-move generator, since 33.5 M entries are too many
//! for lists of children; then one piece against one piece, board's honour, distance to
//! conversion; then bia tables, with exits at fixed starting counts); Mak-hot 6 pieces
//! (5.1 G entries: the generator must stop holding every solved table in memory and read
//! the tables a layout needs from disk); Mak-hot distance to win; the analysis board's
//! display; a strength match with and without tables.

pub mod combin;
pub mod format;
pub mod makhos;
pub mod makruk;

pub use format::{Header, TableError, TableFile, Variant};
