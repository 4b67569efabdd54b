//! A player's own account: registration, login and sessions ([`routes`],
//! [`auth`]), guests ([`guests`]), the password ([`password`]) and the
//! board and page settings ([`settings`]).

pub mod auth;
pub mod guests;
pub mod password;
pub mod routes;
pub mod settings;

pub use routes::routes;
