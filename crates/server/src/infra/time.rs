//! The server's source of time. Production reads the system clock; tests
//! move a [`TimeSource`] forward instead of sleeping (days of correspondence
//! play and leave pass in a moment). Every feature reads this one source
//! (through [`crate::App::now_ms`] or the game service's `time`): moves,
//! deadlines and their timers, leave, mail, sessions and their expiry,
//! tournaments, stored timestamps. Only the access log reads the system
//! clock itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tokio::sync::Notify;

/// The time the server goes by: the system clock plus an offset that only
/// tests set (see [`TimeSource::advance`]). Clones share the offset.
#[derive(Clone, Default, Debug)]
pub struct TimeSource {
    offset_ms: Arc<AtomicI64>,
    moved: Arc<Notify>,
}

impl TimeSource {
    /// Milliseconds since the Unix epoch, as this server counts them.
    pub fn now_ms(&self) -> i64 {
        crate::infra::util::now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves this server's time forward by `ms` at once, and wakes whatever
    /// waits for a moment in time (the clocks' timers). For tests.
    pub fn advance(&self, ms: i64) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
        self.moved.notify_waiters();
    }

    /// Resolves when [`TimeSource::advance`] moves the time.
    pub async fn moved(&self) {
        self.moved.notified().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_every_clone() {
        let a = TimeSource::default();
        let b = a.clone();
        let before = b.now_ms();
        a.advance(10 * 86_400_000);
        let after = b.now_ms();
        assert!(after - before >= 10 * 86_400_000);
        assert!(after - before < 10 * 86_400_000 + 60_000);
    }
}
