//! The Bot API's live state in this process: a channel of events per user
//! (what `GET /api/stream/event` reads), a channel of notes per game (chat
//! lines, a player's stream going or coming back), the open streams of each
//! token (a limit per token) and which players have a game stream open.
//!
//! With PostgreSQL, notes and declines are also relayed to the other server
//! processes (see [`crate::infra::relay`]), so a bot hears them whichever process
//! its streams are on.

use super::token_cache::TokenCache;
use crate::infra::db::Db;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};
use tokio::sync::broadcast;

/// The PostgreSQL channel of the Bot API's notes between processes
/// (payload: JSON, see [`BotHub::receive_remote`]), which [`crate::infra::relay`] follows.
pub const BOTS_CHANNEL: &str = "thaiboard_bots";

/// Most streams (event and game streams together) one token may hold open.
pub const MAX_STREAMS_PER_TOKEN: usize = 8;

/// A line for a game's streams: to every player, or to one (`to`, a user id).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Note {
    /// The user id it is for; `None`: everyone.
    pub to: Option<String>,
    /// The ndjson line (without its newline).
    pub line: String,
}

/// A line for a user's event streams, with what it announces (such as
/// `challenge abc123` or `gameStart abc123`), so that a stream that also
/// sent its pending games and challenges from the database skips the live
/// line it already sent.
#[derive(Clone, Debug)]
pub struct UserLine {
    /// What the line announces: its type and its game or challenge id.
    pub about: String,
    /// The ndjson line, with its newline.
    pub line: String,
}

/// Broadcast channels by key, made on first subscription and dropped
/// when a send finds no receiver left.
struct Channels<T>(Mutex<HashMap<String, broadcast::Sender<T>>>);

impl<T> Default for Channels<T> {
    fn default() -> Self {
        Channels(Mutex::new(HashMap::new()))
    }
}

