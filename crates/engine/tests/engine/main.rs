//! The integration tests of `engine`, one binary (one link step) whose
//! modules are the former test files.

mod bench_signature;
mod counting;
mod eval_terms;
mod memory;
mod nnue;
mod search;
mod see;
mod tactics;
mod threads;
mod uci_session;
