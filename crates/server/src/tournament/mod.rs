//! Tournaments: round-robin and swiss for correspondence games, arena for
//! live ones, with standings, pairings and tie-breaks.
//!
//! - [`pairing`] and [`standings`]: the rules, without I/O;
//! - [`service`]: storage, the reaction to finished games, and the routes.

pub mod pairing;
pub mod service;
pub mod standings;
