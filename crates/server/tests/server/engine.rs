//! Games against the computer through a real server: guests play the
//! engine, levels are checked, the engine answers only for its own side,
//! and its move survives a restart. Also aborting and claiming.

use crate::common::{
    Client, legal_ucis, start, start_on, started_game, test_database, wait_for_ply,
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_guest_plays_the_engine_over_a_socket() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    assert_eq!(guest.user["guest"], true);
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 2,
                    "time_control": { "kind": "live", "minutes": 5, "increment": 2 } }),
        )
        .await;
    assert_eq!(g["status"], "ongoing");
    assert_eq!(g["white"]["id"], guest.user["id"]);
    assert_eq!(g["black"]["username"], "engine-level-2");
    let id = g["id"].as_str().unwrap().to_string();
    let (mut ws, snap) = guest.socket(&id).await;
    let mut game = snap["game"].clone();
    // The guest plays its first legal move each time; the engine answers each.
    for ply in (0..8).step_by(2) {
        let mv = legal_ucis(&game)[0].clone();
        let ack = ws
            .command(json!({ "type": "move", "move": mv, "ply": ply }), ply)
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
        let answer = ws.update_at(ply as usize + 2).await;
        game = answer["game"].clone();
        assert_eq!(game["turn"], "white", "the engine moved once, for Black");
        assert_eq!(answer["action"]["seq"], ply + 2);
    }
    // Every odd move is the guest's, every even one the engine's: the engine never moved for White.
    let (_, full) = guest.get(&format!("/api/games/{id}")).await;
    assert_eq!(full["actions"].as_array().unwrap().len(), 8);
    // The game is in the guest's list, and anyone may watch it.
    let (_, mine) = guest.get("/api/my-games").await;
    assert_eq!(mine[0]["id"], id);
    assert_eq!(mine[0]["your_move"], true);
    let stranger = Client::guest(&server).await;
    let (s, _) = stranger.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    stranger
        .refused(
            &format!("/api/games/{id}/resign"),
            json!({}),
            StatusCode::FORBIDDEN,
            "not_a_player",
        )
        .await;
    // Resigning ends it.
    let g = guest
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("resignation"))
    );
}

#[tokio::test]
async fn a_whole_mak_hot_game_against_the_engine_reaches_a_result() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makhos", "rules": "no-reverse", "color": "black", "level": 1 }),
        )
        .await;
    assert_eq!(g["white"]["username"], "engine-level-1");
    assert_eq!(g["rules"], "no-reverse");
    let id = g["id"].as_str().unwrap().to_string();
    // The engine has White: it moves first by itself.
    let mut game = wait_for_ply(&guest, &id, 1).await;
    let mut plies = 0;
    while game["status"] == "ongoing" {
        let ply = game["ply"].as_u64().unwrap();
        assert_eq!(
            ply % 2,
            1,
            "the guest (Black) moves at odd plies only: {game}"
        );
        assert_eq!(game["turn"], "black");
        let mv = legal_ucis(&game)[0].clone();
        guest
            .post_ok(
                &format!("/api/games/{id}/move"),
                json!({ "move": mv, "ply": ply }),
            )
            .await;
        game = wait_for_ply(&guest, &id, ply + 2).await;
        plies += 2;
        assert!(plies < 400, "the game does not end");
    }
    assert_eq!(game["status"], "finished", "{game}");
    assert!(
        game["result"].is_string() && game["reason"].is_string(),
        "{game}"
    );
}

