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
//! - [`engine_play`]: games against the computer;
//! - [`rematch`], [`takeback`]: the pure steps of those agreements;
//! - [`terms`]: a game's terms (its players' leave, public or private),
//!   which change its clock and view but are no game event.

pub mod engine_play;
pub mod events;
pub mod lists;
pub mod model;
pub mod record;
pub mod rematch;
pub mod service;
pub mod store;
pub mod takeback;
pub mod terms;
pub mod timers;
pub mod view;
pub mod writer;

pub use engine_play::{EngineGameRequest, EnginePlay, MAX_ENGINE_GAMES};
pub use events::GameEvent;
pub use model::{Action, ActionKind, Command, Game, Status, ThaiText};
pub use service::{ChallengeRequest, Games, kind_of};
pub use view::{ClockView, GameSummary, GameView, LeaveView, LegalMove, PauseView, PlayerView};
