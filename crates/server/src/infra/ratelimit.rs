//! A per-client-IP token bucket for HTTP requests, and a per-connection one
//! for WebSocket messages.

use std::collections::HashMap;
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

/// Buckets by client IP.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    /// A limiter; `rate` 0 lets everything through.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether a request from `ip` may go on now.
    pub fn allow(&self, ip: IpAddr) -> bool {
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
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.burst))
            .take(self.rate, self.burst)
    }
}
