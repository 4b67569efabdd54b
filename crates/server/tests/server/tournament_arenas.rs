//! Arenas end to end: pairing as games end, streaks, the start at its
//! time, no-shows.

use crate::common::tournament::{boards, create, name_of, settle, wait_for};
use crate::common::{Client, start};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

#[tokio::test]
async fn an_arena_repairs_finished_players_and_counts_streaks() {
    let server = start().await;
    let a = Client::registered(&server, "ar").await;
    let b = Client::registered(&server, "ar").await;
    let c = Client::registered(&server, "ar").await;
    let id = create(
        &a,
        json!({ "name": "Blitz arena", "variant": "makruk", "kind": "arena", "duration_minutes": 0.33,
                "time_control": { "kind": "live", "minutes": 1, "increment": 0 } }),
    )
    .await;
    for p in [&a, &b, &c] {
        p.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    let players: HashMap<String, &Client> = [&a, &b, &c].iter().map(|p| (p.name(), *p)).collect();
    let t = a
        .post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let ends_at = t["ends_at"].as_i64().unwrap();
    let pending = |t: &Value| -> Vec<Value> {
        boards(t)
            .into_iter()
            .filter(|b| b["status"] == "ongoing")
            .collect()
    };
    // The top two seeds meet first; the third waits.
    let first = pending(&t);
    assert_eq!(first.len(), 1, "{t}");
    let mut last_opponent: Option<String> = None;
    // `a` wins four games in a row: 2, 2, then 4 and 4 on a streak.
    for game in 0..4 {
        let t = wait_for(&a, &id, "a game for a", |t| {
            pending(t).iter().any(|b| {
                (name_of(&b["white"]) == a.name() || name_of(&b["black"]) == a.name())
                    && boards(t).len() > game
            })
        })
        .await;
        let board = pending(&t)
            .into_iter()
            .find(|b| name_of(&b["white"]) == a.name() || name_of(&b["black"]) == a.name())
            .unwrap();
        let opponent = if name_of(&board["white"]) == a.name() {
            name_of(&board["black"])
        } else {
            name_of(&board["white"])
        };
        assert_ne!(
            Some(&opponent),
            last_opponent.as_ref(),
            "no immediate rematch while another player waits: {t:#}"
        );
        assert_eq!(
            players[&opponent]
                .get(&format!(
                    "/api/games/{}",
                    board["game_id"].as_str().unwrap()
                ))
                .await
                .1["time_control"]["kind"],
            "live"
        );
        last_opponent = Some(opponent);
        if game == 3 {
            // The last game is still going when the arena's time is up.
            let wait = ends_at - thaiboard_server::util::now_ms();
            assert!(wait > 0, "the arena ended too soon for the test");
            tokio::time::sleep(Duration::from_millis(wait as u64 + 300)).await;
            let (_, t) = a.get(&format!("/api/tournaments/{id}")).await;
            assert_eq!(t["status"], "running", "a game is still going");
        }
        settle(&players, &board, Some(&a.name())).await;
    }
    let t = wait_for(&a, &id, "the end", |t| t["status"] == "finished").await;
    assert!(pending(&t).is_empty(), "no pairing after the end: {t:#}");
    let top = &t["standings"][0];
    assert_eq!(name_of(&top["user"]), a.name(), "{t:#}");
    assert_eq!(top["sheet"], json!([2, 2, 4, 4]), "{top}");
    assert_eq!(top["score"], 12);
    assert_eq!(top["performance"], 100.0);
    assert_eq!(top["on_fire"], true);
    // b and c lost two games each.
    for s in &t["standings"].as_array().unwrap()[1..] {
        assert_eq!(
            (s["score"].as_i64(), s["losses"].as_i64()),
            (Some(0), Some(2)),
            "{s}"
        );
    }
}

#[tokio::test]
async fn an_arena_starts_at_its_time_and_pairs_only_players_in_the_pool() {
    let server = start().await;
    let a = Client::registered(&server, "ap").await;
    let b = Client::registered(&server, "ap").await;
    let starts_at = thaiboard_server::util::now_ms() + 1500;
    let id = create(
        &a,
        json!({ "name": "Evening arena", "variant": "makhos", "kind": "arena", "duration_minutes": 10,
                "starts_at": starts_at, "time_control": { "kind": "live", "minutes": 3, "increment": 2 } }),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    a.post_ok(&path("join"), json!({})).await;
    b.post_ok(&path("join"), json!({})).await;
    let t = wait_for(&a, &id, "the start and its pairing", |t| {
        t["status"] == "running" && !boards(t).is_empty()
    })
    .await;
    assert!(t["started_at"].as_i64().unwrap() >= starts_at);
    assert_eq!(
        t["ends_at"].as_i64().unwrap() - t["started_at"].as_i64().unwrap(),
        600_000
    );
    let first = boards(&t);
    assert_eq!(first.len(), 1, "{t}");
    // b leaves the pool: the game goes on, but b is not paired again.
    let left = b.post_ok(&path("withdraw"), json!({})).await;
    assert_eq!(left["you"]["joined"], false);
    assert_eq!(
        left["you"]["can_join"], true,
        "an arena player may come back"
    );
    let game = first[0]["game_id"].as_str().unwrap();
    a.post_ok(&format!("/api/games/{game}/resign"), json!({}))
        .await;
    let t = wait_for(&a, &id, "the result", |t| {
        boards(t)[0]["status"] == "finished"
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, t2) = a.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(boards(&t2).len(), 1, "nobody to pair a with: {t2}");
    let winner = &t["standings"][0];
    assert_eq!(
        (name_of(&winner["user"]), winner["score"].as_i64()),
        (b.name(), Some(2))
    );
    // b comes back and is paired at once.
    b.post_ok(&path("join"), json!({})).await;
    let t = wait_for(&a, &id, "a new pairing", |t| boards(t).len() == 2).await;
    assert_eq!(boards(&t)[1]["status"], "ongoing");
    b.refused(
        &path("join"),
        json!({}),
        StatusCode::CONFLICT,
        "already_joined",
    )
    .await;
}

#[tokio::test]
async fn an_arena_calls_off_a_game_without_first_moves() {
    let (url, _) = crate::common::test_database();
    let mut config = crate::common::test_config(&url);
    config.arena_first_move_ms = 700;
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let a = Client::registered(&server, "ns").await;
    let b = Client::registered(&server, "ns").await;
    let c = Client::registered(&server, "ns").await;
    let id = create(
        &a,
        json!({ "name": "No-show arena", "variant": "makruk", "kind": "arena", "duration_minutes": 10 }),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for p in [&a, &b] {
        p.post_ok(&path("join"), json!({})).await;
    }
    let t = a.post_ok(&path("start"), json!({})).await;
    let first = &boards(&t)[0];
    assert_eq!(
        t["time_control"]["kind"], "live",
        "the default arena clock is live"
    );
    let game = first["game_id"].as_str().unwrap().to_string();
    // White moves, Black does not: Black's game is called off and Black leaves the pool.
    let white = if name_of(&first["white"]) == a.name() {
        &a
    } else {
        &b
    };
    let (_, g) = white.get(&format!("/api/games/{game}")).await;
    let mv = g["legal"][0]["uci"].as_str().unwrap().to_string();
    white
        .post_ok(&format!("/api/games/{game}/move"), json!({ "move": mv }))
        .await;
    let t = wait_for(&a, &id, "the no-show's game called off", |t| {
        boards(t)[0]["status"] == "aborted"
    })
    .await;
    let black = name_of(&first["black"]);
    let entrant = |t: &Value, name: &str| {
        t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| name_of(&e["user"]) == name)
            .unwrap()["active"]
            .clone()
    };
    assert_eq!(entrant(&t, &black), false, "{t:#}");
    assert_eq!(entrant(&t, &white.name()), true);
    assert!(
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["score"] == 0),
        "no points for a game called off"
    );
    // A newcomer is paired with the player still in the pool, not the no-show.
    c.post_ok(&path("join"), json!({})).await;
    let t = wait_for(&a, &id, "a new pairing", |t| boards(t).len() == 2).await;
    let second = &boards(&t)[1];
    let names = [name_of(&second["white"]), name_of(&second["black"])];
    assert!(
        names.contains(&c.name()) && names.contains(&white.name()),
        "{t:#}"
    );
}
