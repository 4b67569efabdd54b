//! The integration tests of `nnue`, one binary (one link step) whose
//! modules are the former test files.

mod makhos;
mod selfplay_pinned;
mod training;
