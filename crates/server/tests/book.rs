//! The opening book through the real HTTP API: moves from finished games
//! only, counted with their results, for the start and for later positions.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::Server;

/// Plays `moves` in a new Makruk game, then the side to move resigns unless `finish` is false.
async fn play(server: &Server, moves: &[&str], finish: bool) -> (String, Vec<Value>) {
    let (white, black, id) = started_game(server, "makruk", json!({})).await;
    for (i, mv) in moves.iter().enumerate() {
        let player = if i % 2 == 0 { &white } else { &black };
        let (status, body) = player
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    if finish {
        let loser = if moves.len() % 2 == 0 { &white } else { &black };
        let (status, body) = loser
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, view) = white.get(&format!("/api/games/{id}")).await;
    let actions = view["actions"].as_array().cloned().unwrap_or_default();
    (id, actions)
}

fn entry<'a>(book: &'a Value, uci: &str) -> &'a Value {
    book["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
        .unwrap_or_else(|| panic!("{uci} not in {book}"))
}

#[tokio::test]
async fn book_counts_moves_of_finished_games() {
    let server = start().await;
    // White resigns after 2 moves (0-1); Black resigns after 3 and after 1 (1-0); one unfinished.
    play(&server, &["e3e4", "d6d5"], true).await;
    let (_, actions) = play(&server, &["e3e4", "c6c5", "b1d2"], true).await;
    play(&server, &["a3a4"], true).await;
    play(&server, &["h3h4", "h6h5"], false).await;

    let c = Client::guest(&server).await;
    let (status, book) = c.get("/api/book?variant=makruk").await;
    assert_eq!(status, StatusCode::OK, "{book}");
    assert_eq!(book["games"], 3, "{book}");
    let e3e4 = entry(&book, "e3e4");
    assert_eq!(
        (
            e3e4["games"].as_u64(),
            e3e4["white_wins"].as_u64(),
            e3e4["black_wins"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(e3e4["san"], "e4");
    assert_eq!(book["moves"][0]["uci"], "e3e4", "most played first");
    let a3a4 = entry(&book, "a3a4");
    assert_eq!(
        (a3a4["white_wins"].as_u64(), a3a4["black_wins"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(
        book["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["uci"] != "h3h4"),
        "unfinished games are not in the book"
    );

    // After 1. e4: two replies, one game each.
    let fen = actions[0]["fen"].as_str().unwrap();
    let book: Value = c
        .http
        .get(format!("{}/api/book", c.base))
        .query(&[("variant", "makruk"), ("fen", fen)])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(book["games"], 2, "{book}");
    assert_eq!(entry(&book, "d6d5")["black_wins"], 1);
    assert_eq!(entry(&book, "d6d5")["white_wins"], 0);
    assert_eq!(entry(&book, "c6c5")["white_wins"], 1);

    // Another game's book is empty.
    let (status, book) = c.get("/api/book?variant=makhos").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(book["games"], 0);
}

#[tokio::test]
async fn book_refuses_bad_queries() {
    let server = start().await;
    let c = Client::guest(&server).await;
    for (query, code) in [
        ("variant=chess", "bad_variant"),
        ("variant=test", "bad_variant"),
        ("variant=makhos&rules=bogus", "bad_rules"),
        (&*format!("fen={}", "p".repeat(300)), "bad_fen"),
    ] {
        let (status, body) = c.get(&format!("/api/book?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], code, "{query}: {body}");
    }
}
