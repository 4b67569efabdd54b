//! Many players behind one address (issue 37, item 1): reading the site
//! makes no guest; a guest is made on the first action, within a budget
//! that fits a café; and with the budget spent, logging in and registering
//! still work without a session.

use crate::common::{Client, test_config, test_database, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::{Config, Server};

/// A server that counts loopback like any other address, with the default
/// guest budget (the request rate limits are the `limits` tests' subject:
/// this test's hundred readers at once would pass the per-address one).
async fn capped() -> Server {
    let (url, _) = test_database();
    let config = Config {
        exempt_loopback: false,
        address_rate_per_sec: 0.0,
        ..test_config(&url)
    };
    Server::start(config).await.unwrap()
}

async fn guests(server: &Server) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE is_guest = 1")
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap()
}

/// POSTs `body` as JSON to `path` with no cookie and no CSRF token.
async fn post_bare(
    server: &Server,
    path: &str,
    body: Value,
    site: Option<&str>,
) -> (StatusCode, Value, bool) {
    let mut req = reqwest::Client::new()
        .post(format!("http://{}{path}", server.addr))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(site) = site {
        req = req.header("sec-fetch-site", site);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    let cookie = resp.headers().get("set-cookie").is_some();
    (status, resp.json().await.unwrap_or(Value::Null), cookie)
}

#[tokio::test]
async fn readers_make_no_guest_and_a_cafe_can_play() {
    let server = capped().await;
    let base = format!("http://{}", server.addr);
    let before = guests(&server).await;
    // 100 readers from one address: the pages' reads answer, no guest is made.
    for _ in 0..100 {
        let resp = reqwest::get(format!("{base}/api/session?guest=no"))
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert!(resp.headers().get("set-cookie").is_none());
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v, json!({ "user": null, "csrf": null }));
        for path in [
            "/api/lobby",
            "/api/games/now-playing",
            "/api/tournaments",
            "/api/leaderboard/makruk/blitz",
        ] {
            let s = reqwest::get(format!("{base}{path}"))
                .await
                .unwrap()
                .status();
            assert_eq!(s, StatusCode::OK, "{path}");
        }
    }
    // The count of guests is this test's own only on a database of its own
    // (SQLite); on a shared PostgreSQL database other tests make guests
    // meanwhile, and the missing cookies above are the check.
    let own_database = std::env::var("THAIBOARD_TEST_DATABASE_URL").map_or(true, |u| u.is_empty());
    if own_database {
        assert_eq!(guests(&server).await, before, "reading made no guest");
    }
    let s = reqwest::get(format!("{base}/api/session?guest=maybe"))
        .await
        .unwrap()
        .status();
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // 40 players of one café start at once: each gets a guest and plays.
    let mut players = Vec::new();
    for _ in 0..40 {
        players.push(Client::guest(&server).await);
    }
    for p in players.iter().take(30) {
        let g = p
            .post_ok(
                "/api/engine-games",
                json!({ "variant": "makruk", "color": "white", "level": 1,
                        "time_control": { "kind": "none" } }),
            )
            .await;
        assert_eq!(g["white"]["id"], p.user["id"]);
    }
    // The budget holds: the next new guest is refused, saying what to do.
    let resp = reqwest::get(format!("{base}/api/session")).await.unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["error"], "too_many_guests");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("log in or register"),
        "{v}"
    );
    // Reading still works, and so do registering and logging in, without a session.
    let s = reqwest::get(format!("{base}/api/lobby"))
        .await
        .unwrap()
        .status();
    assert_eq!(s, StatusCode::OK);
    let name = unique("cafe");
    let creds = json!({ "username": name, "password": "correct horse" });
    let (s, v, cookie) =
        post_bare(&server, "/api/register", creds.clone(), Some("same-origin")).await;
    assert_eq!((s, cookie), (StatusCode::CREATED, true), "{v}");
    assert_eq!(v["user"]["username"], name.as_str());
    let (s, v, cookie) = post_bare(&server, "/api/login", creds.clone(), None).await;
    assert_eq!((s, cookie), (StatusCode::OK, true), "{v}");
    assert!(v["csrf"].as_str().is_some_and(|c| !c.is_empty()));
    // Not from another site, though.
    let (s, v, cookie) = post_bare(&server, "/api/login", creds.clone(), Some("cross-site")).await;
    assert_eq!(
        (s, v["error"].as_str(), cookie),
        (StatusCode::FORBIDDEN, Some("cross_site"), false)
    );
    // Other actions still need a session.
    let (s, v, _) = post_bare(
        &server,
        "/api/challenges",
        json!({ "variant": "makruk" }),
        None,
    )
    .await;
    assert_eq!(
        (s, v["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("no_session"))
    );
    // A request with a session must carry its CSRF token, login included.
    let player = &players[0];
    let (s, v) = player.post_raw("/api/login", None, creds.to_string()).await;
    assert_eq!(
        (s, v["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf"))
    );
    let (s, v) = player.post("/api/login", creds).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
