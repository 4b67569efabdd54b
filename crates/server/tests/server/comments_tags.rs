//! Comments and private notes, tags and "next game", through the real HTTP API.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn comments_public_by_players_notes_private_to_their_author() {
    let server = start().await;
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "correspondence", "days": 3 } }),
    )
    .await;
    let (status, body) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = format!("/api/games/{id}/comments");

    let (status, c) = white
        .post(&url, json!({ "ply": 1, "text": "  the usual start  " }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{c}");
    assert_eq!(c["text"], "the usual start");
    assert_eq!(c["author"], white.name());
    let (status, note) = black
        .post(
            &url,
            json!({ "ply": 1, "text": "answer d5 next", "private": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{note}");
    let watcher = Client::guest(&server).await;
    let (status, body) = watcher
        .post(&url, json!({ "ply": 0, "text": "nice" }))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], "not_a_player");
    let (status, mine) = watcher
        .post(
            &url,
            json!({ "ply": 0, "text": "study this", "private": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");

    // In a private game only the players read the players' comments; each
    // sees only their own notes.
    let (_, seen) = watcher.get(&url).await;
    let texts = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(texts(&seen), ["study this"]);
    let (_, seen) = black.get(&url).await;
    assert_eq!(texts(&seen), ["the usual start", "answer d5 next"]);
    let (_, seen) = white.get(&url).await;
    assert_eq!(texts(&seen), ["the usual start"]);
    let pgn_for = |c: &Client| c.http.get(format!("{}/api/games/{id}/pgn", c.base)).send();
    let pgn = pgn_for(&watcher).await.unwrap().text().await.unwrap();
    assert!(!pgn.contains("the usual start"), "{pgn}");

    // Both players make it public: everyone reads the comment, and the
    // record carries it, never the private notes.
    for p in [&white, &black] {
        p.post_ok(
            &format!("/api/games/{id}/public"),
            json!({ "public": true }),
        )
        .await;
    }
    let (_, seen) = watcher.get(&url).await;
    assert_eq!(texts(&seen), ["study this", "the usual start"]);
    let pgn = pgn_for(&watcher).await.unwrap().text().await.unwrap();
    assert!(
        pgn.contains(&format!("1. e4 {{{}: the usual start}} *", white.name())),
        "{pgn}"
    );
    assert!(
        !pgn.contains("answer d5") && !pgn.contains("study this"),
        "{pgn}"
    );

    // Bad input.
    for (body, code) in [
        (json!({ "ply": 2, "text": "future" }), "bad_ply"),
        (json!({ "ply": 0, "text": "   " }), "bad_comment"),
        (json!({ "ply": 0, "text": "x".repeat(2001) }), "bad_comment"),
    ] {
        let (status, answer) = white.post(&url, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"], code);
    }
    let (status, _) = white.post(&url, json!({ "ply": 0, "txt": "typo" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = white
        .post(
            "/api/games/nosuchgame/comments",
            json!({ "ply": 0, "text": "x" }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Only the author deletes.
    let cid = c["id"].as_str().unwrap();
    let del = |client: &Client| {
        client
            .http
            .delete(format!("{}{url}/{cid}", client.base))
            .header("x-csrf-token", client.csrf.clone())
            .send()
    };
    assert_eq!(del(&black).await.unwrap().status(), StatusCode::FORBIDDEN);
    assert_eq!(del(&white).await.unwrap().status(), StatusCode::NO_CONTENT);
    assert_eq!(del(&white).await.unwrap().status(), StatusCode::NOT_FOUND);
    let (_, seen) = watcher.get(&url).await;
    assert_eq!(texts(&seen), ["study this"]);
}

#[tokio::test]
async fn tags_and_next_game() {
    let server = start().await;
    // Three games for `me` (White in each): two wait for my move, one for the opponent's.
    let me = Client::registered(&server, "me").await;
    let mut games = Vec::new();
    let mut opponents = Vec::new();
    for _ in 0..3 {
        let other = Client::registered(&server, "other").await;
        let id = me
            .challenge(json!({ "variant": "makruk", "color": "white" }))
            .await;
        let (status, body) = other
            .post(&format!("/api/games/{id}/accept"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        games.push(id);
        opponents.push(other);
    }
    let (status, body) = me
        .post(
            &format!("/api/games/{}/move", games[2]),
            json!({ "move": "e3e4" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (_, next) = me.get("/api/next-game").await;
    assert_eq!(next["waiting"], 2, "{next}");
    let first = next["id"].as_str().unwrap().to_string();
    assert!(first == games[0] || first == games[1]);
    assert_ne!(first, games[2]);
    let (_, next) = me.get(&format!("/api/next-game?after={first}")).await;
    let second = next["id"].as_str().unwrap().to_string();
    assert_ne!(second, first);
    assert_ne!(second, games[2]);
    let (_, next) = me.get(&format!("/api/next-game?after={second}")).await;
    assert_eq!(next["id"], first, "wraps round");
    // The opponent of game 2 has it to move.
    let (_, next) = opponents[2].get("/api/next-game").await;
    assert_eq!(next["id"], games[2]);
    // A visitor without games.
    let guest = Client::guest(&server).await;
    let (_, next) = guest.get("/api/next-game").await;
    assert_eq!(
        (next["waiting"].as_u64(), next["id"].is_null()),
        (Some(0), true)
    );

    // Tags: mine only, replaced as a whole, cleaned.
    let put = |client: &Client, game: &str, tags: serde_json::Value| {
        client
            .http
            .put(format!("{}/api/games/{game}/tags", client.base))
            .header("x-csrf-token", client.csrf.clone())
            .json(&json!({ "tags": tags }))
            .send()
    };
    let r = put(
        &me,
        &games[0],
        json!(["opening", " opening ", "ruea ending"]),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = put(&me, &games[1], json!(["opening"])).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = put(&opponents[0], &games[0], json!(["theirs"]))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let (_, tags) = me.get("/api/tags").await;
    assert_eq!(tags["tags"], json!({ "opening": 2, "ruea ending": 1 }));
    assert_eq!(tags["games"][&games[0]], json!(["opening", "ruea ending"]));
    let r = put(&me, &games[0], json!([])).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let (_, tags) = me.get("/api/tags").await;
    assert_eq!(tags["tags"], json!({ "opening": 1 }));
    let r = put(&me, &games[0], json!(["x".repeat(40)])).await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = me
        .http
        .put(format!("{}/api/games/{}/tags", me.base, games[0]))
        .json(&json!({ "tags": ["no csrf"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}
