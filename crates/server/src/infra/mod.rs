//! What every feature stands on: the database, accepting connections,
//! reverse proxies, rate limits, socket limits, sessions, passwords, the
//! clock, errors and request extractors, live channels, the embedded web
//! board and backups. Nothing here knows a game.

pub mod assets;
pub mod backup;
pub mod data_lock;
pub mod db;
pub mod error;
pub mod extract;
pub mod hub;
pub mod idempotency;
pub mod listen;
pub mod login_throttle;
pub mod memory;
pub mod passwords;
pub mod proxy;
pub mod ratelimit;
pub mod relay;
pub mod sessions;
pub mod socket_limits;
pub mod text;
pub mod time;
pub mod util;
