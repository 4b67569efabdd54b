//! WebSocket limits beyond one connection: sockets open per client address
//! and per user, and one message rate per user over all of their sockets
//! (a socket's own rate is kept by the socket). A socket holds a
//! [`SocketSlot`] for its life; the slot gives its places back when dropped.

use crate::infra::error::ApiError;
use crate::infra::ratelimit::Bucket;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The limits' settings.
#[derive(Clone, Copy, Debug)]
pub struct SocketRules {
    /// Sockets per client address (0: no cap).
    pub per_ip: usize,
    /// Sockets per user (0: no cap).
    pub per_user: usize,
    /// Messages per second per user over all their sockets (0: no limit).
    pub user_rate: f64,
    /// Games followed or let go (`subscribe`, `unsubscribe`) per second
    /// per user over all their sockets (0: no limit); cheaper than commands
    /// but each reads a game, so they have their own, larger budget.
    pub user_follow_rate: f64,
    /// How many follows a user may make at once (a page that opens with
    /// all of a player's games).
    pub user_follow_burst: f64,
    /// Loopback addresses have no per-address cap.
    pub exempt_loopback: bool,
}

struct UserSockets {
    open: usize,
    bucket: Bucket,
    follows: Bucket,
}

/// See the module's doc.
pub struct SocketLimits {
    rules: SocketRules,
    total: std::sync::atomic::AtomicUsize,
    ips: Mutex<HashMap<IpAddr, usize>>,
    users: Mutex<HashMap<String, UserSockets>>,
}

impl SocketLimits {
    /// Limits with these rules.
    pub fn new(rules: SocketRules) -> Arc<Self> {
        Arc::new(SocketLimits {
            rules,
            total: std::sync::atomic::AtomicUsize::new(0),
            ips: Mutex::new(HashMap::new()),
            users: Mutex::new(HashMap::new()),
        })
    }

    fn burst(&self) -> f64 {
        self.rules.user_rate * 2.0
    }

    /// A place for one more socket from `ip` for `user` (if any), or a 429
    /// saying which cap is full.
    pub fn open(self: &Arc<Self>, ip: IpAddr, user: Option<&str>) -> Result<SocketSlot, ApiError> {
        let count_ip = self.rules.per_ip > 0 && !(self.rules.exempt_loopback && ip.is_loopback());
        let mut ips = self.ips.lock().expect("socket limits lock");
        if count_ip && ips.get(&ip).copied().unwrap_or(0) >= self.rules.per_ip {
            return Err(too_many(format!(
                "too many WebSockets open from your address (at most {}): close some",
                self.rules.per_ip
            )));
        }
        if let Some(user) = user {
            let mut users = self.users.lock().expect("socket limits lock");
            let entry = users
                .entry(user.to_string())
                .or_insert_with(|| UserSockets {
                    open: 0,
                    bucket: Bucket::new(self.burst()),
                    follows: Bucket::new(self.rules.user_follow_burst),
                });
            if self.rules.per_user > 0 && entry.open >= self.rules.per_user {
                return Err(too_many(format!(
                    "too many WebSockets open for your account (at most {}): close other tabs",
                    self.rules.per_user
                )));
            }
            entry.open += 1;
        }
        if count_ip {
            *ips.entry(ip).or_insert(0) += 1;
        }
        self.total
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(SocketSlot {
            limits: self.clone(),
            ip: count_ip.then_some(ip),
            user: user.map(str::to_string),
        })
    }

    /// Sockets open in all (every address, loopback included).
    pub fn open_total(&self) -> usize {
        self.total.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Sockets open for `user`.
    pub fn open_for(&self, user: &str) -> usize {
        let users = self.users.lock().expect("socket limits lock");
        users.get(user).map_or(0, |u| u.open)
    }
}

fn too_many(message: String) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_sockets", message)
}

/// One socket's places; given back when dropped.
pub struct SocketSlot {
    limits: Arc<SocketLimits>,
    ip: Option<IpAddr>,
    user: Option<String>,
}

