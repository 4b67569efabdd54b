//! The clocks: the deadlines of running games, served by one task that asks
//! the service to check a game when its side to move's time is up.

use crate::infra::time::TimeSource;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::Notify;

/// Deadlines of running clocks, served by one task.
#[derive(Default)]
pub struct Timers {
    inner: Mutex<TimerState>,
    notify: Notify,
}

#[derive(Default)]
struct TimerState {
    queue: BTreeSet<(i64, String)>,
    by_game: HashMap<String, i64>,
}

impl Timers {
    /// Sets (or with `None` clears) game `id`'s deadline.
    pub fn set(&self, id: &str, deadline: Option<i64>) {
        let mut st = self.inner.lock().expect("timer lock");
        if let Some(old) = st.by_game.remove(id) {
            st.queue.remove(&(old, id.to_string()));
        }
        if let Some(d) = deadline {
            st.by_game.insert(id.to_string(), d);
            st.queue.insert((d, id.to_string()));
        }
        drop(st);
        self.notify.notify_one();
    }

    /// Takes the games whose deadline is at or before `now`; also returns the next deadline.
    fn due(&self, now: i64) -> (Vec<String>, Option<i64>) {
        let mut st = self.inner.lock().expect("timer lock");
        let mut due = Vec::new();
        while let Some((d, id)) = st.queue.first().cloned() {
            if d > now {
                break;
            }
            st.queue.pop_first();
            st.by_game.remove(&id);
            due.push(id);
        }
        let next = st.queue.first().map(|(d, _)| *d);
        (due, next)
    }
}

/// What the clock task calls when a game's deadline passes.
pub trait Deadlines: Send + Sync + 'static {
    /// Game `id`'s deadline passed: end it on time if it really is over
    /// (the clock task runs each call on a task of its own).
    fn deadline_passed(self: Arc<Self>, id: String) -> impl Future<Output = ()> + Send;
}

/// The clock task: hands each game whose deadline passed to `owner`,
/// sleeping until the next deadline (or until `time` is moved); it ends
/// when the owner is gone.
pub async fn timer_task<D: Deadlines>(owner: Weak<D>, timers: Arc<Timers>, time: TimeSource) {
    loop {
        let notified = timers.notify.notified();
        let (due, next) = timers.due(time.now_ms());
        if !due.is_empty() {
            let Some(owner) = owner.upgrade() else {
                return;
            };
            for id in due {
                tokio::spawn(owner.clone().deadline_passed(id));
            }
        } else if owner.strong_count() == 0 {
            return;
        }
        let wait = next
            .map(|d| (d - time.now_ms()).clamp(1, 10_000) as u64)
            .unwrap_or(10_000);
        tokio::select! {
            _ = notified => {}
            _ = time.moved() => {}
            _ = tokio::time::sleep(std::time::Duration::from_millis(wait)) => {}
        }
    }
}
