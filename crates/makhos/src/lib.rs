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
//! - [`notation`]: reading ([`parse_move`], [`Position::parse_move`]) accepts `c3-d4`,
//!   `c3xe5xc7`, `c3e5c7`, `22-18`, `25x18x9`, `25-18-9`, and start/end only (`25x9`,
//!   `c3xc7`) when unambiguous; writing: [`Move::to_algebraic`], [`Move::to_engine`],
//!   [`Move::to_numeric`], [`Move::to_numeric_short`], [`Move::to_algebraic_short`].
//! - [`zobrist`]: keys from scratch ([`Position::zobrist`]) or updated by a move
//!   ([`zobrist::hash_after`]).
//! - [`Game`]: start position, rules, moves, positions and keys; [`Game::state`] gives
//!   [`GameState`] (`ongoing`, `win_white`, `win_black`, `draw_repetition`, `draw_kings`,
//!   `draw_no_progress`, `draw_agreement`); agreement and resignation are recorded with
//!   [`Game::agree_draw`] and [`Game::resign`].
//! - [`perft()`] and [`perft_divide`]: move-path counts with bulk counting.
//!
//! ```
//! use makhos::{Game, Position, Rules};
//! let mut game = Game::new(Rules::Default);
//! game.play_text("b2-c3").unwrap();
//! assert_eq!(game.position().to_string(), "B:Wa1,c1,e1,g1,d2,f2,h2,c3:Ba7,c7,e7,g7,b8,d8,f8,h8");
//! assert_eq!(game.state().name(), "ongoing");
//! assert_eq!(makhos::perft(&Position::start(), Rules::Default, 3), 392);
//! ```

pub mod bitboard;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod setup;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use game::{DrawReason, Game, GameState, NO_PROGRESS_LIMIT, PlayError, WinReason};
pub use movegen::{Move, legal_moves};
pub use notation::{MoveParseError, parse_move};
pub use perft::{perft, perft_divide};
pub use position::{Position, PositionError, PositionTextError};
pub use rules::{Rules, RulesParseError};
pub use setup::{Setup, SetupParseError};
pub use square::{Color, Piece, Role, Square, SquareError};
