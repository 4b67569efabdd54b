//! The integration tests of `makhos`, one binary (one link step) whose
//! modules are the former test files.

mod notation;
mod properties;
mod rules;
mod start_perft;
mod vectors;
