//! What a client says over the game sockets, read into a typed request.
//!
//! A message is one JSON object: `{"type": KIND, "id": ANY, "game": ID,
//! "move": TEXT, "ply": N, "action": WORD}`, every field but `type`
//! optional, no other field allowed. [`parse`] is the only reader of that
//! text: both sockets (`/api/games/{id}/ws` and `/api/ws`) and the fuzz
//! target (`crates/server/fuzz`) go through it, and nothing here touches the
//! database, so a hostile message costs no more than its parse.

use crate::game::Command;
use crate::infra::error::ApiError;
use serde::Deserialize;
use serde_json::{Value, json};

/// Longest game id a message may name (ids are short letters and digits).
pub const MAX_GAME_ID: usize = 32;

/// Characters of an unknown message type repeated in the error.
const MAX_KIND_SHOWN: usize = 40;

/// A message as it arrives, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    ply: Option<u32>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    game: Option<String>,
}

/// What a message asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `ping`: answered `pong` at once.
    Ping,
    /// `subscribe` (`/api/ws`): follow the game named in the message.
    Subscribe,
    /// `unsubscribe` (`/api/ws`): stop following it.
    Unsubscribe,
    /// A player's command in the game: `move`, `resign`, `abort`, `claim`,
    /// `draw`/`count`/`takeback` with their `action`.
    Act(Command),
}

/// A message read: the client's id (echoed in the answer), the game it
/// names, and what it asks.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientMessage {
    /// Any JSON value the client chose to match the answer with.
    pub id: Option<Value>,
    /// The game named in `"game"` (needed on `/api/ws`; a game's own socket
    /// acts on its game).
    pub game: Option<String>,
    /// What it asks.
    pub request: Request,
}

/// A message that cannot be carried out: its id (when the JSON had one)
/// and why.
#[derive(Clone, Debug)]
pub struct Refused {
    /// The client's id, to put in the error answer.
    pub id: Option<Value>,
    /// Why.
    pub error: ApiError,
}

impl Refused {
    /// The error answer: `{"type":"error","id":…,"error":CODE,"message":…,"status":N}`.
    pub fn to_json(&self) -> String {
        error_json(&self.id, &self.error)
    }
}

/// The error answer for the message with `id`.
pub fn error_json(id: &Option<Value>, e: &ApiError) -> String {
    json!({ "type": "error", "id": id, "error": e.code, "message": e.message, "status": e.status.as_u16() })
        .to_string()
}

/// Whether `id` can be a game id: 1 to [`MAX_GAME_ID`] ASCII letters and digits.
pub fn valid_game_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_GAME_ID && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn malformed(message: impl Into<String>) -> ApiError {
    ApiError::bad_request("malformed_message", message)
}

/// Reads one message. Malformed JSON, unknown fields or kinds, a move
/// without its text, an unknown action and a game id that cannot be one are
/// refused with the reason (and the message's `id` when it could be read).
pub fn parse(text: &str) -> Result<ClientMessage, Refused> {
    let wire: Wire = serde_json::from_str(text).map_err(|e| Refused {
        // The id of a message that is JSON but not a valid message.
        id: serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.get("id").cloned()),
        error: malformed(format!("bad JSON message: {e}")),
    })?;
    let id = wire.id;
    let refuse = |error: ApiError| Refused {
        id: id.clone(),
        error,
    };
    if let Some(game) = &wire.game
        && !valid_game_id(game)
    {
        return Err(refuse(malformed(format!(
            "\"game\" must be a game id (1 to {MAX_GAME_ID} letters and digits)"
        ))));
    }
    let request = match wire.kind.as_str() {
        "ping" => Request::Ping,
        "subscribe" => Request::Subscribe,
        "unsubscribe" => Request::Unsubscribe,
        "move" => match wire.mv {
            Some(text) => Request::Act(Command::Move {
                text,
                ply: wire.ply,
            }),
            None => return Err(refuse(malformed("a move message needs \"move\""))),
        },
        "resign" => Request::Act(Command::Resign),
        "abort" => Request::Act(Command::Abort),
        "claim" => Request::Act(Command::ClaimTimeout),
        "berserk" => Request::Act(Command::Berserk),
        kind @ ("draw" | "count" | "takeback") => {
            Command::from_action(kind, wire.action.as_deref().unwrap_or(""))
                .map(Request::Act)
                .map_err(&refuse)?
        }
        other => {
            return Err(refuse(malformed(format!(
                "unknown message type {:?}",
                other.chars().take(MAX_KIND_SHOWN).collect::<String>()
            ))));
        }
    };
    Ok(ClientMessage {
        id,
        game: wire.game,
        request,
    })
}

