//! Every kind of bad input gets a clear error and changes nothing.

use crate::common::{Client, start, started_game};
use futures_util::SinkExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn fen_and_ply(c: &Client, id: &str) -> (Value, Value, Value) {
    let (_, g) = c.get(&format!("/api/games/{id}")).await;
    (g["fen"].clone(), g["ply"].clone(), g["version"].clone())
}

#[tokio::test]
async fn bad_moves_change_nothing() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let outsider = Client::registered(&server, "eve").await;
    let mv = format!("/api/games/{id}/move");
    let before = fen_and_ply(&white, &id).await;

    let cases: Vec<(&Client, Value, StatusCode, &str)> = vec![
        (
            &white,
            json!({ "move": "e3e5" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            &white,
            json!({ "move": "" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            &white,
            json!({ "move": "x".repeat(100) }),
            StatusCode::BAD_REQUEST,
            "invalid_move",
        ),
        (
            &black,
            json!({ "move": "e3e4" }),
            StatusCode::CONFLICT,
            "not_your_turn",
        ),
        (
            &outsider,
            json!({ "move": "e3e4" }),
            StatusCode::FORBIDDEN,
            "not_a_player",
        ),
        (
            &white,
            json!({ "move": "e3e4", "ply": 5 }),
            StatusCode::CONFLICT,
            "wrong_ply",
        ),
        (
            &white,
            json!({ "mv": "e3e4" }),
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
        (
            &white,
            json!({ "move": 1 }),
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
    ];
    for (who, body, status, code) in cases {
        let (s, e) = who.post(&mv, body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (status, Some(code)),
            "{body}: {e}"
        );
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // Malformed JSON text, wrong content type, oversized body.
    let (s, e) = white
        .post_raw(&mv, Some(&white.csrf), "{\"move\": ".into())
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed_json"))
    );
    let resp = white
        .http
        .post(format!("{}{mv}", white.base))
        .header("x-csrf-token", &white.csrf)
        .header("content-type", "text/plain")
        .body("1")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let big = json!({ "move": "e3e4", "pad": "x".repeat(100_000) }).to_string();
    let (s, e) = white.post_raw(&mv, Some(&white.csrf), big).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large")),
        "{e}"
    );
    // Other players' actions in this game.
    for path in ["resign", "draw"] {
        let (s, e) = outsider
            .post(
                &format!("/api/games/{id}/{path}"),
                json!({ "action": "offer" }),
            )
            .await;
        assert!(
            s == StatusCode::FORBIDDEN || s == StatusCode::BAD_REQUEST,
            "{path}: {s} {e}"
        );
    }
    let (s, e) = outsider
        .post(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_open"))
    );
    let (s, e) = white
        .post(
            &format!("/api/games/{id}/draw"),
            json!({ "action": "maybe" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_action"))
    );
    let (s, e) = white
        .post(
            &format!("/api/games/{id}/count"),
            json!({ "action": "start" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("count_not_allowed"))
    );
    let (s, _) = white.get("/api/games/nosuchgame").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = white.get("/api/games/..%2F..%2Fetc").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = white.get("/api/nothing-here").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );

    assert_eq!(
        fen_and_ply(&white, &id).await,
        before,
        "a refused request changed the game"
    );
    let (s, _) = black
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn bad_challenges() {
    let server = start().await;
    let a = Client::registered(&server, "ann").await;
    for (body, code) in [
        (json!({ "variant": "chess" }), "invalid_variant"),
        (
            json!({ "variant": "makruk", "rules": "no-reverse" }),
            "invalid_rules",
        ),
        (
            json!({ "variant": "makruk", "color": "green" }),
            "invalid_color",
        ),
        (
            json!({ "variant": "makruk", "time_control": { "kind": "live", "minutes": 0 } }),
            "invalid_time_control",
        ),
        (
            json!({ "variant": "makruk", "time_control": { "kind": "live", "minutes": 1e9 } }),
            "invalid_time_control",
        ),
        (
            json!({ "variant": "makruk", "time_control": { "kind": "correspondence", "days": 3, "max_days": 1 } }),
            "invalid_time_control",
        ),
        (
            json!({ "variant": "makruk", "opponent": "nobody-at-all" }),
            "unknown_user",
        ),
        (
            json!({ "variant": "makruk", "opponent": a.name() }),
            "invalid_opponent",
        ),
        (json!({ "variant": "makruk", "extra": 1 }), "malformed_json"),
    ] {
        let (s, e) = a.post("/api/challenges", body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{body}: {e}"
        );
    }
    // A direct challenge is for its addressee only; its creator cannot accept it.
    let b = Client::registered(&server, "ben").await;
    let c = Client::registered(&server, "cid").await;
    let id = a
        .challenge(json!({ "variant": "makruk", "opponent": b.name() }))
        .await;
    let (s, e) = c.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_invited"))
    );
    let (s, e) = a.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("own_challenge"))
    );
    let (s, e) = b.post(&format!("/api/games/{id}/cancel"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_yours"))
    );
    let (s, _) = a.post(&format!("/api/games/{id}/cancel"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = b.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_open"))
    );
}

#[tokio::test]
async fn csrf_sessions_and_origin() {
    // The session's expiry is changed in the database below: a cache that
    // trusts nothing reads it on the next request.
    let (url, _) = crate::common::test_database();
    let server = thaiboard_server::Server::start(thaiboard_server::Config {
        session_cache_ttl_ms: 0,
        ..crate::common::test_config(&url)
    })
    .await
    .unwrap();
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    let mv = format!("/api/games/{id}/move");
    let body = json!({ "move": "e3e4" }).to_string();
    // No CSRF header, a wrong one, one from another session.
    let (s, e) = white.post_raw(&mv, None, body.clone()).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf"))
    );
    let (s, e) = white.post_raw(&mv, Some("0123"), body.clone()).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf"))
    );
    let other = Client::registered(&server, "mallory").await;
    let (s, e) = white.post_raw(&mv, Some(&other.csrf), body.clone()).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf"))
    );
    // A cross-site Origin.
    let resp = white
        .http
        .post(format!("{}{mv}", white.base))
        .header("content-type", "application/json")
        .header("x-csrf-token", &white.csrf)
        .header("origin", "https://evil.example")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let e: Value = resp.json().await.unwrap();
    assert_eq!(e["error"], "bad_origin");
    // A forged session cookie.
    let forged = reqwest::Client::new()
        .post(format!("{}{mv}", white.base))
        .header("content-type", "application/json")
        .header("x-csrf-token", &white.csrf)
        .header("cookie", format!("tb_session={}", "ab".repeat(32)))
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::UNAUTHORIZED);
    // An expired session.
    sqlx::query("UPDATE sessions SET expires_at = 0 WHERE csrf = $1")
        .bind(&white.csrf)
        .execute(&server.app.db.pool)
        .await
        .unwrap();
    let (s, e) = white.post_raw(&mv, Some(&white.csrf), body.clone()).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("no_session"))
    );
    let (_, g) = other.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 0, "nothing changed");
    // The cookie is HttpOnly and SameSite=Strict.
    let resp = reqwest::get(format!("{}/api/session", white.base))
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
}

