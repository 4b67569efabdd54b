//! What a search learns about move order and about its evaluation, kept
//! for the next search of the same game: each thread's history,
//! continuation history and correction history. The transposition table
//! remembers positions; this remembers how moves and evaluations fared, so
//! the search of the next move starts with the ordering the last one found
//! (as Stockfish keeps its histories until `ucinewgame`).
//!
//! A [`SearchMemory`] belongs to one game: a new game, another variant or
//! another evaluation starts from [`SearchMemory::clear`]. A search given a
//! fresh memory is exactly the search without one.

use super::correction::CorrectionHistory;
use crate::game::{CAPTURE_KINDS, Game};

/// The quiet-move history's size: one entry per (from, to) of a 64-square board.
pub(super) const HISTORY_SIZE: usize = 4096;

/// The tables one search thread learns and the next search of the game
/// starts from (empty until a search fills them).
#[derive(Clone, Debug, Default)]
pub(super) struct ThreadMemory {
    /// Quiet moves by (from, to).
    pub(super) history: Vec<i32>,
    /// Quiet moves by (piece and destination of the move before, piece and
    /// destination of this move): `(G::PIECE_TO + 1)` rows.
    pub(super) continuation: Vec<i16>,
    /// Tactical moves by (moving piece and destination, captured kind):
    /// `G::PIECE_TO * CAPTURE_KINDS` entries.
    pub(super) capture: Vec<i32>,
    /// How far the static evaluation missed, by structure.
    pub(super) correction: Option<CorrectionHistory>,
}

impl ThreadMemory {
    /// The tables sized for `G`: kept when they are, made anew when they
    /// are not (empty, or sized for another game). A memory is still one
    /// game's: its owner clears it when the game changes.
    pub(super) fn fitted<G: Game>(mut self) -> ThreadMemory {
        if self.history.len() != HISTORY_SIZE {
            self.history = vec![0; HISTORY_SIZE];
        }
        let continuation = (G::PIECE_TO + 1) * G::PIECE_TO;
        if self.continuation.len() != continuation {
            self.continuation = vec![0; continuation];
        }
        let capture = G::PIECE_TO * CAPTURE_KINDS;
        if self.capture.len() != capture {
            self.capture = vec![0; capture];
        }
        if self.correction.is_none() {
            self.correction = Some(CorrectionHistory::new());
        }
        self
    }

    /// The tables a search starts from: `percent` of what the last one
    /// learnt (the tunable `HistoryCarry`; 0 forgets it all, 100 keeps it
    /// whole), sized for `G`.
    pub(super) fn carried<G: Game>(self, percent: i32) -> ThreadMemory {
        let mut m = self.fitted::<G>();
        if percent >= 100 {
            return m;
        }
        let p = percent.max(0);
        for h in &mut m.history {
            *h = *h * p / 100;
        }
        for c in &mut m.continuation {
            *c = (i32::from(*c) * p / 100) as i16;
        }
        for c in &mut m.capture {
            *c = *c * p / 100;
        }
        if let Some(c) = &mut m.correction {
            c.scale(p);
        }
        m
    }
}

/// The move-ordering and evaluation-correction tables of one game's
/// searches, one set per search thread, handed from each search to the
/// next (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct SearchMemory {
    pub(super) threads: Vec<ThreadMemory>,
}

impl SearchMemory {
    /// A memory that knows nothing yet: the first search starts as a search
    /// without one does.
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// Forgets everything (a new game, another variant or evaluation).
    pub fn clear(&mut self) {
        self.threads.clear();
    }

    /// Whether any search has left something here.
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// How many threads' tables are kept: those of the last search's
    /// threads (a search with fewer threads drops the others').
    pub fn threads(&self) -> usize {
        self.threads.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MakhosGame, MakrukGame};

    #[test]
    fn fitting_keeps_a_games_tables_and_replaces_another_games() {
        let mut m = ThreadMemory::default().fitted::<MakrukGame>();
        m.history[7] = 42;
        m.continuation[3] = 5;
        m.capture[9] = -30;
        let kept = m.fitted::<MakrukGame>();
        assert_eq!((kept.history[7], kept.continuation[3]), (42, 5));
        assert_eq!(kept.capture[9], -30);
        let halved = kept.clone().carried::<MakrukGame>(50);
        assert_eq!((halved.history[7], halved.continuation[3]), (21, 2));
        assert_eq!(halved.capture[9], -15);
        let forgotten = kept.clone().carried::<MakrukGame>(0);
        assert!(forgotten.history.iter().all(|&v| v == 0));
        assert!(forgotten.continuation.iter().all(|&v| v == 0));
        assert!(forgotten.capture.iter().all(|&v| v == 0));
        let other = kept.fitted::<MakhosGame>();
        let rows = (MakhosGame::PIECE_TO + 1) * MakhosGame::PIECE_TO;
        assert_eq!(other.continuation.len(), rows);
        assert!(other.continuation.iter().all(|&v| v == 0));
        assert_eq!(other.capture.len(), MakhosGame::PIECE_TO * CAPTURE_KINDS);
    }
}
