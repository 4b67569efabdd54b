//! Starting and stopping the server: every feature is wired here in the
//! order it needs (the database, the game service and its subscribers, the
//! sessions, the limits), then the listener serves the router.

use crate::{
    App, AppState, Config, account, analysis, bot_api, computer, conditional, explorer, game,
    infra, pools, puzzle, social, tournament,
};
use std::net::SocketAddr;
use std::sync::Arc;

/// How often a stopping server looks whether its sockets have closed.
const SHUTDOWN_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// A started server.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its state.
    pub app: AppState,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    stop: tokio::sync::watch::Sender<bool>,
    /// The lock on the SQLite database (`infra::data_lock`), held while serving.
    data_lock: std::sync::Mutex<Option<infra::data_lock::DataLock>>,
}

impl Server {
    /// Opens the database (running migrations), binds the address and starts serving.
    pub async fn start(config: Config) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        let tablebases = match &config.tablebase_dir {
            Some(dir) => Some(Arc::new(analysis::tablebase::Tablebases::open(dir)?)),
            None => None,
        };
        // Before anything opens it: no second server (nor a restore) on
        // the same SQLite file while this one serves.
        let data_lock = match infra::db::sqlite_file(&config.database_url()) {
            Some(file) => Some(infra::data_lock::DataLock::take(&file, "serve")?),
            None => None,
        };
        let db = infra::db::open_with(&config.database_url(), config.durability).await?;
        // The shipped puzzles: new ones added, stored ones kept with their ratings.
        puzzle::load_shipped(&db, config.time.now_ms()).await?;
        let hub = Arc::new(infra::hub::Hub::default());
        let games = game::Games::new(db.clone(), hub.clone(), config.time.clone());
        let engine_play = computer::start(
            &games,
            config.engine_searches,
            config.engine_threads,
            tablebases.clone(),
        );
        games.arena_first_move_ms.store(
            config.arena_first_move_ms,
            std::sync::atomic::Ordering::Relaxed,
        );
        tournament::subscribe(&games);
        conditional::subscribe(&games);
        explorer::subscribe(&games);
        let bots = Arc::new(bot_api::BotHub::default());
        bot_api::subscribe(&games, bots.clone());
        social::notify::subscribe(&games, hub.clone());
        account::names::backfill_skeletons(&db).await?;
        games.start().await?;
        let pools = pools::start(&games);
        engine_play.resume().await?;
        tournament::resume(&games).await?;
        explorer::start_sweep(&games);
        let sessions = Arc::new(account::auth::SessionCache::new(
            std::time::Duration::from_millis(config.session_cache_ttl_ms),
            games.time.clone(),
        ));
        if db.backend == infra::db::Backend::Postgres {
            bots.relay_through(db.clone(), games.instance.clone());
            tokio::spawn(infra::relay::listen_postgres(
                db.url.clone(),
                Arc::downgrade(&games),
                Arc::downgrade(&bots),
                Arc::downgrade(&hub),
                Arc::downgrade(&sessions),
            ));
        }
        account::guests::start_janitor(&db, &sessions, &games.time, config.guest_unused_after_secs);
        let limiter = infra::ratelimit::RequestLimiter::new(
            (config.rate_per_sec, config.rate_burst),
            (config.address_rate_per_sec, config.address_rate_burst),
        );
        let guest_limiter = infra::ratelimit::RateLimiter::new(
            config.guests_per_ip_per_hour / 3600.0,
            config.guests_per_ip_burst,
        );
        let reset_limiter = infra::ratelimit::RateLimiter::new(
            account::security::model::RESETS_PER_IP_PER_HOUR / 3600.0,
            account::security::model::RESETS_PER_IP_PER_HOUR,
        );
        let registrations = infra::ratelimit::AddressBudget::new(
            (
                config.registrations_per_ip_per_hour / 3600.0,
                config.registrations_per_ip_burst,
            ),
            (
                config.registrations_per_network_per_hour / 3600.0,
                config.registrations_per_network_burst,
            ),
        );
        let mailer = match &config.smtp_url {
            Some(url) => Some(Arc::new(
                social::mail::Mailer::new(
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
        let passwords = infra::passwords::Passwords::new(
            config.argon2_memory_kib,
            config.password_hashes_at_once,
        );
        let login_throttle =
            infra::login_throttle::LoginThrottle::new(infra::login_throttle::ThrottleRules {
                free_per_account: config.login_free_failures_per_account,
                free_per_name: config.login_free_failures_per_name,
                free_per_ip: config.login_free_failures_per_ip,
                first_lock: std::time::Duration::from_millis(config.login_first_lock_ms),
            });
        let socket_limits =
            infra::socket_limits::SocketLimits::new(infra::socket_limits::SocketRules {
                per_ip: config.max_sockets_per_ip,
                per_user: config.max_sockets_per_user,
                user_rate: config.ws_user_rate_per_sec,
                user_follow_rate: config.ws_user_rate_per_sec * game::ws::FOLLOW_RATE_FACTOR,
                user_follow_burst: (2 * game::ws::MAX_SUBSCRIPTIONS) as f64,
                exempt_loopback: config.exempt_loopback,
            });
        config.bind = addr;
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let app = Arc::new(App {
            config,
            db,
            games,
            pools,
            engine_play,
            hub,
            spectators: Default::default(),
            sessions,
            passwords,
            login_throttle,
            registrations,
            socket_limits,
            limiter,
            guest_limiter,
            reset_limiter,
            bots,
            chat_limits: social::chat::ChatLimits::default(),
            live_slots: analysis::live::slots(),
            mailer,
            tablebases,
            stopping: stopping.clone(),
        });
        social::mail::start(&app);
        infra::idempotency::start_sweeper(&app.db, &app.games.time, app.stopping.clone());
        let router = crate::router::router(app.clone());
        let (fd_before, fd_now) = infra::listen::raise_fd_limit();
        let total_cap = app
            .config
            .max_connections
            .unwrap_or_else(|| infra::listen::connection_cap_for(fd_now));
        eprintln!(
            "thaiboard server: open-file limit {fd_now} (was {fd_before}); at most {total_cap} connections at once"
        );
        let limits = infra::listen::ConnectionLimits::new(
            app.config.max_connections_per_ip,
            total_cap,
            app.config.exempt_loopback,
            app.config.trusted_proxies.clone(),
        );
        {
            let (limits, stopping) = (limits.clone(), stopping.clone());
            tokio::spawn(infra::memory::watch(
                move || limits.open_total(),
                move || *stopping.borrow(),
            ));
        }
        let rules = infra::listen::ConnectionRules {
            header_read_timeout: std::time::Duration::from_millis(
                app.config.header_read_timeout_ms,
            ),
            shutdown_grace: std::time::Duration::from_millis(app.config.shutdown_grace_ms),
        };
        let task = tokio::spawn(infra::listen::serve(
            listener, router, limits, rules, stopping,
        ));
        Ok(Server {
            addr,
            app,
            task,
            stop,
            data_lock: std::sync::Mutex::new(data_lock),
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

    /// Stops serving, and lets go of the database's lock.
    pub fn abort(&self) {
        self.task.abort();
        self.data_lock
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
    }
}

/// Runs the server on a new Tokio runtime until it fails or the process is
/// interrupted; `ready` is called with the bound address once it listens.
pub fn serve_blocking(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(infra::memory::on_park)
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
