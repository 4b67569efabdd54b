//! The integration tests of `makruk`, one binary (one link step) whose
//! modules are the former test files.

mod common;
mod declared;
mod differential;
mod endgames;
mod move_lists;
mod notation;
mod null_move;
mod properties;
mod rules;
mod rules_cambodian;
mod thai_reading;
mod vectors;
