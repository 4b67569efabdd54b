//! Sessions: sockets follow their session (logout and expiry close them,
//! every command checks it), one password rule for registering and logging
//! in, and no session minted for a request from another site.

use crate::common::{Client, Ws, started_game, test_config, test_database, unique};
use reqwest::StatusCode;
use serde_json::json;
use std::time::Duration;
use thaiboard_server::Server;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn logout_closes_the_sessions_sockets_and_their_commands_are_not_applied() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut game_ws, _) = white.socket(&id).await;
    let mut multi = white.multi_socket().await;
    multi
        .command(json!({ "type": "subscribe", "game": id }), 1)
        .await;
    let mut lobby = white.lobby_socket().await;
    let mut notes = white.connect("/api/notifications/ws").await;
    // The opponent's sockets are not this session's: they stay open.
    let (mut black_ws, _) = black.socket(&id).await;

    let (status, body) = white.post("/api/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Commands sent after the logout, as the probe sent them.
    let _ = futures_util::SinkExt::send(
        &mut game_ws.stream,
        Message::Text(
            json!({ "type": "move", "move": "e3e4", "ply": 0, "id": 2 })
                .to_string()
                .into(),
        ),
    )
    .await;
    let _ = futures_util::SinkExt::send(
        &mut multi.stream,
        Message::Text(
            json!({ "type": "resign", "game": id, "id": 3 })
                .to_string()
                .into(),
        ),
    )
    .await;
    game_ws.ends_with_session_ended().await;
    multi.ends_with_session_ended().await;
    lobby.ends_with_session_ended().await;
    notes.ends_with_session_ended().await;

    let (_, game) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        game["ply"], 0,
        "the move after logout was not applied: {game}"
    );
    assert_eq!(
        game["status"], "ongoing",
        "the resign was not applied: {game}"
    );
    black_ws.send_json(json!({ "type": "ping" })).await;
    black_ws.next_of("pong").await;
}

#[tokio::test]
async fn a_sockets_session_is_checked_on_every_command() {
    // The session's row is deleted behind the socket's back (as another
    // process's logout whose note was lost), with a cache that trusts
    // nothing: the next command reads the session and is refused.
    let (url, _) = test_database();
    let server = Server::start(thaiboard_server::Config {
        session_cache_ttl_ms: 0,
        ..test_config(&url)
    })
    .await
    .unwrap();
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut ws, _) = white.socket(&id).await;
    ws.send_json(json!({ "type": "ping" })).await;
    ws.next_of("pong").await;
    // White's session only: with PostgreSQL every test of this binary
    // shares one database, and a bare `DELETE FROM sessions` ended the
    // fresh sessions of the tests running beside this one (401 no_session).
    let deleted = sqlx::query("DELETE FROM sessions WHERE csrf = $1")
        .bind(&white.csrf)
        .execute(&server.app.db.pool)
        .await
        .unwrap();
    assert_eq!(deleted.rows_affected(), 1);
    let r = ws
        .command(json!({ "type": "move", "move": "e3e4", "ply": 0 }), 5)
        .await;
    assert_eq!(r["error"], "session_ended", "{r}");
    let (_, game) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["ply"], 0, "{game}");
    // Every other session stands (the cache trusts nothing: this is read
    // from the database): black is still black, not a new guest.
    let (status, me) = black.get("/api/session").await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["user"]["username"], black.name(), "{me}");
    assert_eq!(me["csrf"], black.csrf.as_str(), "{me}");
}

