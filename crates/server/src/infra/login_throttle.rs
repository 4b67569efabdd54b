//! Login throttling: failed logins are counted per account name and per
//! client IP. Past a few free failures each further one locks that name
//! (or address) for a delay that doubles with every failure, up to
//! [`MAX_LOCK`]; a locked login is refused (429 with `Retry-After`) before
//! any password is checked.
//!
//! Names are counted whether or not an account has them, and a login for
//! a missing account checks a stand-in hash (`crate::infra::passwords`), so
//! neither the answers nor their timing tell whether a user exists.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest lock a run of failures can earn.
pub const MAX_LOCK: Duration = Duration::from_secs(15 * 60);

/// A name or address whose last failure is this old starts afresh.
const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);

/// Most names (or addresses) remembered; past it, the oldest-looking are dropped.
const MAX_TRACKED: usize = 100_000;

/// The throttle's settings.
#[derive(Clone, Copy, Debug)]
pub struct ThrottleRules {
    /// Failures per account name before the first lock.
    pub free_per_account: u32,
    /// Failures per client IP before the first lock.
    pub free_per_ip: u32,
    /// The first lock; each further failure doubles it.
    pub first_lock: Duration,
}

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    last: Instant,
    locked_until: Option<Instant>,
}

struct Counter<K> {
    free: u32,
    map: Mutex<HashMap<K, Failures>>,
}

impl<K: Hash + Eq + Clone> Counter<K> {
    fn new(free: u32) -> Self {
        Counter {
            free,
            map: Mutex::new(HashMap::new()),
        }
    }

    fn wait(&self, key: &K, now: Instant) -> Option<Duration> {
        let map = self.map.lock().expect("login throttle lock");
        let until = map.get(key)?.locked_until?;
        (until > now).then(|| until - now)
    }

    fn fail(&self, key: &K, now: Instant, first_lock: Duration) {
        let mut map = self.map.lock().expect("login throttle lock");
        if map.len() >= MAX_TRACKED {
            map.retain(|_, f| now.duration_since(f.last) < FORGET_AFTER);
            if map.len() >= MAX_TRACKED {
                map.clear();
            }
        }
        let f = map.entry(key.clone()).or_insert(Failures {
            count: 0,
            last: now,
            locked_until: None,
        });
        if now.duration_since(f.last) >= FORGET_AFTER {
            f.count = 0;
        }
        f.count += 1;
        f.last = now;
        if f.count > self.free {
            f.locked_until = Some(now + lock_after(f.count - self.free, first_lock));
        }
    }

    fn clear(&self, key: &K) {
        self.map.lock().expect("login throttle lock").remove(key);
    }
}

/// The lock earned by the `n`-th failure past the free ones (n ≥ 1):
/// `first_lock` × 2^(n−1), at most [`MAX_LOCK`].
pub fn lock_after(n: u32, first_lock: Duration) -> Duration {
    let doublings = n.saturating_sub(1).min(30);
    first_lock
        .checked_mul(1u32 << doublings)
        .unwrap_or(MAX_LOCK)
        .min(MAX_LOCK)
}

/// See the module's doc.
pub struct LoginThrottle {
    rules: ThrottleRules,
    accounts: Counter<String>,
    ips: Counter<IpAddr>,
}

impl LoginThrottle {
    /// A throttle with these rules.
    pub fn new(rules: ThrottleRules) -> Self {
        LoginThrottle {
            rules,
            accounts: Counter::new(rules.free_per_account),
            ips: Counter::new(rules.free_per_ip),
        }
    }

    /// How long a login for `account` (its lowercase key) from `ip` must
    /// still wait; `None`: it may be tried now.
    pub fn wait(&self, account: &str, ip: IpAddr) -> Option<Duration> {
        let now = Instant::now();
        let a = self.accounts.wait(&account.to_string(), now);
        let i = self.ips.wait(&ip, now);
        a.max(i)
    }

    /// A login for `account` from `ip` failed.
    pub fn failed(&self, account: &str, ip: IpAddr) {
        let now = Instant::now();
        self.accounts
            .fail(&account.to_string(), now, self.rules.first_lock);
        self.ips.fail(&ip, now, self.rules.first_lock);
    }

    /// A login for `account` succeeded: its failures are forgotten (the
    /// address's are not: one account known to an attacker must not
    /// reopen the guessing of others).
    pub fn succeeded(&self, account: &str) {
        self.accounts.clear(&account.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_double_from_the_first_and_stop_at_the_longest() {
        let first = Duration::from_secs(1);
        assert_eq!(lock_after(1, first), Duration::from_secs(1));
        assert_eq!(lock_after(2, first), Duration::from_secs(2));
        assert_eq!(lock_after(5, first), Duration::from_secs(16));
        assert_eq!(lock_after(40, first), MAX_LOCK);
    }

    #[test]
    fn an_account_locks_after_its_free_failures_and_a_success_clears_it() {
        let t = LoginThrottle::new(ThrottleRules {
            free_per_account: 3,
            free_per_ip: 100,
            first_lock: Duration::from_secs(60),
        });
        let ip: IpAddr = [10, 0, 0, 1].into();
        for _ in 0..3 {
            assert!(t.wait("alice", ip).is_none());
            t.failed("alice", ip);
        }
        assert!(t.wait("alice", ip).is_none(), "three free failures");
        t.failed("alice", ip);
        let w = t.wait("alice", ip).expect("locked");
        assert!(w > Duration::from_secs(50) && w <= Duration::from_secs(60));
        assert!(t.wait("bob", ip).is_none(), "other names are not locked");
        t.succeeded("alice");
        assert!(t.wait("alice", ip).is_none());
    }

    #[test]
    fn an_address_locks_across_names() {
        let t = LoginThrottle::new(ThrottleRules {
            free_per_account: 100,
            free_per_ip: 4,
            first_lock: Duration::from_secs(60),
        });
        let ip: IpAddr = [10, 0, 0, 2].into();
        for n in 0..5 {
            t.failed(&format!("name{n}"), ip);
        }
        assert!(t.wait("fresh-name", ip).is_some());
        assert!(t.wait("fresh-name", [10, 0, 0, 3].into()).is_none());
    }
}