impl SocketSlot {
    /// Whether the socket's user may send one more message now (sockets
    /// without a user are held to their own rate only).
    pub fn allow_message(&self) -> bool {
        let rate = self.limits.rules.user_rate;
        let Some(user) = &self.user else { return true };
        if rate <= 0.0 {
            return true;
        }
        let burst = self.limits.burst();
        let mut users = self.limits.users.lock().expect("socket limits lock");
        users
            .get_mut(user)
            .is_none_or(|u| u.bucket.take(rate, burst))
    }

    /// Whether the socket's user may follow or let go of one more game now
    /// (see [`SocketRules::user_follow_rate`]).
    pub fn allow_follow(&self) -> bool {
        let rate = self.limits.rules.user_follow_rate;
        let Some(user) = &self.user else { return true };
        if rate <= 0.0 {
            return true;
        }
        let burst = self.limits.rules.user_follow_burst;
        let mut users = self.limits.users.lock().expect("socket limits lock");
        users
            .get_mut(user)
            .is_none_or(|u| u.follows.take(rate, burst))
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.limits
            .total
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(ip) = self.ip {
            let mut ips = self.limits.ips.lock().expect("socket limits lock");
            if let Some(n) = ips.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    ips.remove(&ip);
                }
            }
        }
        if let Some(user) = &self.user {
            let mut users = self.limits.users.lock().expect("socket limits lock");
            if let Some(u) = users.get_mut(user) {
                u.open -= 1;
                if u.open == 0 {
                    users.remove(user);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> SocketRules {
        SocketRules {
            per_ip: 3,
            per_user: 2,
            user_rate: 5.0,
            user_follow_rate: 1.0,
            user_follow_burst: 4.0,
            exempt_loopback: false,
        }
    }

    #[test]
    fn follows_have_their_own_budget_shared_by_a_users_sockets() {
        let limits = SocketLimits::new(rules());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let a = limits.open(ip, Some("u1")).unwrap();
        let b = limits.open(ip, Some("u1")).unwrap();
        let follows = (0..10)
            .filter(|i| {
                if i % 2 == 0 {
                    a.allow_follow()
                } else {
                    b.allow_follow()
                }
            })
            .count();
        assert_eq!(follows, 4, "the burst, over both sockets");
        // Spent follows leave commands untouched, and another user has their own.
        assert!(a.allow_message());
        let c = limits.open([10, 0, 0, 2].into(), Some("u2")).unwrap();
        assert!(c.allow_follow());
    }

    #[test]
    fn sockets_are_capped_per_address_and_per_user() {
        let limits = SocketLimits::new(rules());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let a = limits.open(ip, Some("u1")).unwrap();
        let _b = limits.open(ip, Some("u1")).unwrap();
        assert_eq!(
            limits.open(ip, Some("u1")).err().unwrap().code,
            "too_many_sockets"
        );
        let _c = limits.open(ip, Some("u2")).unwrap();
        assert!(limits.open(ip, None).is_err(), "the address is full");
        assert!(limits.open([10, 0, 0, 2].into(), Some("u2")).is_ok());
        drop(a);
        assert_eq!(limits.open_for("u1"), 1);
        assert!(limits.open(ip, Some("u1")).is_ok());
    }

    #[test]
    fn a_users_sockets_share_one_message_rate() {
        let limits = SocketLimits::new(rules());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let a = limits.open(ip, Some("u1")).unwrap();
        let b = limits.open(ip, Some("u1")).unwrap();
        // A burst of twice the rate, whichever socket sends.
        let allowed = (0..20)
            .filter(|i| {
                if i % 2 == 0 {
                    a.allow_message()
                } else {
                    b.allow_message()
                }
            })
            .count();
        assert_eq!(allowed, 10);
        let anon = limits.open([10, 0, 0, 3].into(), None).unwrap();
        assert!((0..100).all(|_| anon.allow_message()));
    }
}
