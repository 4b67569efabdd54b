//! Helpers of the tournament tests: create, wait, read boards, settle games.

use super::Client;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

/// Reads the tournament until `pred` holds (within 20 s).
pub async fn wait_for(c: &Client, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (status, t) = c.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{t}");
        if pred(&t) {
            return t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}: {t:#}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every board of every round.
pub fn boards(t: &Value) -> Vec<Value> {
    t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["boards"].as_array().unwrap().clone())
        .collect()
}

/// A player's name.
pub fn name_of(p: &Value) -> String {
    p["username"].as_str().unwrap().to_string()
}

/// Ends a game: `winner` is the name of the winner, or `None` for a draw
/// (offered by White, accepted by Black).
pub async fn settle(players: &HashMap<String, &Client>, board: &Value, winner: Option<&str>) {
    let game = board["game_id"].as_str().unwrap();
    let (w, b) = (name_of(&board["white"]), name_of(&board["black"]));
    match winner {
        Some(win) => {
            let loser = if win == w { &b } else { &w };
            players[loser]
                .post_ok(&format!("/api/games/{game}/resign"), json!({}))
                .await;
        }
        None => {
            players[&w]
                .post_ok(
                    &format!("/api/games/{game}/draw"),
                    json!({ "action": "offer" }),
                )
                .await;
            let g = players[&b]
                .post_ok(
                    &format!("/api/games/{game}/draw"),
                    json!({ "action": "accept" }),
                )
                .await;
            assert_eq!(g["result"], "1/2-1/2", "{g}");
        }
    }
}

/// Creates a tournament; its id.
pub async fn create(c: &Client, body: Value) -> String {
    let (status, t) = c.post("/api/tournaments", body).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    assert_eq!(t["status"], "upcoming");
    t["id"].as_str().unwrap().to_string()
}

/// A player's row of the standings.
pub fn standing_of<'a>(t: &'a Value, name: &str) -> &'a Value {
    t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["user"]["username"] == name)
        .unwrap_or_else(|| panic!("{name} in the standings: {t}"))
}
