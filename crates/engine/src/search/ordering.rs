//! Move ordering: the tiers a move is sorted into, the history tables that
//! order quiet moves within the lowest tier, and their update rule.
//!
//! A move's ordering score is its tier plus, for tactical moves, the
//! game's MVV-LVA order. Quiet moves other than the stored move and the
//! killers score their history alone, below every tier.

use super::params::HISTORY_MAX;
use super::state::Searcher;
use crate::game::Game;

/// The stored (transposition-table) move: searched first.
pub(super) const TIER_TT_MOVE: i32 = 1 << 30;
/// Tactical moves that do not lose material by exchange.
pub(super) const TIER_GOOD_TACTICAL: i32 = 1 << 29;
/// The newest killer move of the ply.
pub(super) const TIER_KILLER_1: i32 = 1 << 28;
/// The older killer move of the ply, just below the newest.
pub(super) const TIER_KILLER_2: i32 = TIER_KILLER_1 - 1;
/// Tactical moves that lose material by exchange.
pub(super) const TIER_BAD_TACTICAL: i32 = 1 << 27;

/// In quiescence: the stored move first.
pub(super) const QS_TIER_TT_MOVE: i32 = 1 << 20;
/// In quiescence: quiet moves (check evasions) after the tactical ones.
pub(super) const QS_TIER_QUIET: i32 = -1000;

/// Whether an ordering score is a quiet move's history alone (below every
/// tier).
#[inline]
pub(super) fn is_history_score(score: i32) -> bool {
    score < TIER_BAD_TACTICAL
}

/// Whether an ordering score ranks below both killers: for a tactical
/// move, that it loses material by exchange.
#[inline]
pub(super) fn below_killers(score: i32) -> bool {
    score < TIER_KILLER_1
}

/// Whether an ordering score ranks with the killers or above: for a quiet
/// move, that it is the stored move or a killer.
#[inline]
pub(super) fn killer_or_above(score: i32) -> bool {
    score >= TIER_KILLER_2
}

/// Moves a history score toward `±HISTORY_MAX` by `delta`, less the closer
/// it already is.
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

/// Move ordering by selection: swaps the best-scored of `moves[i..]` (and
/// its score) into place `i`, so only the moves actually searched get sorted.
pub(super) fn pick_best<M>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

impl<G: Game> Searcher<'_, G> {
    /// The continuation-history rows of the moves one and two plies before
    /// `ply`.
    pub(super) fn continuation_rows(&self, ply: usize) -> [usize; 2] {
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
    pub(super) fn quiet_score(&self, g: &G, m: G::Move, rows: [usize; 2]) -> i32 {
        let pt = g.piece_to(m);
        self.history[G::history_index(m)]
            + i32::from(self.continuation[rows[0] + pt])
            + i32::from(self.continuation[rows[1] + pt])
    }

    /// The ordering score of `m` in the main search: its tier, or its
    /// history for a plain quiet move.
    pub(super) fn order(
        &self,
        g: &G,
        m: G::Move,
        tt_move: u64,
        ply: usize,
        rows: [usize; 2],
    ) -> i32 {
        let code = G::encode(m);
        if code == tt_move {
            return TIER_TT_MOVE;
        }
        if g.is_tactical(m) {
            if g.losing_capture(m) {
                return TIER_BAD_TACTICAL + g.tactical_order(m);
            }
            return TIER_GOOD_TACTICAL + g.tactical_order(m);
        }
        if self.killers[ply][0] == code {
            return TIER_KILLER_1;
        }
        if self.killers[ply][1] == code {
            return TIER_KILLER_2;
        }
        self.quiet_score(g, m, rows)
    }

    /// Rewards the quiet move that caused a cutoff and penalises the quiet
    /// moves searched before it.
    pub(super) fn reward_quiets(
        &mut self,
        g: &G,
        best: G::Move,
        tried: &[G::Move],
        depth: i32,
        ply: usize,
    ) {
        let bonus = self.params.history_bonus(depth);
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
}
