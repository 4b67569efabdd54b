//! Endgame tablebases for the project's games.
//!
//! - [`makhos`]: Mak-hot databases, exact under RULES.md section 2 including the 32-ply
//!   no-progress rule (the metric and its proof are in that module's documentation).
//! - [`makruk`]: the design of the counting-aware Makruk and Ouk Chatrang tables (pieces'
//!   honour, board's honour, bias on the board) and the count arithmetic they share.
//! - [`format`]: the table file format of our own (`.thtb`): a checksummed header, a block
//!   index and zstd-compressed blocks, memory-mapped for probing.
//!
//! The crate sits beside `engine` (layer 2): it uses only the rules crates.

pub mod combin;
pub mod format;
pub mod makhos;
pub mod makruk;

pub use format::{Header, TableError, TableFile, Variant};
