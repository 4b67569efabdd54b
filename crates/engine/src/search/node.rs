//! The main search of one node, [`Searcher::negamax`], as numbered steps
//! (in the manner of Stockfish's `search()`), with the pruning before the
//! moves, the singular extension, the pruning inside the move loop and the
//! late-move reduction as helpers. Every margin comes from
//! [`super::params`]; the ordering tiers from [`super::ordering`].

use super::ordering::{below_killers, is_history_score, killer_or_above, pick_best};
use super::params::*;
use super::score::{
    DECIDED_BOUND, INF, MATE, MAX_PLY, NO_EVAL, from_tt, sharpened, static_eval, table_score,
    to_tt, tt_cutoff,
};
use super::state::Searcher;
use crate::game::Game;
use crate::tt::{Bound, Hit};

/// What the steps of one node share once its static evaluation is known.
struct Node {
    ply: usize,
    /// The remaining depth (less one after internal iterative reduction).
    depth: i32,
    pv_node: bool,
    /// A null-window node expected to fail high (Stockfish's `cutNode`):
    /// its late moves are reduced more.
    cut_node: bool,
    in_check: bool,
    /// The side to move may stand pat (not in check, no compulsory
    /// capture): only then is there a static evaluation to prune on.
    quiet: bool,
    /// The static evaluation is above the one two plies before.
    improving: bool,
    /// The corrected static evaluation sharpened by the stored score.
    eval: i32,
    /// The static evaluation as computed (`NO_EVAL` when not quiet): what
    /// the transposition table keeps.
    raw_eval: i32,
    /// The static evaluation corrected by the correction history
    /// (`NO_EVAL` when not quiet): what pruning and `improving` read.
    corrected_eval: i32,
    key: u64,
    hit: Option<Hit>,
    /// The stored move's code (0 for none).
    tt_move: u64,
    /// The move this node skips (singular-extension search), as a code.
    excluded: u64,
    /// The stored move is legal here and tactical (known once the moves are
    /// generated, and only looked for when `TTCaptureReduction` is on).
    tt_capture: bool,
}

impl Node {
    /// The static evaluation the transposition table keeps for this node
    /// (none when it was not quiet).
    fn stored_eval(&self) -> Option<i32> {
        (self.raw_eval != NO_EVAL).then_some(self.raw_eval)
    }
}

/// What the move loop's pruning decides for one move.
enum Pruning {
    /// Search the move.
    Search,
    /// Skip the move.
    Skip,
    /// Skip the move by late-move pruning: every later plain quiet move
    /// will be skipped too.
    LateMove,
}

