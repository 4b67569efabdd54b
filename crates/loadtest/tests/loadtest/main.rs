//! The integration tests of `loadtest`, one binary (one link step) whose
//! modules are the former test files.

mod operator;
mod plays_games;
