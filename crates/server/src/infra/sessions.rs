//! Sessions known to this process, so that every socket command and every
//! request can check its session without asking the database, and the
//! sockets of a session that ends (logout, a new login, expiry) close.
//!
//! - A session read from the database is kept for a while
//!   ([`crate::Config::session_cache_ttl_ms`], 30 s by default);
//!   its expiry is checked on every use.
//! - Ending a session forgets it here at once and tells the sockets of this
//!   process (a broadcast of its hash); with PostgreSQL, the other
//!   processes hear it through [`SESSIONS_CHANNEL`] (`crate::infra::relay`), and a
//!   lost note is caught by the cache's time to live.
//!
//! The cache knows nothing of accounts: it keeps any [`CachedSession`]
//! (the account feature's session is one).

use crate::infra::db::Db;
use crate::infra::time::TimeSource;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// The PostgreSQL notification channel of ended sessions (payload: the hash).
pub const SESSIONS_CHANNEL: &str = "thaiboard_sessions";

/// Most sessions kept; past it, the cache is emptied (and refills on use).
const MAX_CACHED: usize = 100_000;

/// Ended sessions a slow socket may miss before it reads its own from the database.
const ENDED_BACKLOG: usize = 256;

/// What the cache needs to know of a session.
pub trait CachedSession: Clone {
    /// The hash of its token, the key it is cached and ended under.
    fn token_hash(&self) -> &str;
    /// When it expires, ms since the Unix epoch.
    fn expires_at(&self) -> i64;
}

/// See the module's doc.
pub struct SessionCache<S> {
    ttl: Duration,
    time: TimeSource,
    by_hash: Mutex<HashMap<String, (S, Instant)>>,
    ended: broadcast::Sender<Arc<str>>,
}

impl<S: CachedSession> SessionCache<S> {
    /// A cache that trusts what it read for `ttl`, and judges expiry by `time`.
    pub fn new(ttl: Duration, time: TimeSource) -> Self {
        SessionCache {
            ttl,
            time,
            by_hash: Mutex::new(HashMap::new()),
            ended: broadcast::channel(ENDED_BACKLOG).0,
        }
    }

    /// The session with token hash `hash`, if known, fresh and not expired.
    pub fn get(&self, hash: &str) -> Option<S> {
        let map = self.by_hash.lock().expect("session cache lock");
        let (session, at) = map.get(hash)?;
        (at.elapsed() < self.ttl && session.expires_at() > self.time.now_ms())
            .then(|| session.clone())
    }

    /// Keeps a session just read from the database.
    pub fn put(&self, session: &S) {
        let mut map = self.by_hash.lock().expect("session cache lock");
        if map.len() >= MAX_CACHED {
            map.clear();
        }
        map.insert(
            session.token_hash().to_string(),
            (session.clone(), Instant::now()),
        );
    }

    /// The session `hash` ended: forgotten, and its sockets here are told.
    pub fn end(&self, hash: &str) {
        self.by_hash
            .lock()
            .expect("session cache lock")
            .remove(hash);
        let _ = self.ended.send(Arc::from(hash));
    }

    /// Ends session `hash` here and, with PostgreSQL, in the other
    /// processes (a `pg_notify` on [`SESSIONS_CHANNEL`]).
    pub async fn end_everywhere(&self, db: &Db, hash: &str) -> Result<(), sqlx::Error> {
        self.end(hash);
        db.notify(SESSIONS_CHANNEL, hash).await
    }

    /// Hears of every session that ends from now on.
    pub fn watch(&self, session: Option<S>) -> SessionWatch<S> {
        SessionWatch {
            session,
            ended: self.ended.subscribe(),
            time: self.time.clone(),
        }
    }
}

/// What a socket holds to learn that its session ended.
pub struct SessionWatch<S> {
    session: Option<S>,
    ended: broadcast::Receiver<Arc<str>>,
    time: TimeSource,
}

/// Why a socket's session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Logged out, or replaced by a login on the same browser.
    Revoked,
    /// Its lifetime ran out.
    Expired,
}

impl Ended {
    /// The words sent to the client before the socket closes.
    pub fn message(self) -> &'static str {
        match self {
            Ended::Revoked => "your session ended (logged out): reconnect to go on as a visitor",
            Ended::Expired => "your session expired: log in again and reconnect",
        }
    }
}

impl<S: CachedSession> SessionWatch<S> {
    /// The socket's session, if it has one.
    pub fn session(&self) -> Option<&S> {
        self.session.as_ref()
    }

    /// Resolves when the session ends; never, for a socket without one.
    /// Cancel-safe (a `select!` loop may drop and call it again); a missed
    /// note (the socket fell behind) is made good by `recheck`, which asks
    /// whether the session still stands.
    pub async fn ended<F, Fut>(&mut self, recheck: F) -> Ended
    where
        F: Fn(String) -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let Some(session) = &self.session else {
            return std::future::pending().await;
        };
        let left_ms = (session.expires_at() - self.time.now_ms()).max(0) as u64;
        let expiry = tokio::time::sleep(Duration::from_millis(left_ms));
        tokio::pin!(expiry);
        loop {
            tokio::select! {
                _ = &mut expiry => return Ended::Expired,
                note = self.ended.recv() => match note {
                    Ok(hash) if *hash == *session.token_hash() => return Ended::Revoked,
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        if !recheck(session.token_hash().to_string()).await {
                            return Ended::Revoked;
                        }
                    }
                    Err(RecvError::Closed) => return std::future::pending().await,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct Session(String, i64);

    impl CachedSession for Session {
        fn token_hash(&self) -> &str {
            &self.0
        }
        fn expires_at(&self) -> i64 {
            self.1
        }
    }

    fn session(hash: &str, expires_at: i64) -> Session {
        Session(hash.into(), expires_at)
    }

    #[test]
    fn ended_and_expired_sessions_are_not_served_from_the_cache() {
        let cache = SessionCache::<Session>::new(Duration::from_secs(30), TimeSource::default());
        cache.put(&session("a", crate::infra::util::now_ms() + 60_000));
        cache.put(&session("b", crate::infra::util::now_ms() - 1));
        assert!(cache.get("a").is_some());
        assert!(cache.get("b").is_none(), "expired");
        cache.end("a");
        assert!(cache.get("a").is_none(), "ended");
    }

    #[tokio::test]
    async fn a_watch_hears_its_own_session_end_and_expire() {
        let cache = SessionCache::<Session>::new(Duration::from_secs(30), TimeSource::default());
        let mut own = cache.watch(Some(session("a", crate::infra::util::now_ms() + 60_000)));
        cache.end("other");
        cache.end("a");
        let why = tokio::time::timeout(Duration::from_secs(5), own.ended(|_| async { true }))
            .await
            .expect("the watch heard the end");
        assert_eq!(why, Ended::Revoked);
        let mut soon = cache.watch(Some(session("c", crate::infra::util::now_ms() + 50)));
        let why = tokio::time::timeout(Duration::from_secs(5), soon.ended(|_| async { true }))
            .await
            .expect("the watch saw the expiry");
        assert_eq!(why, Ended::Expired);
        let mut none = cache.watch(None);
        let never =
            tokio::time::timeout(Duration::from_millis(50), none.ended(|_| async { true })).await;
        assert!(
            never.is_err(),
            "a socket without a session never ends this way"
        );
    }
}
