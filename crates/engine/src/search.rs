//! Iterative deepening PVS alpha-beta over any [`Game`].

use crate::game::{Game, StandPat};
use crate::time::Limits;
use crate::tt::{Bound, Tt};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
/// The bound of every history score.
const HISTORY_MAX: i32 = 16384;

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

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

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
        if self.nodes & 511 == 0 {
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

    /// The continuation-history rows of the moves one and two plies before
    /// `ply`.
    fn continuation_rows(&self, ply: usize) -> [usize; 2] {
        let row = |back: usize| {
            let p = if ply >= back {
                self.frames[ply - back].piece_to
            } else {
                G::PIECE_TO
            };
            p * G::PIECE_TO
        };
        [row(1), row(2)]
    }

    /// The history score of a quiet move: its own history plus its
    /// continuation histories.
    fn quiet_score(&self, g: &G, m: G::Move, rows: [usize; 2]) -> i32 {
        let pt = g.piece_to(m);
        self.history[G::history_index(m)]
            + i32::from(self.continuation[rows[0] + pt])
            + i32::from(self.continuation[rows[1] + pt])
    }

    fn order(&self, g: &G, m: G::Move, tt_move: u64, ply: usize, rows: [usize; 2]) -> i32 {
        let code = G::encode(m);
        if code == tt_move {
            return 1 << 30;
        }
        if g.is_tactical(m) {
            if g.losing_capture(m) {
                return (1 << 27) + g.tactical_order(m);
            }
            return (1 << 29) + g.tactical_order(m);
        }
        if self.killers[ply][0] == code {
            return 1 << 28;
        }
        if self.killers[ply][1] == code {
            return (1 << 28) - 1;
        }
        self.quiet_score(g, m, rows)
    }

    /// Rewards the quiet move that caused a cutoff and penalises the quiet
    /// moves searched before it.
    fn reward_quiets(&mut self, g: &G, best: G::Move, tried: &[G::Move], depth: i32, ply: usize) {
        let bonus = (170 * depth - 120).clamp(0, 1600);
        let rows = self.continuation_rows(ply);
        let apply = |s: &mut Self, m: G::Move, delta: i32| {
            let pt = g.piece_to(m);
            gravity(&mut s.history[G::history_index(m)], delta);
            for row in rows {
                let entry = &mut s.continuation[row + pt];
                let mut v = i32::from(*entry);
                gravity(&mut v, delta);
                // `gravity` keeps scores within ±HISTORY_MAX, inside i16.
                *entry = v as i16;
            }
        };
        if !g.is_tactical(best) {
            let code = G::encode(best);
            let k = &mut self.killers[ply];
            if k[0] != code {
                k[1] = k[0];
                k[0] = code;
            }
            apply(self, best, bonus);
        }
        for &m in tried {
            apply(self, m, -bonus);
        }
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        g: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        self.nodes += 1;
        if ply > 0 {
            if self.check_stop() {
                return 0;
            }
            if g.rule_draw() || self.is_repetition(g) {
                return 0;
            }
            if ply >= MAX_PLY - 2 {
                return static_eval(g);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = g.in_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(g, alpha, beta, ply, 0);
        }
        let excluded = self.frames[ply].excluded;
        let key = g.key();
        let hit = if excluded == 0 {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = hit.map_or(0, |h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && ply > 0
            && h.depth >= depth
        {
            let s = from_tt(h.score, ply);
            match h.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let quiet = g.quiet();
        // The static evaluation (from the table when stored there), then
        // sharpened by a stored score whose bound points past it.
        let raw_eval = if !quiet {
            NO_EVAL
        } else if let Some(e) = hit.and_then(|h| h.eval) {
            e
        } else {
            static_eval(g)
        };
        let eval = if quiet {
            sharpened(raw_eval, hit, ply)
        } else {
            raw_eval
        };
        self.frames[ply].eval = raw_eval;
        self.frames[ply + 1].excluded = 0;
        let improving = quiet
            && ply >= 2
            && self.frames[ply - 2].eval != NO_EVAL
            && raw_eval > self.frames[ply - 2].eval;
        if !pv_node && quiet && ply > 0 && excluded == 0 && beta.abs() < MATE_BOUND {
            // Reverse futility pruning.
            if depth <= 6 && eval - 100 * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Razoring: hopeless positions at low depth go to quiescence.
            if depth <= 2 && eval + 250 * depth + 150 <= alpha {
                let s = self.qsearch(g, alpha, alpha + 1, ply, 0);
                if s <= alpha {
                    return s;
                }
            }
            // Null-move pruning, only where zugzwang is unlikely.
            if null_ok
                && depth >= 3
                && eval >= beta
                && raw_eval >= beta - 20 * depth
                && g.null_move_safe()
                && let Some(child) = g.play_null()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.frames[ply].piece_to = G::PIECE_TO;
                self.keys.push(key);
                let s = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: without a stored move the node is
        // probably less important than it looks.
        if tt_move == 0 && depth >= 4 && excluded == 0 {
            depth -= 1;
        }

        // Singular extension: when the stored move is much better than
        // every other move, search it deeper; when even the others beat
        // beta, the node fails high at once (multi-cut).
        let mut singular_extension = 0;
        if let Some(h) = hit
            && ply > 0
            && depth >= 7
            && tt_move != 0
            && h.bound != Bound::Upper
            && h.depth >= depth - 3
            && from_tt(h.score, ply).abs() < MATE_BOUND
        {
            let tt_score = from_tt(h.score, ply);
            let singular_beta = tt_score - 2 * depth;
            self.frames[ply].excluded = tt_move;
            let s = self.negamax(
                g,
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
            );
            self.frames[ply].excluded = 0;
            self.frames[ply].eval = raw_eval;
            self.frames[ply + 1].excluded = 0;
            if self.stopped {
                return 0;
            }
            if s < singular_beta {
                singular_extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_score >= beta {
                singular_extension = -1;
            }
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut scores = std::mem::take(&mut self.score_buffers[ply]);
        let mut tried = std::mem::take(&mut self.quiet_buffers[ply]);
        moves.clear();
        scores.clear();
        tried.clear();
        g.legal_moves(&mut moves);
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|&m| !self.excluded.contains(&G::encode(m)));
        }
        if excluded != 0 {
            moves.retain(|&m| G::encode(m) != excluded);
        }
        let rows = self.continuation_rows(ply);
        let mut best = -INF;
        if moves.is_empty() {
            best = if excluded != 0 {
                alpha
            } else if g.no_moves_loses() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        scores.extend(moves.iter().map(|&m| self.order(g, m, tt_move, ply, rows)));

        let mut best_code = 0;
        let mut bound = Bound::Upper;
        let mut late_pruning = false;
        self.keys.push(key);
        for i in 0..moves.len() {
            // Once late-move pruning has begun, the rest are plain quiet
            // moves, searched only when forcing: no need to sort them.
            if !(late_pruning && scores[i] < 1 << 27) {
                pick_best(&mut moves, &mut scores, i);
            }
            let m = moves[i];
            let code = G::encode(m);
            let tactical = g.is_tactical(m);
            // Checks, and moves that force a capture reply (Mak-hot shots),
            // are never pruned and reduced less.
            let gives_check = g.forcing(m);
            // Quiet moves other than killers are ordered by their history.
            let history = if tactical {
                0
            } else if scores[i] < (1 << 27) {
                scores[i]
            } else {
                self.quiet_score(g, m, rows)
            };
            let base_reduction = self.lmr[(depth as usize).min(63)][i.min(63)];
            // Pruning at low depth, never of the first move nor while
            // every line so far is mated.
            if ply > 0 && quiet && i > 0 && best > -MATE_BOUND && !gives_check {
                if !tactical {
                    // Late-move pruning.
                    if i as i32 >= (3 + depth * depth) / (2 - i32::from(improving)) {
                        late_pruning = scores[i] < 1 << 27;
                        continue;
                    }
                    let lmr_depth = (depth - 1 - base_reduction).max(0);
                    // Futility pruning.
                    if lmr_depth <= 6 && eval + 100 + 100 * lmr_depth <= alpha {
                        continue;
                    }
                    // Moves with a bad history.
                    if lmr_depth <= 3 && history < -3000 * depth {
                        continue;
                    }
                    // Moves that hang the moved piece.
                    if lmr_depth <= 7 && !g.see_ge(m, -25 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 6 && !g.see_ge(m, -100 * depth) {
                    continue;
                }
            }
            let extension = if code == tt_move {
                singular_extension
            } else {
                0
            };
            let new_depth = depth - 1 + extension;
            let child = g.play(m);
            self.frames[ply].piece_to = g.piece_to(m);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= 3 && i > usize::from(pv_node) && (!tactical || scores[i] < 1 << 28) {
                    r = base_reduction;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if tactical {
                        r -= 1;
                    } else {
                        if scores[i] >= (1 << 28) - 1 {
                            r -= 1;
                        }
                        r -= (history / 6000).clamp(-2, 2);
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            if self.stopped {
                self.keys.pop();
                self.buffers[ply] = moves;
                self.score_buffers[ply] = scores;
                self.quiet_buffers[ply] = tried;
                return 0;
            }
            if score > best {
                best = score;
                best_code = code;
                if score > alpha {
                    alpha = score;
                    bound = Bound::Exact;
                    self.update_pv(ply, m);
                    if score >= beta {
                        bound = Bound::Lower;
                        self.reward_quiets(g, m, &tried, depth, ply);
                        break;
                    }
                }
            }
            if !tactical && tried.len() < 64 {
                tried.push(m);
            }
        }
        self.keys.pop();
        self.buffers[ply] = moves;
        self.score_buffers[ply] = scores;
        self.quiet_buffers[ply] = tried;
        if excluded == 0 && (ply != 0 || self.excluded.is_empty()) {
            let eval = (raw_eval != NO_EVAL).then_some(raw_eval);
            self.tt
                .store(key, best_code, to_tt(best, ply), depth, bound, eval);
        }
        best
    }

    fn qsearch(&mut self, g: &G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv[ply].clear();
        if ply > 0 {
            self.nodes += 1;
            if self.check_stop() {
                return 0;
            }
            if g.rule_draw() {
                return 0;
            }
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 2 {
            return static_eval(g);
        }
        let pv_node = beta - alpha > 1;
        let key = g.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && !pv_node
        {
            let s = from_tt(h.score, ply);
            match h.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        // Stand pat before generating moves: a cutoff needs none. `quiet`
        // is exactly when the noisy moves allow standing pat.
        let mut best = -INF;
        let mut raw_eval = None;
        let old_alpha = alpha;
        if g.quiet() {
            let e = hit.and_then(|h| h.eval).unwrap_or_else(|| static_eval(g));
            raw_eval = Some(e);
            let stand = sharpened(e, hit, ply);
            if stand >= beta {
                if hit.is_none() {
                    self.tt
                        .store(key, 0, to_tt(stand, ply), -1, Bound::Lower, raw_eval);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut scores = std::mem::take(&mut self.score_buffers[ply]);
        moves.clear();
        scores.clear();
        let policy = g.noisy_moves(&mut moves);
        match policy {
            StandPat::Allowed => debug_assert!(best > -INF, "quiet() disagrees with noisy_moves"),
            StandPat::Forbidden => {
                if moves.is_empty() {
                    self.buffers[ply] = moves;
                    self.score_buffers[ply] = scores;
                    return if g.no_moves_loses() {
                        -MATE + ply as i32
                    } else {
                        0
                    };
                }
                // Long chains of check evasions: stop at the evaluation.
                if g.in_check() && qply >= 6 {
                    self.buffers[ply] = moves;
                    self.score_buffers[ply] = scores;
                    return static_eval(g);
                }
            }
        }
        let tt_move = hit.map_or(0, |h| h.mv);
        scores.extend(moves.iter().map(|&m| {
            if G::encode(m) == tt_move {
                1 << 20
            } else if g.is_tactical(m) {
                g.tactical_order(m)
            } else {
                -1000
            }
        }));
        let mut best_code = 0;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut scores, i);
            let m = moves[i];
            if policy == StandPat::Allowed && g.losing_capture(m) {
                continue;
            }
            let child = g.play(m);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                self.buffers[ply] = moves;
                self.score_buffers[ply] = scores;
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_code = G::encode(m);
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.score_buffers[ply] = scores;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_code, to_tt(best, ply), -1, bound, raw_eval);
        best
    }
}

/// A static evaluation replaced by the stored score when the stored bound
/// says the true value lies beyond it (mate scores aside).
fn sharpened(eval: i32, hit: Option<crate::tt::Hit>, ply: usize) -> i32 {
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

/// Moves a history score toward `±HISTORY_MAX` by `delta`, less the closer
/// it already is.
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Searches `root` within `limits`, calling `on_info` after each completed
/// iteration (one call per line). `history` holds the keys of the game's
/// earlier positions (oldest first) for repetition detection. The search
/// ends early when `stop` becomes true; a best move is returned whenever a
/// legal move exists.
pub fn search<G: Game>(
    root: &G,
    history: &[u64],
    tt: &mut Tt,
    limits: &Limits,
    opts: &SearchOptions,
    stop: &AtomicBool,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let plan = limits.plan(root.white_to_move());
    tt.new_search();
    let tt: &Tt = tt;
    let helpers_stop = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let mut result = std::thread::scope(|scope| {
        for i in 1..opts.threads.clamp(1, 256) {
            let (helpers_stop, helper_nodes) = (&helpers_stop, &helper_nodes);
            let spawned = std::thread::Builder::new()
                .name(format!("search helper {i}"))
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    helper_search(root, history, tt, i, helpers_stop, helper_nodes)
                });
            // Without a helper the search is merely slower.
            if spawned.is_err() {
                break;
            }
        }
        // Stops the helpers when the main search ends, even by a panic
        // (the scope waits for them).
        struct StopOnDrop<'a>(&'a AtomicBool);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _guard = StopOnDrop(&helpers_stop);
        main_search(
            root,
            history,
            tt,
            limits,
            opts,
            stop,
            &helper_nodes,
            plan,
            on_info,
        )
    });
    // The helpers have finished: count all their nodes.
    result.nodes += helper_nodes.load(Ordering::Relaxed);
    result
}

fn new_searcher<'a, G: Game>(
    tt: &'a Tt,
    stop: &'a AtomicBool,
    history: &[u64],
    hard: Option<u64>,
    node_limit: Option<u64>,
) -> Searcher<'a, G> {
    let mut lmr = vec![[0i32; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.25) as i32;
        }
    }
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
        lmr,
    }
}

/// A lazy-SMP helper: iterative deepening over the shared table until
/// `stop`, odd helpers one ply ahead so the threads spread over depths.
/// Its nodes are added to `nodes` after each iteration.
fn helper_search<G: Game>(
    root: &G,
    history: &[u64],
    tt: &Tt,
    index: usize,
    stop: &AtomicBool,
    nodes: &AtomicU64,
) {
    let mut s = new_searcher::<G>(tt, stop, history, None, None);
    let mut counted = 0;
    let mut depth = 1 + (index % 2) as i32;
    while depth < MAX_PLY as i32 - 8 && !s.stopped {
        s.negamax(root, depth, -INF, INF, 0, true);
        nodes.fetch_add(s.nodes - counted, Ordering::Relaxed);
        counted = s.nodes;
        depth += 1;
    }
}

/// The main thread's search: reports, limits, MultiPV and skill.
#[allow(clippy::too_many_arguments)]
fn main_search<G: Game>(
    root: &G,
    history: &[u64],
    tt: &Tt,
    limits: &Limits,
    opts: &SearchOptions,
    stop: &AtomicBool,
    helper_nodes: &AtomicU64,
    plan: crate::time::Plan,
    mut on_info: impl FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let mut s = new_searcher::<G>(tt, stop, history, plan.hard, limits.nodes);
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves);
    if root_moves.is_empty() {
        let score = if root.no_moves_loses() { -MATE } else { 0 };
        return SearchResult {
            best: None,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
        };
    }
    let multipv = opts.multipv.clamp(1, root_moves.len());
    let lines_wanted = match opts.skill {
        Some(_) => multipv.max(4).min(root_moves.len()),
        None => multipv,
    };
    let mut max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 8)
        .clamp(1, MAX_PLY as u32 - 8);
    if let Some(level) = opts.skill {
        max_depth = max_depth.min(1 + level.min(20) / 2);
    }
    let mut lines: Vec<(Vec<G::Move>, i32)> = Vec::new();
    let mut completed = 0;
    let (mut last_best, mut last_score, mut stable_iterations, mut instability) =
        (None, None, 0, 0.0f64);
    for depth in 1..=max_depth {
        s.may_stop_on_limits = depth > 1;
        s.seldepth = 0;
        s.excluded.clear();
        let mut new_lines: Vec<(Vec<G::Move>, i32)> = Vec::new();
        for idx in 0..lines_wanted {
            let prev = lines.get(idx).map(|l| l.1);
            let (mut alpha, mut beta, mut delta) = match prev {
                Some(p) if depth >= 5 && p.abs() < MATE_BOUND => (p - 30, p + 30, 30),
                _ => (-INF, INF, INF),
            };
            let score = loop {
                let sc = s.negamax(root, depth as i32, alpha, beta, 0, true);
                if s.stopped {
                    break sc;
                }
                if sc <= alpha && alpha > -INF {
                    delta *= 2;
                    alpha = if delta > 400 {
                        -INF
                    } else {
                        (sc - delta).max(-INF)
                    };
                } else if sc >= beta && beta < INF {
                    delta *= 2;
                    beta = if delta > 400 {
                        INF
                    } else {
                        (sc + delta).min(INF)
                    };
                } else {
                    break sc;
                }
            };
            if s.stopped {
                break;
            }
            let pv = s.pv[0].clone();
            let Some(&first) = pv.first() else {
                break;
            };
            s.excluded.push(G::encode(first));
            new_lines.push((pv, score));
        }
        if s.stopped {
            if lines.is_empty() {
                if !new_lines.is_empty() {
                    lines = new_lines;
                } else if !s.pv[0].is_empty() {
                    lines = vec![(s.pv[0].clone(), 0)];
                }
            }
            break;
        }
        new_lines.sort_by_key(|l| std::cmp::Reverse(l.1));
        lines = new_lines;
        completed = depth;
        let time_ms = s.elapsed_ms();
        let hashfull = s.tt.hashfull();
        for (i, (pv, score)) in lines.iter().take(multipv).enumerate() {
            on_info(&SearchInfo {
                depth,
                seldepth: s.seldepth as u32,
                multipv: i as u32 + 1,
                score: Score::from_internal(*score),
                nodes: s.nodes + helper_nodes.load(Ordering::Relaxed),
                nps: (s.nodes + helper_nodes.load(Ordering::Relaxed)) * 1000 / time_ms.max(1),
                hashfull,
                time_ms,
                pv: pv.iter().map(|&m| G::move_text(m)).collect(),
            });
        }
        if s.stop.load(Ordering::Relaxed) {
            break;
        }
        // The soft limit stretches while the best move keeps changing or the
        // score falls, and shrinks once the best move has held for a while.
        let best_now = lines[0].0.first().map(|&m| G::encode(m));
        if best_now == last_best {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
            instability += 1.0;
        }
        last_best = best_now;
        let falling = last_score.map_or(0, |prev: i32| (prev - lines[0].1).clamp(0, 100));
        last_score = Some(lines[0].1);
        if let Some(soft) = plan.soft {
            let stability = if stable_iterations >= 6 { 0.7 } else { 1.0 };
            let scale = (1.0 + 0.3 * instability) * stability * (1.0 + falling as f64 / 200.0);
            if time_ms as f64 >= soft as f64 * scale.clamp(0.5, 2.5) {
                break;
            }
        }
        instability *= 0.6;
        if let Some(n) = limits.node_limit_reached(s.nodes) {
            if n {
                break;
            }
        }
        let top = lines[0].1;
        if !limits.infinite
            && limits.depth.is_none()
            && top.abs() >= MATE_BOUND
            && depth as i32 >= (MATE - top.abs()) + 4
        {
            break;
        }
        if root_moves.len() == 1 && plan.soft.is_some() && depth >= 4 {
            break;
        }
    }
    if lines.is_empty() {
        lines.push((vec![root_moves[0]], 0));
    }
    let mut pick = 0;
    if let Some(level) = opts.skill
        && level < 20
        && lines.len() > 1
    {
        let mut rng = Rng(opts.seed | 1);
        let weakness = 120 - 2 * level.min(20) as i64;
        let top = lines[0].1 as i64;
        let delta = (top - lines[lines.len() - 1].1 as i64).min(100);
        let mut best = i64::MIN;
        for (i, (_, score)) in lines.iter().enumerate() {
            let sc = *score as i64;
            let push =
                (weakness * (top - sc) + delta * (rng.next() % weakness as u64) as i64) / 128;
            if sc + push >= best {
                best = sc + push;
                pick = i;
            }
        }
    }
    let (pv, score) = &lines[pick];
    SearchResult {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score: *score,
        depth: completed,
        nodes: s.nodes,
    }
}

/// Move ordering by selection: swaps the best-scored of `moves[i..]` (and
/// its score) into place `i`, so only the moves actually searched get sorted.
fn pick_best<M>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