#[tokio::test]
async fn engine_levels_and_requests_are_checked() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    for level in [json!(0), json!(9), json!(-1), json!(1000)] {
        guest
            .refused(
                "/api/engine-games",
                json!({ "variant": "makruk", "level": level }),
                StatusCode::BAD_REQUEST,
                "invalid_level",
            )
            .await;
    }
    for (body, code) in [
        (json!({ "variant": "makruk" }), "malformed_json"),
        (
            json!({ "variant": "makruk", "level": "hard" }),
            "malformed_json",
        ),
        (json!({ "variant": "chess", "level": 3 }), "invalid_variant"),
        (
            json!({ "variant": "makhos", "rules": "x", "level": 3 }),
            "invalid_rules",
        ),
        (
            json!({ "variant": "makruk", "color": "red", "level": 3 }),
            "invalid_color",
        ),
    ] {
        guest
            .refused("/api/engine-games", body, StatusCode::BAD_REQUEST, code)
            .await;
    }
    // Guests play the engine only; nobody challenges an engine account directly.
    guest
        .refused(
            "/api/challenges",
            json!({ "variant": "makruk" }),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
    let user = Client::registered(&server, "eve").await;
    user.refused(
        "/api/challenges",
        json!({ "variant": "makruk", "opponent": "engine-level-3" }),
        StatusCode::BAD_REQUEST,
        "invalid_opponent",
    )
    .await;
    // Nobody can register or log in as the engine.
    let (s, _) = user
        .post(
            "/api/register",
            json!({ "username": "engine-level-4", "password": "correct horse" }),
        )
        .await;
    assert!(
        s == StatusCode::CONFLICT || s == StatusCode::BAD_REQUEST,
        "{s}"
    );
    let (s, _) = user
        .post(
            "/api/login",
            json!({ "username": "engine-level-4", "password": "" }),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // At most ten games against the computer at a time.
    for _ in 0..10 {
        guest
            .post_ok(
                "/api/engine-games",
                json!({ "variant": "makruk", "color": "white", "level": 1 }),
            )
            .await;
    }
    guest
        .refused(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1 }),
            StatusCode::CONFLICT,
            "too_many_engine_games",
        )
        .await;
    // A registered user plays the engine too.
    let g = user
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "cambodian", "color": "white", "level": 8 }),
        )
        .await;
    assert_eq!(g["black"]["username"], "engine-level-8");
}

#[tokio::test]
async fn the_engine_move_waits_for_no_one_and_resumes_after_a_restart() {
    let (url, _) = test_database();
    // A server whose engine is paused: the game stands with the engine to move.
    let server = start_on(&url, false).await;
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "black", "level": 3 }),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["turn"], "white");
    // The human cannot move for the engine, over HTTP or the socket.
    guest
        .refused(
            &format!("/api/games/{id}/move"),
            json!({ "move": "e3e4" }),
            StatusCode::CONFLICT,
            "not_your_turn",
        )
        .await;
    let (mut ws, _) = guest.socket(&id).await;
    let r = ws
        .command(json!({ "type": "move", "move": "e3e4" }), 1)
        .await;
    assert_eq!(r["error"], "not_your_turn", "{r}");
    // (On a shared PostgreSQL database another test's server may resume this game.)
    if !url.starts_with("postgres") {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, g) = guest.get(&format!("/api/games/{id}")).await;
        assert_eq!(g["ply"], 0, "nobody moved: {g}");
    }
    server.abort();
    drop(server);

    // A new server on the same database plays the engine's move by itself.
    let server = start_on(&url, true).await;
    let watcher = Client::guest(&server).await;
    let g = wait_for_ply(&watcher, &id, 1).await;
    assert_eq!(g["ply"], 1, "{g}");
    assert_eq!(g["turn"], "black");
    assert_eq!(g["actions"][0]["kind"], "move");
}

