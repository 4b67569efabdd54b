//! Token buckets: the request limit ([`RequestLimiter`]: per session, and
//! per client address for the rest), per-address budgets of actions
//! ([`AddressBudget`]), and the [`Bucket`] a WebSocket's messages take from.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: f64) -> Self {
        Bucket {
            tokens: burst,
            last: Instant::now(),
        }
    }
    /// Takes one token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * rate;
        self.tokens = (self.tokens + refill).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Buckets by key: by client IP unless said otherwise.
#[derive(Debug)]
pub struct RateLimiter<K = IpAddr> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// A limiter; `rate` 0 lets everything through.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether one more request of `key` (a client IP...) may go on now.
    pub fn allow(&self, key: K) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let mut buckets = self.buckets.lock().expect("rate limiter lock");
        if buckets.len() > 100_000 {
            // Forget idle clients (a full bucket is the same as no bucket).
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| b.last.elapsed().as_secs_f64() * rate + b.tokens < burst);
        }
        buckets
            .entry(key)
            .or_insert_with(|| Bucket::new(self.burst))
            .take(self.rate, self.burst)
    }
}

/// The limit of HTTP requests (and WebSocket upgrades). A request of a
/// session this process knows takes from that session's bucket, so that
/// the players of a café behind one address each have their own; any
/// other request (no session, an unknown or forged cookie, a token) takes
/// from its client address's bucket, a larger one, which the café's
/// players share while they read the site without a session.
#[derive(Debug)]
pub struct RequestLimiter {
    per_session: RateLimiter<String>,
    per_address: RateLimiter,
}

impl RequestLimiter {
    /// `per_session` and `per_address` are (sustained per second, burst); a rate of 0 is no limit.
    pub fn new(per_session: (f64, f64), per_address: (f64, f64)) -> Self {
        RequestLimiter {
            per_session: RateLimiter::new(per_session.0, per_session.1),
            per_address: RateLimiter::new(per_address.0, per_address.1),
        }
    }

    /// Whether a request from `ip` may go on now; `session` is the key
    /// (its token's hash) of the live session it carries, if any.
    pub fn allow(&self, ip: IpAddr, session: Option<&str>) -> bool {
        match session {
            Some(key) => self.per_session.allow(key.to_string()),
            None => self.per_address.allow(ip),
        }
    }
}

/// The network an address belongs to for budgets that a whole block of
/// addresses shares: its /24 for IPv4 (and IPv4-mapped IPv6), its /48 for
/// IPv6 (what one site is usually given).
pub fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::from([a, b, c, 0])
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => network_of(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                IpAddr::from([s[0], s[1], s[2], 0, 0, 0, 0, 0])
            }
        },
    }
}

/// A budget per address and, larger, per network ([`network_of`]): for
/// actions that must not be repeated at will from one place, whatever
/// session or account they come with (registrations).
#[derive(Debug)]
pub struct AddressBudget {
    per_ip: RateLimiter,
    per_network: RateLimiter,
}

impl AddressBudget {
    /// `per_ip` and `per_network` are (sustained per second, burst); a rate of 0 is no limit.
    pub fn new(per_ip: (f64, f64), per_network: (f64, f64)) -> Self {
        AddressBudget {
            per_ip: RateLimiter::new(per_ip.0, per_ip.1),
            per_network: RateLimiter::new(per_network.0, per_network.1),
        }
    }

    /// Whether one more action from `ip` fits both budgets (and takes from them).
    pub fn allow(&self, ip: IpAddr) -> bool {
        self.per_ip.allow(ip) && self.per_network.allow(network_of(ip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_are_slash_24_and_slash_48() {
        let v4: IpAddr = "203.0.113.77".parse().unwrap();
        assert_eq!(network_of(v4), "203.0.113.0".parse::<IpAddr>().unwrap());
        let mapped: IpAddr = "::ffff:203.0.113.77".parse().unwrap();
        assert_eq!(network_of(mapped), "203.0.113.0".parse::<IpAddr>().unwrap());
        let v6: IpAddr = "2001:db8:1234:5678::9".parse().unwrap();
        assert_eq!(network_of(v6), "2001:db8:1234::".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn each_session_has_its_own_bucket_and_the_rest_share_their_address() {
        let l = RequestLimiter::new((0.001, 2.0), (0.001, 3.0));
        let ip = IpAddr::from([198, 51, 100, 1]);
        for s in ["a", "b", "c"] {
            assert!(
                l.allow(ip, Some(s)) && l.allow(ip, Some(s)),
                "{s}'s own two"
            );
            assert!(!l.allow(ip, Some(s)), "{s}'s bucket is spent");
        }
        assert!(l.allow(ip, None) && l.allow(ip, None) && l.allow(ip, None));
        assert!(!l.allow(ip, None), "the address's bucket is spent");
        assert!(l.allow(IpAddr::from([198, 51, 100, 2]), None));
    }

    #[test]
    fn a_network_shares_one_budget_beside_each_address_its_own() {
        let b = AddressBudget::new((0.001, 2.0), (0.001, 3.0));
        let ip = |d: u8| IpAddr::from([198, 51, 100, d]);
        assert!(b.allow(ip(1)) && b.allow(ip(1)));
        assert!(!b.allow(ip(1)), "the address's budget is spent");
        assert!(b.allow(ip(2)), "another address of the network");
        assert!(!b.allow(ip(3)), "the network's budget is spent");
        assert!(b.allow(IpAddr::from([198, 51, 101, 1])), "another network");
    }
}
