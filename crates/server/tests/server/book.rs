//! The opening book through the real HTTP API: moves from finished games
//! only, counted with their results, for the start and for later positions.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::Server;

/// Plays `moves` in a new Makruk game, then the side to move resigns unless `finish` is false.
async fn play(server: &Server, moves: &[&str], finish: bool) -> (String, Vec<Value>) {
    let (white, black, id) = started_game(server, "makruk", json!({})).await;
    play_moves(&white, &black, &id, moves).await;
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

/// (games, White wins, draws, Black wins) of a move in a book; zeros if absent.
fn counts(book: &Value, uci: &str) -> [u64; 4] {
    book["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
        .map(|m| ["games", "white_wins", "draws", "black_wins"].map(|k| m[k].as_u64().unwrap()))
        .unwrap_or([0; 4])
}

async fn book_at(c: &Client, fen: Option<&str>) -> Value {
    let mut query = vec![("variant", "makruk")];
    if let Some(f) = fen {
        query.push(("fen", f));
    }
    let resp = c
        .http
        .get(format!("{}/api/book", c.base))
        .query(&query)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp.json().await.unwrap()
}

fn delta(after: [u64; 4], before: [u64; 4]) -> [u64; 4] {
    [0, 1, 2, 3].map(|i| after[i] - before[i])
}

#[tokio::test]
async fn book_counts_moves_of_finished_games() {
    let server = start().await;
    let c = Client::guest(&server).await;
    // The database may hold other tests' games (PostgreSQL runs share one):
    // compare with the book before.
    let mut after_e4 = makruk::Game::new(makruk::Variant::Makruk);
    after_e4.play_uci("e3e4").unwrap();
    let e4_fen = after_e4.position().fen();
    let start_before = book_at(&c, None).await;
    let e4_before = book_at(&c, Some(&e4_fen)).await;

    // White resigns after 2 moves (0-1); Black resigns after 3 and after 1 (1-0); one unfinished.
    play(&server, &["e3e4", "d6d5"], true).await;
    let (_, actions) = play(&server, &["e3e4", "c6c5", "b1d2"], true).await;
    play(&server, &["a3a4"], true).await;
    play(&server, &["h3h4", "h6h5"], false).await;
    assert_eq!(actions[0]["fen"], e4_fen);

    let start_after = book_at(&c, None).await;
    assert_eq!(
        start_after["games"].as_u64().unwrap() - start_before["games"].as_u64().unwrap(),
        3,
        "{start_after}"
    );
    assert_eq!(
        delta(counts(&start_after, "e3e4"), counts(&start_before, "e3e4")),
        [2, 1, 0, 1]
    );
    assert_eq!(
        delta(counts(&start_after, "a3a4"), counts(&start_before, "a3a4")),
        [1, 1, 0, 0]
    );
    assert_eq!(
        delta(counts(&start_after, "h3h4"), counts(&start_before, "h3h4")),
        [0; 4],
        "unfinished games are not in the book"
    );
    let e3e4 = start_after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "e3e4")
        .unwrap();
    assert_eq!(e3e4["san"], "e4");
    assert_eq!(e3e4["thai"]["long"], "บ จ๓-จ๔");
    let games: Vec<u64> = start_after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["games"].as_u64().unwrap())
        .collect();
    assert!(
        games.windows(2).all(|w| w[0] >= w[1]),
        "most played first: {games:?}"
    );

    // After 1. e4: two replies, one game each.
    let e4_after = book_at(&c, Some(&e4_fen)).await;
    assert_eq!(
        delta(counts(&e4_after, "d6d5"), counts(&e4_before, "d6d5")),
        [1, 0, 0, 1]
    );
    assert_eq!(
        delta(counts(&e4_after, "c6c5"), counts(&e4_before, "c6c5")),
        [1, 1, 0, 0]
    );
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
        ("fen=garbage", "bad_fen"),
        (
            "fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20w%20KQkq%20-%200%201",
            "bad_fen",
        ),
    ] {
        let (status, body) = c.get(&format!("/api/book?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], code, "{query}: {body}");
    }
}
