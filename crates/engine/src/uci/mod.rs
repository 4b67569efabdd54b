//! The engine's UCI protocol (Fairy-Stockfish style): [`run`] speaks it over
//! any input and output until `quit` or the end of input; `thaiboard uci`
//! calls it on standard input and output.
//!
//! - [`command`]: one input line read into a typed [`Command`] (no I/O; the
//!   fuzz target `crates/engine/fuzz` reads arbitrary lines through it and
//!   [`Board::set_up`]).
//! - [`Board`]: the position a `position` command sets up.
//! - [`UciTables`]: the endgame tables `TablebasePath` points at (the engine
//!   reads no table files: the `thaiboard-tablebase` crate implements this
//!   trait; [`NoTables`] is none).
//! - [`perft`]: `go perft`'s report.
//!
//! Standard input is read on the calling thread; searches run on a second
//! thread, so `stop`, `isready` and `quit` are answered during a search.

mod board;
pub mod command;
mod options;
mod output;
pub mod perft;
mod session;
mod tables;

pub use board::Board;
pub use command::{
    Command, Go, MAX_ECHO_CHARS, MAX_GO_DEPTH, MAX_PERFT_DEPTH, Parsed, Setup, echo, parse,
};
pub use tables::{NoTables, TableMove, UciTables};

use output::Output;
use session::Session;
use std::io::{BufRead, Write};

/// Speaks UCI: reads commands from `input` and writes the engine's lines to
/// `output` until `quit` or the end of input, with `tables` as the endgame
/// tables `TablebasePath` points at. A search still running at the end of
/// input is stopped (its `bestmove` is still written). Input that is not
/// UTF-8 is read with replacement characters; an input error ends the
/// conversation with an `info string`.
pub fn run<T: UciTables>(mut input: impl BufRead, output: impl Write + Send + 'static, tables: T) {
    let out = Output::new(output);
    let mut session = Session::new(out.clone(), tables);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !session.handle(&line) {
                    return;
                }
            }
            Err(e) => {
                out.say(&format!("info string cannot read input: {e}"));
                break;
            }
        }
    }
    // End of input: stop a running search (its bestmove is still written).
    session.finish_search();
}
