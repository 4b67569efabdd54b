//! The thaiboard game server: accounts, challenges, live and correspondence
//! games of Makruk, Ouk Chatrang and Mak-hot over HTTP and WebSocket, with
//! SQLite (default) or PostgreSQL storage and the embedded web board.
//!
//! Modules:
//! - [`config`]: options; [`db`]: pool and migrations;
//! - [`auth`]: accounts, sessions, CSRF; [`sessions`]: the session cache;
//!   [`passwords`]: bounded argon2; [`login_throttle`]: failed logins; [`ratelimit`]: request floods;
//! - [`game`]: games (model, storage, service, clocks, events), over the
//!   `games` crate's rules; [`clock`]: time controls; [`hub`]: live updates;
//! - [`api`]: JSON routes; [`extract`]: shared request extractors;
//!   [`ws`]: the game WebSocket; [`lobby`]: the live lobby socket;
//! - [`assets`]: the web board;
//! - [`opponent`]: the seam for computer opponents; [`engine_opponent`]: the engine behind it;
//! - [`tournament`]: round-robin, swiss and arena tournaments;
//! - [`bot_api`]: the part of lichess's API that lichess-bot and berserk use.

pub mod account;
pub mod analysis;
pub mod api;
pub mod assets;
pub mod auth;
pub mod backup;
pub mod book;
pub mod bot_api;
pub mod chat;
pub mod cli;
pub mod clock;
pub mod comments;
pub mod conditional;
pub mod config;
pub mod db;
pub mod engine_opponent;
pub mod error;
pub mod export;
pub mod extract;
pub mod game;
pub mod guests;
pub mod hub;
pub mod leave;
pub mod listen;
pub mod live_analysis;
pub mod lobby;
pub mod login_throttle;
pub mod mail;
pub mod notify;
pub mod opponent;
pub mod organise;
pub mod passwords;
pub mod players;
pub mod position;
pub mod proxy;
pub mod ratelimit;
pub mod ratings;
pub mod relay;
pub mod sessions;
pub mod settings;
pub mod socket_limits;
pub mod tablebase;
pub mod text;
pub mod time;
pub mod tournament;
pub mod util;
pub mod ws;

pub use config::Config;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use error::ApiError;
use std::net::SocketAddr;
use std::sync::Arc;

