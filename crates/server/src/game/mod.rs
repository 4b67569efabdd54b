//! Games: the model, its storage, the service that runs them, their clocks
//! and the events they publish, after lila's game actor.
//!
//! - [`model`]: a game in memory and the pure step that applies a command
//!   ([`model::apply`]), with no I/O;
//! - [`view`]: what clients see ([`GameView`], [`GameSummary`]);
//! - [`record`]: the game as PGN/PDN, through the `records` crate;
//! - [`store`]: every SQL statement, with bound parameters (SQLite and
//!   PostgreSQL alike); [`writer`]: SQLite's group-commit writer;
//! - [`lists`]: the lobby, my games, now playing and the archive;
//! - [`service`]: load, apply, save, publish ([`Games`]);
//! - [`timers`]: the clocks' deadlines;
//! - [`events`]: what subscribers (tournaments, conditional moves, the
//!   computer opponent) hear after a change;
//! - [`start`]: games from a set-up position (a client's FEN checked by
//!   the rules crates);
//! - [`rematch`], [`takeback`]: the pure steps of those agreements;
//!   [`berserk`]: the pure step of going berserk in an arena game;
//! - [`terms`]: a game's terms (its players' leave, public or private),
//!   which change its clock and view but are no game event;
//! - [`clock`]: time controls and the server-kept clock;
//! - [`next_game`]: the next of my games where it is my move;
//! - [`pictures`]: GIF and PNG exports of games and positions;
//! - [`routes`]: the games' HTTP routes; [`ws`]: the game sockets;
//!   [`lobby`]: the live lobby socket.

pub mod berserk;
pub mod clock;
pub mod events;
pub mod lists;
pub mod lobby;
pub mod model;
pub mod next_game;
pub mod pictures;
pub mod record;
pub mod rematch;
pub mod routes;
pub mod service;
pub mod start;
pub mod store;
pub mod takeback;
pub mod terms;
pub mod timers;
pub mod view;
pub mod writer;
pub mod ws;

pub use events::GameEvent;
pub use model::{Action, ActionKind, Command, Status, ThaiText};
pub use routes::routes;
pub use service::{ChallengeRequest, Games, kind_of};
pub use view::{ClockView, GameSummary, GameView, LeaveView, LegalMove, PauseView, PlayerView};
