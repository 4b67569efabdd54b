//! One thread's search state and its bookkeeping: the stop conditions,
//! repetitions, the principal variation.

use super::correction::CorrectionHistory;
use super::memory::ThreadMemory;
use super::params::{STOP_POLL_NODES, SearchParams};
use super::score::{MAX_PLY, NO_EVAL};
use crate::game::Game;
use crate::tables::{ProbeCache, Tablebase};
use crate::tt::Tt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one ply of the current line remembers.
#[derive(Copy, Clone, Debug)]
pub(super) struct Frame {
    /// The static evaluation there, corrected (`NO_EVAL` in check).
    pub(super) eval: i32,
    /// The continuation-history row of the move played from this ply
    /// (`G::PIECE_TO` for a null move or none yet).
    pub(super) piece_to: usize,
    /// A move this node skips (singular-extension search), as a code.
    pub(super) excluded: u64,
}

/// One thread's search state: its counters and limits, the killer and
/// history tables, the current line, and move buffers reused per ply.
pub(super) struct Searcher<'a, G: Game> {
    pub(super) tt: &'a Tt,
    /// Endgame tables probed below the root (`None`: no probing at all).
    pub(super) tables: Option<&'a dyn Tablebase<G>>,
    /// Nodes answered by the tables.
    pub(super) table_hits: u64,
    /// This thread's answers of the tables, by position and counts.
    pub(super) probe_cache: ProbeCache,
    pub(super) stop: &'a AtomicBool,
    pub(super) start: Instant,
    pub(super) hard: Option<u64>,
    pub(super) node_limit: Option<u64>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Whether the node limit may stop the search (not before the first
    /// iteration is complete); the hard time limit always may, so a spent
    /// clock is never overrun.
    pub(super) may_stop_on_limits: bool,
    pub(super) killers: Vec<[u64; 2]>,
    /// Quiet moves by (from, to).
    pub(super) history: Vec<i32>,
    /// Quiet moves by (piece and destination of the move before,
    /// piece and destination of this move): `(G::PIECE_TO + 1)` rows.
    pub(super) continuation: Vec<i16>,
    /// Tactical moves by (moving piece and destination, captured kind).
    pub(super) capture_history: Vec<i32>,
    /// How far the static evaluation missed, by bia structure.
    pub(super) correction: CorrectionHistory,
    pub(super) frames: Vec<Frame>,
    pub(super) keys: Vec<u64>,
    pub(super) pv: Vec<Vec<G::Move>>,
    pub(super) excluded: Vec<u64>,
    /// The root moves searched (`go searchmoves`), as codes; empty: all.
    pub(super) root_only: Vec<u64>,
    pub(super) buffers: Vec<Vec<G::Move>>,
    pub(super) score_buffers: Vec<Vec<i32>>,
    pub(super) quiet_buffers: Vec<Vec<G::Move>>,
    /// The tactical moves tried at each ply before a cutoff.
    pub(super) tactical_buffers: Vec<Vec<G::Move>>,
    pub(super) lmr: Vec<[i32; 64]>,
    /// The tunable margins and reductions this search uses.
    pub(super) params: SearchParams,
}

impl<'a, G: Game> Searcher<'a, G> {
    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes % STOP_POLL_NODES == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(h) = self.hard
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

    pub(super) fn is_repetition(&self, g: &G) -> bool {
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

    /// The structure key the correction history reads for `g`: `None` when
    /// the search keeps no correction (`CorrectionScale` 0) or the game has
    /// no structure.
    pub(super) fn correction_key(&self, g: &G) -> Option<u64> {
        if self.params.correction_scale > 0 {
            g.correction_key()
        } else {
            None
        }
    }

    /// The static evaluation `eval` of `g` (structure key `key`) corrected
    /// by what the correction history learnt.
    pub(super) fn corrected(&self, g: &G, key: Option<u64>, eval: i32) -> i32 {
        self.correction
            .correct(g.white_to_move(), key, eval, self.params.correction_scale)
    }

    /// What this search learnt, for the game's next search.
    pub(super) fn into_memory(self) -> ThreadMemory {
        ThreadMemory {
            history: self.history,
            continuation: self.continuation,
            capture: self.capture_history,
            correction: Some(self.correction),
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// A searcher over the shared table `tt`, probing the endgame `tables` if
/// any, with the tunable numbers `params`, starting from the histories in
/// `memory` (what the game's last search learnt; empty: nothing yet);
/// `history` holds the keys of the game's earlier positions.
#[allow(clippy::too_many_arguments)]
pub(super) fn new_searcher<'a, G: Game>(
    tt: &'a Tt,
    tables: Option<&'a dyn Tablebase<G>>,
    stop: &'a AtomicBool,
    history: &[u64],
    hard: Option<u64>,
    node_limit: Option<u64>,
    start: Option<Instant>,
    params: &SearchParams,
    memory: ThreadMemory,
) -> Searcher<'a, G> {
    let memory = memory.carried::<G>(params.history_carry);
    Searcher::<G> {
        tt,
        tables,
        table_hits: 0,
        probe_cache: ProbeCache::new(tables.is_some()),
        stop,
        start: start.unwrap_or_else(Instant::now),
        hard,
        node_limit,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        may_stop_on_limits: false,
        killers: vec![[0; 2]; MAX_PLY + 1],
        history: memory.history,
        continuation: memory.continuation,
        capture_history: memory.capture,
        correction: memory.correction.unwrap_or_else(CorrectionHistory::new),
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
        root_only: Vec::new(),
        buffers: vec![Vec::new(); MAX_PLY + 1],
        score_buffers: vec![Vec::new(); MAX_PLY + 1],
        quiet_buffers: vec![Vec::new(); MAX_PLY + 1],
        tactical_buffers: vec![Vec::new(); MAX_PLY + 1],
        lmr: params.lmr_table(),
        params: *params,
    }
}
