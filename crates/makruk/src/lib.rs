//! Makruk (Thai chess) and Ouk Chatrang (Cambodian chess) rules.
//!
//! - [`Setup`] is unchecked input (from FEN); [`Position`] is a legal
//!   position, changed only by [`Position::play`].
//! - Legal moves: [`Position::legal_moves`]; rule state (mate, stalemate,
//!   counting draw, bare khuns): [`Position::state`].
//! - The counting rules run automatically as in Fairy-Stockfish; human games
//!   can declare board's-honour counts ([`CountingMode::Declared`]).
//! - Notation: FEN ([`Position::from_fen`], [`Position::fen`]), UCI
//!   ([`Position::parse_uci`], [`Move::to_uci`]) and SAN ([`Position::san`],
//!   [`Position::parse_san`]), and Fairy-Stockfish's two Thai forms
//!   ([`Position::thai_san`], [`Position::thai_lan`],
//!   [`Position::parse_thai`]); [`Notation`] names them all.
//!
//! ```
//! use makruk::{Position, Variant, State};
//! let mut pos = Position::new(Variant::Makruk);
//! assert_eq!(pos.legal_moves().len(), 23);
//! let m = pos.parse_san("e4").unwrap();
//! pos.play(m).unwrap();
//! assert_eq!(pos.fen(), "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1");
//! assert_eq!(pos.state(), State::Ongoing);
//! ```

mod attacks;
mod bitboard;
mod counting;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod san;
mod setup;
mod square;
mod state;
mod thai;
mod types;
mod uci;
mod zobrist;

pub use bitboard::Bitboard;
pub use counting::{Count, CountKind, CountingError, CountingMode, CountingRules};
pub use fen::FenError;
pub use game::{EndReason, Game, GameError, Outcome};
pub use moves::{Move, MoveError, MoveList};
pub use notation::{Notation, NotationError, has_thai};
pub use perft::{perft, perft_divide};
pub use position::Position;
pub use san::{SanError, SanMove};
pub use setup::{Setup, SetupError};
pub use square::{ParseSquareError, Square};
pub use state::State;
pub use thai::{ParseThaiError, ThaiError, ThaiMove, ThaiPiece, thai_square};
pub use types::{Color, Letters, Piece, Role, Variant};

/// Attack patterns of the pieces, for engines and GUIs.
pub mod attack {
    pub use crate::attacks::{
        between, khon_attacks, king_attacks, king_leaps, knight_attacks, line, met_attacks,
        pawn_attacks, rook_attacks,
    };
}
