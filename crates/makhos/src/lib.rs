//! Mak-hot (Thai checkers) rules, as in the project's RULES.md section 2.
//!
//! - [`Position`]: a validated position (bitboards, side to move); read and written as
//!   position text `W:Wa1,c1,...:Bb8,...` through the unchecked [`Setup`].
//! - [`Position::legal_moves`]: compulsory, complete capture sequences; men forward only;
//!   flying kings landing just beyond the captured piece; duplicates merged.
//! - [`Rules`]: `default` (a capturing king may turn straight back) or `no-reverse`.
//! - [`notation`]: move text in algebraic (`c3xe5xc7`), engine (`c3e5c7`) and numeric
//!   (`25x18x9`, `25x9`) forms.
//! - [`Game`]: history, Zobrist keys, and the end of game ([`GameState`]).
//! - [`perft()`]: move-path counts with bulk counting.
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
