//! The integration tests of `records`, one binary (one link step) whose
//! modules are the former test files.

mod reader;
mod roundtrip;
mod streaming;
mod vectors;
