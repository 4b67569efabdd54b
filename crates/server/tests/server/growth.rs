//! Bounded growth and honest names: guests per address and their expiry,
//! per-player caps on challenges, tournaments and private notes, reserved
//! names and their look-alikes, and no invisible bidirectional or
//! zero-width characters in what players write.

use crate::common::{Client, start, started_game, test_config, test_database, unique};
use reqwest::StatusCode;
use serde_json::json;
use thaiboard_server::{Config, Server};

async fn server(config: impl FnOnce(Config) -> Config) -> Server {
    let (url, _) = test_database();
    Server::start(config(test_config(&url))).await.unwrap()
}

/// A cookie-less `GET /api/session`: the status.
async fn new_guest(server: &Server) -> StatusCode {
    reqwest::get(format!("http://{}/api/session", server.addr))
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn one_address_makes_few_guests_unless_it_is_the_exempt_loopback() {
    let capped = server(|c| Config {
        exempt_loopback: false,
        guests_per_ip_burst: 3.0,
        guests_per_ip_per_hour: 6.0,
        ..c
    })
    .await;
    for _ in 0..3 {
        assert_eq!(new_guest(&capped).await, StatusCode::OK);
    }
    let resp = reqwest::get(format!("http://{}/api/session", capped.addr))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(resp.headers().get("set-cookie").is_none());
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "too_many_guests");
    // The load tool's server: loopback is exempt only by its option.
    let exempt = server(|c| Config {
        exempt_loopback: true,
        guests_per_ip_burst: 3.0,
        ..c
    })
    .await;
    for _ in 0..10 {
        assert_eq!(new_guest(&exempt).await, StatusCode::OK);
    }
}

#[tokio::test]
async fn an_old_guest_without_games_is_removed_and_its_sockets_close() {
    let server = start().await;
    let idle = Client::guest(&server).await;
    let player = Client::guest(&server).await;
    player
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1,
                    "time_control": { "kind": "correspondence", "days": 3 } }),
        )
        .await;
    let fresh = Client::guest(&server).await;
    let mut socket = idle.lobby_socket().await;
    let _ = socket.next_of("lobby").await;
    // Two of them were made two days ago.
    let two_days_ago = thaiboard_server::util::now_ms() - 2 * 86_400_000;
    for c in [&idle, &player] {
        sqlx::query("UPDATE users SET created_at = $1 WHERE id = $2")
            .bind(two_days_ago)
            .bind(c.user["id"].as_str().unwrap())
            .execute(&server.app.db.pool)
            .await
            .unwrap();
    }
    // The janitor's sweep, with the default age of a day.
    let cutoff =
        thaiboard_server::util::now_ms() - server.app.config.guest_unused_after_secs * 1000;
    let removed =
        thaiboard_server::expire_unused_guests(&server.app.db, &server.app.sessions, cutoff)
            .await
            .unwrap();
    assert_eq!(removed, 1);
    let e = socket.next_of("error").await;
    assert_eq!(e["error"], "session_ended", "{e}");
    // The idle guest's cookie now names no one: it gets a new guest.
    let (_, me) = idle.get("/api/session").await;
    assert_ne!(me["user"]["id"], idle.user["id"]);
    // The guest with a game and the young guest stay.
    let (_, me) = player.get("/api/session").await;
    assert_eq!(me["user"]["id"], player.user["id"]);
    let (_, me) = fresh.get("/api/session").await;
    assert_eq!(me["user"]["id"], fresh.user["id"]);
}

#[tokio::test]
async fn a_player_has_at_most_20_open_challenges_and_5_open_tournaments() {
    let server = start().await;
    let c = Client::registered(&server, "busy").await;
    for _ in 0..20 {
        c.challenge(json!({ "variant": "makruk" })).await;
    }
    c.refused(
        "/api/challenges",
        json!({ "variant": "makruk" }),
        StatusCode::CONFLICT,
        "too_many_challenges",
    )
    .await;
    let cup = || {
        json!({ "name": unique("Cup "), "variant": "makruk", "kind": "round_robin",
                "time_control": { "kind": "correspondence", "days": 3 } })
    };
    for _ in 0..5 {
        c.post_ok("/api/tournaments", cup()).await;
    }
    c.refused(
        "/api/tournaments",
        cup(),
        StatusCode::CONFLICT,
        "too_many_tournaments",
    )
    .await;
}

