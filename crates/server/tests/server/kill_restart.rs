//! A real server process is killed with SIGKILL in the middle of a game and
//! restarted on the same database: every acknowledged move is still there and
//! the game goes on.

use crate::common::{Client, unique};
use reqwest::StatusCode;
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts a `thaiboard-server` process on `db`; returns it and its address.
pub fn spawn(db: &str) -> (Child, String) {
    spawn_with(db, &[])
}

/// Starts a `thaiboard-server` process on `db` with options `more` besides.
pub fn spawn_with(db: &str, more: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_thaiboard-server"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--database",
            db,
            "--rate-limit",
            "0",
        ])
        .args(more)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start thaiboard-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .expect("address line")
        .to_string();
    (child, addr)
}

/// A client of the server at `addr`, registered as `name` or logged in.
pub async fn client(addr: &str, name: &str, register: bool) -> Client {
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let http = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        .build()
        .unwrap();
    let mut c = Client {
        http,
        jar,
        base: format!("http://{addr}"),
        csrf: String::new(),
        user: json!(null),
    };
    let (_, s) = c.get("/api/session").await;
    c.csrf = s["csrf"].as_str().unwrap().to_string();
    let path = if register {
        "/api/register"
    } else {
        "/api/login"
    };
    let (status, body) = c
        .post(
            path,
            json!({ "username": name, "password": "correct horse" }),
        )
        .await;
    assert!(status.is_success(), "{body}");
    c.csrf = body["csrf"].as_str().unwrap().to_string();
    c.user = body["user"].clone();
    c
}

#[tokio::test]
async fn kill_9_mid_game_loses_nothing() {
    let (url, _) = crate::common::test_database();
    let (mut server, addr) = spawn(&url);
    let (wn, bn) = (unique("kw"), unique("kb"));
    let white = client(&addr, &wn, true).await;
    let black = client(&addr, &bn, true).await;
    let id = white.challenge(json!({ "variant": "makruk", "color": "white", "time_control": { "kind": "correspondence", "days": 3 } })).await;
    let (s, _) = black
        .post(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    for (i, mv) in ["e3e4", "e6e5", "g3g4"].iter().enumerate() {
        let who = if i % 2 == 0 { &white } else { &black };
        let (s, g) = who
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(s, StatusCode::OK, "{g}");
    }
    let (_, before) = white.get(&format!("/api/games/{id}")).await;
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();

    let (mut server, addr) = spawn(&url);
    let white = client(&addr, &wn, false).await;
    let black = client(&addr, &bn, false).await;
    let (_, after) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["ply"], 3);
    assert_eq!(after["actions"], before["actions"]);
    assert_eq!(
        after["clock"]["black_ms"].as_i64().unwrap() / 60_000,
        before["clock"]["black_ms"].as_i64().unwrap() / 60_000
    );
    let (s, g) = black
        .post(&format!("/api/games/{id}/move"), json!({ "move": "b6b5" }))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 4);
    server.kill().unwrap();
    server.wait().unwrap();
}
