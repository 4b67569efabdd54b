//! Server configuration.

use std::net::SocketAddr;
use std::path::PathBuf;

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port.
    pub bind: SocketAddr,
    /// Database URL: `sqlite://PATH` or `postgres://...`. `None`: SQLite file
    /// `thaiboard.db` in [`Config::data_dir`].
    pub database_url: Option<String>,
    /// Folder for the default SQLite file.
    pub data_dir: PathBuf,
    /// How commits are made durable (`--durability`).
    pub durability: crate::infra::db::Durability,
    /// Mark cookies `Secure` (set when the site is served over HTTPS).
    pub secure_cookies: bool,
    /// The site's address as players reach it (`https://thaiboard.example`),
    /// for links in exports; `None`: taken from each request's `Host`.
    pub public_url: Option<String>,
    /// SMTP server for e-mail (`smtp://[user:pass@]host[:port]`); `None`: no mail.
    pub smtp_url: Option<String>,
    /// The sender of e-mail.
    pub mail_from: String,
    /// How often correspondence deadlines are looked at for warnings, s.
    pub mail_sweep_secs: u64,
    /// Requests per second allowed per session (sustained); 0 disables the limit.
    pub rate_per_sec: f64,
    /// Burst of requests allowed per session above the sustained rate.
    pub rate_burst: f64,
    /// Requests per second allowed per client address for requests without
    /// a live session (sustained): larger, since a café's players share it
    /// until they have sessions; 0: no limit.
    pub address_rate_per_sec: f64,
    /// Burst of requests without a live session allowed per client address.
    pub address_rate_burst: f64,
    /// Largest request body accepted, in bytes (a larger `Content-Length`
    /// is refused before the body is read).
    pub max_body_bytes: usize,
    /// Longest wait for a request's headers, ms: from the connection's
    /// start or the previous answer, so also how long an idle connection stays.
    pub header_read_timeout_ms: u64,
    /// Longest wait for the next piece of a request's body, ms.
    pub body_read_timeout_ms: u64,
    /// Longest time from a request to its answer's head, ms (a streamed
    /// body or a WebSocket after its upgrade is not limited); a request
    /// that takes longer is answered 503 `timeout`.
    pub request_timeout_ms: u64,
    /// Write one line per request to standard error: time, client address
    /// (as the limits see it, behind `--trust-proxy` the forwarded one),
    /// method, path without its query, status and duration.
    pub access_log: bool,
    /// On stopping, longest wait for open requests and sockets to finish, ms.
    pub shutdown_grace_ms: u64,
    /// Connections open at once from one client address (0: no cap).
    pub max_connections_per_ip: usize,
    /// Connections open at once in all; past it new ones are closed unread.
    /// `None`: derived from the open-file limit (raised to its hard limit at
    /// start): nine tenths of it less 256.
    pub max_connections: Option<usize>,
    /// Seconds between the pings a WebSocket is sent; a socket that sent
    /// nothing (not even a pong) for two of them is closed (0: never).
    pub ws_ping_secs: u64,
    /// WebSockets open at once from one client address (0: no cap).
    pub max_sockets_per_ip: usize,
    /// WebSockets open at once for one user (0: no cap).
    pub max_sockets_per_user: usize,
    /// WebSocket messages per second allowed per user over all their
    /// sockets (burst twice this; 0: no limit).
    pub ws_user_rate_per_sec: f64,
    /// Reverse proxies whose `X-Forwarded-For` names the client
    /// (`--trust-proxy`); they have no connection cap themselves.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Loopback clients (127.0.0.0/8, ::1) are not held to the per-address
    /// caps (requests per second, connections, sockets, new guests): for the
    /// load tool, whose every player comes from one address.
    pub exempt_loopback: bool,
    /// Largest WebSocket message accepted, in bytes.
    pub max_ws_message_bytes: usize,
    /// WebSocket messages per second allowed per connection (burst is twice this).
    pub ws_rate_per_sec: f64,
    /// A guest who has played no game is removed this long after it was made, s.
    pub guest_unused_after_secs: i64,
    /// New guests (a cookie-less `GET /api/session`, made on a visitor's
    /// first action) per hour per client address, sustained.
    pub guests_per_ip_per_hour: f64,
    /// New guests a client address may make at once before that rate applies.
    pub guests_per_ip_burst: f64,
    /// Registrations per hour per client address, sustained, whatever
    /// session they come from (0: no limit).
    pub registrations_per_ip_per_hour: f64,
    /// Registrations a client address may make at once before that rate applies.
    pub registrations_per_ip_burst: f64,
    /// Registrations per hour per network (/24 of IPv4, /48 of IPv6), sustained (0: no limit).
    pub registrations_per_network_per_hour: f64,
    /// Registrations a network may make at once before that rate applies.
    pub registrations_per_network_burst: f64,
    /// Session lifetime in seconds.
    pub session_ttl_secs: i64,
    /// How long a session read from the database is trusted without
    /// reading it again, ms: bounds how late a process hears of a logout
    /// made in another process whose note was lost (0: read every time).
    pub session_cache_ttl_ms: u64,
    /// argon2 memory cost in KiB (default 19456, OWASP's minimum; tests may lower it).
    pub argon2_memory_kib: u32,
    /// Password hashes (registrations, logins) computed at once; more wait
    /// their turn. Bounds the memory logins take: this many × argon2's memory.
    pub password_hashes_at_once: usize,
    /// Wrong passwords for one account name from one client address (or
    /// from one device that logged in to it before) before they are locked.
    pub login_free_failures_per_account: u32,
    /// Wrong passwords for one account name from all addresses together
    /// before the name is locked for browsers it does not know (slower
    /// than the per-address lock, so that no stranger locks an owner out).
    pub login_free_failures_per_name: u32,
    /// Failed logins from one client address before its logins are locked.
    pub login_free_failures_per_ip: u32,
    /// The first login lock, ms; each further failure doubles it (up to 15 minutes).
    pub login_first_lock_ms: u64,
    /// Engine searches allowed at once (games against the computer); 0
    /// pauses the computer: its moves wait for a server that allows searches.
    pub engine_searches: usize,
    /// Threads of each full-strength search (the computer's levels 7 and
    /// 8, the analysis board, game reviews): more than one searches with
    /// helper threads over a shared table (lazy SMP). A server may run
    /// `engine_searches` games' searches and two analyses at once, each
    /// with this many threads.
    pub engine_threads: usize,
    /// Arena games where a side has not made its first move after this many
    /// milliseconds are called off (the absent player leaves the pool).
    pub arena_first_move_ms: u64,
    /// Folder of endgame tables for `GET /api/tablebase` (`None`: no tables).
    pub tablebase_dir: Option<PathBuf>,
    /// Days of leave each registered player may take a year (see [`crate::leave`]).
    pub leave_days: i64,
    /// The time the server goes by: the system clock, moved forward only by tests.
    pub time: crate::infra::time::TimeSource,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: None,
            data_dir: PathBuf::from("."),
            durability: crate::infra::db::Durability::Normal,
            secure_cookies: false,
            public_url: None,
            smtp_url: None,
            mail_from: "thaiboard <noreply@localhost>".into(),
            mail_sweep_secs: 600,
            rate_per_sec: 20.0,
            rate_burst: 60.0,
            address_rate_per_sec: 100.0,
            address_rate_burst: 300.0,
            max_body_bytes: 16 * 1024,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 10_000,
            request_timeout_ms: 30_000,
            access_log: false,
            shutdown_grace_ms: 10_000,
            // A café's 40 to 100 players behind one address, each with a
            // few connections (pages, sockets, a waiting pool); the total
            // cap (`max_connections`) guards the descriptors.
            max_connections_per_ip: 512,
            max_connections: None,
            ws_ping_secs: 30,
            max_sockets_per_ip: 64,
            max_sockets_per_user: 16,
            ws_user_rate_per_sec: 40.0,
            trusted_proxies: Vec::new(),
            exempt_loopback: false,
            max_ws_message_bytes: 4 * 1024,
            ws_rate_per_sec: 20.0,
            guest_unused_after_secs: 24 * 3600,
            // A café, a school or a mobile carrier puts many players behind
            // one address: 40 may start playing at once, then 60 an hour.
            guests_per_ip_per_hour: 60.0,
            guests_per_ip_burst: 40.0,
            registrations_per_ip_per_hour: 3.0,
            registrations_per_ip_burst: 5.0,
            registrations_per_network_per_hour: 10.0,
            registrations_per_network_burst: 20.0,
            session_ttl_secs: 30 * 24 * 3600,
            session_cache_ttl_ms: 30_000,
            argon2_memory_kib: 19456,
            password_hashes_at_once: std::thread::available_parallelism().map_or(1, |n| n.get()),
            login_free_failures_per_account: 5,
            login_free_failures_per_name: 30,
            login_free_failures_per_ip: 20,
            login_first_lock_ms: 1000,
            engine_searches: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            engine_threads: 1,
            arena_first_move_ms: 60_000,
            tablebase_dir: None,
            leave_days: 30,
            time: crate::infra::time::TimeSource::default(),
        }
    }
}

impl Config {
    /// The database URL in use: the configured one, else the default SQLite file.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("thaiboard.db").display()),
        }
    }
}
