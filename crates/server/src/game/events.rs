//! Game events: after a change is saved, the service publishes what
//! happened; tournaments, conditional moves and the computer opponent
//! subscribe instead of being called from the game code.

use super::model::{Action, Status};
use super::view::GameView;
use std::sync::{Arc, RwLock};

/// Something that happened to a game, after it was saved.
#[derive(Clone, Debug)]
pub struct GameEvent {
    /// The game after the change (without its actions).
    pub game: Arc<GameView>,
    /// The action the change recorded (a move, a count), if any.
    pub action: Option<Action>,
    /// Whether another server process made the change (PostgreSQL): its
    /// follow-up work (tournaments, the computer's reply, conditional moves)
    /// is that process's, so only notifying subscribers act on it.
    pub remote: bool,
}

impl GameEvent {
    /// Whether the change ended the game (finished or aborted).
    pub fn ended(&self) -> bool {
        matches!(self.game.status, Status::Finished | Status::Aborted)
    }
}

/// A subscriber: called in order for every event, on the publishing task.
/// It must return at once (start a task for any real work).
pub type Subscriber = Box<dyn Fn(&GameEvent) + Send + Sync>;

/// The subscribers of game events.
#[derive(Default)]
pub struct EventBus {
    subscribers: RwLock<Vec<Subscriber>>,
}

impl EventBus {
    /// Adds a subscriber for every later event.
    pub fn subscribe(&self, subscriber: Subscriber) {
        self.subscribers
            .write()
            .expect("event bus lock")
            .push(subscriber);
    }

    /// Hands `event` to every subscriber.
    pub fn publish(&self, event: &GameEvent) {
        for s in self.subscribers.read().expect("event bus lock").iter() {
            s(event);
        }
    }
}