#[tokio::test]
async fn websocket_bad_input() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let watcher = Client::guest(&server).await;
    let (mut ws_x, _) = watcher.socket(&id).await;
    let r = ws_x
        .command(json!({ "type": "move", "move": "e3e4" }), 1)
        .await;
    assert_eq!(r["error"], "not_a_player", "{r}");
    let (mut ws_b, _) = black.socket(&id).await;
    let r = ws_b
        .command(json!({ "type": "move", "move": "e3e4" }), 2)
        .await;
    assert_eq!(r["error"], "not_your_turn");
    let (mut ws_w, _) = white.socket(&id).await;
    let r = ws_w
        .command(json!({ "type": "move", "move": "e3e5" }), 3)
        .await;
    assert_eq!(r["error"], "illegal_move");
    let r = ws_w.command(json!({ "type": "dance" }), 4).await;
    assert_eq!(r["error"], "malformed_message");
    ws_w.stream
        .send(Message::Text("not json".into()))
        .await
        .unwrap();
    assert_eq!(ws_w.next_of("error").await["error"], "malformed_message");
    ws_w.send_json(json!({ "type": "ping", "id": 5 })).await;
    assert_eq!(ws_w.next_of("pong").await["id"], 5);
    // An oversized message ends the connection.
    ws_w.stream
        .send(Message::Text("x".repeat(100_000).into()))
        .await
        .unwrap();
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            match futures_util::StreamExt::next(&mut ws_w.stream).await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                _ => {}
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    // A foreign Origin cannot open a socket; a missing game is 404.
    let url = format!(
        "{}/api/games/{id}/ws",
        white.base.replace("http://", "ws://")
    );
    let mut req = url.clone().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    let bad = url.replace(&id, "nosuchgame");
    assert!(tokio_tungstenite::connect_async(bad).await.is_err());
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 0, "nothing changed");
}

#[tokio::test]
async fn request_floods_are_limited() {
    let (url, _) = crate::common::test_database();
    let mut config = crate::common::test_config(&url);
    config.rate_per_sec = 5.0;
    config.rate_burst = 10.0;
    // A per-address limit: loopback must not be exempt.
    config.exempt_loopback = false;
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let c = Client::guest(&server).await;
    let mut limited = 0;
    for _ in 0..40 {
        let (s, e) = c.get("/api/lobby").await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(e["error"], "rate_limited");
            limited += 1;
        }
    }
    assert!(limited >= 25, "only {limited} of 40 requests were limited");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (s, _) = c.get("/api/lobby").await;
    assert_eq!(s, StatusCode::OK, "the limit lifts after a pause");
}

#[tokio::test]
async fn websocket_message_floods_are_limited() {
    let server = start().await;
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut ws, _) = white.socket(&id).await;
    // 100 pings at once: the first burst is answered, the rest refused by id.
    let (_, limited) = crate::common::ping_flood(&mut ws, 100, true).await;
    assert!(limited >= 50, "{limited} limited");
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 0);
}
