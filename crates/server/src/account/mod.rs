//! A player's own account: registration, login and sessions ([`routes`],
//! [`auth`]), guests ([`guests`]), the password ([`password`]) and the
//! board and page settings ([`settings`]); [`store`] holds every SQL
//! statement of them.
//!
//! Shared rules other account features call:
//! - [`names`]: what a name may be, reserved names, look-alike skeletons;
//! - [`password_check`]: the one throttled check of a password;
//! - [`known_browsers`]: the device cookie of browsers that logged in before;
//! - [`security`]: `end_other_sessions`, what a changed password ends.

pub mod auth;
pub mod guests;
pub mod known_browsers;
pub mod names;
pub mod password;
pub mod password_check;
pub mod routes;
pub mod security;
pub mod settings;
pub mod store;
pub mod user;

pub use routes::routes;
