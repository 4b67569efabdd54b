//! Memory given back after a crowd. Thousands of connections (an attack of
//! slow connections, sockets that stopped answering) leave the allocator's
//! per-thread pages behind once they close: a block freed by another thread
//! waits for its own thread to allocate again, and an idle server does not.
//! So when the open connections fall to half of their high-water mark (of
//! at least [`CROWD`]), every runtime worker is asked to give its free
//! memory back the next time it parks ([`on_park`], the runtime's
//! `on_thread_park` hook), through the release function the binary set
//! ([`set_release`]: the binary chose the allocator, the library does not
//! know it). The rest of a crowd leaves after that moment, and a worker
//! that released before a block came back to it keeps that block: so the
//! release is asked for again each second for [`AFTER_CROWD_SECS`], and
//! for as long as the crowd keeps leaving.

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

/// Seconds during which a release is asked for again, once a second, after
/// a crowd fell to half or the last of it left: longer than the header
/// timeout (10 s), by which the slowest of a crowd of slow connections is
/// gone.
pub const AFTER_CROWD_SECS: u32 = 15;

/// When to release, from the number of open connections read once a second.
#[derive(Debug, Default)]
struct Releases {
    /// The most connections open at once since the last crowd fell.
    high: usize,
    /// Releases still due, one a second, after a crowd fell.
    due: u32,
    /// The connections open at the last tick.
    last: usize,
}

impl Releases {
    /// Takes the connections open now; says whether to ask a release.
    fn tick(&mut self, now: usize) -> bool {
        self.high = self.high.max(now);
        let falling = now < self.last;
        self.last = now;
        if self.high >= CROWD && now <= self.high / 2 {
            self.high = now;
            self.due = AFTER_CROWD_SECS;
        } else if falling && self.due > 0 {
            // The rest of a fallen crowd is still leaving (its last quarter
            // falls below a crowd and halves no more): keep releasing.
            self.due = AFTER_CROWD_SECS;
        }
        let release = self.due > 0;
        self.due = self.due.saturating_sub(1);
        release
    }
}

/// Watches `open` (connections open now) every second until `stop`: when
/// it falls to half of its high-water mark, and that mark was a crowd, a
/// release is asked for, and again each second for [`AFTER_CROWD_SECS`].
pub async fn watch(open: impl Fn() -> usize, stop: impl Fn() -> bool) {
    let mut releases = Releases::default();
    while !stop() {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if releases.tick(open()) {
            ask_release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowd_falling_to_half_is_released_for_a_while_and_then_left_alone() {
        let mut r = Releases::default();
        // Ordinary use: never a crowd, never a release.
        assert!((0..100).all(|i| !r.tick(i % (CROWD - 1))));
        // A crowd: nothing while it stands or shrinks by less than half.
        for now in [1000, 4000, 3000, 2001] {
            assert!(!r.tick(now), "{now}");
        }
        // Half gone: a release a second while it keeps falling (2000 to
        // 0, the last 200 of it one a tick over 200 ticks, below a crowd),
        // then for AFTER_CROWD_SECS from the last fall, then none.
        let leaving = [2000, 1500, 800, 400, 200]
            .into_iter()
            .chain((0..200).rev());
        let ticks: Vec<bool> = leaving
            .chain(std::iter::repeat_n(0, 30))
            .map(|now| r.tick(now))
            .collect();
        let released = ticks.iter().take_while(|&&b| b).count();
        assert_eq!(released, 5 + 200 + AFTER_CROWD_SECS as usize - 1);
        assert!(ticks[released..].iter().all(|&b| !b));
        // A second crowd is released again.
        assert!(!r.tick(600));
        assert!(r.tick(300));
    }

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
