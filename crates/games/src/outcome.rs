//! [`Outcome`] and [`EndReason`]: how a game of either kind ended, with the
//! stable names that storage and the APIs use.

use crate::Color;
use std::fmt;

/// Why a game ended. [`EndReason::name`] is stored in databases and sent by
/// APIs: never rename one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Makruk: the loser was checkmated.
    Checkmate,
    /// Makruk: the side to move had no legal move and was not in check (a draw).
    Stalemate,
    /// Makruk: a count ran out (a draw; RULES.md section 1).
    CountingDraw,
    /// Makruk: only the khuns were left (a draw).
    InsufficientMaterial,
    /// Mak-hot: the loser, to move, had pieces but no legal move.
    NoMoves,
    /// Mak-hot: the loser's last piece was captured.
    AllCaptured,
    /// Mak-hot: one king each and nothing else (a draw).
    Kings,
    /// Mak-hot: the same position arose three times (a draw).
    Repetition,
    /// Mak-hot: 32 plies without a capture or a man move (a draw).
    NoProgress,
    /// The players agreed to a draw.
    Agreement,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// A player ran out of time, but the opponent could not have won (a draw).
    TimeoutDraw,
}

impl EndReason {
    /// Every reason, for tables and tests.
    pub const ALL: [EndReason; 13] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::CountingDraw,
        EndReason::InsufficientMaterial,
        EndReason::NoMoves,
        EndReason::AllCaptured,
        EndReason::Kings,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::Timeout,
        EndReason::TimeoutDraw,
    ];

    /// The stable snake-case name (`checkmate`, `counting_draw`, ...): the
    /// rules crates' names for the same things.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::CountingDraw => "counting_draw",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::NoMoves => "no_moves",
            EndReason::AllCaptured => "all_captured",
            EndReason::Kings => "kings",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no_progress",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutDraw => "timeout_draw",
        }
    }

    /// Reads a name written by [`EndReason::name`].
    pub fn parse(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<makruk::EndReason> for EndReason {
    fn from(r: makruk::EndReason) -> EndReason {
        match r {
            makruk::EndReason::Checkmate => EndReason::Checkmate,
            makruk::EndReason::Stalemate => EndReason::Stalemate,
            makruk::EndReason::CountingDraw => EndReason::CountingDraw,
            makruk::EndReason::InsufficientMaterial => EndReason::InsufficientMaterial,
            makruk::EndReason::Agreement => EndReason::Agreement,
            makruk::EndReason::Resignation => EndReason::Resignation,
            makruk::EndReason::Timeout => EndReason::Timeout,
            makruk::EndReason::TimeoutDraw => EndReason::TimeoutDraw,
        }
    }
}

impl From<makhos::EndReason> for EndReason {
    fn from(r: makhos::EndReason) -> EndReason {
        match r {
            makhos::EndReason::NoMoves => EndReason::NoMoves,
            makhos::EndReason::Kings => EndReason::Kings,
            makhos::EndReason::Repetition => EndReason::Repetition,
            makhos::EndReason::NoProgress => EndReason::NoProgress,
            makhos::EndReason::Agreement => EndReason::Agreement,
            makhos::EndReason::Resignation => EndReason::Resignation,
            makhos::EndReason::Timeout => EndReason::Timeout,
        }
    }
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The outcome stored as a result and a reason name, if both are known.
    pub fn from_stored(result: &str, reason: &str) -> Option<Outcome> {
        let winner = match result {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => return None,
        };
        Some(Outcome {
            winner,
            reason: EndReason::parse(reason)?,
        })
    }

    /// The score of `side`: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score_of(&self, side: Color) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} by {}", self.result(), self.reason)
    }
}

impl From<makruk::Outcome> for Outcome {
    fn from(o: makruk::Outcome) -> Outcome {
        Outcome {
            winner: o.winner.map(Color::from),
            reason: o.reason.into(),
        }
    }
}

impl From<makhos::Outcome> for Outcome {
    fn from(o: makhos::Outcome) -> Outcome {
        Outcome {
            winner: o.winner.map(Color::from),
            reason: o.reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_name_reads_back_and_names_are_distinct() {
        let mut names: Vec<_> = EndReason::ALL.iter().map(|r| r.name()).collect();
        for r in EndReason::ALL {
            assert_eq!(EndReason::parse(r.name()), Some(r));
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), EndReason::ALL.len());
    }

    #[test]
    fn the_rules_crates_name_their_reasons_as_stored() {
        for r in [
            makruk::EndReason::Checkmate,
            makruk::EndReason::CountingDraw,
            makruk::EndReason::TimeoutDraw,
        ] {
            assert_eq!(EndReason::from(r).name(), r.name());
        }
        for r in [makhos::EndReason::NoMoves, makhos::EndReason::NoProgress] {
            assert_eq!(EndReason::from(r).name(), r.name());
        }
    }

    #[test]
    fn stored_outcomes_read_back() {
        let o = Outcome::win(Color::Black, EndReason::Resignation);
        assert_eq!(Outcome::from_stored(o.result(), o.reason.name()), Some(o));
        assert_eq!(Outcome::from_stored("*", "resignation"), None);
        assert_eq!(Outcome::from_stored("1-0", "resign"), None);
    }
}
