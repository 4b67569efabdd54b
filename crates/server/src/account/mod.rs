//! A player's own account: registration, login and sessions ([`routes`],
//! [`auth`]), guests ([`guests`]), the password ([`password`]) and the
//! board and page settings ([`settings`]); [`store`] holds every SQL
//! statement of them.

pub mod auth;
pub mod guests;
pub mod password;
pub mod routes;
pub mod security;
pub mod settings;
pub mod store;
pub mod user;

pub use routes::routes;