impl<T: Clone> Channels<T> {
    fn subscribe(&self, key: &str) -> broadcast::Receiver<T> {
        let mut map = self.0.lock().expect("bot hub lock");
        map.entry(key.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    fn listened(&self, key: &str) -> bool {
        let map = self.0.lock().expect("bot hub lock");
        map.get(key).is_some_and(|tx| tx.receiver_count() > 0)
    }

    fn listened_keys(&self) -> Vec<String> {
        let map = self.0.lock().expect("bot hub lock");
        map.iter()
            .filter(|(_, tx)| tx.receiver_count() > 0)
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn send(&self, key: &str, value: T) {
        let mut map = self.0.lock().expect("bot hub lock");
        if let Some(tx) = map.get(key) {
            if tx.receiver_count() == 0 {
                map.remove(key);
            } else {
                let _ = tx.send(value);
            }
        }
    }
}

/// The Bot API's channels and counters.
#[derive(Default)]
pub struct BotHub {
    users: Channels<UserLine>,
    games: Channels<Note>,
    streams: Mutex<HashMap<String, usize>>,
    present: Mutex<HashMap<(String, String), usize>>,
    /// Games whose `gameStart` was announced (so that it is sent once).
    started: Mutex<HashSet<String>>,
    /// Challenges being declined, with the reason (so that their end reads as declined).
    declining: Mutex<HashMap<String, String>>,
    /// Tokens known to this process.
    pub tokens: TokenCache,
    /// Where notes go for the other processes: the database and this
    /// process's instance id (PostgreSQL only).
    relay: OnceLock<(Db, String)>,
}

/// What one process tells the others on [`BOTS_CHANNEL`].
#[derive(Serialize, Deserialize)]
struct Relayed {
    /// The sending process's instance id (its own notes come back to it).
    from: String,
    #[serde(flatten)]
    what: RelayedKind,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum RelayedKind {
    /// A note for game `game`'s streams.
    Note { game: String, note: Note },
    /// Challenge `id` is being declined for `reason` (`None`: not any more).
    Declining { id: String, reason: Option<String> },
    /// Token `id` was revoked.
    TokenRevoked { id: String },
    /// User `id` became a bot account.
    UserChanged { id: String },
}

/// An open stream, counted against its token until dropped.
pub struct StreamSlot {
    hub: std::sync::Arc<BotHub>,
    token_id: String,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = self.hub.streams.lock().expect("bot hub lock");
        if let Some(n) = streams.get_mut(&self.token_id) {
            *n -= 1;
            if *n == 0 {
                streams.remove(&self.token_id);
            }
        }
    }
}

/// A player's open game stream; dropping it tells the opponent when it was
/// the player's last one.
pub struct Presence {
    hub: std::sync::Arc<BotHub>,
    game_id: String,
    user_id: String,
    opponent_id: Option<String>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let key = (self.game_id.clone(), self.user_id.clone());
        let gone = {
            let mut present = self.hub.present.lock().expect("bot hub lock");
            let n = present.entry(key.clone()).or_insert(1);
            *n -= 1;
            let gone = *n == 0;
            if gone {
                present.remove(&key);
            }
            gone
        };
        if gone {
            self.hub
                .tell_opponent(&self.game_id, self.opponent_id.as_deref(), true);
        }
    }
}

impl BotHub {
    /// Takes a stream slot of token `token_id`; `None` when it holds
    /// [`MAX_STREAMS_PER_TOKEN`] already.
    pub fn open_stream(self: &std::sync::Arc<Self>, token_id: &str) -> Option<StreamSlot> {
        let mut streams = self.streams.lock().expect("bot hub lock");
        let n = streams.entry(token_id.to_string()).or_insert(0);
        if *n >= MAX_STREAMS_PER_TOKEN {
            return None;
        }
        *n += 1;
        Some(StreamSlot {
            hub: self.clone(),
            token_id: token_id.to_string(),
        })
    }

    /// Receives the events of user `user_id`.
    pub fn subscribe_user(&self, user_id: &str) -> broadcast::Receiver<UserLine> {
        self.users.subscribe(user_id)
    }

    /// Whether user `user_id` has an event stream open here.
    pub fn listens(&self, user_id: &str) -> bool {
        self.users.listened(user_id)
    }

    /// The users with an event stream open here (online, as lichess counts bots).
    pub fn online_users(&self) -> Vec<String> {
        self.users.listened_keys()
    }

    /// Sends an event line to user `user_id`'s event streams, if any.
    pub fn send_user(&self, user_id: &str, line: UserLine) {
        self.users.send(user_id, line);
    }

    /// Receives the notes of game `game_id`.
    pub fn subscribe_game(&self, game_id: &str) -> broadcast::Receiver<Note> {
        self.games.subscribe(game_id)
    }

    /// Sends a note to game `game_id`'s streams, here and (in the
    /// background) in the other processes.
    pub fn send_game(&self, game_id: &str, note: Note) {
        if self.relay.get().is_some() {
            let what = RelayedKind::Note {
                game: game_id.to_string(),
                note: note.clone(),
            };
            if let Some(send) = self.relayed(what) {
                if let Ok(handle) = tokio::runtime::Handle::try_current() {
                    handle.spawn(send);
                }
            }
        }
        self.games.send(game_id, note);
    }

    /// From now on, relays notes to the other processes on `db` (PostgreSQL).
    pub fn relay_through(&self, db: Db, instance: String) {
        let _ = self.relay.set((db, instance));
    }

    /// The notification that tells the other processes `what`, if relaying.
    fn relayed(&self, what: RelayedKind) -> Option<impl Future<Output = ()> + use<>> {
        let (db, instance) = self.relay.get()?.clone();
        let payload = serde_json::to_string(&Relayed {
            from: instance,
            what,
        })
        .ok()?;
        Some(async move {
            if let Err(e) = db.notify(BOTS_CHANNEL, &payload).await {
                eprintln!("thaiboard-server: relaying a bot note: {e}");
            }
        })
    }

    /// Takes a relayed payload from another process (ignoring this
    /// process's own, named by `instance`, and anything unreadable).
    pub fn receive_remote(&self, instance: &str, payload: &str) {
        let Ok(relayed) = serde_json::from_str::<Relayed>(payload) else {
            return;
        };
        if relayed.from == instance {
            return;
        }
        match relayed.what {
            RelayedKind::Note { game, note } => self.games.send(&game, note),
            RelayedKind::Declining { id, reason } => self.mark_declining(&id, reason),
            RelayedKind::TokenRevoked { id } => self.tokens.forget_token(&id),
            RelayedKind::UserChanged { id } => self.tokens.forget_user(&id),
        }
    }

    /// Token `id` was revoked: forgotten here and in the other processes.
    pub async fn token_revoked(&self, id: &str) {
        self.tokens.forget_token(id);
        let what = RelayedKind::TokenRevoked { id: id.to_string() };
        if let Some(send) = self.relayed(what) {
            send.await;
        }
    }

    /// User `id` became a bot account: its tokens are read again, here and
    /// in the other processes.
    pub async fn user_changed(&self, id: &str) {
        self.tokens.forget_user(id);
        let what = RelayedKind::UserChanged { id: id.to_string() };
        if let Some(send) = self.relayed(what) {
            send.await;
        }
    }

    /// Counts a game stream of `user_id` in game `game_id`; the opponent
    /// hears `opponentGone: false` when it is the player's first.
    pub fn arrive(
        self: &std::sync::Arc<Self>,
        game_id: &str,
        user_id: &str,
        opponent_id: Option<&str>,
    ) -> Presence {
        let key = (game_id.to_string(), user_id.to_string());
        let first = {
            let mut present = self.present.lock().expect("bot hub lock");
            let n = present.entry(key).or_insert(0);
            *n += 1;
            *n == 1
        };
        if first {
            self.tell_opponent(game_id, opponent_id, false);
        }
        Presence {
            hub: self.clone(),
            game_id: game_id.to_string(),
            user_id: user_id.to_string(),
            opponent_id: opponent_id.map(str::to_string),
        }
    }

    fn tell_opponent(&self, game_id: &str, opponent_id: Option<&str>, gone: bool) {
        if let Some(opponent) = opponent_id {
            let line = serde_json::json!({ "type": "opponentGone", "gone": gone }).to_string();
            self.send_game(
                game_id,
                Note {
                    to: Some(opponent.to_string()),
                    line,
                },
            );
        }
    }

    /// Marks game `id`'s start as announced; whether it was not yet.
    pub fn mark_started(&self, id: &str) -> bool {
        self.started
            .lock()
            .expect("bot hub lock")
            .insert(id.to_string())
    }

    /// Forgets game `id`'s start (it ended).
    pub fn forget_started(&self, id: &str) {
        self.started.lock().expect("bot hub lock").remove(id);
    }

    /// Marks challenge `id` as being declined for `reason` (`None`: not any
    /// more), here and in the other processes (told before this returns, so
    /// before the decline itself is committed).
    pub async fn set_declining(&self, id: &str, reason: Option<&str>) {
        self.mark_declining(id, reason.map(str::to_string));
        let what = RelayedKind::Declining {
            id: id.to_string(),
            reason: reason.map(str::to_string),
        };
        if let Some(send) = self.relayed(what) {
            send.await;
        }
    }

    fn mark_declining(&self, id: &str, reason: Option<String>) {
        let mut declining = self.declining.lock().expect("bot hub lock");
        match reason {
            Some(r) => declining.insert(id.to_string(), r),
            None => declining.remove(id),
        };
    }

    /// The reason challenge `id` was being declined for, if it was (and forgets it).
    pub fn take_declining(&self, id: &str) -> Option<String> {
        self.declining.lock().expect("bot hub lock").remove(id)
    }
}
