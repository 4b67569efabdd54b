//! Tournaments: round-robin and swiss for correspondence games, arena for
//! live ones, with standings, pairings and tie-breaks.
//!
//! - [`pairing`] and [`standings`]: the rules, without I/O;
//! - [`store`]: the tables; [`view`]: what a tournament's page shows;
//! - [`create`]: checking a new tournament; [`api`]: the routes;
//! - [`flow`]: starting, pairing the next rounds, finishing, after a restart too.

pub mod api;
pub mod create;
pub mod flow;
pub mod pairing;
pub mod standings;
pub mod store;
pub mod view;

pub use api::routes;
pub use flow::{resume, subscribe};
