//! Engine matches for Makruk, Ouk Chatrang and Mak-hot: the library behind
//! `thaiboard match`.
//!
//! - [`spec`]: engine specifications (`cmd=... name=... option.Hash=64`)
//!   and per-move limits; [`tc`]: time controls and clocks.
//! - [`uci`]: a UCI engine as a child process, every wait with a deadline.
//! - [`openings`]: FEN / EPD / position-text lines or PGN / PDN games;
//!   [`portable`]: openings written in the forms cutechess and
//!   Fairy-Stockfish read.
//! - [`referee`]: the rules crates decide legality and game ends.
//! - [`adjudicate`]: optional resign / draw adjudication by engine scores,
//!   the move cap and Makruk's repetition adjudication.
//! - [`game`]: one game; [`runner`]: the whole match, several games at
//!   once, colour-reversed pairs, SPRT stop; [`resume`]: the games of a
//!   stopped run read back from its PGN; [`report`]: a match's PGN read
//!   back as one player's score, endings and time a move.
//! - [`stats`]: Elo ± 95%, LOS, pentanomial SPRT.
//!
//! A crash, a hang, a flag fall or an illegal move loses the game for that
//! engine, with the reason in the record's last comment and its
//! `[Termination]` tag.

pub mod adjudicate;
pub mod game;
pub mod openings;
pub mod portable;
pub mod referee;
pub mod report;
pub mod resume;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod tc;
pub mod uci;

pub use adjudicate::{Adjudication, DEFAULT_REPETITION, DrawRule, Repetitions, ResignRule};
pub use openings::{Opening, parse_openings};
pub use referee::Ending;
pub use report::Report;
pub use resume::finished_in_pgn;
pub use runner::{Finished, GameReport, MatchConfig, MatchSummary, run_match, run_match_resumed};
pub use spec::{EngineSpec, Limit};
pub use stats::{EloEstimate, Sprt, SprtModel, SprtVerdict, Tally};
pub use tc::{Clock, TimeControl};
