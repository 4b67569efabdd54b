//! Players talking to players: game chat ([`chat`]), comments on moves and
//! private notes ([`comments`]), in-page notifications ([`notify`]) and
//! e-mail ([`mail`]), following players ([`rel`]). Chat, comments and e-mail are folders each with its
//! routes, its store (every SQL statement, bound parameters) and its pure
//! part; notifications run no SQL.

pub mod chat;
pub mod comments;
pub mod mail;
pub mod notify;
pub mod rel;

use crate::AppState;
use axum::Router;
use axum::routing::get;

/// The social routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/notifications/ws", get(notify::socket))
        .merge(chat::routes())
        .merge(comments::routes())
        .merge(mail::routes())
        .merge(rel::routes())
}
