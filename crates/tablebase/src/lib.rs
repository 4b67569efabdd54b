//! Endgame tablebases for the project's games.
//!
//! - [`makhos`]: Mak-hot databases, exact under RULES.md section 2 including the 32-ply
//!   no-progress rule (the metric and its proof are in that module's documentation).
//! - [`format`]: the table file format of our own (`.thtb`): a checksummed header, a block
//!   index and zstd-compressed blocks, memory-mapped for probing.
//!
//! The crate sits beside `engine` (layer 2): it uses only the rules crates and `games`.

pub mod combin;
pub mod format;
pub mod makhos;

pub use format::{Header, TableError, TableFile, Variant};
