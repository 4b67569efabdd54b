//! Takebacks in casual games: proposed, agreed (the proposer's move and the
//! reply taken back, the game replayed as it stands, after a reload too),
//! refused, ended by a move; refused in rated games; the computer agrees at
//! once; a bot answers through the Bot API.

use crate::common::{Client, play_moves, started_game};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_takeback_is_proposed_agreed_and_leaves_the_game_as_it_stood() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({ "rated": false })).await;
    let tb = format!("/api/games/{id}/takeback");
    // Nothing to take back yet.
    white
        .refused(
            &tb,
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "nothing_to_take_back",
        )
        .await;
    play_moves(&white, &black, &id, &["e3e4", "d6d5", "e4d5"]).await;
    // White proposes while Black is to move: only White's e4xd5 goes.
    white.post_ok(&tb, json!({ "action": "offer" })).await;
    let (_, g) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["takeback_offer"], "white");
    white
        .refused(
            &tb,
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "takeback_offered",
        )
        .await;
    white
        .refused(
            &tb,
            json!({ "action": "accept" }),
            StatusCode::CONFLICT,
            "no_takeback_offer",
        )
        .await;
    black.post_ok(&tb, json!({ "action": "accept" })).await;
    let (_, g) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 2);
    assert_eq!(g["turn"], "white");
    assert!(g["takeback_offer"].is_null());
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/ppp1pppp/3p4/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2"
    );
    let kinds: Vec<&str> = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["move", "move", "takeback"],
        "the undone move is left out"
    );
    // Play goes on from there. Black, to move, proposes (it would take back
    // d5 and White's a4); a move ends the proposal instead.
    play_moves(&white, &black, &id, &["a3a4"]).await;
    black.post_ok(&tb, json!({ "action": "offer" })).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["takeback_offer"], "black");
    black
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": "h6h5" }))
        .await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert!(g["takeback_offer"].is_null(), "a move ends the proposal");
    white.post_ok(&tb, json!({ "action": "offer" })).await;
    black.post_ok(&tb, json!({ "action": "decline" })).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (g["ply"].as_u64(), g["takeback_offer"].is_null()),
        (Some(4), true)
    );

    let text = white
        .http
        .get(format!("{}/api/games/{id}/pgn", white.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("1. e4 d5 2. a4 h5"), "{text}");
    server.app.games.invalidate(&id);
    let (_, again) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(again["ply"], 4);
    assert_eq!(again["fen"], g["fen"], "the game reloads as it stands");
}

#[tokio::test]
async fn takebacks_are_refused_in_rated_games() {
    let server = crate::common::start().await;
    let tc = json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 0 } });
    let (white, black, id) = started_game(&server, "makruk", tc).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["rated"], true);
    play_moves(&white, &black, &id, &["e3e4", "d6d5"]).await;
    white
        .refused(
            &format!("/api/games/{id}/takeback"),
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "rated_game",
        )
        .await;
}

#[tokio::test]
async fn the_computer_agrees_to_a_takeback_at_once() {
    let server = crate::common::start_on(&crate::common::test_database().0, true).await;
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1 }),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    guest
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    let mut answered = false;
    for _ in 0..100 {
        if guest.get(&format!("/api/games/{id}")).await.1["ply"] == 2 {
            answered = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(answered, "the computer answered");
    guest
        .post_ok(
            &format!("/api/games/{id}/takeback"),
            json!({ "action": "offer" }),
        )
        .await;
    let (_, g) = guest.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (g["ply"].as_u64(), g["turn"].as_str()),
        (Some(0), Some("white"))
    );
}
