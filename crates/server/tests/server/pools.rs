//! Quick pairing: players who join the same pool land in one game; a
//! player who leaves is not paired; ratings far apart wait for the range to
//! widen; and two server processes on one PostgreSQL database pair every
//! player exactly once. Each test uses pools of its own: on a shared
//! PostgreSQL database every server's matcher sees every waiting player.

use crate::common::{Client, start, test_config, test_database};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant};

async fn join(c: &Client, variant: &str, clock: &str) -> Value {
    let (s, v) = c
        .post(
            "/api/pools/join",
            json!({ "variant": variant, "clock": clock }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "waiting", "{v}");
    v
}

/// Polls `GET /api/pools/mine` until a game comes, or `limit` passes.
async fn paired_within(c: &Client, limit: Duration) -> Option<String> {
    let start = Instant::now();
    while start.elapsed() < limit {
        let (s, v) = c.get("/api/pools/mine?wait=1").await;
        assert_eq!(s, StatusCode::OK, "{v}");
        match v["status"].as_str() {
            Some("paired") => return Some(v["game"].as_str().unwrap().to_string()),
            Some("waiting") => {}
            _ => panic!("not in a pool: {v}"),
        }
    }
    None
}

#[tokio::test]
async fn two_players_in_one_pool_land_in_one_game() {
    let server = start().await;
    let alice = Client::registered(&server, "alice").await;
    let bob = Client::registered(&server, "bob").await;
    let carol = Client::registered(&server, "carol").await;
    join(&alice, "makruk", "3+2").await;
    // Another game's pool with the same clock is another pool.
    join(&carol, "cambodian", "3+2").await;
    let (_, pools) = alice.get("/api/pools").await;
    let count = |pools: &Value, variant: &str, clock: &str| {
        pools["pools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["variant"] == variant && p["clock"] == clock)
            .unwrap()["waiting"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(count(&pools, "makruk", "3+2"), 1, "{pools}");
    assert_eq!(pools["pools"].as_array().unwrap().len(), 27, "{pools}");
    // A second click on the same pool keeps the place in the queue.
    let first = alice.get("/api/pools/mine").await.1["since"].clone();
    assert_eq!(join(&alice, "makruk", "3+2").await["since"], first);
    join(&bob, "makruk", "3+2").await;
    let a = paired_within(&alice, Duration::from_secs(10))
        .await
        .expect("alice paired");
    let b = paired_within(&bob, Duration::from_secs(10))
        .await
        .expect("bob paired");
    assert_eq!(a, b);
    let (_, g) = alice.get(&format!("/api/games/{a}")).await;
    assert_eq!(g["status"], "ongoing", "{g}");
    assert_eq!(g["variant"], "makruk", "{g}");
    assert_eq!(g["rated"], true, "{g}");
    assert_eq!(g["time_control"]["initial_ms"], 180_000, "{g}");
    assert_eq!(g["time_control"]["increment_ms"], 2_000, "{g}");
    let names = [
        g["white"]["username"].clone(),
        g["black"]["username"].clone(),
    ];
    assert!(
        names.contains(&json!(alice.name())) && names.contains(&json!(bob.name())),
        "{g}"
    );
    // Told once: then out of the pools.
    let (_, v) = alice.get("/api/pools/mine").await;
    assert_eq!(v["status"], "none", "{v}");
    // Carol, alone in her pool, still waits.
    let (_, v) = carol.get("/api/pools/mine").await;
    assert_eq!(v["status"], "waiting", "{v}");
    assert_eq!(v["variant"], "cambodian", "{v}");
}

#[tokio::test]
async fn a_player_who_leaves_is_not_paired_and_bad_requests_say_why() {
    let server = start().await;
    let alice = Client::registered(&server, "alice").await;
    let bob = Client::registered(&server, "bob").await;
    join(&alice, "makhos", "10+5").await;
    let (s, v) = alice.send("DELETE", "/api/pools/mine", json!({})).await;
    assert_eq!((s, v["left"].clone()), (StatusCode::OK, json!(true)), "{v}");
    join(&bob, "makhos", "10+5").await;
    assert_eq!(paired_within(&bob, Duration::from_secs(3)).await, None);
    let (_, v) = alice.get("/api/pools/mine").await;
    assert_eq!(v["status"], "none", "{v}");
    // Joining another pool leaves the first.
    join(&bob, "makhos", "15+10").await;
    let (_, v) = bob.get("/api/pools/mine").await;
    assert_eq!(v["clock"], "15+10", "{v}");

    alice
        .refused(
            "/api/pools/join",
            json!({ "variant": "makruk", "clock": "4+4" }),
            StatusCode::BAD_REQUEST,
            "invalid_pool",
        )
        .await;
    let (_, v) = alice
        .post(
            "/api/pools/join",
            json!({ "variant": "chess", "clock": "3+2" }),
        )
        .await;
    assert!(
        v["message"].as_str().unwrap().contains("unknown variant"),
        "{v}"
    );
    let guest = Client::guest(&server).await;
    guest
        .refused(
            "/api/pools/join",
            json!({ "variant": "makruk", "clock": "3+2" }),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
}

#[tokio::test]
async fn a_claim_whose_game_is_not_made_yet_is_not_announced() {
    // The matcher claims two rows first and makes the game a moment later;
    // a poll in between must not name a game that cannot be opened yet,
    // and a join in between must not move the player away from it.
    let server = start().await;
    let alice = Client::registered(&server, "alice").await;
    join(&alice, "makruk", "5+3").await;
    sqlx::query(
        "UPDATE pool_entries SET game_id = 'notyetmade', paired_at = $2 WHERE user_id = $1",
    )
    .bind(alice.user["id"].as_str().unwrap())
    .bind(i64::MAX / 2)
    .execute(&server.app.db.pool)
    .await
    .unwrap();
    let (_, v) = alice.get("/api/pools/mine").await;
    assert_eq!(v["status"], "waiting", "{v}");
    assert!(v["game"].is_null(), "{v}");
    let v = join(&alice, "makhos", "3+2").await;
    assert_eq!(v["variant"], "makruk", "{v}");
    let still =
        sqlx::query_scalar::<_, String>("SELECT game_id FROM pool_entries WHERE user_id = $1")
            .bind(alice.user["id"].as_str().unwrap())
            .fetch_one(&server.app.db.pool)
            .await
            .unwrap();
    assert_eq!(still, "notyetmade");
}

/// Sets `c`'s rating in rating pool `pool` (`makruk/blitz`).
async fn set_rating(server: &thaiboard_server::Server, c: &Client, pool: &str, rating: f64) {
    sqlx::query(
        "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated_at) \
         VALUES ($1, $2, $3, 60, 0.06, 20, 0)",
    )
    .bind(c.user["id"].as_str().unwrap())
    .bind(pool)
    .bind(rating)
    .execute(&server.app.db.pool)
    .await
    .unwrap();
}

#[tokio::test]
async fn players_far_apart_wait_for_the_range_to_widen() {
    let server = start().await;
    let alice = Client::registered(&server, "alice").await;
    let bob = Client::registered(&server, "bob").await;
    // 3+0 is blitz; 175 apart: beyond the first range (100), within it after 3 s.
    set_rating(&server, &alice, "cambodian/blitz", 1500.0).await;
    set_rating(&server, &bob, "cambodian/blitz", 1675.0).await;
    let joined = Instant::now();
    join(&alice, "cambodian", "3+0").await;
    join(&bob, "cambodian", "3+0").await;
    let game = paired_within(&alice, Duration::from_secs(15))
        .await
        .expect("paired in the end");
    assert!(
        joined.elapsed() >= Duration::from_millis(2_500),
        "paired after {:?}",
        joined.elapsed()
    );
    assert_eq!(
        paired_within(&bob, Duration::from_secs(2)).await,
        Some(game)
    );
}

#[tokio::test]
async fn two_servers_on_one_database_pair_every_player_once() {
    let (url, _) = test_database();
    let servers = if url.starts_with("postgres") {
        vec![
            thaiboard_server::Server::start(test_config(&url))
                .await
                .unwrap(),
            thaiboard_server::Server::start(test_config(&url))
                .await
                .unwrap(),
        ]
    } else {
        // SQLite: one process, still many players joining at once.
        vec![
            thaiboard_server::Server::start(test_config(&url))
                .await
                .unwrap(),
        ]
    };
    let mut players = Vec::new();
    for i in 0..16 {
        players.push(Client::registered(&servers[i % servers.len()], "pl").await);
    }
    let joins = players.iter().map(|p| join(p, "makruk", "1+0"));
    futures_util::future::join_all(joins).await;
    let found = futures_util::future::join_all(
        players
            .iter()
            .map(|p| paired_within(p, Duration::from_secs(20))),
    )
    .await;
    let mut per_game: HashMap<String, usize> = HashMap::new();
    for (p, g) in players.iter().zip(&found) {
        let g = g
            .clone()
            .unwrap_or_else(|| panic!("{} not paired", p.name()));
        *per_game.entry(g).or_default() += 1;
    }
    assert_eq!(per_game.len(), 8, "{per_game:?}");
    assert!(per_game.values().all(|&n| n == 2), "{per_game:?}");
    // And each game has the two players who were told of it, once each.
    for (p, g) in players.iter().zip(&found) {
        let (_, v) = p.get(&format!("/api/games/{}", g.as_ref().unwrap())).await;
        let me = json!(p.name());
        assert!(
            v["white"]["username"] == me || v["black"]["username"] == me,
            "{v}"
        );
        assert_ne!(v["white"]["username"], v["black"]["username"], "{v}");
    }
}
