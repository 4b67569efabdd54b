//! Tags: a player's own labels on games (any game they can see), listed
//! with their counts.
//!
//! - [`model`]: the pure check of a game's tags (trimmed, deduplicated,
//!   bounded);
//! - [`store`]: every SQL statement of tags, with bound parameters;
//! - [`routes`]: `GET /api/tags` and `PUT /api/games/{id}/tags`.

pub mod model;
pub mod routes;
pub mod store;

pub use routes::routes;
