//! Scores: mate scores and their distance from the root, how the table
//! stores them, and how a stored bound settles or sharpens a node.

use crate::game::Game;
use crate::tt::{Bound, Hit};

/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Beyond every score: the open window's bounds.
pub(super) const INF: i32 = 32000;
/// Scores at or beyond this are mate scores.
pub(super) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

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

/// The evaluation of a node where none is computed (in check).
pub(super) const NO_EVAL: i32 = -INF;

/// The static evaluation kept inside the non-mate range, whatever the
/// weights (a tuner may try extreme ones).
pub(super) fn static_eval<G: Game>(g: &G) -> i32 {
    g.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// A score as the table stores it: mate scores counted from this node
/// instead of the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
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
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The stored score when its bound settles the node within (`alpha`,
/// `beta`): exact, a lower bound at or above beta, or an upper bound at or
/// below alpha.
pub(super) fn tt_cutoff(h: Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
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
pub(super) fn sharpened(eval: i32, hit: Option<Hit>, ply: usize) -> i32 {
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
