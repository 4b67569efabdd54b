//! The opening explorer against a real server: rated games go into the
//! index as they finish (casual ones never), the speed and rating filters
//! select them, top games list them, a restarted server neither loses nor
//! doubles a game, and bad queries answer 400 with the reason.
//!
//! The games open with a sequence no other test plays, and the checks read
//! the positions after it, so that other tests' games on a shared
//! PostgreSQL database do not change the counts.

use crate::common::{Client, play_moves, start, started_game, with_query};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

/// The opening of the first test's games.
const OPENING: [&str; 4] = ["a3a4", "h6h5", "h3h4", "a6a5"];

/// The opening of the restart test's games (another position: the tests
/// may share a PostgreSQL database).
const OTHER_OPENING: [&str; 4] = ["b3b4", "g6g5", "g3g4", "b6b5"];

/// The FEN after `moves` from the Makruk start.
fn fen_after(moves: &[&str]) -> String {
    let mut p = makruk::Position::new(makruk::Variant::Makruk);
    for m in moves {
        let mv = p.parse_uci(m).unwrap();
        p.play(mv).unwrap();
    }
    p.fen()
}

/// A rated game of `minutes`+0 (or casual) that plays the opening and
/// `more`, then ends with `loser` resigning (`None`: a draw by agreement).
async fn finished_game(
    server: &thaiboard_server::Server,
    opening: &[&str],
    minutes: u32,
    rated: bool,
    more: &[&str],
    loser: Option<&str>,
) -> String {
    let (white, black, id) = started_game(
        server,
        "makruk",
        json!({ "rated": rated, "time_control": { "kind": "live", "minutes": minutes, "increment": 0 } }),
    )
    .await;
    let moves: Vec<&str> = opening.iter().chain(more).copied().collect();
    play_moves(&white, &black, &id, &moves).await;
    match loser {
        Some("white") => {
            white
                .post_ok(&format!("/api/games/{id}/resign"), json!({}))
                .await;
        }
        Some(_) => {
            black
                .post_ok(&format!("/api/games/{id}/resign"), json!({}))
                .await;
        }
        None => {
            white
                .post_ok(
                    &format!("/api/games/{id}/draw"),
                    json!({ "action": "offer" }),
                )
                .await;
            black
                .post_ok(
                    &format!("/api/games/{id}/draw"),
                    json!({ "action": "accept" }),
                )
                .await;
        }
    }
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "finished", "{g}");
    id
}

/// The explorer's answer at the position after the opening, with `query`
/// parameters added.
async fn explore(c: &Client, query: &str) -> Value {
    explore_at(c, &OPENING, query).await
}

