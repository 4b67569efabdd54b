//! Memory given back after a crowd. Thousands of connections (an attack of
//! slow connections, sockets that stopped answering) leave the allocator's
//! per-thread pages behind once they close: a block freed by another thread
//! waits for its own thread to allocate again, and an idle server does not.
//! So when the open connections fall to half of their high-water mark (of
//! at least [`CROWD`]), every runtime worker is asked to give its free
//! memory back the next time it parks ([`on_park`], the runtime's
//! `on_thread_park` hook), through the release function the binary set
//! ([`set_release`]: the binary chose the allocator, the library does not
//! know it).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Connections open at once from which their closing calls for a release.
pub const CROWD: usize = 256;

static RELEASE: OnceLock<fn()> = OnceLock::new();
static EPOCH: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static SEEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Sets how a thread gives its free memory back (for mimalloc,
/// `mi_collect(true)`); the first call wins.
pub fn set_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// For the runtime's `on_thread_park`: releases this thread's free memory
/// if a release was asked for since it last did.
pub fn on_park() {
    let epoch = EPOCH.load(Ordering::Relaxed);
    if SEEN.with(|s| s.replace(epoch)) != epoch
        && let Some(release) = RELEASE.get()
    {
        release();
    }
}

/// Asks every worker to release its free memory when next idle, and wakes
/// them (a few empty tasks, which idle workers steal) so that they park.
pub fn ask_release() {
    EPOCH.fetch_add(1, Ordering::Relaxed);
    for _ in 0..16 {
        tokio::spawn(async {});
    }
}

/// Watches `open` (connections open now) every second until `stop`: when
/// it falls to half of its high-water mark, and that mark was a crowd, a
/// release is asked for.
pub async fn watch(open: impl Fn() -> usize, stop: impl Fn() -> bool) {
    let mut high = 0;
    while !stop() {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = open();
        high = high.max(now);
        if high >= CROWD && now <= high / 2 {
            ask_release();
            high = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_releases_once_per_request() {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        set_release(|| {
            CALLS.fetch_add(1, Ordering::Relaxed);
        });
        on_park();
        let before = CALLS.load(Ordering::Relaxed);
        EPOCH.fetch_add(1, Ordering::Relaxed);
        on_park();
        on_park();
        assert_eq!(CALLS.load(Ordering::Relaxed), before + 1);
    }
}