impl ClientMessage {
    /// The message as a client writes it; [`parse`] reads it back to an
    /// equal message. Commands only the server gives (`AbortAbsent`) have
    /// no wire form and are `None`.
    pub fn to_json(&self) -> Option<String> {
        let mut m = serde_json::Map::new();
        let (kind, action) = match &self.request {
            Request::Ping => ("ping", None),
            Request::Subscribe => ("subscribe", None),
            Request::Unsubscribe => ("unsubscribe", None),
            Request::Act(command) => match command {
                Command::Move { text, ply } => {
                    m.insert("move".into(), json!(text));
                    if let Some(ply) = ply {
                        m.insert("ply".into(), json!(ply));
                    }
                    ("move", None)
                }
                Command::Resign => ("resign", None),
                Command::Abort => ("abort", None),
                Command::ClaimTimeout => ("claim", None),
                Command::Berserk => ("berserk", None),
                Command::DrawOffer => ("draw", Some("offer")),
                Command::DrawAccept => ("draw", Some("accept")),
                Command::DrawDecline => ("draw", Some("decline")),
                Command::CountStart => ("count", Some("start")),
                Command::CountStop => ("count", Some("stop")),
                Command::TakebackOffer => ("takeback", Some("offer")),
                Command::TakebackAccept => ("takeback", Some("accept")),
                Command::TakebackDecline => ("takeback", Some("decline")),
                Command::AbortAbsent => return None,
            },
        };
        m.insert("type".into(), json!(kind));
        if let Some(action) = action {
            m.insert("action".into(), json!(action));
        }
        if let Some(id) = &self.id {
            m.insert("id".into(), id.clone());
        }
        if let Some(game) = &self.game {
            m.insert("game".into(), json!(game));
        }
        Some(Value::Object(m).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_fields() {
        let m = parse(r#"{"type":"move","move":"e3e4","ply":4,"id":7,"game":"abc12"}"#).unwrap();
        assert_eq!(m.id, Some(json!(7)));
        assert_eq!(m.game.as_deref(), Some("abc12"));
        assert_eq!(
            m.request,
            Request::Act(Command::Move {
                text: "e3e4".into(),
                ply: Some(4)
            })
        );
        let m = parse(r#"{"type":"takeback","action":"accept"}"#).unwrap();
        assert_eq!(m.request, Request::Act(Command::TakebackAccept));
        assert_eq!(parse(r#"{"type":"ping"}"#).unwrap().request, Request::Ping);
    }

    #[test]
    fn bad_messages_say_why_and_keep_the_id() {
        let cases = [
            (r#"{"type":"move","id":"x"}"#, "needs \"move\""),
            (r#"{"type":"dance","id":"x"}"#, "unknown message type"),
            (
                r#"{"type":"draw","action":"maybe","id":"x"}"#,
                "offer, accept",
            ),
            (r#"{"type":"resign","game":"../etc","id":"x"}"#, "game id"),
            (
                r#"{"type":"resign","colour":"red","id":"x"}"#,
                "unknown field",
            ),
            (r#"{"type":"move","move":1,"id":"x"}"#, "bad JSON"),
        ];
        for (text, why) in cases {
            let r = parse(text).unwrap_err();
            assert_eq!(r.id, Some(json!("x")), "{text}");
            assert!(r.error.message.contains(why), "{text}: {}", r.error.message);
            assert!(r.to_json().contains("\"type\":\"error\""));
        }
        let r = parse("{not json").unwrap_err();
        assert_eq!(r.id, None);
        assert_eq!(r.error.code, "malformed_message");
    }

    #[test]
    fn written_messages_read_back_equal() {
        for text in [
            r#"{"type":"move","move":"b3b4","ply":0,"id":[1,2],"game":"g1"}"#,
            r#"{"type":"count","action":"stop"}"#,
            r#"{"type":"subscribe","game":"Zz9","id":null}"#,
        ] {
            let m = parse(text).unwrap();
            let again = parse(&m.to_json().unwrap()).unwrap();
            assert_eq!(again, m);
        }
    }
}