impl<G: Game> Searcher<'_, G> {
    /// The score of `g` searched `depth` plies deep within (`alpha`,
    /// `beta`), from the side to move's view. `null_ok` is false right
    /// after a null move and in the singular-extension search; `cut_node`
    /// says the node is expected to fail high (never in a PV node: the
    /// children of a cut node's first move are expected all-nodes, of a
    /// reduced late move cut nodes again).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        g: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Node entry: stop, draws by rule or repetition, the
        // deepest ply, mate-distance pruning.
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

        // Step 2. Check extension; at depth 0, quiescence.
        let in_check = g.in_check();
        if in_check && ply < CHECK_EXTENSION_MAX_PLY {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(g, alpha, beta, ply, 0);
        }

        // Step 3. Transposition table: a deep enough stored bound ends a
        // non-PV node.
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
            && let Some(s) = tt_cutoff(h, ply, alpha, beta)
        {
            return s;
        }

        // Step 3b. Endgame tables: below the root, a position the tables
        // hold has its exact value (with the game's counts), kept in the
        // transposition table as deep as it can be stored. A position probed
        // before by this thread is answered from its probe cache.
        if ply > 0
            && excluded == 0
            && let Some(tables) = self.tables
            && tables.covers(g)
            && let Some(value) = self
                .probe_cache
                .get_or_probe(g.table_key(), || tables.probe(g))
        {
            self.table_hits += 1;
            let score = table_score(value, ply);
            self.tt.store(
                key,
                tt_move,
                to_tt(score, ply),
                TABLE_HIT_DEPTH,
                Bound::Exact,
                None,
            );
            return score;
        }

        // Step 4. Static evaluation (from the table when stored there),
        // corrected by what the search has learnt of its error in this
        // structure, sharpened by a stored score whose bound points past
        // it, and whether the position improves on two plies before.
        let quiet = g.quiet();
        let correction_key = if quiet { self.correction_key(g) } else { None };
        let (raw_eval, corrected_eval) = if !quiet {
            (NO_EVAL, NO_EVAL)
        } else {
            let e = match hit.and_then(|h| h.eval) {
                Some(e) => e,
                None => static_eval(g),
            };
            (e, self.corrected(g, correction_key, e))
        };
        let eval = if quiet {
            sharpened(corrected_eval, hit, ply)
        } else {
            NO_EVAL
        };
        self.frames[ply].eval = corrected_eval;
        self.frames[ply + 1].excluded = 0;
        let improving = quiet
            && ply >= 2
            && self.frames[ply - 2].eval != NO_EVAL
            && corrected_eval > self.frames[ply - 2].eval;
        let mut node = Node {
            ply,
            depth,
            pv_node,
            cut_node: cut_node && !pv_node,
            in_check,
            quiet,
            improving,
            eval,
            raw_eval,
            corrected_eval,
            key,
            hit,
            tt_move,
            excluded,
            tt_capture: false,
        };

        // Step 5. Pruning before the moves: reverse futility, razoring,
        // null move, ProbCut.
        if let Some(s) = self.prune_before_moves(g, &node, alpha, beta, null_ok) {
            return s;
        }

        // Step 6. Internal iterative reduction: without a stored move the
        // node is probably less important than it looks.
        if tt_move == 0 && node.depth >= IIR_MIN_DEPTH && excluded == 0 {
            node.depth -= 1;
        }

        // Step 7. Singular extension of the stored move (or multi-cut).
        let singular_extension = match self.singular_extension(g, &node, beta) {
            Ok(extension) => extension,
            Err(score) => return score,
        };

        // Step 8. Generate and order the moves (at the root, without the
        // lines MultiPV has already reported).
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut scores = std::mem::take(&mut self.score_buffers[ply]);
        let mut tried = std::mem::take(&mut self.quiet_buffers[ply]);
        let mut tried_tactical = std::mem::take(&mut self.tactical_buffers[ply]);
        moves.clear();
        scores.clear();
        tried.clear();
        tried_tactical.clear();
        g.legal_moves(&mut moves);
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|&m| !self.excluded.contains(&G::encode(m)));
        }
        if ply == 0 && !self.root_only.is_empty() {
            moves.retain(|&m| self.root_only.contains(&G::encode(m)));
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
        // Only `TTCaptureReduction` reads it: no scan of the moves without.
        node.tt_capture = self.params.tt_capture_reduction > 0
            && tt_move != 0
            && moves
                .iter()
                .any(|&m| G::encode(m) == tt_move && g.is_tactical(m));

        // Step 9. The move loop.
        let depth = node.depth;
        let mut best_code = 0;
        let mut best_tactical = false;
        let mut bound = Bound::Upper;
        let mut late_pruning = false;
        self.keys.push(key);
        for i in 0..moves.len() {
            // Once late-move pruning has begun, the rest are plain quiet
            // moves, searched only when forcing: no need to sort them.
            if !(late_pruning && is_history_score(scores[i])) {
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
            } else if is_history_score(scores[i]) {
                scores[i]
            } else {
                self.quiet_score(g, m, rows)
            };
            let base_reduction = self.lmr[(depth as usize).min(63)][i.min(63)];

            // Step 9a. Pruning at low depth.
            if ply > 0 && quiet && i > 0 && best > -DECIDED_BOUND && !gives_check {
                match self.prune_move(g, &node, m, i, tactical, history, base_reduction, alpha) {
                    Pruning::Search => {}
                    Pruning::Skip => continue,
                    Pruning::LateMove => {
                        late_pruning = is_history_score(scores[i]);
                        continue;
                    }
                }
            }

            // Step 9b. Extension, then the child: the first move with the
            // full window, later ones with a null window (reduced first,
            // see Step 9c) and searched again when they beat alpha.
            let extension = if code == tt_move {
                singular_extension
            } else {
                0
            };
            let mut new_depth = depth - 1 + extension;
            let child = g.play(m);
            self.frames[ply].piece_to = g.piece_to(m);
            let mut score;
            if i == 0 {
                let child_cut = !node.pv_node && !node.cut_node;
                score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, child_cut);
            } else {
                // Step 9c. Late-move reduction.
                let r = self.reduction(
                    &node,
                    i,
                    scores[i],
                    tactical,
                    gives_check,
                    history,
                    base_reduction,
                    new_depth,
                );
                // A reduced move is expected to fail low here: its child, to
                // fail high. Searched again at full depth, the child is what
                // this node's first child would be.
                let reduced_cut = r > 0 || !node.cut_node;
                let reduced = new_depth - r;
                score = -self.negamax(
                    &child,
                    reduced,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    reduced_cut,
                );
                if score > alpha && r > 0 {
                    // Deeper when it beat the best by far, shallower when
                    // barely (`LMRResearchMargin`); the PV search below
                    // keeps the depth chosen here.
                    new_depth = self.params.research_depth(new_depth, reduced, score, best);
                    if new_depth > reduced {
                        score = -self.negamax(
                            &child,
                            new_depth,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            true,
                            !node.cut_node,
                        );
                    }
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, false);
                }
            }
            if self.stopped {
                self.keys.pop();
                self.buffers[ply] = moves;
                self.score_buffers[ply] = scores;
                self.quiet_buffers[ply] = tried;
                self.tactical_buffers[ply] = tried_tactical;
                return 0;
            }

            // Step 9d. A new best move; at a cutoff, reward the quiet move
            // and penalise the moves tried before it.
            if score > best {
                best = score;
                best_code = code;
                best_tactical = tactical;
                if score > alpha {
                    alpha = score;
                    bound = Bound::Exact;
                    self.update_pv(ply, m);
                    if score >= beta {
                        bound = Bound::Lower;
                        self.reward_cutoff(g, m, &tried, &tried_tactical, depth, ply);
                        break;
                    }
                }
            }
            if !tactical && tried.len() < MAX_TRIED_QUIETS {
                tried.push(m);
            } else if tactical && tried_tactical.len() < MAX_TRIED_QUIETS {
                tried_tactical.push(m);
            }
        }
        self.keys.pop();
        self.buffers[ply] = moves;
        self.score_buffers[ply] = scores;
        self.quiet_buffers[ply] = tried;
        self.tactical_buffers[ply] = tried_tactical;

        // Step 10. Store the result (not for a partial move list: the
        // singular search, or a root with MultiPV lines excluded or only
        // some moves searched).
        if excluded == 0 && (ply != 0 || (self.excluded.is_empty() && self.root_only.is_empty())) {
            self.tt.store(
                key,
                best_code,
                to_tt(best, ply),
                depth,
                bound,
                node.stored_eval(),
            );
        }

        // Step 11. Correction history: learn how far the evaluation missed,
        // unless a capture or promotion decided the node (the evaluation
        // could not see it), the score is decided, or the bound says nothing
        // about the evaluation (a lower bound below it, an upper one above).
        if excluded == 0
            && let Some(structure) = correction_key
            && best.abs() < DECIDED_BOUND
            && !(bound != Bound::Upper && best_tactical)
            && !(bound == Bound::Lower && best <= corrected_eval)
            && !(bound == Bound::Upper && best >= corrected_eval)
        {
            self.correction
                .learn(g.white_to_move(), structure, best - corrected_eval, depth);
        }
        best
    }

    /// Step 5: the pruning of a whole non-PV node before its moves are
    /// generated. `Some` is the node's score.
    fn prune_before_moves(
        &mut self,
        g: &G,
        n: &Node,
        alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> Option<i32> {
        if n.pv_node || !n.quiet || n.ply == 0 || n.excluded != 0 || beta.abs() >= DECIDED_BOUND {
            return None;
        }
        let (depth, eval, ply) = (n.depth, n.eval, n.ply);
        // Reverse futility pruning: far enough above beta, return.
        if depth <= REVERSE_FUTILITY_MAX_DEPTH
            && eval - self.params.reverse_futility_margin(depth, n.improving) >= beta
        {
            return Some(eval);
        }
        // Razoring: hopeless positions at low depth go to quiescence.
        if depth <= RAZOR_MAX_DEPTH && eval + self.params.razor_margin(depth) <= alpha {
            let s = self.qsearch(g, alpha, alpha + 1, ply, 0);
            if s <= alpha {
                return Some(s);
            }
        }
        // Null-move pruning, only where zugzwang is unlikely.
        if null_ok
            && depth >= NULL_MOVE_MIN_DEPTH
            && eval >= beta
            && n.corrected_eval >= beta - self.params.null_move_eval_margin(depth)
            && g.null_move_safe()
            && let Some(child) = g.play_null()
        {
            let r = self.params.null_move_reduction(depth, eval - beta);
            self.frames[ply].piece_to = G::PIECE_TO;
            self.keys.push(n.key);
            let s = -self.negamax(
                &child,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                !n.cut_node,
            );
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                // A mate or table win found after passing is not proven.
                return Some(if s >= DECIDED_BOUND { beta } else { s });
            }
        }
        self.probcut(g, n, beta)
    }

    /// Step 5, ProbCut: a capture or promotion that beats beta by a margin
    /// (`ProbCutMargin`; 0 tries none) in quiescence, then in a search
    /// [`PROBCUT_REDUCTION`] plies shallower, very probably beats beta in
    /// the full search, and the node fails high at once. Not where a stored
    /// score deep enough already says the capture will not do it.
    fn probcut(&mut self, g: &G, n: &Node, beta: i32) -> Option<i32> {
        let (depth, ply) = (n.depth, n.ply);
        let margin = self.params.probcut_margin;
        let probcut_beta = beta + margin;
        if margin == 0 || depth < PROBCUT_MIN_DEPTH || probcut_beta >= DECIDED_BOUND {
            return None;
        }
        if let Some(h) = n.hit
            && h.depth > depth - PROBCUT_REDUCTION
            && from_tt(h.score, ply) < probcut_beta
        {
            return None;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        g.noisy_moves(&mut moves);
        moves.sort_by_key(|&m| -g.tactical_order(m));
        let mut result = None;
        self.keys.push(n.key);
        for &m in &moves {
            if !g.is_tactical(m) || !g.see_ge(m, probcut_beta - n.eval) {
                continue;
            }
            let child = g.play(m);
            self.frames[ply].piece_to = g.piece_to(m);
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut s = -self.qsearch(&child, window.0, window.1, ply + 1, 0);
            if s >= probcut_beta && !self.stopped {
                let reduced = depth - PROBCUT_REDUCTION;
                s = -self.negamax(
                    &child,
                    reduced,
                    window.0,
                    window.1,
                    ply + 1,
                    true,
                    !n.cut_node,
                );
            }
            if self.stopped {
                result = Some(0);
                break;
            }
            if s >= probcut_beta {
                let stored = depth - PROBCUT_REDUCTION + 1;
                self.tt.store(
                    n.key,
                    G::encode(m),
                    to_tt(s, ply),
                    stored,
                    Bound::Lower,
                    n.stored_eval(),
                );
                result = Some(s - margin);
                break;
            }
        }
        self.keys.pop();
        self.buffers[ply] = moves;
        result
    }

    /// Step 7: when the stored move is much better than every other move,
    /// it is searched a ply deeper (`Ok(1)`); when even the others beat
    /// beta, the node fails high at once (multi-cut, `Err` with the score);
    /// when only the stored score beats beta, the stored move is searched a
    /// ply shallower (`Ok(-1)`).
    fn singular_extension(&mut self, g: &G, n: &Node, beta: i32) -> Result<i32, i32> {
        let (depth, ply) = (n.depth, n.ply);
        let Some(h) = n.hit else {
            return Ok(0);
        };
        if !(ply > 0
            && depth >= SINGULAR_MIN_DEPTH
            && n.tt_move != 0
            && h.bound != Bound::Upper
            && h.depth >= depth - SINGULAR_TT_DEPTH_SLACK
            && from_tt(h.score, ply).abs() < DECIDED_BOUND)
        {
            return Ok(0);
        }
        let tt_score = from_tt(h.score, ply);
        let singular_beta = tt_score - self.params.singular_margin(depth);
        self.frames[ply].excluded = n.tt_move;
        let s = self.negamax(
            g,
            singular_depth(depth),
            singular_beta - 1,
            singular_beta,
            ply,
            false,
            n.cut_node,
        );
        // The excluded search reused this ply's frame: restore it.
        self.frames[ply].excluded = 0;
        self.frames[ply].eval = n.corrected_eval;
        self.frames[ply + 1].excluded = 0;
        if self.stopped {
            return Err(0);
        }
        if s < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Step 9a: whether move number `i` (not the first, not forcing) is
    /// pruned at low depth: late-move, futility, history and exchange
    /// pruning of quiet moves, exchange pruning of tactical ones.
    #[allow(clippy::too_many_arguments)]
    fn prune_move(
        &self,
        g: &G,
        n: &Node,
        m: G::Move,
        i: usize,
        tactical: bool,
        history: i32,
        base_reduction: i32,
        alpha: i32,
    ) -> Pruning {
        let depth = n.depth;
        if tactical {
            if depth <= SEE_TACTICAL_MAX_DEPTH
                && !g.see_ge(m, self.params.see_tactical_threshold(depth))
            {
                return Pruning::Skip;
            }
            return Pruning::Search;
        }
        if i as i32 >= self.params.late_move_count(depth, n.improving) {
            return Pruning::LateMove;
        }
        let lmr_depth = (depth - 1 - base_reduction).max(0);
        if lmr_depth <= FUTILITY_MAX_DEPTH
            && n.eval + self.params.futility_margin(lmr_depth) <= alpha
        {
            return Pruning::Skip;
        }
        if lmr_depth <= HISTORY_PRUNING_MAX_DEPTH
            && history < self.params.history_pruning_threshold(depth)
        {
            return Pruning::Skip;
        }
        // Moves that hang the moved piece.
        if lmr_depth <= SEE_QUIET_MAX_DEPTH
            && !g.see_ge(m, self.params.see_quiet_threshold(lmr_depth))
        {
            return Pruning::Skip;
        }
        Pruning::Search
    }

    /// Step 9c: how many plies shallower move number `i` (ordering score
    /// `score`) is first searched: the base reduction, more when not
    /// improving, in cut nodes and for quiet moves after a tactical stored
    /// move, less in PV nodes, for checks and evasions, for tactical
    /// moves and killers, and by history.
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        n: &Node,
        i: usize,
        score: i32,
        tactical: bool,
        gives_check: bool,
        history: i32,
        base_reduction: i32,
        new_depth: i32,
    ) -> i32 {
        // Good captures and the stored move are never reduced, nor the
        // first move after a PV node's first.
        if n.depth < LMR_MIN_DEPTH
            || i <= usize::from(n.pv_node)
            || (tactical && !below_killers(score))
        {
            return 0;
        }
        let mut r = base_reduction;
        if n.pv_node {
            r -= 1;
        }
        if n.cut_node {
            r += self.params.cut_node_reduction;
        }
        if !n.improving {
            r += 1;
        }
        if n.tt_capture && !tactical {
            r += self.params.tt_capture_reduction;
        }
        if gives_check || n.in_check {
            r -= 1;
        }
        if tactical {
            r -= 1;
        } else {
            if killer_or_above(score) {
                r -= 1;
            }
            r -= (history / self.params.lmr_history.max(1))
                .clamp(-LMR_HISTORY_MAX_PLIES, LMR_HISTORY_MAX_PLIES);
        }
        r.clamp(0, (new_depth - 1).max(0))
    }
}
