//! A game in progress: start position, rules, moves played, history and the game state.

use crate::movegen::Move;
use crate::notation::MoveParseError;
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Color;
use crate::zobrist;
use core::fmt;

/// Plies in a row with no capture and no man move after which the game is drawn.
pub const NO_PROGRESS_LIMIT: u32 = 32;

/// How a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser, to move, had no legal move (no pieces, or all blocked).
    NoMoves,
    /// The loser resigned (recorded by the caller).
    Resignation,
}

/// How a game was drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred three times.
    Repetition,
    /// Each side has one king and nothing else.
    Kings,
    /// 32 plies in a row without a capture or a man move.
    NoProgress,
    /// The players agreed (recorded by the caller).
    Agreement,
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// The game goes on.
    Ongoing,
    /// A side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Drawn.
    Draw(DrawReason),
}

impl GameState {
    /// The state's name: `ongoing`, `win_white`, `win_black`, `draw_repetition`,
    /// `draw_kings`, `draw_no_progress` or `draw_agreement`.
    pub const fn name(self) -> &'static str {
        match self {
            GameState::Ongoing => "ongoing",
            GameState::Win {
                winner: Color::White,
                ..
            } => "win_white",
            GameState::Win {
                winner: Color::Black,
                ..
            } => "win_black",
            GameState::Draw(DrawReason::Repetition) => "draw_repetition",
            GameState::Draw(DrawReason::Kings) => "draw_kings",
            GameState::Draw(DrawReason::NoProgress) => "draw_no_progress",
            GameState::Draw(DrawReason::Agreement) => "draw_agreement",
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self, GameState::Ongoing)
    }

    /// The PDN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn result(self) -> &'static str {
        match self {
            GameState::Ongoing => "*",
            GameState::Win {
                winner: Color::White,
                ..
            } => "1-0",
            GameState::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            GameState::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is not legal in the current position.
    Illegal {
        /// The move, in algebraic notation.
        text: String,
    },
    /// The move text could not be read or names no single legal move.
    Parse(MoveParseError),
    /// The game is already over.
    GameOver(GameState),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal { text } => write!(f, "illegal move '{text}'"),
            PlayError::Parse(e) => e.fmt(f),
            PlayError::GameOver(s) => write!(f, "the game is over ({s})"),
        }
    }
}

impl std::error::Error for PlayError {}

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
    declared: Option<GameState>,
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

    /// The state of the game (see the type's documentation for the order of checks).
    pub fn state(&self) -> GameState {
        if let Some(s) = self.declared {
            return s;
        }
        let pos = self.position();
        if pos.count_legal_moves(self.rules) == 0 {
            return GameState::Win {
                winner: pos.turn().other(),
                reason: WinReason::NoMoves,
            };
        }
        if pos.is_kings_only_draw() {
            return GameState::Draw(DrawReason::Kings);
        }
        if self.repetition_count() >= 3 {
            return GameState::Draw(DrawReason::Repetition);
        }
        if self.no_progress_plies() >= NO_PROGRESS_LIMIT {
            return GameState::Draw(DrawReason::NoProgress);
        }
        GameState::Ongoing
    }

    /// Plays `mv` if it is legal and the game is not over; returns the move as generated
    /// (with its landing path).
    pub fn play(&mut self, mv: &Move) -> Result<Move, PlayError> {
        let state = self.state();
        if state.is_over() {
            return Err(PlayError::GameOver(state));
        }
        self.play_past_end(mv)
    }

    /// Plays `mv` if it is legal, even when a draw rule has already ended the game
    /// (for replaying records that went on).
    pub fn play_past_end(&mut self, mv: &Move) -> Result<Move, PlayError> {
        let pos = *self.position();
        let legal = pos
            .find_legal(self.rules, mv)
            .ok_or_else(|| PlayError::Illegal {
                text: mv.to_algebraic(),
            })?;
        self.push(pos, legal);
        Ok(legal)
    }

    /// Reads `text` in any accepted notation against the current position and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        let state = self.state();
        if state.is_over() {
            return Err(PlayError::GameOver(state));
        }
        let mv = self
            .position()
            .parse_move(self.rules, text)
            .map_err(PlayError::Parse)?;
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
        self.positions.push(pos.play(&mv));
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

    /// Records a draw by agreement.
    pub fn agree_draw(&mut self) {
        self.declared = Some(GameState::Draw(DrawReason::Agreement));
    }

    /// Records that `loser` resigned.
    pub fn resign(&mut self, loser: Color) {
        self.declared = Some(GameState::Win {
            winner: loser.other(),
            reason: WinReason::Resignation,
        });
    }

    /// The result recorded by the caller, if any.
    pub fn declared(&self) -> Option<GameState> {
        self.declared
    }
}
