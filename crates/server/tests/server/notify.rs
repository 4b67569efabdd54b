//! In-page notifications: a challenge to a named player, a correspondence
//! game waiting for a move, its end; nothing for live games' moves.

use crate::common::{Client, play_moves};
use serde_json::json;

#[tokio::test]
async fn players_hear_challenges_their_turn_and_the_end() {
    let server = crate::common::start().await;
    let a = Client::registered(&server, "note").await;
    let b = Client::registered(&server, "note").await;
    let mut b_notes = b.connect("/api/notifications/ws").await;
    let mut a_notes = a.connect("/api/notifications/ws").await;
    // A live game: the challenge is heard, its moves are not.
    let live = a
        .challenge(
            json!({ "variant": "makruk", "color": "white", "opponent": b.name(),
                           "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
        )
        .await;
    let n = b_notes.next_of("notify").await;
    assert_eq!(
        (n["kind"].as_str(), n["game"].as_str()),
        (Some("challenge"), Some(live.as_str()))
    );
    assert!(n["text"].as_str().unwrap().contains(&a.name()), "{n}");
    // The game's name as players read it and the time control, not `makruk`.
    assert!(
        n["text"]
            .as_str()
            .unwrap()
            .ends_with("challenges you to Makruk (5+0)"),
        "{n}"
    );
    assert_eq!(n["variant"], "makruk", "{n}");
    assert_eq!(n["time_control"]["initial_ms"], 300_000, "{n}");
    b.post_ok(&format!("/api/games/{live}/accept"), json!({}))
        .await;
    play_moves(&a, &b, &live, &["e3e4"]).await;
    // A correspondence game: whose move it is hears it.
    let corr = a
        .challenge(
            json!({ "variant": "makruk", "color": "white", "opponent": b.name(),
                           "time_control": { "kind": "correspondence", "days": 3 } }),
        )
        .await;
    // (Had the live move been announced, B's next note would be about it.)
    assert_eq!(b_notes.next_of("notify").await["game"], corr.as_str());
    b.post_ok(&format!("/api/games/{corr}/accept"), json!({}))
        .await;
    let n = a_notes.next_of("notify").await;
    assert_eq!(
        (n["kind"].as_str(), n["game"].as_str()),
        (Some("your_turn"), Some(corr.as_str()))
    );
    play_moves(&a, &b, &corr, &["e3e4"]).await;
    let n = b_notes.next_of("notify").await;
    assert_eq!(
        (n["kind"].as_str(), n["game"].as_str()),
        (Some("your_turn"), Some(corr.as_str()))
    );
    b.post_ok(&format!("/api/games/{corr}/resign"), json!({}))
        .await;
    let n = a_notes.next_of("notify").await;
    assert_eq!(n["kind"], "game_over");
}
