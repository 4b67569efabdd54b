//! Scores: mate scores and their distance from the root, the scores of
//! endgame-table wins, how the transposition table stores them, and how a
//! stored bound settles or sharpens a node.

use crate::game::Game;
use crate::tables::TableValue;
use crate::tt::{Bound, Hit};

/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Beyond every score: the open window's bounds.
pub(super) const INF: i32 = 32000;
/// Scores at or beyond this are mate scores.
pub(super) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of an endgame-table win at the root with no mate distance
/// (or a mate too far for a mate score): just below the mate scores.
pub(super) const TABLE_WIN: i32 = MATE_BOUND - 1;
/// The longest table distance the score tells apart; longer ones score
/// as this one.
pub(super) const MAX_TABLE_DISTANCE: i32 = 1024;
/// Scores at or beyond this are decided: table wins and mates. The static
/// evaluation stays inside it.
pub(super) const DECIDED_BOUND: i32 = TABLE_WIN - MAX_PLY as i32 - MAX_TABLE_DISTANCE;

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

/// The centipawns at which the win-draw-loss model gives a win and a draw
/// even chances (see [`Score::wdl`]).
const WDL_CENTRE: f64 = 150.0;
/// How fast the model's win chance rises with the score, in centipawns.
const WDL_SPREAD: f64 = 90.0;

impl Score {
    /// Win, draw and loss chances per mille for the side to move (UCI
    /// `wdl`, summing to 1000). A mate is certain; a centipawn score `c`
    /// maps through a fixed model, not fitted to games: a win with chance
    /// `1 / (1 + exp(-(c - 150) / 90))`, a loss as the win of `-c`, a draw
    /// the rest (even scores are two thirds draws, as in the drawish
    /// endings of Makruk).
    pub fn wdl(self) -> [u32; 3] {
        match self {
            Score::Mate(m) if m > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
            Score::Cp(c) => {
                let chance = |x: f64| 1000.0 / (1.0 + (-(x - WDL_CENTRE) / WDL_SPREAD).exp());
                let win = chance(f64::from(c)).round() as u32;
                let loss = (chance(-f64::from(c)).round() as u32).min(1000 - win);
                [win, 1000 - win - loss, loss]
            }
        }
    }
}

/// The evaluation of a node where none is computed (in check).
pub(super) const NO_EVAL: i32 = -INF;

/// The static evaluation kept inside the non-mate range, whatever the
/// weights (a tuner may try extreme ones).
pub(super) fn static_eval<G: Game>(g: &G) -> i32 {
    g.evaluate().clamp(-DECIDED_BOUND + 1, DECIDED_BOUND - 1)
}

/// The score at `ply` of a table's exact value: a mate score when the table
/// gives a mate distance that fits the mate range, otherwise a table-win
/// score, fewer plies from the root and to the milestone scoring higher.
/// Both fall with `ply`, so the search prefers the fastest win and the
/// longest resistance.
pub(super) fn table_score(value: TableValue, ply: usize) -> i32 {
    let ply = ply as i32;
    let table_win = |plies: u32| TABLE_WIN - ply - (plies.min(MAX_TABLE_DISTANCE as u32) as i32);
    match value {
        TableValue::Mates(d) if ply + (d as i32) < MAX_PLY as i32 => MATE - ply - d as i32,
        TableValue::Mated(d) if ply + (d as i32) < MAX_PLY as i32 => -MATE + ply + d as i32,
        TableValue::Mates(d) | TableValue::Wins(d) => table_win(d),
        TableValue::Mated(d) | TableValue::Loses(d) => -table_win(d),
        TableValue::Draw => 0,
    }
}

/// A score as the table stores it: decided scores (mates, table wins)
/// counted from this node instead of the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED_BOUND {
        score + ply as i32
    } else if score <= -DECIDED_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from the root at `ply` (the inverse of
/// [`to_tt`]).
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED_BOUND {
        score - ply as i32
    } else if score <= -DECIDED_BOUND {
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
/// says the true value lies beyond it (decided scores aside).
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
    if s.abs() < DECIDED_BOUND && beyond {
        s
    } else {
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_mate_is_a_mate_score_counted_from_the_root() {
        let s = table_score(TableValue::Mates(5), 3);
        assert_eq!(s, MATE - 8);
        assert_eq!(Score::from_internal(s), Score::Mate(4));
        assert_eq!(
            Score::from_internal(table_score(TableValue::Mated(6), 3)),
            Score::Mate(-4)
        );
    }

    #[test]
    fn table_wins_rank_below_mates_above_every_evaluation_and_prefer_the_shortest() {
        let near = table_score(TableValue::Wins(4), 2);
        let later = table_score(TableValue::Wins(4), 5);
        let farther = table_score(TableValue::Wins(9), 2);
        assert!(near < MATE_BOUND && later >= DECIDED_BOUND && farther >= DECIDED_BOUND);
        assert!(near > later && near > farther);
        // A mate too far for the mate range is a table win.
        let far_mate = table_score(TableValue::Mates(MAX_PLY as u32), 10);
        assert!((DECIDED_BOUND..MATE_BOUND).contains(&far_mate));
        // The loser's longest resistance scores highest among its losses.
        assert!(table_score(TableValue::Loses(9), 2) > table_score(TableValue::Loses(4), 2));
        assert_eq!(table_score(TableValue::Draw, 7), 0);
    }

    #[test]
    fn the_transposition_table_keeps_table_wins_relative_to_their_node() {
        for value in [
            TableValue::Wins(30),
            TableValue::Loses(1000),
            TableValue::Mates(9),
        ] {
            let at_3 = table_score(value, 3);
            let stored = to_tt(at_3, 3);
            assert_eq!(from_tt(stored, 3), at_3);
            assert_eq!(from_tt(stored, 7), table_score(value, 7));
        }
    }

    #[test]
    fn wdl_sums_to_a_thousand_and_follows_the_score() {
        let mut last = [0, 0, 1000];
        let scores = std::iter::once(-DECIDED_BOUND)
            .chain((-3000..=3000).step_by(7))
            .chain([DECIDED_BOUND]);
        for cp in scores {
            let [w, d, l] = Score::Cp(cp).wdl();
            assert_eq!(w + d + l, 1000, "{cp}");
            assert!(
                w >= last[0] && l <= last[2],
                "{cp}: {:?} after {last:?}",
                [w, d, l]
            );
            assert_eq!(Score::Cp(-cp).wdl(), [l, d, w], "{cp}: symmetric");
            last = [w, d, l];
        }
        assert_eq!(Score::Cp(0).wdl()[0], Score::Cp(0).wdl()[2]);
        assert!(Score::Cp(0).wdl()[1] > 500, "even scores are mostly draws");
        assert_eq!(Score::Mate(3).wdl(), [1000, 0, 0]);
        assert_eq!(Score::Mate(-2).wdl(), [0, 0, 1000]);
        assert_eq!(Score::Mate(0).wdl(), [0, 0, 1000]);
    }
}
