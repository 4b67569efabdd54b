//! The thaiboard game server: accounts, challenges, live and correspondence
//! games of Makruk, Ouk Chatrang and Mak-hot over HTTP and WebSocket, with
//! SQLite (default) or PostgreSQL storage and the embedded web board.
//!
//! The server is in lila's shape: each feature is a folder that owns its
//! routes, its store (every SQL statement it runs) and a pure part, and
//! wires itself ([`server`] calls each in turn). Features:
//! - `account`: registration, login, sessions, guests, password, settings;
//! - `game`: games (model, store, service, clocks, events), their routes
//!   and sockets, the lobby and the game lists, "next game", pictures;
//! - `conditional`: conditional moves of correspondence games (a subscriber
//!   of the game service);
//! - `tags`: a player's own labels on games;
//! - `computer`: the engine opponent and games against it;
//! - `analysis`: game reviews, the analysis board's engine and rules, the
//!   opening book, the endgame tables;
//! - `social`: chat, comments and notes, notifications, e-mail (each with
//!   its routes, its store and its pure part);
//! - `players`: profiles, leaderboards, rating histories;
//! - `pools`: quick pairing (lichess's pools), with a matcher per process;
//! - `puzzle`: puzzles, their ratings and rounds, the daily puzzle;
//! - `ratings`: Glicko-2 per pool;
//! - `tournament`: round-robin, swiss and arena tournaments (the pairing
//!   and standings rules, the store, the routes, the flow that runs them);
//! - `leave`: leave (vacation) for correspondence players;
//! - `bot_api`: the part of lichess's API that lichess-bot and berserk use.
//!
//! Beneath them `infra` holds what every feature stands on (database,
//! listener, proxies, limits, sessions, passwords, the clock, errors).
//! [`router`] puts the routes together; [`cli`] and [`Config`] are the
//! options.

mod account;
mod analysis;
mod api_types;
mod bot_api;
pub mod cli;
mod computer;
mod conditional;
mod config;
mod explorer;
mod game;
mod infra;
mod leave;
mod players;
mod pools;
mod puzzle;
mod ratings;
mod router;
mod server;
mod social;
mod tags;
mod tournament;
mod tv;

pub use api_types::web_api_types;
pub use config::Config;
pub use explorer::command::ExplorerCommand;
pub use router::router;
pub use server::{Server, serve_blocking};

// What the CLI, the load tool, the fuzz targets and the integration tests
// reach beyond starting a server.
pub use account::guests::expire_unused as expire_unused_guests;
pub use bot_api::hub::MAX_STREAMS_PER_TOKEN;
pub use computer::opponent::Opponent;
pub use game::ws::{MAX_SUBSCRIPTIONS, SOCKET_BUFFER, protocol as ws_protocol};
pub use infra::memory::set_release as set_memory_release;
pub use infra::proxy::parse_cidr;
pub use infra::time::TimeSource;
pub use infra::{backup, db, util};
pub use ratings::{Rating, update as update_ratings};

use std::sync::Arc;

/// Shared state of the running server.
pub struct App {
    /// Configuration.
    pub config: Config,
    /// Database.
    pub db: infra::db::Db,
    /// Game service.
    pub games: Arc<game::Games>,
    /// Quick pairing: the pools' matcher of this process.
    pub pools: Arc<pools::Pools>,
    /// The computer's side of games against it.
    pub engine_play: Arc<computer::EnginePlay>,
    /// Live update channels.
    pub hub: Arc<infra::hub::Hub>,
    /// The spectator count of each watched game (this process's sockets).
    pub spectators: Arc<game::ws::spectators::Spectators>,
    /// Sessions known to this process; sockets hear here that theirs ended.
    pub sessions: Arc<account::auth::SessionCache>,
    /// Password hashing, a bounded number at once.
    pub passwords: infra::passwords::Passwords,
    /// The one throttle of every password check (logins, password changes...).
    pub login_throttle: infra::login_throttle::LoginThrottle,
    /// Registrations per address and per network.
    pub registrations: infra::ratelimit::AddressBudget,
    /// WebSockets per address and per user, and each user's message rate.
    pub socket_limits: Arc<infra::socket_limits::SocketLimits>,
    /// The request limit: per session, else per client address.
    pub limiter: infra::ratelimit::RequestLimiter,
    /// Per-IP limiter of new guests.
    pub guest_limiter: infra::ratelimit::RateLimiter,
    /// Per-IP limiter of password-reset requests.
    pub reset_limiter: infra::ratelimit::RateLimiter,
    /// The Bot API's event channels and stream limits.
    pub bots: Arc<bot_api::BotHub>,
    /// Chat writers' rate limits.
    pub chat_limits: social::chat::ChatLimits,
    /// The places of the analysis board's live searches.
    pub live_slots: Arc<tokio::sync::Semaphore>,
    /// The e-mail sender (`--smtp`), if any.
    pub mailer: Option<Arc<social::mail::Mailer>>,
    /// Endgame tables (`--tablebases`), if configured.
    pub tablebases: Option<Arc<analysis::tablebase::Tablebases>>,
    /// Turns true when the server stops: sockets say "server restarting" and close.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

impl App {
    /// Milliseconds since the Unix epoch, as this server counts them: the
    /// one clock ([`infra::time::TimeSource`]) every feature reads.
    pub fn now_ms(&self) -> i64 {
        self.games.time.now_ms()
    }
}

/// The state handed to every handler.
pub type AppState = Arc<App>;
