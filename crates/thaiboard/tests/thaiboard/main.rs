//! The integration tests of `thaiboard`, one binary (one link step) whose
//! modules are the former test files.

mod common;
mod loadtest_cli;
mod makhos_cli;
mod makruk_cli;
mod match_cli;
mod nnue_cli;
mod nnue_label_cli;
mod pgn_cli;
mod puzzles_cli;
mod serve_cli;
mod spsa_cli;
mod tb_cli;
mod tune_cli;
mod uci_cli;
