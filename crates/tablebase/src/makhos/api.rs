//! The answer to a probe as the tablebase API gives it, shaped like lichess's tablebase
//! API: `category` for the side to move, a signed distance, and `moves` best first, each
//! with its `category` from the opponent's side (as lichess gives it). The command line's
//! `--json` and the server are meant to print the same value.

use super::probe::{MakhosTables, MoveValue, Probe, ProbeError, Wdl};
use makhos::Position;
use serde::Serialize;

/// The answer for a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// `win`, `draw` or `loss` for the side to move, under the count.
    pub category: &'static str,
    /// Plies to the next capture or man move that keeps the result: positive for a win,
    /// negative for a loss, `None` for a draw (lichess's sign convention for `dtz`).
    pub dtz: Option<i32>,
    /// The no-progress count the answer assumes.
    pub no_progress: u32,
    /// Every legal move, best first for the side to move.
    pub moves: Vec<MoveAnswer>,
}

/// One move of an [`Answer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnswer {
    /// The move in engine notation (`c3d4`, `c3e5c7`).
    pub uci: String,
    /// The move in algebraic notation (`c3-d4`, `c3xe5xc7`).
    pub san: String,
    /// The value after the move, for the opponent.
    pub category: &'static str,
    /// The opponent's signed `dtz` after the move.
    pub dtz: Option<i32>,
    /// Whether the move is a capture or a man move (the count starts again).
    pub zeroing: bool,
}

fn signed_dtz(p: &Probe) -> Option<i32> {
    let plies = p.zeroing_plies()? as i32;
    Some(if p.wdl == Wdl::Loss { -plies } else { plies })
}

fn move_answer(m: &MoveValue) -> MoveAnswer {
    MoveAnswer {
        uci: m.mv.to_engine(),
        san: m.mv.to_algebraic(),
        category: m.after.wdl.name(),
        dtz: signed_dtz(&m.after),
        zeroing: m.zeroing,
    }
}

/// Probes `pos` with `no_progress` plies on the count and every move after it.
pub fn answer(
    tables: &MakhosTables,
    pos: &Position,
    no_progress: u32,
) -> Result<Answer, ProbeError> {
    let here = tables.probe(pos, no_progress)?;
    let moves = tables.probe_moves(pos, no_progress)?;
    Ok(Answer {
        category: here.wdl.name(),
        dtz: signed_dtz(&here),
        no_progress,
        moves: moves.iter().map(move_answer).collect(),
    })
}