/// Shared state of the running server.
pub struct App {
    /// Configuration.
    pub config: Config,
    /// Database.
    pub db: db::Db,
    /// Game service.
    pub games: Arc<game::Games>,
    /// The computer's side of games against it.
    pub engine_play: Arc<game::EnginePlay>,
    /// Live update channels.
    pub hub: Arc<hub::Hub>,
    /// Sessions known to this process; sockets hear here that theirs ended.
    pub sessions: Arc<sessions::SessionCache>,
    /// Password hashing, a bounded number at once.
    pub passwords: passwords::Passwords,
    /// Failed logins per account name and per address.
    pub login_throttle: login_throttle::LoginThrottle,
    /// WebSockets per address and per user, and each user's message rate.
    pub socket_limits: Arc<socket_limits::SocketLimits>,
    /// Per-IP request limiter.
    pub limiter: ratelimit::RateLimiter,
    /// Per-IP limiter of new guests.
    pub guest_limiter: ratelimit::RateLimiter,
    /// The Bot API's event channels and stream limits.
    pub bots: Arc<bot_api::BotHub>,
    /// Chat writers' rate limits.
    pub chat_limits: chat::ChatLimits,
    /// The e-mail sender (`--smtp`), if any.
    pub mailer: Option<Arc<mail::Mailer>>,
    /// Endgame tables (`--tablebases`), if configured.
    pub tablebases: Option<tablebase::Tablebases>,
    /// Turns true when the server stops: sockets say "server restarting" and close.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

/// How often a stopping server looks whether its sockets have closed.
const SHUTDOWN_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// The state handed to every handler.
pub type AppState = Arc<App>;

/// A started server.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its state.
    pub app: AppState,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Server {
    /// Opens the database (running migrations), binds the address and starts serving.
    pub async fn start(config: Config) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        let tablebases = match &config.tablebase_dir {
            Some(dir) => Some(tablebase::Tablebases::open(dir)?),
            None => None,
        };
        let db = db::open(&config.database_url()).await?;
        let hub = Arc::new(hub::Hub::default());
        let games = game::Games::new(db.clone(), hub.clone(), config.time.clone());
        let engine_play = game::EnginePlay::start(&games);
        if config.engine_searches > 0 {
            engine_play.set_opponent(Arc::new(engine_opponent::EngineOpponent::new(
                config.engine_searches,
            )));
        }
        games.arena_first_move_ms.store(
            config.arena_first_move_ms,
            std::sync::atomic::Ordering::Relaxed,
        );
        tournament::subscribe(&games);
        conditional::subscribe(&games);
        let bots = Arc::new(bot_api::BotHub::default());
        bot_api::subscribe(&games, bots.clone());
        notify::subscribe(&games, hub.clone());
        games.start().await?;
        engine_play.resume().await?;
        tournament::resume(&games).await?;
        let sessions = Arc::new(sessions::SessionCache::new(
            std::time::Duration::from_millis(config.session_cache_ttl_ms),
        ));
        if db.backend == db::Backend::Postgres {
            bots.relay_through(db.clone(), games.instance.clone());
            tokio::spawn(relay::listen_postgres(
                db.url.clone(),
                Arc::downgrade(&games),
                Arc::downgrade(&bots),
                Arc::downgrade(&hub),
                Arc::downgrade(&sessions),
            ));
        }
        // Forget expired sessions and unused guests now and then.
        let (janitor_db, janitor_sessions) = (db.clone(), Arc::downgrade(&sessions));
        let guest_unused_ms = config.guest_unused_after_secs * 1000;
        tokio::spawn(async move {
            loop {
                let _ = sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
                    .bind(util::now_ms())
                    .execute(&janitor_db.pool)
                    .await;
                let Some(sessions) = janitor_sessions.upgrade() else {
                    return;
                };
                let cutoff = util::now_ms() - guest_unused_ms;
                // Batch after batch until none is left.
                while let Ok(n) = guests::expire_unused(&janitor_db, &sessions, cutoff).await {
                    if n == 0 {
                        break;
                    }
                }
                drop(sessions);
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
            }
        });
        let limiter = ratelimit::RateLimiter::new(config.rate_per_sec, config.rate_burst);
        let guest_limiter = ratelimit::RateLimiter::new(
            config.guests_per_ip_per_hour / 3600.0,
            config.guests_per_ip_burst,
        );
        let mailer = match &config.smtp_url {
            Some(url) => Some(Arc::new(
                mail::Mailer::new(
                    url,
                    &config.mail_from,
                    std::time::Duration::from_secs(config.mail_sweep_secs.max(1)),
                )
                .map_err(std::io::Error::other)?,
            )),
            None => None,
        };
        // Bound first, so that the configuration holds the address really listened on.
        let listener = tokio::net::TcpListener::bind(config.bind).await?;
        let addr = listener.local_addr()?;
        let mut config = config;
        let passwords =
            passwords::Passwords::new(config.argon2_memory_kib, config.password_hashes_at_once);
        let login_throttle = login_throttle::LoginThrottle::new(login_throttle::ThrottleRules {
            free_per_account: config.login_free_failures_per_account,
            free_per_ip: config.login_free_failures_per_ip,
            first_lock: std::time::Duration::from_millis(config.login_first_lock_ms),
        });
        let socket_limits = socket_limits::SocketLimits::new(socket_limits::SocketRules {
            per_ip: config.max_sockets_per_ip,
            per_user: config.max_sockets_per_user,
            user_rate: config.ws_user_rate_per_sec,
            user_follow_rate: config.ws_user_rate_per_sec * ws::FOLLOW_RATE_FACTOR,
            user_follow_burst: (2 * ws::MAX_SUBSCRIPTIONS) as f64,
            exempt_loopback: config.exempt_loopback,
        });
        config.bind = addr;
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let app = Arc::new(App {
            config,
            db,
            games,
            engine_play,
            hub,
            sessions,
            passwords,
            login_throttle,
            socket_limits,
            limiter,
            guest_limiter,
            bots,
            chat_limits: chat::ChatLimits::default(),
            mailer,
            tablebases,
            stopping: stopping.clone(),
        });
        mail::subscribe(&app.games, Arc::downgrade(&app));
        tokio::spawn(mail::sweep_deadlines(Arc::downgrade(&app)));
        let router = router(app.clone());
        let limits = listen::ConnectionLimits::new(
            app.config.max_connections_per_ip,
            app.config.exempt_loopback,
            app.config.trusted_proxies.clone(),
        );
        let rules = listen::ConnectionRules {
            header_read_timeout: std::time::Duration::from_millis(
                app.config.header_read_timeout_ms,
            ),
            shutdown_grace: std::time::Duration::from_millis(app.config.shutdown_grace_ms),
        };
        let task = tokio::spawn(listen::serve(listener, router, limits, rules, stopping));
        Ok(Server {
            addr,
            app,
            task,
            stop,
        })
    }

