//! Spectator counts: how many sockets watch each game in this process
//! without playing in it. A watcher's game socket holds a [`Seat`] for its
//! life; each arrival and departure tells the game's sockets the new count
//! as `{"type":"spectators","count":N}` (on the game's hub channel, so the
//! newcomer hears it too). With several server processes each counts its
//! own sockets.

use crate::infra::hub::Hub;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The counts of every watched game (see the module's doc).
#[derive(Default)]
pub struct Spectators {
    counts: Mutex<HashMap<String, usize>>,
}

impl Spectators {
    /// One more spectator of game `id`; the count goes down when the seat
    /// is dropped.
    pub fn join(self: &Arc<Self>, hub: &Arc<Hub>, id: &str) -> Seat {
        let count = {
            let mut counts = self.counts.lock().expect("spectators lock");
            let n = counts.entry(id.to_string()).or_insert(0);
            *n += 1;
            *n
        };
        announce(hub, id, count);
        Seat {
            spectators: self.clone(),
            hub: hub.clone(),
            id: id.to_string(),
        }
    }

    /// The spectators of game `id` in this process.
    pub fn count(&self, id: &str) -> usize {
        let counts = self.counts.lock().expect("spectators lock");
        counts.get(id).copied().unwrap_or(0)
    }
}

/// Tells game `id`'s sockets its spectator count.
fn announce(hub: &Hub, id: &str, count: usize) {
    hub.publish_text(id, || {
        serde_json::json!({ "type": "spectators", "count": count }).to_string()
    });
}

/// A spectator's place in a game's count (see [`Spectators::join`]).
pub struct Seat {
    spectators: Arc<Spectators>,
    hub: Arc<Hub>,
    id: String,
}

impl Drop for Seat {
    fn drop(&mut self) {
        let count = {
            let mut counts = self.spectators.counts.lock().expect("spectators lock");
            let left = counts.get(&self.id).map_or(0, |n| n.saturating_sub(1));
            if left == 0 {
                counts.remove(&self.id);
            } else {
                counts.insert(self.id.clone(), left);
            }
            left
        };
        announce(&self.hub, &self.id, count);
    }
}
