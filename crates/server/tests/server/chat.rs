//! Game chat: the players' room and the spectators' room kept apart, lines
//! delivered live over the game socket, and bad input (HTML, long lines,
//! floods, strangers, reports of lines one cannot read) refused or kept as
//! text, changing nothing else.

use crate::common::{Client, Ws, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The next chat message on `ws`, skipping game updates.
async fn next_chat(ws: &mut Ws) -> Value {
    ws.next_of("chat").await
}

#[tokio::test]
async fn players_and_spectators_chat_apart_and_live() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let watcher = Client::registered(&server, "watcher").await;
    let chat = format!("/api/games/{id}/chat");
    let (mut black_ws, _) = black.socket(&id).await;
    let (mut watcher_ws, _) = watcher.socket(&id).await;

    // A player's line: to the players only, stored, kept as text.
    let line = white
        .post_ok(
            &chat,
            json!({ "text": "<script>alert(1)</script> good luck" }),
        )
        .await;
    assert_eq!(line["room"], "player");
    assert_eq!(line["seq"], 1);
    let heard = next_chat(&mut black_ws).await;
    assert_eq!(heard["line"]["text"], "<script>alert(1)</script> good luck");
    assert_eq!(heard["game"], id.as_str());
    // A spectator's line: to the spectators; the players do not see it while they play.
    let theirs = watcher
        .post_ok(&chat, json!({ "text": "nice opening" }))
        .await;
    assert_eq!(theirs["room"], "spectator");
    assert_eq!(
        next_chat(&mut watcher_ws).await["line"]["text"],
        "nice opening"
    );
    let (_, mine) = white.get(&chat).await;
    let rooms: Vec<&str> = mine["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["room"].as_str().unwrap())
        .collect();
    assert_eq!(rooms, ["player"]);
    assert_eq!(mine["writes"], "player");
    let (_, seen) = watcher.get(&chat).await;
    assert_eq!(seen["rooms"][0]["room"], "spectator");
    assert_eq!(seen["rooms"][0]["lines"].as_array().unwrap().len(), 1);
    assert_eq!(
        seen["rooms"].as_array().unwrap().len(),
        1,
        "no players' room for spectators"
    );

    // Strangers may not write in the players' room, players not in the spectators' while playing.
    watcher
        .refused(
            &chat,
            json!({ "room": "player", "text": "psst" }),
            StatusCode::FORBIDDEN,
            "not_a_player",
        )
        .await;
    white
        .refused(
            &chat,
            json!({ "room": "spectator", "text": "hi all" }),
            StatusCode::FORBIDDEN,
            "playing",
        )
        .await;
    // A visitor without an account reads the spectators' room but may not write.
    let guest = Client::guest(&server).await;
    guest
        .refused(
            &chat,
            json!({ "text": "hello" }),
            StatusCode::FORBIDDEN,
            "guest",
        )
        .await;

    // After the game, the players read both rooms, live too.
    white
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    let (_, after) = white.get(&chat).await;
    assert_eq!(after["rooms"].as_array().unwrap().len(), 2);
    watcher
        .post_ok(&chat, json!({ "text": "well played" }))
        .await;
    let heard = next_chat(&mut black_ws).await;
    assert_eq!(heard["line"]["text"], "well played");
    assert_eq!(heard["line"]["room"], "spectator");
}

#[tokio::test]
async fn bad_chat_input_is_refused_and_changes_nothing() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let chat = format!("/api/games/{id}/chat");
    for (body, code) in [
        (json!({ "text": "x".repeat(10_000) }), "invalid_text"),
        (json!({ "text": "ก".repeat(141) }), "invalid_text"),
        (json!({ "text": "  \n\t " }), "invalid_text"),
        (json!({ "text": "hi", "room": "lobby" }), "invalid_room"),
    ] {
        white
            .refused(&chat, body, StatusCode::BAD_REQUEST, code)
            .await;
    }
    let (s, e) = white.post(&chat, json!({ "text": 5 })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, _) = white
        .post("/api/games/nosuchgame/chat", json!({ "text": "hi" }))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A flood: the first few lines pass, then the writer is slowed down.
    let mut passed = 0;
    let mut limited = 0;
    for i in 0..30 {
        let (s, _) = white
            .post(&chat, json!({ "text": format!("line {i}") }))
            .await;
        match s {
            StatusCode::CREATED => passed += 1,
            StatusCode::TOO_MANY_REQUESTS => limited += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(passed, 5, "the burst");
    assert_eq!(limited, 25);
    // The other player is not slowed down by it.
    black.post_ok(&chat, json!({ "text": "calm down" })).await;
    let (_, view) = black.get(&chat).await;
    let lines = view["rooms"][0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6, "only the accepted lines are stored");
    // The game itself is untouched.
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (g["status"].as_str(), g["ply"].as_u64()),
        (Some("ongoing"), Some(0))
    );
}

#[tokio::test]
async fn lines_are_reported_by_those_who_can_read_them() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let chat = format!("/api/games/{id}/chat");
    let line = white.post_ok(&chat, json!({ "text": "you are bad" })).await;
    let seq = line["seq"].as_i64().unwrap();
    let report = format!("/api/games/{id}/chat/{seq}/report");
    let first = black.post_ok(&report, json!({ "reason": "insult" })).await;
    assert_eq!(first["new"], true);
    let again = black.post_ok(&report, json!({ "reason": "insult" })).await;
    assert_eq!(again["new"], false, "one report per reader and line");
    // A spectator gets one answer for a players' line and for no line:
    // it cannot count the players' lines.
    let watcher = Client::registered(&server, "watcher").await;
    let (s1, hidden) = watcher.post(&report, json!({})).await;
    let (s2, missing) = watcher
        .post(
            &format!("/api/games/{id}/chat/{}/report", seq + 1),
            json!({}),
        )
        .await;
    assert_eq!(
        (s1, &hidden["error"]),
        (StatusCode::NOT_FOUND, &json!("not_found"))
    );
    assert_eq!((s2, &missing["error"]), (s1, &hidden["error"]));
    assert_eq!(
        hidden["message"]
            .as_str()
            .unwrap()
            .replace(&format!("line {seq} "), "line N "),
        missing["message"]
            .as_str()
            .unwrap()
            .replace(&format!("line {} ", seq + 1), "line N "),
        "the same words"
    );
    black
        .refused(
            &format!("/api/games/{id}/chat/99/report"),
            json!({}),
            StatusCode::NOT_FOUND,
            "not_found",
        )
        .await;
    black
        .refused(
            &report,
            json!({ "reason": "x".repeat(501) }),
            StatusCode::BAD_REQUEST,
            "invalid_reason",
        )
        .await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM chat_reports WHERE game_id = $1")
        .bind(&id)
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap();
    assert_eq!(stored, 1);
}
