//! Conditional moves in correspondence games, through the real HTTP API.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn put(c: &Client, id: &str, lines: Value) -> (StatusCode, Value) {
    let resp = c
        .http
        .put(format!("{}/api/games/{id}/conditional", c.base))
        .header("x-csrf-token", c.csrf.clone())
        .json(&json!({ "lines": lines }))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap())
}

async fn play(c: &Client, id: &str, mv: &str) {
    let (status, body) = c
        .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
        .await;
    assert_eq!(status, StatusCode::OK, "{mv}: {body}");
}

/// Waits until the game has `ply` moves; returns its view.
async fn wait_ply(c: &Client, id: &str, ply: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, view) = c.get(&format!("/api/games/{id}")).await;
        if view["ply"].as_u64() == Some(ply) {
            return view;
        }
        assert!(Instant::now() < deadline, "game stayed at {}", view["ply"]);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn correspondence() -> Value {
    json!({ "time_control": { "kind": "correspondence", "days": 3 } })
}

#[tokio::test]
async fn matching_lines_play_the_reply_others_are_cancelled() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", correspondence()).await;
    play(&white, &id, "e3e4").await;
    // White waits for Black: if d6d5 then e4xd5 then (if c6c5) b1d2; if a6a5 then a3a4.
    let (status, body) = put(
        &white,
        &id,
        json!([["d5", "exd5", "c6c5", "ม ข๑-ง๒"], ["a6a5", "a3a4"]]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["lines"][0], json!(["d6d5", "e4d5", "c6c5", "b1d2"]));
    assert_eq!(body["display"][0][1], "exd5");
    // Thai text is read, and every move comes back in both Thai forms.
    assert_eq!(body["display"][0][3], "Nd2");
    assert_eq!(
        body["display_thai"][0][1],
        json!({ "short": "จxง๕", "long": "บ จ๔xง๕" })
    );

    play(&black, &id, "d6d5").await;
    let view = wait_ply(&white, &id, 3).await;
    assert_eq!(view["actions"][2]["uci"], "e4d5", "{view}");
    // Only the matching line is left, shortened.
    let (_, mine) = white.get(&format!("/api/games/{id}/conditional")).await;
    assert_eq!(mine["lines"], json!([["c6c5", "b1d2"]]), "{mine}");
    assert_eq!(mine["ply"], 3);

    // Black plays something else: nothing is played, the line is cancelled.
    play(&black, &id, "h6h5").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let view = wait_ply(&white, &id, 4).await;
    assert_eq!(view["turn"], "white");
    let (_, mine) = white.get(&format!("/api/games/{id}/conditional")).await;
    assert_eq!(mine["lines"], json!([]), "{mine}");
}

#[tokio::test]
async fn a_deep_line_plays_each_reply_in_turn() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", correspondence()).await;
    play(&white, &id, "e3e4").await;
    let (status, body) = put(&white, &id, json!([["d6d5", "a3a4", "a6a5", "b1d2"]])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    play(&black, &id, "d6d5").await;
    let view = wait_ply(&black, &id, 3).await;
    assert_eq!(view["actions"][2]["uci"], "a3a4");
    play(&black, &id, "a6a5").await;
    let view = wait_ply(&black, &id, 5).await;
    assert_eq!(view["actions"][4]["uci"], "b1d2");
    let (_, mine) = white.get(&format!("/api/games/{id}/conditional")).await;
    assert_eq!(mine["lines"], json!([]), "used up: {mine}");
    // Once it is Black's wait, Black may set lines too.
    let (status, body) = put(&black, &id, json!([["b1d2", "b6b5"]])).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    play(&black, &id, "h6h5").await;
    let (status, body) = put(&black, &id, json!([["h3h4", "g6g5"]])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    play(&white, &id, "h3h4").await;
    let view = wait_ply(&white, &id, 8).await;
    assert_eq!(view["actions"][7]["uci"], "g6g5");
}

#[tokio::test]
async fn bad_lines_are_refused() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", correspondence()).await;
    play(&white, &id, "e3e4").await;
    for (lines, code) in [
        (json!([["d6d5"]]), "bad_conditional"),
        (json!([["d6d5", "e3e4"]]), "bad_conditional"),
        (
            json!([["d6d5", "e4d5"], ["d6d5", "a3a4"]]),
            "bad_conditional",
        ),
        (json!([["zz", "e4d5"]]), "bad_conditional"),
    ] {
        let (status, body) = put(&white, &id, lines.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{lines}: {body}");
        assert_eq!(body["error"], code);
    }
    let (status, body) = put(&black, &id, json!([["e4e5", "d6d5"]])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("your_move"))
    );
    let watcher = Client::registered(&server, "watcher").await;
    let (status, _) = put(&watcher, &id, json!([])).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Live games have none.
    let (w2, _b2, live) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5 } }),
    )
    .await;
    play(&w2, &live, "e3e4").await;
    let (status, body) = put(&w2, &live, json!([["d6d5", "e4d5"]])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_correspondence"))
    );
}
