//! The live lobby socket: challenges appear and disappear without reloading,
//! on one server and (with PostgreSQL) across two servers.

use crate::common::{Client, lobby_until, start, test_config, test_database};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn challenges_appear_and_disappear_live() {
    let server = start().await;
    let alice = Client::registered(&server, "alice").await;
    let bob = Client::registered(&server, "bob").await;
    let watcher = Client::guest(&server).await;
    let mut ws = watcher.lobby_socket().await;
    // The first list comes at once (other tests' challenges may be in it on PostgreSQL).
    lobby_until(&mut ws, |_| true).await;

    let open = alice.challenge(json!({ "variant": "makruk" })).await;
    lobby_until(&mut ws, |ids| ids.contains(&open)).await;
    // A direct challenge to Bob is not shown to others.
    let direct = alice
        .challenge(json!({ "variant": "makhos", "opponent": bob.name() }))
        .await;
    let mut ws_bob = bob.lobby_socket().await;
    lobby_until(&mut ws_bob, |ids| {
        ids.contains(&open) && ids.contains(&direct)
    })
    .await;

    // Accepted: gone for everyone.
    let (s, g) = bob
        .post(&format!("/api/games/{open}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let ids = lobby_until(&mut ws, |ids| !ids.contains(&open)).await;
    assert!(!ids.contains(&direct), "{ids:?}");
    // Withdrawn: gone too.
    let (s, _) = alice
        .post(&format!("/api/games/{direct}/cancel"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    lobby_until(&mut ws_bob, |ids| {
        !ids.contains(&direct) && !ids.contains(&open)
    })
    .await;

    // The socket answers pings and refuses commands.
    ws.send_json(json!({ "type": "ping" })).await;
    assert_eq!(ws.next_of("pong").await["type"], "pong");
    ws.send_json(json!({ "type": "move", "move": "e3e4" }))
        .await;
    assert_eq!(ws.next_of("error").await["error"], "malformed_message");
    // A flood of messages is refused beyond the rate.
    let mut ws = watcher.lobby_socket().await;
    lobby_until(&mut ws, |_| true).await;
    let (_, limited) = crate::common::ping_flood(&mut ws, 100, false).await;
    assert!(limited >= 50, "{limited} limited");
}

#[tokio::test]
async fn the_lobby_follows_another_server_through_postgres() {
    let (url, _) = test_database();
    if !url.starts_with("postgres") {
        eprintln!("skipped: THAIBOARD_TEST_DATABASE_URL is not a PostgreSQL URL");
        return;
    }
    let a = thaiboard_server::Server::start(test_config(&url))
        .await
        .unwrap();
    let b = thaiboard_server::Server::start(test_config(&url))
        .await
        .unwrap();
    let alice = Client::registered(&a, "alice").await;
    let watcher = Client::guest(&b).await;
    let mut ws = watcher.lobby_socket().await;
    let id = alice.challenge(json!({ "variant": "makruk" })).await;
    lobby_until(&mut ws, |ids| ids.contains(&id)).await;
    let (s, _) = alice
        .post(&format!("/api/games/{id}/cancel"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    lobby_until(&mut ws, |ids| !ids.contains(&id)).await;
}
