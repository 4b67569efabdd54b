//! Correction history (Stockfish's, keyed on the pawn structure; here the
//! bias): how far the static evaluation has missed the searched score in
//! positions with the same structure, per side to move. The search adds
//! the learnt correction to the evaluation it prunes on
//! ([`CorrectionHistory::correct`]) and learns from every node whose score
//! says something about its evaluation ([`CorrectionHistory::learn`]).
//!
//! The table is pure: entries are kept in `1 / CORRECTION_GRAIN` of the
//! evaluation's unit, bounded by `±CORRECTION_MAX`, and move by "gravity"
//! (a step shrinks as the entry nears the bound), as the history tables do.
//!
//! The search keeps it when the tunable `CorrectionScale` is above 0; the
//! default, 100, is the one its SPRT accepted (+13.6 ± 10.7 Elo at
//! 5+0.05, `docs/src/results/2026-11-search-changes.md`). 0 turns it off.

use super::params::{CORRECTION_BITS, CORRECTION_DEPTH_DIVISOR, CORRECTION_GRAIN, CORRECTION_MAX};
use super::score::DECIDED_BOUND;

/// One thread's correction table: two sides of `1 << CORRECTION_BITS`
/// entries, indexed by the low bits of a structure key.
#[derive(Clone, Debug)]
pub(super) struct CorrectionHistory {
    entries: Vec<i16>,
}

impl CorrectionHistory {
    /// A table that corrects nothing yet.
    pub(super) fn new() -> CorrectionHistory {
        CorrectionHistory {
            entries: vec![0; 2 << CORRECTION_BITS],
        }
    }

    fn index(white: bool, key: u64) -> usize {
        let mask = (1usize << CORRECTION_BITS) - 1;
        (usize::from(white) << CORRECTION_BITS) | (key as usize & mask)
    }

    /// Keeps `percent` of every entry (0: forgets them all).
    pub(super) fn scale(&mut self, percent: i32) {
        for e in &mut self.entries {
            *e = (i32::from(*e) * percent / 100) as i16;
        }
    }

    /// The evaluation `eval` of a position whose structure key is `key`
    /// (`None`: the game keeps no correction), corrected by `scale` percent
    /// of what the table has learnt for the side to move (`white`); never a
    /// decided score.
    pub(super) fn correct(&self, white: bool, key: Option<u64>, eval: i32, scale: i32) -> i32 {
        match key {
            None => eval,
            Some(k) => {
                let entry = i32::from(self.entries[Self::index(white, k)]);
                (eval + entry * scale / (100 * CORRECTION_GRAIN))
                    .clamp(-DECIDED_BOUND + 1, DECIDED_BOUND - 1)
            }
        }
    }

    /// Learns from a node searched `depth` plies deep whose score came out
    /// `error` above its corrected evaluation: the entry moves toward the
    /// error, by at most a quarter of its bound per update, deeper nodes
    /// counting more.
    pub(super) fn learn(&mut self, white: bool, key: u64, error: i32, depth: i32) {
        let step_max = CORRECTION_MAX / 4;
        let bonus = (error.saturating_mul(depth.max(1)) / CORRECTION_DEPTH_DIVISOR)
            .clamp(-step_max, step_max);
        let entry = &mut self.entries[Self::index(white, key)];
        let old = i32::from(*entry);
        let new = old + bonus - old * bonus.abs() / CORRECTION_MAX;
        *entry = new.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_table_and_a_game_without_structure_correct_nothing() {
        let t = CorrectionHistory::new();
        assert_eq!(t.correct(true, Some(12345), 37, 100), 37);
        assert_eq!(t.correct(false, None, -80, 100), -80);
    }

    #[test]
    fn repeated_errors_pull_the_evaluation_toward_the_score_within_the_bound() {
        let mut t = CorrectionHistory::new();
        let key = 0xDEAD_BEEF;
        let mut last = 0;
        for _ in 0..200 {
            t.learn(true, key, 300, 12);
            let c = t.correct(true, Some(key), 0, 100);
            assert!(c >= last, "the correction moves one way: {c} after {last}");
            last = c;
        }
        assert_eq!(last, CORRECTION_MAX / CORRECTION_GRAIN);
        // Half the scale, half the correction.
        assert_eq!(
            t.correct(true, Some(key), 0, 50),
            CORRECTION_MAX / CORRECTION_GRAIN / 2
        );
        // The other side to move and other structures learnt nothing.
        assert_eq!(t.correct(false, Some(key), 0, 100), 0);
        assert_eq!(t.correct(true, Some(key + 1), 0, 100), 0);
        // Errors the other way bring it back down past zero.
        for _ in 0..200 {
            t.learn(true, key, -300, 12);
        }
        assert_eq!(
            t.correct(true, Some(key), 0, 100),
            -CORRECTION_MAX / CORRECTION_GRAIN
        );
        // Scaled for the next search: half of it kept, then none.
        t.scale(50);
        assert_eq!(
            t.correct(true, Some(key), 0, 100),
            -CORRECTION_MAX / CORRECTION_GRAIN / 2
        );
        t.scale(0);
        assert_eq!(t.correct(true, Some(key), 0, 100), 0);
    }

    #[test]
    fn one_update_moves_an_entry_by_at_most_a_quarter_of_its_bound() {
        let mut t = CorrectionHistory::new();
        t.learn(false, 7, i32::MAX, i32::MAX);
        assert_eq!(
            t.entries[CorrectionHistory::index(false, 7)],
            (CORRECTION_MAX / 4) as i16
        );
        // A shallow, small error moves it by error × depth / divisor.
        let mut t = CorrectionHistory::new();
        t.learn(false, 7, 16, 2);
        assert_eq!(
            i32::from(t.entries[CorrectionHistory::index(false, 7)]),
            16 * 2 / CORRECTION_DEPTH_DIVISOR
        );
    }
}
