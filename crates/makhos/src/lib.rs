//! Mak-hot (Thai checkers) rules, as in the project's RULES.md section 2.
//!
//! - [`Position`]: a validated position (bitboards, side to move), read and written as
//!   position text `W:Wa1,c1,...:Bb8,...` (`K` marks kings) through the unchecked [`Setup`];
//!   errors are typed ([`SetupParseError`], [`PositionError`], [`PositionTextError`]).
//! - [`Position::legal_moves`] / [`legal_moves`]: compulsory, complete capture sequences;
//!   men move and capture forward only; flying kings land just beyond the captured piece;
//!   captured pieces leave at once; promotion ends a capture; no majority rule; sequences
//!   with the same start, end and captured set are one [`Move`].
//! - [`Rules`]: `default` (a capturing king may turn straight back) or `no-reverse`.
//! - Notation: reading ([`parse_move`], [`Position::parse_move`]) accepts `c3-d4`,
//!   `c3xe5xc7`, `c3e5c7`, `22-18`, `25x18x9`, `25-18-9`, and start/end only (`25x9`,
//!   `c3xc7`) when unambiguous; writing: [`Move::to_algebraic`], [`Move::to_engine`],
//!   [`Move::to_numeric`], [`Move::to_numeric_short`], [`Move::to_algebraic_short`].
//! - Zobrist keys from scratch ([`Position::zobrist`]) or updated by a move
//!   ([`Position::zobrist_after`]).
//! - [`Game`]: start position, rules, moves, positions and keys; [`Game::outcome`] gives
//!   the [`Outcome`] once the game is over (winner and [`EndReason`]: `no_moves`, `kings`,
//!   `repetition`, `no_progress`); agreement, resignation and time are recorded with
//!   [`Game::agree_draw`], [`Game::resign`] and [`Game::time_out`].
//! - [`Position::play`] checks a move against the rules; [`Position::play_unchecked`] and
//!   [`Position::played`] trust the caller, as in `makruk`.
//! - [`perft()`] and [`perft_divide`]: move-path counts with bulk counting.
//!
//! ```
//! use makhos::{Game, Position, Rules};
//! let mut game = Game::new(Rules::Default);
//! game.play_text("b2-c3").unwrap();
//! assert_eq!(game.position().to_string(), "B:Wa1,c1,e1,g1,d2,f2,h2,c3:Ba7,c7,e7,g7,b8,d8,f8,h8");
//! assert_eq!(game.outcome(), None);
//! assert_eq!(makhos::perft(&Position::start(), Rules::Default, 3), 392);
//! ```

mod bitboard;
mod game;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod rules;
mod setup;
mod square;
mod zobrist;

pub use bitboard::{BitIter, Bitboard};
pub use game::{EndReason, Game, GameError, NO_PROGRESS_LIMIT, Outcome};
pub use movegen::{
    count_legal_moves, generate_captures, generate_legal_moves, generate_quiet, has_capture,
    king_slides, legal_moves,
};
pub use moves::{MAX_CAPTURES, Move, MoveParseError};
pub use notation::parse_move;
pub use perft::{perft, perft_divide};
pub use position::{MAX_PIECES_PER_SIDE, Position, PositionError, PositionTextError};
pub use rules::{Rules, RulesParseError};
pub use setup::{Setup, SetupParseError};
pub use square::{Color, Piece, Role, Square, SquareError};
pub use zobrist::{piece_key, turn_key};
