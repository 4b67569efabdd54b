//! A game in progress: the moves played, and how it ended.

use crate::{
    Color, CountingError, CountingMode, Move, MoveError, Position, SanError, State, Variant,
};
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser was checkmated.
    Checkmate,
    /// The side to move had no legal move and was not in check.
    Stalemate,
    /// A count ran out.
    CountingDraw,
    /// Only the khuns were left.
    InsufficientMaterial,
    /// The players agreed to a draw.
    Agreement,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// A player's time ran out but the opponent could not have won.
    TimeoutDraw,
}

impl EndReason {
    /// A short snake-case name (`checkmate`, `counting_draw`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::CountingDraw => "counting_draw",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutDraw => "timeout_draw",
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
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The outcome a rule state gives, if the game is over.
    pub fn from_state(state: State, side_to_move: Color) -> Option<Outcome> {
        let draw = |reason| {
            Some(Outcome {
                winner: None,
                reason,
            })
        };
        match state {
            State::Ongoing => None,
            State::Checkmate => Some(Outcome {
                winner: Some(!side_to_move),
                reason: EndReason::Checkmate,
            }),
            State::Stalemate => draw(EndReason::Stalemate),
            State::CountingDraw => draw(EndReason::CountingDraw),
            State::InsufficientMaterial => draw(EndReason::InsufficientMaterial),
        }
    }
}

/// Why a game action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    GameOver(Outcome),
    /// A UCI move was malformed or illegal.
    Move(MoveError),
    /// A SAN move was malformed, illegal or ambiguous.
    San(SanError),
    /// A counting request was refused.
    Counting(CountingError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(
                f,
                "the game is over ({} by {})",
                o.result(),
                o.reason.name()
            ),
            GameError::Move(e) => e.fmt(f),
            GameError::San(e) => e.fmt(f),
            GameError::Counting(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// A game: its start, the moves played, the current position and, once
/// over, its outcome. The rules end it (mate, stalemate, counts, bare
/// khuns); callers record agreements, resignations and time forfeits.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the start position of `variant`.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    /// A game from a given position.
    pub fn from_position(start: Position) -> Game {
        let outcome = Outcome::from_state(start.state(), start.turn());
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            outcome,
        }
    }

    /// A game for people: board's-honour counts are declared by the players.
    pub fn new_declared(variant: Variant) -> Game {
        let mut pos = Position::new(variant);
        pos.set_counting_mode(CountingMode::Declared);
        Game::from_position(pos)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn check_ongoing(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(o) => Err(GameError::GameOver(o)),
            None => Ok(()),
        }
    }

    /// Plays a move, refusing illegal ones and moves after the end.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        self.check_ongoing()?;
        if !self.position.is_legal(m) {
            return Err(GameError::Move(MoveError::Illegal(m.to_uci())));
        }
        self.position.play_unchecked(m);
        self.moves.push(m);
        self.outcome = Outcome::from_state(self.position.state(), self.position.turn());
        Ok(())
    }

    /// Plays a move given in UCI form.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, GameError> {
        self.check_ongoing()?;
        let m = self.position.parse_uci(text).map_err(GameError::Move)?;
        self.play(m)?;
        Ok(m)
    }

    /// Plays a move given in SAN (any accepted convention).
    pub fn play_san(&mut self, text: &str) -> Result<Move, GameError> {
        self.check_ongoing()?;
        let m = self.position.parse_san(text).map_err(GameError::San)?;
        self.play(m)?;
        Ok(m)
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<(), GameError> {
        self.end(Outcome {
            winner: Some(!side),
            reason: EndReason::Resignation,
        })
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(Outcome {
            winner: None,
            reason: EndReason::Agreement,
        })
    }

    /// `side` ran out of time: a loss, or a draw if the opponent has only
    /// its khun left and so could never mate.
    pub fn time_out(&mut self, side: Color) -> Result<(), GameError> {
        let opponent_bare = self.position.by_color(!side).count() == 1;
        let outcome = if opponent_bare {
            Outcome {
                winner: None,
                reason: EndReason::TimeoutDraw,
            }
        } else {
            Outcome {
                winner: Some(!side),
                reason: EndReason::Timeout,
            }
        };
        self.end(outcome)
    }

    /// Ends the game with an outcome decided outside the rules of play.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        self.check_ongoing()?;
        self.outcome = Some(outcome);
        Ok(())
    }

    /// `side` declares a board's-honour count (games in declared mode).
    pub fn start_board_count(&mut self, side: Color) -> Result<(), GameError> {
        self.check_ongoing()?;
        self.position
            .start_board_count(side)
            .map_err(GameError::Counting)
    }

    /// `side` stops the board's-honour count it declared.
    pub fn stop_board_count(&mut self, side: Color) -> Result<(), GameError> {
        self.check_ongoing()?;
        self.position
            .stop_board_count(side)
            .map_err(GameError::Counting)
    }
}
