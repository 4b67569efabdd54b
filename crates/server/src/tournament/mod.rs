//! Tournaments: round-robin and swiss for correspondence games, arena for
//! live ones, with standings, pairings and tie-breaks.
//!
//! - [`pairing`] and [`standings`]: the rules, without I/O;
//! - [`create`]: checking a new tournament, without I/O;
//! - [`store`]: every SQL statement of tournaments, with bound parameters;
//! - [`view`]: what a tournament's page shows;
//! - [`routes`]: the HTTP routes (create, list, view, join, withdraw,
//!   start, call off);
//! - [`flow`]: starting, pairing the next rounds, finishing, after a restart
//!   too (a subscriber of the game service, by its [`crate::TimeSource`]).

pub mod create;
pub mod flow;
pub mod pairing;
pub mod routes;
pub mod standings;
pub mod store;
pub mod view;

pub use flow::{resume, subscribe};
pub use routes::routes;