#[tokio::test]
async fn abort_before_both_sides_moved() {
    let server = start().await;
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
    )
    .await;
    let (s, _) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(s, StatusCode::OK);
    let watcher = Client::guest(&server).await;
    watcher
        .refused(
            &format!("/api/games/{id}/abort"),
            json!({}),
            StatusCode::FORBIDDEN,
            "not_a_player",
        )
        .await;
    let g = black
        .post_ok(&format!("/api/games/{id}/abort"), json!({}))
        .await;
    assert_eq!(g["status"], "aborted");
    assert_eq!(g["result"], Value::Null);
    assert_eq!(g["clock"]["running"], Value::Null);
    white
        .refused(
            &format!("/api/games/{id}/move"),
            json!({ "move": "a3a4" }),
            StatusCode::CONFLICT,
            "game_over",
        )
        .await;
    // Gone from the ongoing games (listed with the ended ones).
    let (_, mine) = white.get("/api/my-games").await;
    let entry = mine
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    assert_eq!(entry["status"], "aborted");
    assert_eq!(entry["your_move"], false);
    // Too late once both sides moved.
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    for (who, mv) in [(&white, "e3e4"), (&black, "e6e5")] {
        let (s, _) = who
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(s, StatusCode::OK);
    }
    white
        .refused(
            &format!("/api/games/{id}/abort"),
            json!({}),
            StatusCode::CONFLICT,
            "too_late_to_abort",
        )
        .await;
    // Over the socket too, and a game against the engine can be aborted at once.
    let guest = Client::guest(&server).await;
    let (_, g) = guest
        .post(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1 }),
        )
        .await;
    let gid = g["id"].as_str().unwrap().to_string();
    let (mut ws, _) = guest.socket(&gid).await;
    let r = ws.command(json!({ "type": "abort" }), 5).await;
    assert_eq!(r["type"], "ack", "{r}");
    let (_, g) = guest.get(&format!("/api/games/{gid}")).await;
    assert_eq!(g["status"], "aborted");
}

#[tokio::test]
async fn claims_need_the_opponents_time_to_have_run_out() {
    let server = start().await;
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
    )
    .await;
    for who in [&white, &black] {
        who.refused(
            &format!("/api/games/{id}/claim"),
            json!({}),
            StatusCode::CONFLICT,
            "nothing_to_claim",
        )
        .await;
    }
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "ongoing");
    // One second each: once White's time is up, Black's claim wins on time
    // (or the server's own clock got there first; the result is the same).
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 1.0 / 60.0, "increment": 0 } }),
    )
    .await;
    for (who, ply, mv) in [(&white, 0, "e3e4"), (&black, 1, "e6e5")] {
        who.post_ok(
            &format!("/api/games/{id}/move"),
            json!({ "move": mv, "ply": ply }),
        )
        .await;
    }
    let claimed = loop {
        let (s, g) = black
            .post(&format!("/api/games/{id}/claim"), json!({}))
            .await;
        match (s, g["error"].as_str()) {
            (StatusCode::OK, _) => break true,
            (StatusCode::CONFLICT, Some("game_over")) => break false,
            (StatusCode::CONFLICT, Some("nothing_to_claim")) => {
                tokio::time::sleep(Duration::from_millis(5)).await
            }
            other => panic!("claim: {other:?} {g}"),
        }
    };
    let (_, g) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("timeout")),
        "claimed: {claimed}, {g}"
    );
    assert_eq!(g["clock"]["white_ms"], 0);
}

/// A computer opponent that plays a fixed list of moves and declares a
/// count where the list says `count:...`.
struct Scripted(std::sync::Mutex<std::collections::VecDeque<String>>, bool);

impl thaiboard_server::Opponent for Scripted {
    fn choose(
        &self,
        _position: games::AnyGame,
        _level: u8,
        _budget_ms: u64,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<String>> + Send + '_>> {
        let mv = self.0.lock().unwrap().pop_front();
        Box::pin(async move { mv })
    }
    fn wants_count(&self, _position: &games::AnyGame, _level: u8) -> bool {
        let mut script = self.0.lock().unwrap();
        let count = script.front().is_some_and(|t| t.starts_with("count:"));
        if count {
            script.pop_front();
        }
        count
    }
    fn accepts_draw(
        &self,
        _position: games::AnyGame,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send + '_>> {
        let accept = self.1;
        Box::pin(async move { accept })
    }
}

