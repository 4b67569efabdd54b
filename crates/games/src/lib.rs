//! Which game: one typed notion of Makruk, Ouk Chatrang and Mak-hot, above
//! the two rules crates and below everything else (records, arena, engine
//! front-ends, render, server, command line).
//!
//! - [`GameKind`]: the game and its rule option, with its names and aliases
//!   parsed and printed here only (`makruk`, `cambodian`, `makhos` with
//!   `default` or `no-reverse`).
//! - [`Color`]: a side, for either game.
//! - [`Outcome`] and [`EndReason`]: how a game ended, with stable names for
//!   storage and APIs (`checkmate`, `counting_draw`, `resignation`, ...).
//! - [`AnyPosition`], [`AnyMove`] and [`AnyGame`]: a position, a move and a
//!   game of either rules crate, for code that handles both games alike.
//!
//! ```
//! use games::{AnyGame, Color, EndReason, GameKind};
//! let kind: GameKind = GameKind::from_names("makhos", Some("no-reverse")).unwrap();
//! assert_eq!((kind.variant_name(), kind.rules_name()), ("makhos", "no-reverse"));
//! let mut game = AnyGame::new(GameKind::MAKRUK);
//! game.play_engine("e3e4").unwrap();
//! game.resign(Color::Black).unwrap();
//! let outcome = game.outcome().unwrap();
//! assert_eq!((outcome.result(), outcome.reason), ("1-0", EndReason::Resignation));
//! assert_eq!(outcome.reason.name(), "resignation");
//! ```

mod any_game;
mod any_position;
mod color;
mod count;
mod kind;
mod outcome;
mod thai;

pub use any_game::{AnyGame, CountView, GameError};
pub use any_position::{AnyMove, AnyPosition};
pub use color::Color;
pub use count::{SpokenCount, spoken_count};
pub use kind::{GameKind, GameKindError};
pub use outcome::{EndReason, Outcome};
pub use thai::{ThaiForms, squares_to_thai};
