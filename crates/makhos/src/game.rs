//! A game in progress: start position, rules, moves played, history and the game state.

use crate::moves::{Move, MoveParseError};
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Color;
use crate::zobrist;
use core::fmt;

/// Plies in a row with no capture and no man move after which the game is drawn.
pub const NO_PROGRESS_LIMIT: u32 = 32;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser, to move, had no legal move (no pieces, or all blocked).
    NoMoves,
    /// Each side has one king and nothing else (a draw).
    Kings,
    /// The same position with the same side to move occurred three times (a draw).
    Repetition,
    /// 32 plies in a row without a capture or a man move (a draw).
    NoProgress,
    /// The players agreed to a draw (recorded by the caller).
    Agreement,
    /// The loser resigned (recorded by the caller).
    Resignation,
    /// The loser ran out of time (recorded by the caller).
    Timeout,
}

impl EndReason {
    /// A short snake-case name (`no_moves`, `no_progress`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::Kings => "kings",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no_progress",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl Outcome {
    /// The PDN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The rule state's name as the command line prints it: `win_white`,
    /// `win_black` or `draw_` and the reason (`draw_repetition`, `draw_kings`,
    /// `draw_no_progress`, `draw_agreement`).
    pub fn state_name(&self) -> String {
        match self.winner {
            Some(Color::White) => "win_white".into(),
            Some(Color::Black) => "win_black".into(),
            None => format!("draw_{}", self.reason.name()),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} by {}", self.result(), self.reason.name())
    }
}

/// Why a game action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move is not legal in the current position.
    Illegal {
        /// The move, in algebraic notation.
        text: String,
    },
    /// The move text could not be read or names no single legal move.
    Parse(MoveParseError),
    /// The game is already over.
    GameOver(Outcome),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal { text } => write!(f, "illegal move '{text}'"),
            GameError::Parse(e) => e.fmt(f),
            GameError::GameOver(o) => write!(f, "the game is over ({o})"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game: start position, rule set, the moves played and the history behind the draw rules.
///
/// The state is reported in this order: a result recorded by the caller (agreement,
/// resignation); no legal move for the side to move (a loss, even if a draw condition
/// holds at the same time: the move that blocked the last piece wins); one king each;
/// threefold repetition; 32 plies without progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Position,
    start_no_progress: u32,
    moves: Vec<Move>,
    /// Positions after each ply, the start first (`moves.len() + 1` entries).
    positions: Vec<Position>,
    /// Zobrist keys of `positions`.
    hashes: Vec<u64>,
    /// No-progress ply count at each entry of `positions`.
    no_progress: Vec<u32>,
    declared: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Rules::Default)
    }
}

impl Game {
    /// A game from the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(), rules)
    }

    /// A game from `start`.
    pub fn from_position(start: Position, rules: Rules) -> Game {
        Game::from_position_with_count(start, rules, 0)
    }

    /// A game from `start`, whose last `no_progress` plies had no capture and no man move.
    pub fn from_position_with_count(start: Position, rules: Rules, no_progress: u32) -> Game {
        Game {
            rules,
            start,
            start_no_progress: no_progress,
            moves: Vec::new(),
            positions: vec![start],
            hashes: vec![zobrist::hash(&start)],
            no_progress: vec![no_progress],
            declared: None,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The no-progress count the game started with.
    pub fn start_no_progress(&self) -> u32 {
        self.start_no_progress
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The Zobrist keys of [`Game::positions`].
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The current position's Zobrist key.
    pub fn hash(&self) -> u64 {
        self.hashes
            .last()
            .copied()
            .unwrap_or_else(|| zobrist::hash(&self.start))
    }

    /// Plies in a row, up to now, with no capture and no man move.
    pub fn no_progress_plies(&self) -> u32 {
        self.no_progress.last().copied().unwrap_or(0)
    }

    /// How often the current position (same side to move) has occurred, this time included.
    pub fn repetition_count(&self) -> usize {
        let pos = self.position();
        let key = self.hash();
        self.hashes
            .iter()
            .zip(&self.positions)
            .filter(|(h, p)| **h == key && *p == pos)
            .count()
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position().legal_moves(self.rules)
    }

    /// How the game ended, if it has (see the type's documentation for the
    /// order of checks).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = self.position();
        let (winner, reason) = if pos.count_legal_moves(self.rules) == 0 {
            (Some(pos.turn().other()), EndReason::NoMoves)
        } else if pos.is_kings_only_draw() {
            (None, EndReason::Kings)
        } else if self.repetition_count() >= 3 {
            (None, EndReason::Repetition)
        } else if self.no_progress_plies() >= NO_PROGRESS_LIMIT {
            (None, EndReason::NoProgress)
        } else {
            return None;
        };
        Some(Outcome { winner, reason })
    }

    /// The rule state's name as the command line prints it: `ongoing`, or
    /// [`Outcome::state_name`] (`win_white`, `draw_no_progress`, ...).
    pub fn state_name(&self) -> String {
        self.outcome()
            .map_or_else(|| "ongoing".to_string(), |o| o.state_name())
    }

    fn check_ongoing(&self) -> Result<(), GameError> {
        match self.outcome() {
            Some(o) => Err(GameError::GameOver(o)),
            None => Ok(()),
        }
    }

    /// Plays `mv` if it is legal and the game is not over; returns the move as generated
    /// (with its landing path).
    pub fn play(&mut self, mv: &Move) -> Result<Move, GameError> {
        self.check_ongoing()?;
        self.play_past_end(mv)
    }

    /// Plays `mv` if it is legal, even when a draw rule has already ended the game
    /// (for replaying records that went on).
    pub fn play_past_end(&mut self, mv: &Move) -> Result<Move, GameError> {
        let pos = *self.position();
        let legal = pos
            .find_legal(self.rules, mv)
            .ok_or_else(|| GameError::Illegal {
                text: mv.to_algebraic(),
            })?;
        self.push(pos, legal);
        Ok(legal)
    }

    /// Reads `text` in any accepted notation against the current position and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        self.check_ongoing()?;
        let mv = self
            .position()
            .parse_move(self.rules, text)
            .map_err(GameError::Parse)?;
        let pos = *self.position();
        self.push(pos, mv);
        Ok(mv)
    }

    fn push(&mut self, pos: Position, mv: Move) {
        let progress = mv.is_capture() || pos.is_man_move(&mv);
        let count = if progress {
            0
        } else {
            self.no_progress_plies().saturating_add(1)
        };
        let key = zobrist::hash_after(&pos, self.hash(), &mv);
        self.moves.push(mv);
        self.positions.push(pos.played(&mv));
        self.hashes.push(key);
        self.no_progress.push(count);
    }

    /// Takes back the last move (and any recorded agreement or resignation).
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.hashes.pop();
        self.no_progress.pop();
        Some(mv)
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(Outcome {
            winner: None,
            reason: EndReason::Agreement,
        })
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<(), GameError> {
        self.end(Outcome {
            winner: Some(side.other()),
            reason: EndReason::Resignation,
        })
    }

    /// `side` ran out of time: a loss (a Mak-hot side with any piece left can
    /// still win, so a flag fall is never a draw here).
    pub fn time_out(&mut self, side: Color) -> Result<(), GameError> {
        self.end(Outcome {
            winner: Some(side.other()),
            reason: EndReason::Timeout,
        })
    }

    /// Ends the game with an outcome decided outside the rules of play.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        self.check_ongoing()?;
        self.declared = Some(outcome);
        Ok(())
    }

    /// The outcome recorded by the caller (agreement, resignation, time), if any.
    pub fn declared(&self) -> Option<Outcome> {
        self.declared
    }
}