    /// Serves until the task ends (it does not, unless the listener fails).
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.map_err(std::io::Error::other)?
    }

    /// Stops gracefully: accepts no more connections, lets open ones
    /// finish the request they serve (commands and moves in flight are
    /// committed and answered), tells every WebSocket "server restarting"
    /// and closes it, and returns when all that is done (or after
    /// [`Config::shutdown_grace_ms`]). Clients reconnect to the next server.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(true);
        let grace = std::time::Duration::from_millis(self.app.config.shutdown_grace_ms);
        let app = self.app.clone();
        let served = self.wait().await;
        let deadline = tokio::time::Instant::now() + grace;
        while app.socket_limits.open_total() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(SHUTDOWN_POLL).await;
        }
        served
    }

    /// Stops serving.
    pub fn abort(&self) {
        self.task.abort();
    }
}

/// Runs the server on a new Tokio runtime until it fails or the process is
/// interrupted; `ready` is called with the bound address once it listens.
pub fn serve_blocking(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let server = Server::start(config).await.map_err(|e| e.to_string())?;
        ready(server.addr);
        let mut server = server;
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| e.to_string())?;
        tokio::select! {
            r = &mut server.task => return r.map_err(|e| e.to_string())?.map_err(|e| e.to_string()),
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        eprintln!("thaiboard server: stopping (finishing open requests, closing sockets)");
        server.shutdown().await.map_err(|e| e.to_string())
    })
}

/// The whole HTTP application.
pub fn router(app: AppState) -> Router {
    let max_body = app.config.max_body_bytes;
    let body_timeout = std::time::Duration::from_millis(app.config.body_read_timeout_ms);
    let request_timeout = std::time::Duration::from_millis(app.config.request_timeout_ms);
    Router::new()
        .nest("/api", api::routes())
        // lichess's address of a game's PGN, which lichess-bot fetches.
        .route("/game/export/{id}", axum::routing::get(api::pgn))
        .merge(assets::routes())
        .layer(DefaultBodyLimit::max(max_body))
        // A body that stalls fails; one announced larger than the limit is
        // refused before a byte of it is read.
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            body_timeout,
        ))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(max_body))
        // A request whose answer does not begin in time is answered 503
        // (said as JSON by `guard`); streams and sockets run on after it.
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            request_timeout,
        ))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Rate limit per client IP, errors of the layers said as JSON, security
/// headers on every answer, and the access log.
async fn guard(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let logged = app
        .config
        .access_log
        .then(|| (req.method().clone(), req.uri().path().to_string()));
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let ip = proxy::client_ip(peer, req.headers(), &app.config.trusted_proxies);
    let mut req = req;
    req.extensions_mut().insert(extract::ClientIp(ip));
    // `--exempt-loopback` (the load tool's server) lifts this per-address
    // limit for loopback clients, as it lifts the other per-address caps.
    let exempt = app.config.exempt_loopback && ip.is_loopback();
    let mut resp = if !exempt && !app.limiter.allow(ip) {
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many requests: slow down and retry",
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        r
    } else {
        next.run(req).await
    };
    if resp.status() == StatusCode::PAYLOAD_TOO_LARGE
        && resp.headers().get(header::CONTENT_TYPE)
            != Some(&HeaderValue::from_static("application/json"))
    {
        // tower-http's limit answers in plain text: say it as every error is said.
        resp = ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "request body too large (at most {} bytes)",
                app.config.max_body_bytes
            ),
        )
        .into_response();
    }
    if resp.status() == StatusCode::SERVICE_UNAVAILABLE
        && resp.headers().get(header::CONTENT_TYPE).is_none()
    {
        // tower-http's timeout answers with an empty body.
        resp = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!(
                "the server took longer than {} ms to answer: try again",
                app.config.request_timeout_ms
            ),
        )
        .into_response();
    }
    if let Some((method, path)) = logged {
        eprintln!(
            "{} {ip} {method} {path} {} {:.1}ms",
            jiff::Timestamp::now()
                .round(jiff::Unit::Millisecond)
                .unwrap_or(jiff::Timestamp::now()),
            resp.status().as_u16(),
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    let h = resp.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    resp
}
