//! Engine analysis through the real HTTP API: refused while a game is being
//! played, then run in the background on a finished game with progress, one
//! stored analysis per position.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn wait_done(c: &Client, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, view) = c.get(&format!("/api/games/{id}/analysis")).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert!(view["done"].as_u64() <= view["total"].as_u64(), "{view}");
        if view["status"] == "done" {
            return view;
        }
        assert!(Instant::now() < deadline, "analysis did not finish: {view}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn finished_games_only_then_every_position() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let moves = ["e3e4", "d6d5", "e4d5", "c6c5"];
    play_moves(&white, &black, &id, &moves).await;
    let watcher = Client::guest(&server).await;
    // Not while the game is on.
    let (status, body) = watcher
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "game_not_finished");
    let (_, view) = watcher.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(view["status"], "none");
    assert_eq!(view["done"], 0);

    let (status, body) = white
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = watcher
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["total"], moves.len() + 1);
    let view = wait_done(&watcher, &id).await;
    let positions = view["positions"].as_array().unwrap();
    assert_eq!(positions.len(), moves.len() + 1);
    for (ply, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], ply);
        assert!(!p["best"].as_str().unwrap().is_empty(), "{p}");
        assert!(
            p["eval"]["cp"].is_i64() || p["eval"]["mate"].is_i64(),
            "{p}"
        );
        assert_eq!(p["pv"][0], p["best"]);
        // The line as players read it, move for move.
        let sans = p["pv_san"].as_array().unwrap();
        assert_eq!(sans.len(), p["pv"].as_array().unwrap().len(), "{p}");
        assert_eq!(p["pv_thai"].as_array().unwrap().len(), sans.len(), "{p}");
        // Every move but the last has its loss measured.
        assert_eq!(p["loss"].is_i64(), ply < moves.len(), "{p}");
    }
    // Accuracy per player, and a symbol for every judged move.
    for side in ["white", "black"] {
        let a = view["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a), "{side}: {a}");
    }
    for p in positions {
        let want = match p["judgement"].as_str() {
            Some("blunder") => Some("??"),
            Some("mistake") => Some("?"),
            Some("inaccuracy") => Some("?!"),
            _ => None,
        };
        assert_eq!(p["symbol"].as_str(), want, "{p}");
    }
    // The first position's line in SAN, as the rules crate writes it from the start.
    let kind = games::GameKind::from_names("makruk", None).unwrap();
    let mut pos = games::AnyPosition::start(kind);
    let mut expected = Vec::new();
    for uci in positions[0]["pv"].as_array().unwrap() {
        let mv = pos.parse_engine(uci.as_str().unwrap()).unwrap();
        expected.push(json!(pos.display_move(&mv)));
        pos.play(&mv).unwrap();
    }
    assert_eq!(positions[0]["pv_san"].as_array().unwrap(), &expected);
    assert!(!expected.is_empty());
    // Black left the bia White took with e4xd5 (c6xd5 recaptured it): the
    // position after c6c5 favours White.
    assert!(
        positions[4]["eval"]["cp"].as_i64().unwrap() > 0,
        "{}",
        positions[4]
    );

    // Asking again answers the finished analysis.
    let (status, body) = watcher
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "done");

    // Unknown game.
    let (status, _) = watcher
        .post("/api/games/nosuchgame/analysis", json!({}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn mak_hot_analysis() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makhos", json!({})).await;
    play_first_legal(&white, &black, &id, 2).await;
    let (status, body) = black
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = white
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let view = wait_done(&white, &id).await;
    assert_eq!(view["positions"].as_array().unwrap().len(), 3);
}
