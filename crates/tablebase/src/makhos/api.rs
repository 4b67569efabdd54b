//! The answer to a probe as the tablebase API gives it, shaped like lichess's tablebase
//! API: `category` for the side to move, a signed distance, and `moves` best first, each
//! with its `category` from the opponent's side (as lichess gives it). The command line's
//! `--json` and the server are meant to print the same value. Where the tables have
//! their distance-to-win files, each value also carries `dtw`, the plies to the end of
//! the game, and the moves are ordered by it.

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
    /// Plies to the end of the game (the loser unable to move) with best play under the
    /// count: positive for a win, negative for a loss, `None` for a draw or when the
    /// tables have no distance-to-win files.
    pub dtw: Option<i32>,
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
    /// The opponent's signed `dtw` after the move.
    pub dtw: Option<i32>,
    /// Whether the move is a capture or a man move (the count starts again).
    pub zeroing: bool,
}

/// A distance with lichess's sign: negative for the side that loses.
fn signed(plies: u32, wdl: Wdl) -> i32 {
    if wdl == Wdl::Loss {
        -(plies as i32)
    } else {
        plies as i32
    }
}

fn signed_dtz(p: &Probe) -> Option<i32> {
    Some(signed(p.zeroing_plies()?, p.wdl))
}

/// The signed distance to win of `pos` at `no_progress`, when the tables have distances.
fn signed_dtw(
    tables: &MakhosTables,
    pos: &Position,
    probe: &Probe,
) -> Result<Option<i32>, ProbeError> {
    if !tables.has_distances() {
        return Ok(None);
    }
    let plies = tables.distance_to_win(pos, probe.no_progress)?;
    Ok(plies.map(|d| signed(d, probe.wdl)))
}

fn move_answer(
    tables: &MakhosTables,
    pos: &Position,
    m: &MoveValue,
) -> Result<MoveAnswer, ProbeError> {
    Ok(MoveAnswer {
        uci: m.mv.to_engine(),
        san: m.mv.to_algebraic(),
        category: m.after.wdl.name(),
        dtz: signed_dtz(&m.after),
        dtw: signed_dtw(tables, &pos.played(&m.mv), &m.after)?,
        zeroing: m.zeroing,
    })
}

/// Sort key of a move for the side playing it, by the opponent's value after it: wins
/// (the opponent's losses) soonest first, then draws, then losses latest first.
fn by_distance(m: &MoveAnswer) -> (u8, i32) {
    match (m.category, m.dtw) {
        ("loss", Some(d)) => (0, -d),
        ("draw", _) => (1, 0),
        ("win", Some(d)) => (2, -d),
        _ => (1, 0),
    }
}

/// Probes `pos` with `no_progress` plies on the count and every move after it.
pub fn answer(
    tables: &MakhosTables,
    pos: &Position,
    no_progress: u32,
) -> Result<Answer, ProbeError> {
    let here = tables.probe(pos, no_progress)?;
    let mut moves = tables
        .probe_moves(pos, no_progress)?
        .iter()
        .map(|m| move_answer(tables, pos, m))
        .collect::<Result<Vec<_>, _>>()?;
    if tables.has_distances() {
        // Stable: among equal distances the zeroing distance's order stays.
        moves.sort_by_key(by_distance);
    }
    Ok(Answer {
        category: here.wdl.name(),
        dtz: signed_dtz(&here),
        dtw: signed_dtw(tables, pos, &here)?,
        no_progress,
        moves,
    })
}
