//! The integration tests of `server`, one binary (one link step) whose
//! modules are the former test files.

mod analysis;
mod api;
mod api_types;
mod backup;
mod bad_input;
mod bot_api;
mod bot_api_lichess_bot;
mod chat;
mod comments_tags;
mod common;
mod conditional;
mod engine;
mod explorer;
mod export;
mod growth;
mod kill_restart;
mod leave;
mod limits;
mod live_analysis;
mod lobby;
mod logins;
mod mail;
mod notify;
mod players;
mod position;
mod proxy;
mod ratings;
mod sessions;
mod settings;
mod shutdown;
mod tablebase;
mod takeback;
mod tournament_arenas;
mod tournaments;
mod variants;
