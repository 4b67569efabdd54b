//! Live updates inside this process: a broadcast channel per watched game
//! and one for the lobby. Changes made by other processes arrive through
//! [`crate::infra::relay`].

use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// A message as sent to WebSocket clients (already JSON text). Clones share
/// one buffer, so a move's update is encoded once for all its watchers.
pub type Message = axum::extract::ws::Utf8Bytes;

/// Channels by game id.
pub struct Hub {
    games: Mutex<HashMap<String, broadcast::Sender<Message>>>,
    lobby: broadcast::Sender<Message>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            games: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(16).0,
        }
    }
}

impl Hub {
    /// Receives the updates of game `id`.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Message> {
        let mut games = self.games.lock().expect("hub lock");
        games
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Whether anyone in this process watches game `id`.
    pub fn has_watchers(&self, id: &str) -> bool {
        let games = self.games.lock().expect("hub lock");
        games.get(id).is_some_and(|tx| tx.receiver_count() > 0)
    }

    /// Sends `message` to everyone watching game `id` here.
    pub fn publish(&self, id: &str, message: &serde_json::Value) {
        self.publish_text(id, || message.to_string());
    }

    /// Sends the JSON text made by `text` to everyone watching game `id`
    /// here; the text is made only if someone watches.
    pub fn publish_text(&self, id: &str, text: impl FnOnce() -> String) {
        let mut games = self.games.lock().expect("hub lock");
        if let Some(tx) = games.get(id) {
            if tx.receiver_count() == 0 {
                games.remove(id);
            } else {
                let _ = tx.send(Message::from(text()));
            }
        }
    }

    /// Receives a note each time the lobby changes.
    pub fn subscribe_lobby(&self) -> broadcast::Receiver<Message> {
        self.lobby.subscribe()
    }

    /// Tells lobby watchers to refresh.
    pub fn lobby_changed(&self) {
        let _ = self.lobby.send(Message::from_static(r#"{"type":"lobby"}"#));
    }
}
