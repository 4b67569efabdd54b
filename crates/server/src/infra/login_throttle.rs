//! The one throttle of every password check: logins, password changes,
//! and (through `crate::account::password_check`) any other request that
//! asks for a password. Failures are counted
//! - per account name and client address: a few free failures, then a
//!   lock that doubles with every failure, up to [`MAX_LOCK`];
//! - per client address across names, the same way;
//! - per account name across addresses, with a larger free budget: a name
//!   guessed at from many addresses locks too, but more slowly;
//! - per trusted device: a browser that logged in to this account before
//!   (its device cookie, `crate::account::known_browsers`) is held only to its
//!   own failures, so others' guesses never lock its owner out.
//!
//! A locked check is refused (429 with `Retry-After`) before any password
//! is hashed.
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
    /// Failures per account name from one address (or per trusted
    /// device) before the first lock.
    pub free_per_account: u32,
    /// Failures per account name from all addresses together before the
    /// name is locked for browsers it does not know.
    pub free_per_name: u32,
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

/// One password check: whose password, from where, and by which device.
#[derive(Clone, Copy, Debug)]
pub struct Attempt<'a> {
    /// The account name as counted: lower case, at most 64 characters
    /// ([`name_key`]), whether or not an account has it.
    pub name: &'a str,
    /// The client's address.
    pub ip: IpAddr,
    /// The browser's device key when it has logged in to this account
    /// before (`crate::account::known_browsers`); `None` otherwise.
    pub device: Option<&'a str>,
}

/// The key a name is counted under: lower case, at most 64 characters.
pub fn name_key(name: &str) -> String {
    name.chars().take(64).collect::<String>().to_lowercase()
}

/// See the module's doc.
pub struct LoginThrottle {
    rules: ThrottleRules,
    name_and_ip: Counter<(String, IpAddr)>,
    names: Counter<String>,
    ips: Counter<IpAddr>,
    devices: Counter<(String, String)>,
}

impl LoginThrottle {
    /// A throttle with these rules.
    pub fn new(rules: ThrottleRules) -> Self {
        LoginThrottle {
            rules,
            name_and_ip: Counter::new(rules.free_per_account),
            names: Counter::new(rules.free_per_name),
            ips: Counter::new(rules.free_per_ip),
            devices: Counter::new(rules.free_per_account),
        }
    }

    /// How long this check must still wait; `None`: it may be tried now.
    pub fn wait(&self, a: &Attempt) -> Option<Duration> {
        let now = Instant::now();
        if let Some(device) = a.device {
            return self
                .devices
                .wait(&(device.to_string(), a.name.to_string()), now);
        }
        let pair = self.name_and_ip.wait(&(a.name.to_string(), a.ip), now);
        let name = self.names.wait(&a.name.to_string(), now);
        let ip = self.ips.wait(&a.ip, now);
        pair.max(name).max(ip)
    }

    /// This check failed.
    pub fn failed(&self, a: &Attempt) {
        let now = Instant::now();
        let first = self.rules.first_lock;
        if let Some(device) = a.device {
            self.devices
                .fail(&(device.to_string(), a.name.to_string()), now, first);
            return;
        }
        self.name_and_ip
            .fail(&(a.name.to_string(), a.ip), now, first);
        self.names.fail(&a.name.to_string(), now, first);
        self.ips.fail(&a.ip, now, first);
    }

    /// This check succeeded: the failures of its name (from its address,
    /// from everywhere, from its device) are forgotten. The address's are
    /// not: one account known to an attacker must not reopen the guessing
    /// of others.
    pub fn succeeded(&self, a: &Attempt) {
        self.name_and_ip.clear(&(a.name.to_string(), a.ip));
        self.names.clear(&a.name.to_string());
        if let Some(device) = a.device {
            self.devices
                .clear(&(device.to_string(), a.name.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(per_account: u32, per_name: u32, per_ip: u32) -> ThrottleRules {
        ThrottleRules {
            free_per_account: per_account,
            free_per_name: per_name,
            free_per_ip: per_ip,
            first_lock: Duration::from_secs(60),
        }
    }

    fn at<'a>(name: &'a str, ip: [u8; 4]) -> Attempt<'a> {
        Attempt {
            name,
            ip: ip.into(),
            device: None,
        }
    }

    #[test]
    fn locks_double_from_the_first_and_stop_at_the_longest() {
        let first = Duration::from_secs(1);
        assert_eq!(lock_after(1, first), Duration::from_secs(1));
        assert_eq!(lock_after(2, first), Duration::from_secs(2));
        assert_eq!(lock_after(5, first), Duration::from_secs(16));
        assert_eq!(lock_after(40, first), MAX_LOCK);
    }

    #[test]
    fn a_name_from_one_address_locks_after_its_free_failures_and_a_success_clears_it() {
        let t = LoginThrottle::new(rules(3, 100, 100));
        let a = at("alice", [10, 0, 0, 1]);
        for _ in 0..3 {
            assert!(t.wait(&a).is_none());
            t.failed(&a);
        }
        assert!(t.wait(&a).is_none(), "three free failures");
        t.failed(&a);
        let w = t.wait(&a).expect("locked");
        assert!(w > Duration::from_secs(50) && w <= Duration::from_secs(60));
        assert!(t.wait(&at("bob", [10, 0, 0, 1])).is_none(), "other names");
        assert!(
            t.wait(&at("alice", [10, 0, 0, 9])).is_none(),
            "the same name from another address"
        );
        t.succeeded(&a);
        assert!(t.wait(&a).is_none());
    }

    #[test]
    fn a_name_guessed_from_many_addresses_locks_more_slowly_but_not_its_devices() {
        let t = LoginThrottle::new(rules(3, 10, 100));
        for n in 0..10 {
            t.failed(&at("victim", [10, 0, 1, n]));
        }
        assert!(t.wait(&at("victim", [10, 0, 2, 1])).is_none(), "ten free");
        t.failed(&at("victim", [10, 0, 1, 11]));
        assert!(
            t.wait(&at("victim", [10, 0, 2, 1])).is_some(),
            "locked for browsers it does not know"
        );
        let device = Attempt {
            device: Some("d1"),
            ..at("victim", [10, 0, 2, 1])
        };
        assert!(t.wait(&device).is_none(), "a known device is not locked");
        for _ in 0..4 {
            t.failed(&device);
        }
        assert!(t.wait(&device).is_some(), "a device has its own budget");
    }

    #[test]
    fn an_address_locks_across_names() {
        let t = LoginThrottle::new(rules(100, 100, 4));
        for n in 0..5 {
            t.failed(&at(&format!("name{n}"), [10, 0, 0, 2]));
        }
        assert!(t.wait(&at("fresh-name", [10, 0, 0, 2])).is_some());
        assert!(t.wait(&at("fresh-name", [10, 0, 0, 3])).is_none());
    }
}
