//! Move ordering: the tiers a move is sorted into, the history tables that
//! order quiet moves within the lowest tier, and their update rule.
//!
//! A move's ordering score is its tier plus, for tactical moves, the
//! game's MVV-LVA order. Quiet moves other than the stored move and the
//! killers score their history alone, below every tier.

use super::params::HISTORY_MAX;
use super::state::Searcher;
use crate::game::{CAPTURE_KINDS, Game};

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

/// A tactical move's MVV-LVA order is raised by this before it is scaled,
/// so every tactical move's place in its tier is positive.
const TACTICAL_ORDER_OFFSET: i32 = 32;
/// One point of MVV-LVA order is worth this much of a tactical move's
/// place in its tier (a step of the captured piece, 16 points, is worth a
/// full capture history at `CaptureHistory` 200).
const TACTICAL_ORDER_STEP: i32 = 1024;

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

    /// The capture-history index of the tactical move `m`: its moving
    /// piece, destination and captured kind.
    fn capture_index(g: &G, m: G::Move) -> usize {
        g.piece_to(m) * CAPTURE_KINDS + g.victim(m)
    }

    /// A tactical move's place within its tier: its MVV-LVA order first,
    /// then its capture history as much as `CaptureHistory` weighs it.
    /// Always positive and far below the next tier.
    fn tactical_rank(&self, g: &G, m: G::Move) -> i32 {
        let order = (g.tactical_order(m) + TACTICAL_ORDER_OFFSET) * TACTICAL_ORDER_STEP;
        let weight = self.params.capture_history;
        if weight == 0 {
            return order;
        }
        order + self.capture_history[Self::capture_index(g, m)] * weight / 200
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
            let rank = self.tactical_rank(g, m);
            if g.losing_capture(m) {
                return TIER_BAD_TACTICAL + rank;
            }
            return TIER_GOOD_TACTICAL + rank;
        }
        if self.killers[ply][0] == code {
            return TIER_KILLER_1;
        }
        if self.killers[ply][1] == code {
            return TIER_KILLER_2;
        }
        self.quiet_score(g, m, rows)
    }

    /// Rewards the move that caused a cutoff (a quiet move in the history
    /// tables and as a killer, a tactical one in the capture history) and
    /// penalises the quiet and tactical moves searched before it.
    pub(super) fn reward_cutoff(
        &mut self,
        g: &G,
        best: G::Move,
        tried: &[G::Move],
        tried_tactical: &[G::Move],
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
        } else {
            gravity(
                &mut self.capture_history[Self::capture_index(g, best)],
                bonus,
            );
        }
        for &m in tried {
            apply(self, m, -bonus);
        }
        for &m in tried_tactical {
            gravity(&mut self.capture_history[Self::capture_index(g, m)], -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::memory::ThreadMemory;
    use super::super::params::SearchParams;
    use super::super::state::new_searcher;
    use super::*;
    use crate::MakrukGame;
    use crate::tt::Tt;
    use std::sync::atomic::AtomicBool;

    /// The ruea on c5 takes either of two loose bia: equal by MVV-LVA.
    fn two_equal_captures() -> (MakrukGame, makruk::Move, makruk::Move) {
        let fen = "4k3/8/8/p1R1p3/8/8/8/4K3 w - - 0 1";
        let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
        let find = |uci: &str| {
            pos.legal_moves()
                .iter()
                .find(|m| m.to_uci() == uci)
                .copied()
                .unwrap()
        };
        let (a, e) = (find("c5a5"), find("c5e5"));
        (MakrukGame::new(pos), a, e)
    }

    #[test]
    fn capture_history_orders_equal_captures_only_when_weighed() {
        let (g, a, e) = two_equal_captures();
        let tt = Tt::new(1);
        let stop = AtomicBool::new(false);
        for weight in [0, 100] {
            let params = SearchParams {
                capture_history: weight,
                ..SearchParams::default()
            };
            let mut s = new_searcher::<MakrukGame>(
                &tt,
                None,
                &stop,
                &[],
                None,
                None,
                None,
                &params,
                ThreadMemory::default(),
            );
            let rows = s.continuation_rows(0);
            let before = (s.order(&g, a, 0, 0, rows), s.order(&g, e, 0, 0, rows));
            assert_eq!(before.0, before.1, "no history yet: MVV-LVA ties them");
            assert!(before.0 > TIER_GOOD_TACTICAL && before.0 < TIER_TT_MOVE);
            // e5 was tried and failed, then a5 cut off.
            s.reward_cutoff(&g, a, &[], &[e], 8, 0);
            let (ra, re) = (s.order(&g, a, 0, 0, rows), s.order(&g, e, 0, 0, rows));
            if weight == 0 {
                assert_eq!((ra, re), before, "unweighed, the order is MVV-LVA's");
            } else {
                assert!(ra > before.0 && re < before.1, "{ra} {re} from {before:?}");
                assert!(re > TIER_GOOD_TACTICAL, "the history stays within the tier");
            }
            // A tactical cutoff is no killer.
            assert_eq!(s.killers[0], [0, 0]);
        }
    }
}
