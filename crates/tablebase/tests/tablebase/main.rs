//! The integration tests of `tablebase`, one binary (one link step) whose
//! modules are the former test files.

#[path = "../common/mod.rs"]
mod common;
mod engine_tables;
#[path = "../common/makhos_search.rs"]
mod makhos_search;
mod makhos_tables;
mod makruk_bare;
mod makruk_folded;
mod makruk_tables;
