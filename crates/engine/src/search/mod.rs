//! Iterative deepening PVS alpha-beta over any [`Game`].
//!
//! - `root`: iterative deepening, aspiration windows, MultiPV, time,
//!   helper threads, skill;
//! - `node`: one node of the main search, as numbered steps;
//! - `qsearch`: quiescence;
//! - `ordering`: move-ordering tiers and the history tables;
//! - `params`: every margin, reduction and pruning threshold.
//!
//! This module holds the public result types and the searcher's state.

mod node;
mod ordering;
mod params;
mod qsearch;
mod root;

pub use root::search;

use crate::game::Game;
use crate::tt::{Bound, Hit, Tt};
use params::{STOP_POLL_NODES, lmr_table};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
const INF: i32 = 32000;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as UCI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (Mak-hot: centi-men) from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// The UCI form of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// Options of a search beyond its limits.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// How many best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Strength limit 0-20 (`Skill Level`); `None` for full strength.
    pub skill: Option<u32>,
    /// Seed of the skill noise.
    pub seed: u64,
    /// Search threads (`Threads`): more than one runs helper threads over
    /// the same shared table (lazy SMP); the main thread's result is used.
    pub threads: usize,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multipv: 1,
            skill: None,
            seed: 0x9E37_79B9_7F4A_7C15,
            threads: 1,
        }
    }
}

/// One `info` report: one line of one completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// 1-based line number (`MultiPV`).
    pub multipv: u32,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The line, in protocol move form.
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// The UCI `info` line.
    pub fn to_uci(&self) -> String {
        let score = match self.score {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
            self.depth,
            self.seldepth,
            self.multipv,
            score,
            self.nodes,
            self.nps,
            self.hashfull,
            self.time_ms,
            self.pv.join(" ")
        )
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<M>,
    /// The expected reply.
    pub ponder: Option<M>,
    /// The score of the best line (internal units, side to move's view).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// What one ply of the current line remembers.
#[derive(Copy, Clone, Debug)]
struct Frame {
    /// The static evaluation there (`NO_EVAL` in check).
    eval: i32,
    /// The continuation-history row of the move played from this ply
    /// (`G::PIECE_TO` for a null move or none yet).
    piece_to: usize,
    /// A move this node skips (singular-extension search), as a code.
    excluded: u64,
}

/// The evaluation of a node where none is computed (in check).
const NO_EVAL: i32 = -INF;

/// One thread's search state: its counters and limits, the killer and
/// history tables, the current line, and move buffers reused per ply.
struct Searcher<'a, G: Game> {
    tt: &'a Tt,
    stop: &'a AtomicBool,
    start: Instant,
    hard: Option<u64>,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    may_stop_on_limits: bool,
    killers: Vec<[u64; 2]>,
    /// Quiet moves by (from, to).
    history: Vec<i32>,
    /// Quiet moves by (piece and destination of the move before,
    /// piece and destination of this move): `(G::PIECE_TO + 1)` rows.
    continuation: Vec<i16>,
    frames: Vec<Frame>,
    keys: Vec<u64>,
    pv: Vec<Vec<G::Move>>,
    excluded: Vec<u64>,
    buffers: Vec<Vec<G::Move>>,
    score_buffers: Vec<Vec<i32>>,
    quiet_buffers: Vec<Vec<G::Move>>,
    lmr: Vec<[i32; 64]>,
}

/// The static evaluation kept inside the non-mate range, whatever the
/// weights (a tuner may try extreme ones).
fn static_eval<G: Game>(g: &G) -> i32 {
    g.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// A score as the table stores it: mate scores counted from this node
/// instead of the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from the root at `ply` (the inverse of
/// [`to_tt`]).
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes % STOP_POLL_NODES == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.may_stop_on_limits
                && let Some(h) = self.hard
                && self.elapsed_ms() >= h
            {
                self.stopped = true;
            }
        }
        if self.may_stop_on_limits
            && let Some(n) = self.node_limit
            && self.nodes >= n
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_repetition(&self, g: &G) -> bool {
        let window = g.repetition_window() as usize;
        if window < 4 {
            return false;
        }
        let key = g.key();
        let n = self.keys.len();
        let mut i = 4;
        while i <= window && i <= n {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// The stored score when its bound settles the node within (`alpha`,
/// `beta`): exact, a lower bound at or above beta, or an upper bound at or
/// below alpha.
fn tt_cutoff(h: Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(h.score, ply);
    match h.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// A static evaluation replaced by the stored score when the stored bound
/// says the true value lies beyond it (mate scores aside).
fn sharpened(eval: i32, hit: Option<Hit>, ply: usize) -> i32 {
    let Some(h) = hit else {
        return eval;
    };
    let s = from_tt(h.score, ply);
    let beyond = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if s.abs() < MATE_BOUND && beyond {
        s
    } else {
        eval
    }
}

fn new_searcher<'a, G: Game>(
    tt: &'a Tt,
    stop: &'a AtomicBool,
    history: &[u64],
    hard: Option<u64>,
    node_limit: Option<u64>,
) -> Searcher<'a, G> {
    Searcher::<G> {
        tt,
        stop,
        start: Instant::now(),
        hard,
        node_limit,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        may_stop_on_limits: false,
        killers: vec![[0; 2]; MAX_PLY + 1],
        history: vec![0; 4096],
        continuation: vec![0; (G::PIECE_TO + 1) * G::PIECE_TO],
        frames: vec![
            Frame {
                eval: NO_EVAL,
                piece_to: G::PIECE_TO,
                excluded: 0,
            };
            MAX_PLY + 2
        ],
        keys: history.to_vec(),
        pv: vec![Vec::new(); MAX_PLY + 1],
        excluded: Vec::new(),
        buffers: vec![Vec::new(); MAX_PLY + 1],
        score_buffers: vec![Vec::new(); MAX_PLY + 1],
        quiet_buffers: vec![Vec::new(); MAX_PLY + 1],
        lmr: lmr_table(),
    }
}
