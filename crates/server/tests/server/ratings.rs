//! Ratings against a real server: rated games update both players' Glicko-2
//! ratings in the transaction that ends them (checked against the `glicko2`
//! package from PyPI), casual and aborted games change nothing, concurrent
//! game ends neither lose nor double an update, and the profile, history and
//! leaderboard routes show them.

use crate::common::{Client, start, started_game};
use games::{Color, EndReason, Outcome};
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::{Rating, update_ratings as update};

/// A rated blitz game between two new players, started.
async fn rated_game(server: &thaiboard_server::Server) -> (Client, Client, String) {
    started_game(
        server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
    )
    .await
}

#[test]
fn glicko2_agrees_with_the_glicko2_package() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/glicko2_check.py");
    let mut cases = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 10_000) as f64 / 10_000.0
    };
    for _ in 0..200 {
        let player = Rating {
            rating: 800.0 + 1600.0 * next(),
            deviation: 40.0 + 310.0 * next(),
            volatility: 0.04 + 0.04 * next(),
        };
        let opponent = Rating {
            rating: 800.0 + 1600.0 * next(),
            deviation: 40.0 + 310.0 * next(),
            volatility: 0.06,
        };
        let outcome = match (next() * 3.0) as u32 {
            0 => Outcome::win(Color::White, EndReason::Checkmate),
            1 => Outcome::win(Color::Black, EndReason::Resignation),
            _ => Outcome::draw(EndReason::Agreement),
        };
        cases.push((player, opponent, outcome));
    }
    let input: String = cases
        .iter()
        .map(|(p, o, outcome)| {
            let score = outcome.score_of(Color::White);
            format!(
                "{} {} {} {} {} {score}\n",
                p.rating, p.deviation, p.volatility, o.rating, o.deviation
            )
        })
        .collect();
    let out = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .expect("python3 with the glicko2 package (pip install glicko2)");
    assert!(
        out.status.success(),
        "the glicko2 oracle failed (pip install glicko2)"
    );
    let theirs: Vec<Vec<f64>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(theirs.len(), cases.len());
    for ((p, o, outcome), t) in cases.iter().zip(&theirs) {
        let (ours, _) = update(*p, *o, outcome);
        // Both find the new volatility iteratively (the Illinois method,
        // stopping within 1e-6 on ln σ²), so they agree to about that
        // precision: a thousandth of a rating point, not the last digit.
        assert!(
            (ours.rating - t[0]).abs() < 1e-3
                && (ours.deviation - t[1]).abs() < 1e-3
                && (ours.volatility - t[2]).abs() < 1e-4,
            "{p:?} vs {o:?}, {outcome}: ours {ours:?}, glicko2 {t:?}"
        );
    }
}

async fn profile(c: &Client, name: &str) -> Value {
    let (s, v) = c.get(&format!("/api/users/{name}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn a_rated_game_updates_both_ratings_and_shows_the_change() {
    let server = start().await;
    let (white, black, id) = rated_game(&server).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["rated"], true, "{g}");
    assert_eq!(g["pool"], "makruk/blitz");
    assert_eq!(
        g["white"]["rating"],
        json!({ "rating": 1500, "provisional": true })
    );
    let g = black
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    let (new_white, new_black) = update(
        Rating::default(),
        Rating::default(),
        &Outcome::win(Color::White, EndReason::Resignation),
    );
    assert_eq!(g["white"]["rating_diff"], new_white.shown() - 1500, "{g}");
    assert_eq!(g["black"]["rating_diff"], new_black.shown() - 1500, "{g}");
    let p = profile(&white, &white.name()).await;
    assert_eq!(p["ratings"][0]["pool"], "makruk/blitz", "{p}");
    assert_eq!(p["ratings"][0]["rating"]["rating"], new_white.shown());
    assert_eq!(p["ratings"][0]["games"], 1);
    assert_eq!(p["results"], json!({ "wins": 1, "draws": 0, "losses": 0 }));
    let (_, h) = white
        .get(&format!(
            "/api/users/{}/rating-history?pool=makruk/blitz",
            white.name()
        ))
        .await;
    assert_eq!(h[0]["game_id"], id.as_str(), "{h}");
    assert_eq!(h[0]["rating"], new_white.shown());
    // My games show the change too.
    let (_, mine) = black.get("/api/my-games").await;
    assert_eq!(mine[0]["rated"], true);
    assert_eq!(mine[0]["black_rating_diff"], new_black.shown() - 1500);
}

#[tokio::test]
async fn casual_aborted_and_clockless_games_change_no_rating() {
    let server = start().await;
    // Casual by request.
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "rated": false, "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
    )
    .await;
    black
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    // Aborted.
    let (white2, black2, id2) = rated_game(&server).await;
    white2
        .post_ok(&format!("/api/games/{id2}/abort"), json!({}))
        .await;
    // Without a clock a game is casual, and asking for rated is refused.
    let (_, _, id3) = started_game(&server, "makruk", json!({})).await;
    let (_, g3) = white.get(&format!("/api/games/{id3}")).await;
    assert_eq!(g3["rated"], false);
    white
        .refused(
            "/api/challenges",
            json!({ "variant": "makruk", "rated": true }),
            StatusCode::BAD_REQUEST,
            "invalid_rated",
        )
        .await;
    for c in [&white, &black, &white2, &black2] {
        let p = profile(c, &c.name()).await;
        assert_eq!(p["ratings"], json!([]), "{p}");
    }
}

