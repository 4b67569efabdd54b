//! Game records for Makruk, Ouk Chatrang (PGN) and Mak-hot (PDN).
//!
//! - [`Reader`]: a streaming reader over any [`std::io::BufRead`]: tags,
//!   movetext, `{}` and `;` comments, NAGs and `!`/`?` marks, variations
//!   kept as a tree, results, `[FEN]`/`[SetUp]`, `[Variant]` (`makruk`,
//!   `cambodian`, `makhos`), `[GameType "makhos"]` and `[Rules
//!   "no-reverse"]`. Every move is checked against the rules as it is read:
//!   Makruk SAN in every convention (Fairy-Stockfish, SchemingMind with its
//!   trailing `=` draw offer, PlayOK with `=P` and `P` for a promoted bia),
//!   Mak-hot moves in PDN numbers or algebraic squares. A broken game gives
//!   a [`ReadError`] (game number, line, column, offending text) and the
//!   reader goes on with the next game.
//! - [`Game`]: the tree ([`Line`], [`Node`], [`Tags`], [`GameResult`]) over
//!   a start [`AnyPosition`] (positions, moves and game kinds are those of
//!   the `games` crate, re-exported here).
//! - [`replay()`]: the final state of the main line, and where the automatic
//!   rules (Makruk counts, Mak-hot draw rules) would have ended a game the
//!   record plays on; the record is never refused for that.
//! - [`game_to_string`] / [`write_game`]: PGN export format (Seven Tag
//!   Roster first, movetext within 80 columns) in the letters of
//!   [`WriteOptions`]; PDN for Mak-hot. Reading what was written gives an
//!   equal [`Game`].
//! - [`puzzle`]: puzzle sets, one puzzle a tab-separated line, and their
//!   replay against the rules.
//!
//! ```
//! use records::{Reader, WriteOptions, game_to_string, replay};
//! let pgn = "[Variant \"makruk\"]\n\n1. e4 Ne7 2. Qd2 {SchemingMind letters} 1/2-1/2\n";
//! let game = Reader::new(pgn.as_bytes()).next().unwrap().unwrap();
//! let out = game_to_string(&game, &WriteOptions::default());
//! assert!(out.contains("2. Md2 {SchemingMind letters} 1/2-1/2"));
//! assert_eq!(records::read_one(&out).unwrap(), game);
//! assert_eq!(replay(&game).plies, 3);
//! ```

mod error;
mod lexer;
mod makhos_moves;
mod makruk_moves;
mod notation;
pub mod puzzle;
mod reader;
mod replay;
mod tree;
mod writer;

pub use error::{ErrorKind, MAX_DEPTH, ReadError};
pub use games::{AnyMove, AnyPosition, GameKind};
pub use lexer::{MAX_COMMENT, MAX_LINE};
pub use makhos_moves::SquareStyle;
pub use makruk::Letters;
pub use notation::{ParsedMove, move_number_text, move_text, parse_move};
pub use reader::{Reader, read_all, read_one};
pub use replay::{Replay, RuleEnd, replay, state_name};
pub use tree::{Game, GameResult, Line, Node, SEVEN_TAG_ROSTER, Tags, roster_default};
pub use writer::{DEFAULT_WIDTH, WriteOptions, game_to_string, write_game};
