//! Every margin, reduction and pruning threshold of the search, in one
//! place. Depths are in plies; margins in the evaluation's units
//! (centipawns, Mak-hot centi-men). A change here changes the engine's
//! play: check `thaiboard bench` node counts move only when meant to.

use super::score::MAX_PLY;

/// The bound of every history score (from-to and continuation).
pub(super) const HISTORY_MAX: i32 = 16384;

/// The stop flag and the clock are polled once per this many nodes (a
/// power of two).
pub(super) const STOP_POLL_NODES: u64 = 512;

/// Checks are extended by one ply only this far from the root, so check
/// chains cannot run the line past [`MAX_PLY`].
pub(super) const CHECK_EXTENSION_MAX_PLY: usize = MAX_PLY / 2;

// Step 3b. Endgame tables.

/// The depth a table's exact value is stored with in the transposition
/// table: deeper than any search reaches, since no search improves on it.
pub(super) const TABLE_HIT_DEPTH: i32 = MAX_PLY as i32 - 1;

// Step 5. Pruning before the moves.

/// Reverse futility pruning applies up to this depth.
pub(super) const REVERSE_FUTILITY_MAX_DEPTH: i32 = 6;

/// How far the static evaluation must exceed beta for reverse futility
/// pruning to return it: less when the position is improving.
pub(super) fn reverse_futility_margin(depth: i32, improving: bool) -> i32 {
    100 * (depth - i32::from(improving))
}

/// Razoring applies up to this depth.
pub(super) const RAZOR_MAX_DEPTH: i32 = 2;

/// How far the static evaluation must fall below alpha for razoring to
/// try quiescence instead of a full search.
pub(super) fn razor_margin(depth: i32) -> i32 {
    250 * depth + 150
}

/// Null-move pruning needs at least this depth.
pub(super) const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// How far below beta the unsharpened static evaluation may be for a null
/// move to be tried.
pub(super) fn null_move_eval_margin(depth: i32) -> i32 {
    20 * depth
}

/// How much shallower the null move's reply is searched: more at depth and
/// the further the evaluation is above beta.
pub(super) fn null_move_reduction(depth: i32, eval_above_beta: i32) -> i32 {
    3 + depth / 4 + (eval_above_beta / 200).min(3)
}

// Step 6. Internal iterative reduction.

/// Nodes without a stored move lose a ply from this depth on.
pub(super) const IIR_MIN_DEPTH: i32 = 4;

// Step 7. Singular extension.

/// Singular extension is tried from this depth on.
pub(super) const SINGULAR_MIN_DEPTH: i32 = 7;

/// The stored entry may be this many plies shallower than the node and
/// still be trusted for singular extension.
pub(super) const SINGULAR_TT_DEPTH_SLACK: i32 = 3;

/// How far below the stored score every other move must stay for the
/// stored move to count as singular.
pub(super) fn singular_margin(depth: i32) -> i32 {
    2 * depth
}

/// The depth of the search of the other moves that decides singularity.
pub(super) fn singular_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}

// Step 9. Pruning inside the move loop.

/// Late-move pruning: quiet moves from this index on are skipped (fewer
/// when the position is not improving).
pub(super) fn late_move_count(depth: i32, improving: bool) -> i32 {
    (3 + depth * depth) / (2 - i32::from(improving))
}

/// Futility pruning of quiet moves applies up to this reduced depth.
pub(super) const FUTILITY_MAX_DEPTH: i32 = 6;

/// How far above the static evaluation alpha may be for a quiet move to be
/// searched at the reduced depth `lmr_depth`.
pub(super) fn futility_margin(lmr_depth: i32) -> i32 {
    100 + 100 * lmr_depth
}

/// Quiet moves with a bad history are pruned up to this reduced depth.
pub(super) const HISTORY_PRUNING_MAX_DEPTH: i32 = 3;

/// The history score below which a quiet move is pruned at `depth`.
pub(super) fn history_pruning_threshold(depth: i32) -> i32 {
    -3000 * depth
}

/// Quiet moves that lose material by exchange are pruned up to this
/// reduced depth.
pub(super) const SEE_QUIET_MAX_DEPTH: i32 = 7;

/// The least exchange result a quiet move must keep at the reduced depth
/// `lmr_depth`.
pub(super) fn see_quiet_threshold(lmr_depth: i32) -> i32 {
    -25 * lmr_depth * lmr_depth
}

/// Tactical moves that lose material by exchange are pruned up to this
/// depth.
pub(super) const SEE_TACTICAL_MAX_DEPTH: i32 = 6;

/// The least exchange result a tactical move must keep at `depth`.
pub(super) fn see_tactical_threshold(depth: i32) -> i32 {
    -100 * depth
}

// Late-move reductions.

/// Late moves are reduced from this depth on.
pub(super) const LMR_MIN_DEPTH: i32 = 3;

/// The base late-move reduction by depth and move index (both capped at
/// 63): `0.5 + ln(depth) ln(index) / 2.25`, rounded down.
pub(super) fn lmr_table() -> Vec<[i32; 64]> {
    let mut lmr = vec![[0i32; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.25) as i32;
        }
    }
    lmr
}

/// One ply of reduction less per this much history, up to
/// [`LMR_HISTORY_MAX_PLIES`] either way.
pub(super) const LMR_HISTORY_DIVISOR: i32 = 6000;

/// The most plies history moves a reduction, either way.
pub(super) const LMR_HISTORY_MAX_PLIES: i32 = 2;

// History.

/// The history bonus of the quiet move that caused a cutoff at `depth`
/// (and the malus of the quiet moves tried before it).
pub(super) fn history_bonus(depth: i32) -> i32 {
    (170 * depth - 120).clamp(0, 1600)
}

/// At most this many quiet moves tried before a cutoff get the malus.
pub(super) const MAX_TRIED_QUIETS: usize = 64;

// Quiescence.

/// Check evasions in quiescence stop at the evaluation after this many
/// quiescence plies.
pub(super) const QS_MAX_EVASION_PLIES: u32 = 6;

// Root: aspiration windows and time.

/// Aspiration windows start from this iteration.
pub(super) const ASPIRATION_MIN_DEPTH: u32 = 5;

/// The first aspiration window: this far either side of the last score.
pub(super) const ASPIRATION_DELTA: i32 = 30;

/// A window side that fails is doubled; past this width it opens fully.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 400;

/// After this many iterations with the same best move the soft time limit
/// shrinks by [`STABLE_TIME_FACTOR`].
pub(super) const STABLE_ITERATIONS: u32 = 6;

/// The soft time limit's factor once the best move is stable.
pub(super) const STABLE_TIME_FACTOR: f64 = 0.7;

/// The soft time limit grows by this share per (decaying) change of the
/// best move.
pub(super) const INSTABILITY_TIME_SHARE: f64 = 0.3;

/// The share of the best-move instability kept from one iteration to the
/// next.
pub(super) const INSTABILITY_DECAY: f64 = 0.6;

/// A falling score counts up to this drop from the last iteration ...
pub(super) const FALLING_SCORE_MAX: i32 = 100;

/// ... and stretches the soft time limit by the drop over this.
pub(super) const FALLING_SCORE_DIVISOR: f64 = 200.0;

/// The soft time limit's factor stays within these bounds.
pub(super) const SOFT_TIME_SCALE: (f64, f64) = (0.5, 2.5);

/// With a single legal move, a timed search stops at this depth.
pub(super) const SINGLE_MOVE_DEPTH: u32 = 4;