#[tokio::test]
async fn the_computer_counts_and_moves_through_the_players_path() {
    // Always SQLite: on a shared PostgreSQL database other tests' servers
    // would resume this game with the real engine.
    let (_, dir) = test_database();
    let url = format!("sqlite://{}", dir.join("scripted.db").display());
    let server = start_on(&url, false).await;
    let tokens: Vec<String> = include_str!("../data/makruk_board_count.txt")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    // The computer has Black: it plays every second move and declares the count.
    let mut script = std::collections::VecDeque::new();
    let mut human = Vec::new();
    for (i, t) in tokens
        .iter()
        .filter(|t| !t.starts_with("count:"))
        .enumerate()
    {
        if i % 2 == 0 {
            human.push(t.clone());
        } else {
            script.push_back(t.clone());
        }
    }
    let at = tokens.iter().position(|t| t == "count:black").unwrap();
    script.insert(at / 2, "count:black".to_string());
    server
        .app
        .engine_play
        .set_opponent(std::sync::Arc::new(Scripted(
            std::sync::Mutex::new(script),
            false,
        )));
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 5 }),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut game = g;
    for (i, mv) in human.iter().enumerate() {
        if game["status"] != "ongoing" {
            break;
        }
        let ply = 2 * i as u64;
        guest
            .post_ok(
                &format!("/api/games/{id}/move"),
                json!({ "move": mv, "ply": ply }),
            )
            .await;
        game = wait_for_ply(&guest, &id, ply + 2).await;
    }
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(
        (game["result"].as_str(), game["reason"].as_str()),
        (Some("1/2-1/2"), Some("counting_draw"))
    );
    let (_, full) = guest.get(&format!("/api/games/{id}")).await;
    let actions = full["actions"].as_array().unwrap();
    let count = actions.iter().find(|a| a["kind"] == "count_start").unwrap();
    assert_eq!(
        count["uci"], "black",
        "the computer (Black) declared the count"
    );
    // Every move, the computer's (odd plies) included, is the script's.
    let played: Vec<&str> = actions
        .iter()
        .filter(|a| a["kind"] == "move")
        .map(|a| a["uci"].as_str().unwrap())
        .collect();
    let script: Vec<&str> = tokens
        .iter()
        .map(String::as_str)
        .filter(|t| !t.starts_with("count:"))
        .collect();
    assert_eq!(played, script);
}

/// The human offers a draw, then moves: the offer stands for the computer to answer.
async fn offer_then_move(guest: &Client, id: &str) -> Value {
    guest
        .post_ok(
            &format!("/api/games/{id}/draw"),
            json!({ "action": "offer" }),
        )
        .await;
    guest
        .post_ok(
            &format!("/api/games/{id}/move"),
            json!({ "move": "e3e4", "ply": 0 }),
        )
        .await;
    wait_for_ply(guest, id, 2).await
}

#[tokio::test]
async fn the_computer_answers_draw_offers() {
    // The engine, level against level at the start, plays on: its move declines.
    let server = start().await;
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 4 }),
        )
        .await;
    let g = offer_then_move(&guest, g["id"].as_str().unwrap()).await;
    assert_eq!(
        (g["status"].as_str(), g["ply"].as_u64()),
        (Some("ongoing"), Some(2)),
        "{g}"
    );
    assert_eq!(g["draw_offer"], Value::Null);
    // An opponent that accepts ends the game by agreement without moving.
    let (_, dir) = test_database();
    let server = start_on(
        &format!("sqlite://{}", dir.join("draw.db").display()),
        false,
    )
    .await;
    server
        .app
        .engine_play
        .set_opponent(std::sync::Arc::new(Scripted(
            std::sync::Mutex::new(["e6e5".to_string()].into()),
            true,
        )));
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 4 }),
        )
        .await;
    let g = offer_then_move(&guest, g["id"].as_str().unwrap()).await;
    assert_eq!(
        (
            g["result"].as_str(),
            g["reason"].as_str(),
            g["ply"].as_u64()
        ),
        (Some("1/2-1/2"), Some("agreement"), Some(1)),
        "{g}"
    );
}
