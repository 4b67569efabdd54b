//! The answer to a Makruk or Ouk Chatrang probe in the tablebase API's shape (what
//! `thaiboard tb probe --json` prints and `GET /api/tablebase` returns), the order of
//! its moves (which the engine plays the first of), and the file variant of a rules
//! variant.

use super::bare::Dtm;
use super::solve::same_count;
use crate::format::Variant as FileVariant;
use makruk::{Position, State, Variant};
use serde::Serialize;

/// The file variant of a rules variant.
pub(super) fn file_variant(variant: Variant) -> FileVariant {
    match variant {
        Variant::Makruk => FileVariant::Makruk,
        Variant::Cambodian => FileVariant::Cambodian,
    }
}

/// The answer to a Makruk probe, in the tablebase API's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakrukAnswer {
    /// `win`, `draw` or `loss` for the side to move, under the count.
    pub category: &'static str,
    /// Plies to mate, positive when the side to move mates, negative when it is mated,
    /// `None` when there is no forced mate (the count not considered) or the position is
    /// not in pieces' honour.
    pub dtm: Option<i32>,
    /// Outside pieces' honour: plies to the end of the phase (mate, or the capture or
    /// promotion that starts a new count into a decided position), signed as `dtm`.
    pub dtc: Option<i32>,
    /// Plies the count leaves for the mate (`None`: no count runs).
    pub plies_left: Option<u32>,
    /// Every legal move, best first, each valued for the opponent.
    pub moves: Vec<MakrukMoveAnswer>,
}

/// One move of a [`MakrukAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakrukMoveAnswer {
    /// UCI (`a1a8`).
    pub uci: String,
    /// SAN (`Ra8#`).
    pub san: String,
    /// The opponent's category after the move.
    pub category: &'static str,
    /// The opponent's signed plies to mate after the move.
    pub dtm: Option<i32>,
    /// The opponent's signed plies to the end of the phase after the move.
    pub dtc: Option<i32>,
}

/// Where a move stands in a [`MakrukAnswer`]'s order: the opponent's value after it,
/// then how far it leaves the end of the phase whose distance the mover's table stores,
/// then the child's own distance.
///
/// A move that keeps the same count running leaves the child's stored distance; a
/// conversion (a capture or promotion that starts a new count) or a mate ends the
/// phase now, and among those the child's distance (its mate under the new count, say)
/// decides. Ranked by the child's distance alone, a khun move that keeps a promotion
/// one ply away (the phase's distance 2) would come before the promotion itself (the
/// new count's mate in 78), and the side with the win would walk about until the game
/// is drawn by repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct MoveRank {
    /// The opponent's value after the move: `1` win, `0` draw, `-1` loss.
    value: i8,
    /// Plies left of the mover's phase after the move (0: the move ends it).
    phase: u32,
    /// The child's stored distance, whatever its phase.
    child: u32,
}

impl MoveRank {
    /// The rank of the move from `parent` to `child`, whose value for the opponent is
    /// `value` and stored distance `stored` (`None`: outside the tables, a draw).
    pub(super) fn new(
        parent: &Position,
        child: &Position,
        value: i8,
        stored: Option<Dtm>,
    ) -> MoveRank {
        let child_distance = match stored {
            Some(Dtm::Win(d) | Dtm::Loss(d)) => u32::from(d),
            _ => 0,
        };
        let carries_on = child.state() == State::Ongoing && same_count(parent, child);
        MoveRank {
            value,
            phase: if carries_on { child_distance } else { 0 },
            child: child_distance,
        }
    }

    /// The sort key, best first for the mover: the opponent's losses by fewest plies,
    /// draws, then the opponent's wins by most plies.
    pub(super) fn key(&self) -> (i8, i64, i64) {
        let (phase, child) = (i64::from(self.phase), i64::from(self.child));
        if self.value == 1 {
            (self.value, -phase, -child)
        } else {
            (self.value, phase, child)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(fen: &str, uci: &str) -> (Position, Position) {
        let pos = Position::from_fen(Variant::Makruk, fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        let child = pos.played(m);
        (pos, child)
    }

    /// A position of the official match (2026-12-07): a khon and a bia against a bare
    /// khun, no count running, the bia one step from promotion. The tables store the
    /// promotion's child as a mate in 78 under the pieces' honour count it starts, and
    /// a khun move's child as a phase two plies from its end.
    #[test]
    fn a_conversion_comes_before_a_quiet_move_that_keeps_it_one_move_away() {
        let fen = "8/8/8/4K3/1p6/2s5/8/k7 b - - 18 78";
        let (pos, promoted) = child(fen, "b4b3m");
        let (_, walked) = child(fen, "a1b1");
        let promotion = MoveRank::new(&pos, &promoted, -1, Some(Dtm::Loss(78)));
        let walk = MoveRank::new(&pos, &walked, -1, Some(Dtm::Loss(2)));
        assert_eq!((promotion.phase, promotion.child), (0, 78));
        assert_eq!((walk.phase, walk.child), (2, 2));
        assert!(promotion.key() < walk.key());
        // The loser's side of the same order: the longest phase first.
        let lost = MoveRank { value: 1, ..walk };
        let converted = MoveRank {
            value: 1,
            ..promotion
        };
        assert!(lost.key() < converted.key());
        // Wins before draws before losses, whatever the distances.
        let draw = MoveRank::new(&pos, &walked, 0, None);
        assert!(promotion.key() < draw.key() && walk.key() < draw.key());
        assert!(draw.key() < lost.key());
    }

    /// Mate ends the phase too; two conversions are ordered by the child's distance,
    /// fastest mate first.
    #[test]
    fn mates_and_conversions_end_the_phase_and_rank_by_the_child_s_distance() {
        let (pos, mated) = child("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8");
        assert_eq!(mated.state(), State::Checkmate);
        let mate = MoveRank::new(&pos, &mated, -1, Some(Dtm::Loss(0)));
        assert_eq!((mate.phase, mate.child), (0, 0));
        let fen = "8/8/8/4K3/1p6/2s5/8/k7 b - - 18 78";
        let (pos, promoted) = child(fen, "b4b3m");
        let soon = MoveRank::new(&pos, &promoted, -1, Some(Dtm::Loss(20)));
        let late = MoveRank::new(&pos, &promoted, -1, Some(Dtm::Loss(78)));
        assert!(mate.key() < soon.key() && soon.key() < late.key());
    }
}