#[tokio::test]
async fn a_player_keeps_at_most_1000_private_notes() {
    let server = start().await;
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    let note = json!({ "ply": 0, "text": "remember this", "private": true });
    white
        .post_ok(&format!("/api/games/{id}/comments"), note.clone())
        .await;
    // 998 more, written straight into the store to save time.
    for n in 0..998 {
        sqlx::query(
            "INSERT INTO game_comments (id, game_id, ply, author_id, private, body, created_at) \
             VALUES ($1, $2, 0, $3, 1, 'n', 0)",
        )
        .bind(format!("note{n}-{id}"))
        .bind(&id)
        .bind(white.user["id"].as_str().unwrap())
        .execute(&server.app.db.pool)
        .await
        .unwrap();
    }
    white
        .post_ok(&format!("/api/games/{id}/comments"), note.clone())
        .await;
    white
        .refused(
            &format!("/api/games/{id}/comments"),
            note,
            StatusCode::CONFLICT,
            "too_many_notes",
        )
        .await;
    // Public comments are not notes.
    white
        .post_ok(
            &format!("/api/games/{id}/comments"),
            json!({ "ply": 0, "text": "a public word" }),
        )
        .await;
}

#[tokio::test]
async fn the_computers_names_and_their_look_alikes_are_reserved() {
    let server = start().await;
    for name in [
        "engine-level-9",
        "engine_level_1",
        "Engine-Level-3",
        "enginelevel8",
        "3ngine-1evel-2",
        "engine",
        "ENGINE",
        "gue5t-someone",
        "admin",
        "Adm1n",
    ] {
        let c = Client::guest(&server).await;
        c.refused(
            "/api/register",
            json!({ "username": name, "password": "correct horse" }),
            StatusCode::BAD_REQUEST,
            "invalid_username",
        )
        .await;
    }
    // Unique names, so that the test runs again on a kept database.
    for prefix in ["engineer42", "enginefan", "levelengine"] {
        let name = unique(prefix);
        let c = Client::guest(&server).await;
        let (s, body) = c
            .post(
                "/api/register",
                json!({ "username": name, "password": "correct horse" }),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{name}: {body}");
    }
}

#[tokio::test]
async fn bidi_overrides_and_zero_width_characters_are_refused_where_players_write() {
    let server = start().await;
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    for bad in ["gnp\u{202E}exe", "a\u{200B}b", "\u{2067}x\u{2069}"] {
        white
            .refused(
                &format!("/api/games/{id}/comments"),
                json!({ "ply": 0, "text": bad }),
                StatusCode::BAD_REQUEST,
                "invisible_character",
            )
            .await;
        white
            .refused(
                &format!("/api/games/{id}/chat"),
                json!({ "text": bad }),
                StatusCode::BAD_REQUEST,
                "invisible_character",
            )
            .await;
        white
            .refused(
                "/api/tournaments",
                json!({ "name": format!("Cup {bad}"), "variant": "makruk", "kind": "round_robin",
                        "time_control": { "kind": "correspondence", "days": 3 } }),
                StatusCode::BAD_REQUEST,
                "invisible_character",
            )
            .await;
        let resp = white
            .http
            .put(format!("{}/api/games/{id}/tags", white.base))
            .header("x-csrf-token", &white.csrf)
            .json(&json!({ "tags": [bad] }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
        let body: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(body["error"], "invisible_character", "{body}");
        assert!(body["message"].as_str().unwrap().contains("U+"), "{body}");
    }
    // Thai text with its vowels and tone marks is fine.
    white
        .post_ok(
            &format!("/api/games/{id}/comments"),
            json!({ "ply": 0, "text": "เดินม้าดีมาก ๆ" }),
        )
        .await;
}