#[tokio::test]
async fn concurrent_game_ends_neither_lose_nor_double_an_update() {
    let server = start().await;
    let white = Client::registered(&server, "ann").await;
    let black = Client::registered(&server, "ben").await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let id = white
            .challenge(
                json!({ "variant": "makruk", "color": "white", "opponent": black.name(),
                "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
            )
            .await;
        black
            .post_ok(&format!("/api/games/{id}/accept"), json!({}))
            .await;
        ids.push(id);
    }
    // Every game ends at once: White resigns three, Black three.
    let ends = ids.iter().enumerate().map(|(i, id)| {
        let who = if i % 2 == 0 { &white } else { &black };
        let path = format!("/api/games/{id}/resign");
        async move { who.post(&path, json!({})).await }
    });
    for (status, body) in futures_util::future::join_all(ends).await {
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // The ratings are the six updates applied one after the other, in the
    // order the history records.
    let (_, h) = white
        .get(&format!(
            "/api/users/{}/rating-history?pool=makruk/blitz",
            white.name()
        ))
        .await;
    let order: Vec<String> = h
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["game_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(order.len(), 6, "{h}");
    let (mut w, mut b) = (Rating::default(), Rating::default());
    for id in &order {
        let i = ids.iter().position(|x| x == id).unwrap();
        let winner = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        (w, b) = update(w, b, &Outcome::win(winner, EndReason::Resignation));
    }
    let pw = profile(&white, &white.name()).await;
    let pb = profile(&black, &black.name()).await;
    assert_eq!(pw["ratings"][0]["games"], 6, "{pw}");
    assert_eq!(pb["ratings"][0]["games"], 6, "{pb}");
    assert_eq!(pw["ratings"][0]["rating"]["rating"], w.shown(), "{pw}");
    assert_eq!(pb["ratings"][0]["rating"]["rating"], b.shown(), "{pb}");
    // Five games make the leaderboard.
    let (s, board) = white.get("/api/leaderboard/makruk/blitz").await;
    assert_eq!(s, StatusCode::OK, "{board}");
    assert!(
        board
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["username"] == white.name().as_str()),
        "{board}"
    );
}

#[tokio::test]
async fn bad_pools_and_unknown_players_are_clear_errors() {
    let server = start().await;
    let c = Client::registered(&server, "cat").await;
    let (s, e) = c.get("/api/leaderboard/chess/blitz").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_pool"))
    );
    let (s, _) = c.get("/api/users/nobody-at-all").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = c
        .get(&format!(
            "/api/users/{}/rating-history?pool=makruk/slow",
            c.name()
        ))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_pool"))
    );
    let (s, e) = c
        .get(&format!("/api/users/{}/rating-history", c.name()))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_query"))
    );
}