#[tokio::test]
async fn an_expired_session_closes_its_sockets_and_acts_no_more() {
    let (url, _) = test_database();
    let server = Server::start(thaiboard_server::Config {
        session_ttl_secs: 4,
        ..test_config(&url)
    })
    .await
    .unwrap();
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut ws, _) = white.socket(&id).await;
    let mut multi = white.multi_socket().await;
    let started = std::time::Instant::now();
    ws.ends_with_session_ended().await;
    multi.ends_with_session_ended().await;
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "closed at the expiry, not later"
    );
    let (status, _) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_login_ends_the_guest_session_it_replaces() {
    let server = crate::common::start().await;
    let account = Client::registered(&server, "acct").await;
    let browser = Client::guest(&server).await;
    let mut lobby = browser.lobby_socket().await;
    let _ = lobby.next_of("lobby").await;
    let (status, body) = browser
        .post(
            "/api/login",
            json!({ "username": account.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    lobby.ends_with_session_ended().await;
}

#[tokio::test]
async fn a_password_that_registers_logs_in_whatever_its_bytes() {
    let server = crate::common::start().await;
    // 100 Thai characters: 300 bytes of UTF-8.
    let long_thai: String = "ก".repeat(100);
    assert_eq!(long_thai.len(), 300);
    let longest: String = "ข".repeat(128);
    for password in [long_thai.as_str(), longest.as_str(), "12345678"] {
        let c = Client::guest(&server).await;
        let name = unique("pw");
        let (status, body) = c
            .post(
                "/api/register",
                json!({ "username": name, "password": password }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let other = Client::guest(&server).await;
        let (status, body) = other
            .post(
                "/api/login",
                json!({ "username": name, "password": password }),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{} chars: {body}",
            password.chars().count()
        );
    }
    // One character more is refused at registration, and is a wrong password at login.
    let c = Client::guest(&server).await;
    let too_long: String = "ข".repeat(129);
    c.refused(
        "/api/register",
        json!({ "username": unique("pw"), "password": too_long }),
        StatusCode::BAD_REQUEST,
        "invalid_password",
    )
    .await;
    let (status, body) = c
        .post(
            "/api/login",
            json!({ "username": "nobody-here", "password": too_long }),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials")),
        "{body}"
    );
}

#[tokio::test]
async fn a_link_from_another_site_neither_mints_nor_replaces_a_session() {
    let server = crate::common::start().await;
    let player = Client::registered(&server, "victim").await;
    let before = player.cookie_header().unwrap();
    let url = format!("{}/api/session", player.base);
    // A cross-site navigation: the browser leaves the SameSite=Strict cookie out.
    for site in ["cross-site", "same-site"] {
        let resp = reqwest::Client::new()
            .get(&url)
            .header("sec-fetch-site", site)
            .header("sec-fetch-mode", "navigate")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{site}");
        assert!(
            resp.headers().get("set-cookie").is_none(),
            "no cookie is set for a {site} request"
        );
        let body: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(body["error"], "cross_site", "{body}");
    }
    // The same through the player's own client (its cookie jar would take any
    // Set-Cookie): the player stays logged in.
    let resp = player
        .http
        .get(&url)
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert!(resp.headers().get("set-cookie").is_none());
    assert_eq!(player.cookie_header().unwrap(), before);
    let (status, me) = player.get("/api/session").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["user"]["username"], player.name(), "{me}");
    // The site's own pages, an address typed in, and clients without the header get one.
    for site in [Some("same-origin"), Some("none"), None] {
        let mut req = reqwest::Client::new().get(&url);
        if let Some(site) = site {
            req = req.header("sec-fetch-site", site);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{site:?}");
        assert!(resp.headers().get("set-cookie").is_some(), "{site:?}");
    }
}

/// Two server processes on one PostgreSQL: a logout through one closes the
/// session's sockets on the other (the note goes through LISTEN/NOTIFY).
/// Runs only when `THAIBOARD_TEST_DATABASE_URL` names a PostgreSQL database.
#[tokio::test]
async fn a_logout_closes_the_sessions_sockets_on_every_server() {
    let Some((a, b)) = crate::common::postgres_pair().await else {
        return;
    };
    let (white, _black, id) = started_game(&a, "makruk", json!({})).await;
    // The same browser's cookie, on server B.
    let url_b = format!("ws://{}/api/games/{id}/ws", b.addr);
    let mut req =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url_b)
            .unwrap();
    req.headers_mut()
        .insert("cookie", white.cookie_header().unwrap().parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let mut ws_b = Ws { stream };
    ws_b.next_of("snapshot").await;
    let (status, _) = white.post("/api/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    ws_b.ends_with_session_ended().await;
}
