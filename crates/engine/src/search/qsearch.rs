//! Quiescence: only the noisy moves (captures, promotions; every move
//! when in check or when a capture is compulsory), until the position is
//! quiet enough to stand pat on its static evaluation.

use super::ordering::{QS_TIER_QUIET, QS_TIER_TT_MOVE, pick_best};
use super::params::QS_MAX_EVASION_PLIES;
use super::score::{DECIDED_BOUND, INF, MATE, MAX_PLY, sharpened, static_eval, to_tt, tt_cutoff};
use super::state::Searcher;
use crate::game::{Game, StandPat};
use crate::tt::Bound;

impl<G: Game> Searcher<'_, G> {
    /// The quiescence score of `g` within (`alpha`, `beta`); `qply` counts
    /// the quiescence plies so far.
    pub(super) fn qsearch(
        &mut self,
        g: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
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
            && let Some(s) = tt_cutoff(h, ply, alpha, beta)
        {
            return s;
        }
        // Stand pat before generating moves: a cutoff needs none. `quiet`
        // is exactly when the noisy moves allow standing pat.
        let mut best = -INF;
        let mut stand = -INF;
        let mut raw_eval = None;
        let old_alpha = alpha;
        if g.quiet() {
            let e = hit.and_then(|h| h.eval).unwrap_or_else(|| static_eval(g));
            raw_eval = Some(e);
            let corrected = self.corrected(g, self.correction_key(g), e);
            stand = sharpened(corrected, hit, ply);
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
        // Captures that cannot lift the stand-pat score near alpha even
        // when they win their exchange are skipped (`QSFutility`, the
        // margin; 0 skips none), unless they give check.
        let futility_base = if futility_applies(self.params.qs_futility, stand) {
            stand + self.params.qs_futility
        } else {
            INF
        };
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
                if g.in_check() && qply >= QS_MAX_EVASION_PLIES {
                    self.buffers[ply] = moves;
                    self.score_buffers[ply] = scores;
                    return static_eval(g);
                }
            }
        }
        let tt_move = hit.map_or(0, |h| h.mv);
        scores.extend(moves.iter().map(|&m| {
            if G::encode(m) == tt_move {
                QS_TIER_TT_MOVE
            } else if g.is_tactical(m) {
                g.tactical_order(m)
            } else {
                QS_TIER_QUIET
            }
        }));
        let mut best_code = 0;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut scores, i);
            let m = moves[i];
            if policy == StandPat::Allowed && g.losing_capture(m) {
                continue;
            }
            if futility_base <= alpha
                && policy == StandPat::Allowed
                && !g.see_ge(m, alpha - futility_base + 1)
                && !g.forcing(m)
            {
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

/// Whether quiescence's futility pruning applies: a margin is set and the
/// side to move stood pat on a score that is not a mate's.
fn futility_applies(margin: i32, stand: i32) -> bool {
    margin > 0 && stand.abs() < DECIDED_BOUND
}