/// The explorer's answer at the position after `opening`.
async fn explore_at(c: &Client, opening: &[&str], query: &str) -> Value {
    let fen = fen_after(opening);
    let url = with_query("/api/explorer", &[("variant", "makruk"), ("fen", &fen)]) + query;
    let (status, body) = c.get(&url).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Waits until the explorer holds `games` games after the opening (the
/// indexer runs in the background after a game ends).
async fn until_indexed(c: &Client, opening: &[&str], games: i64) -> Value {
    for _ in 0..200 {
        let e = explore_at(c, opening, "").await;
        let total = e["white"].as_i64().unwrap()
            + e["draws"].as_i64().unwrap()
            + e["black"].as_i64().unwrap();
        if total >= games {
            return e;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the explorer never held {games} games");
}

fn move_of<'a>(e: &'a Value, uci: &str) -> &'a Value {
    e["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
        .unwrap_or_else(|| panic!("no {uci} in {e}"))
}

#[tokio::test]
async fn rated_games_fill_the_explorer_and_the_filters_select_them() {
    let server = start().await;
    let blitz_win = finished_game(&server, &OPENING, 5, true, &["b1d2"], Some("black")).await;
    let blitz_loss = finished_game(&server, &OPENING, 5, true, &["b1d2"], Some("white")).await;
    let rapid_draw = finished_game(&server, &OPENING, 15, true, &["g1e2"], None).await;
    finished_game(&server, &OPENING, 5, false, &["b1d2"], Some("black")).await;
    let c = Client::guest(&server).await;
    let e = until_indexed(&c, &OPENING, 3).await;
    // Casual games stay out: three games, not four.
    assert_eq!(
        (
            e["white"].as_i64(),
            e["draws"].as_i64(),
            e["black"].as_i64()
        ),
        (Some(1), Some(1), Some(1)),
        "{e}"
    );
    let nd2 = move_of(&e, "b1d2");
    assert_eq!(
        (nd2["white"].as_i64(), nd2["black"].as_i64()),
        (Some(1), Some(1)),
        "{e}"
    );
    assert_eq!(nd2["san"], "Nd2");
    // New players are rated 1500 when they start.
    assert_eq!(nd2["averageRating"], 1500, "{e}");
    assert_eq!(e["moves"][0]["uci"], "b1d2", "most played first: {e}");
    assert_eq!(move_of(&e, "g1e2")["draws"], 1);
    // Speeds: blitz holds the two decisive games, rapid the draw.
    let blitz = explore(&c, "&speeds=blitz").await;
    assert_eq!(blitz["moves"].as_array().unwrap().len(), 1, "{blitz}");
    assert_eq!(blitz["moves"][0]["uci"], "b1d2");
    let rapid = explore(&c, "&speeds=rapid,classical").await;
    assert_eq!(rapid["draws"], 1, "{rapid}");
    assert_eq!(rapid["white"], 0);
    // Bands: 1500 is in the 1400 band.
    let band = explore(&c, "&ratings=1400").await;
    assert_eq!(band["moves"].as_array().unwrap().len(), 2, "{band}");
    let other = explore(&c, "&ratings=1600,1800").await;
    assert_eq!(other["moves"], json!([]), "{other}");
    // Top games: the three rated games, each with the move it played.
    let ids: Vec<&str> = e["topGames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    for id in [&blitz_win, &blitz_loss, &rapid_draw] {
        assert!(ids.contains(&id.as_str()), "{id} not in {e}");
    }
    let win = e["topGames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == blitz_win.as_str())
        .unwrap();
    assert_eq!(win["winner"], "white");
    assert_eq!(win["uci"], "b1d2");
    assert_eq!(win["white"]["rating"], 1500);
    // The position before the opening's last move has it as a move.
    let (_, before) = c
        .get(&with_query(
            "/api/explorer",
            &[("variant", "makruk"), ("fen", &fen_after(&OPENING[..3]))],
        ))
        .await;
    assert!(
        move_of(&before, "a6a5")["white"].as_i64().unwrap() >= 1,
        "{before}"
    );
}

#[tokio::test]
async fn a_restarted_server_neither_loses_nor_doubles_a_game() {
    let (url, _) = crate::common::test_database();
    let server = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    finished_game(&server, &OTHER_OPENING, 5, true, &["e3e4"], Some("black")).await;
    let c = Client::guest(&server).await;
    let before = until_indexed(&c, &OTHER_OPENING, 1).await;
    server.abort();
    drop(server);
    let server = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let c = Client::guest(&server).await;
    // The start-up sweep finds nothing new: the game counts once.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = explore_at(&c, &OTHER_OPENING, "").await;
    assert_eq!(
        move_of(&after, "e3e4")["white"],
        move_of(&before, "e3e4")["white"],
        "{after}"
    );
}

#[tokio::test]
async fn bad_queries_answer_400_with_the_reason() {
    let server = start().await;
    let c = Client::guest(&server).await;
    for (query, code, words) in [
        ("variant=makruk&fen=garbage", "bad_fen", "fen:"),
        (
            "variant=makruk&fen=8/8/8/8/8/8/8/8%20w%20-%20-%200%201",
            "bad_fen",
            "fen:",
        ),
        (
            "variant=makruk&fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20w%20KQkq%20-%200%201",
            "bad_fen",
            "fen:",
        ),
        ("variant=chess", "bad_variant", "variant"),
        ("variant=makruk&speeds=hyper", "bad_filter", "hyper"),
        ("variant=makruk&ratings=1700", "bad_filter", "1700"),
        ("variant=makruk&ratings=x", "bad_filter", "ratings"),
        ("variant=makruk&db=masters", "bad_filter", "masters"),
    ] {
        let (status, body) = c.get(&format!("/api/explorer?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], code, "{query}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains(words),
            "{query}: {body}"
        );
    }
    let long = "p".repeat(300);
    let (status, _) = c
        .get(&format!("/api/explorer?variant=makruk&fen={long}"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Every game: the start position answers, empty or not.
    for variant in ["makruk", "cambodian", "makhos"] {
        let (status, body) = c
            .get(&format!("/api/explorer?variant={variant}&db=engine"))
            .await;
        assert_eq!(status, StatusCode::OK, "{variant}: {body}");
        assert!(body["moves"].is_array());
    }
}
