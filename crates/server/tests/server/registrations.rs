//! Registrations: budgeted per address and per network whatever session
//! they come with; names in Latin or Thai script, one script at a time,
//! none that looks like another's or a reserved one.

use crate::common::{Client, test_config, test_database, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::{Config, Server};

/// Registers `name` as `c` (taking the new session's CSRF token when it
/// registered), forwarded for `from` when given.
async fn register_from(c: &mut Client, name: &str, from: Option<&str>) -> (StatusCode, Value) {
    let mut req = c
        .http
        .post(format!("{}/api/register", c.base))
        .header("content-type", "application/json")
        .header("x-csrf-token", &c.csrf)
        .body(json!({ "username": name, "password": "correct horse" }).to_string());
    if let Some(from) = from {
        req = req.header("x-forwarded-for", from);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    let text = resp.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    if status == StatusCode::CREATED {
        c.csrf = v["csrf"].as_str().unwrap().to_string();
    }
    (status, v)
}

#[tokio::test]
async fn registrations_are_budgeted_per_address_and_per_network_whatever_the_session() {
    let (url, _) = test_database();
    let server = Server::start(Config {
        exempt_loopback: false,
        guests_per_ip_burst: 1000.0,
        registrations_per_ip_burst: 3.0,
        registrations_per_ip_per_hour: 1.0,
        registrations_per_network_burst: 5.0,
        registrations_per_network_per_hour: 1.0,
        trusted_proxies: vec![thaiboard_server::parse_cidr("127.0.0.1").unwrap()],
        ..test_config(&url)
    })
    .await
    .unwrap();
    // One session chains registrations (each replaces the session it came
    // with): the address's budget stops it all the same.
    let mut c = Client::guest(&server).await;
    for _ in 0..3 {
        let (s, v) = register_from(&mut c, &unique("chain"), Some("203.0.113.7")).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = register_from(&mut c, &unique("chain"), Some("203.0.113.7")).await;
    assert_eq!(
        (s, v["error"].as_str()),
        (
            StatusCode::TOO_MANY_REQUESTS,
            Some("too_many_registrations")
        ),
        "{v}"
    );
    // A fresh session from the same address is refused too.
    let mut fresh = Client::guest(&server).await;
    let (s, _) = register_from(&mut fresh, &unique("fresh"), Some("203.0.113.7")).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // Neighbours in the same /24 share the network's budget (5): two more.
    for n in 0..2 {
        let (s, v) = register_from(
            &mut fresh,
            &unique("near"),
            Some(&format!("203.0.113.{}", 20 + n)),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, _) = register_from(&mut fresh, &unique("near"), Some("203.0.113.99")).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "the /24 is spent");
    // Another network, and IPv6 by /48.
    let (s, v) = register_from(&mut fresh, &unique("far"), Some("198.51.100.1")).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    for n in 0..3 {
        let (s, v) = register_from(
            &mut fresh,
            &unique("six"),
            Some(&format!("2001:db8:1:{n}::1")),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    for n in 3..5 {
        let (s, v) = register_from(
            &mut fresh,
            &unique("six"),
            Some(&format!("2001:db8:1:{n}::1")),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, _) = register_from(&mut fresh, &unique("six"), Some("2001:db8:1:ffff::2")).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "the /48 is spent");
}

#[tokio::test]
async fn reserved_names_and_look_alikes_are_refused_with_the_reason() {
    let server = crate::common::start().await;
    let mut c = Client::guest(&server).await;
    for name in [
        "computer-1",
        "fairy-stockfish",
        "stockfish",
        "moderator",
        "root",
        "admin",
        "lichess",
        "pychess",
        "playok",
        "thaiboard",
        "Th4iboard",
    ] {
        let (s, v) = register_from(&mut c, name, None).await;
        assert_eq!(
            (s, v["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some("invalid_username")),
            "{name}: {v}"
        );
        assert!(
            v["message"].as_str().unwrap().contains("reserved"),
            "{name}: {v}"
        );
    }
    let alice = Client::registered(&server, "alice").await;
    let name = alice.name();
    // The same name with another case, `_` put in, or l for 1: taken.
    let mut c = Client::guest(&server).await;
    for like in [
        name.to_uppercase(),
        format!("{}_{}", &name[..3], &name[3..]),
    ] {
        let (s, v) = register_from(&mut c, &like, None).await;
        assert_eq!(
            (s, v["error"].as_str()),
            (StatusCode::CONFLICT, Some("username_taken")),
            "{like}: {v}"
        );
    }
    let (s, _) = register_from(&mut c, "paypa1_x", None).await;
    assert_eq!(s, StatusCode::CREATED);
    let mut c = Client::guest(&server).await;
    let (s, v) = register_from(&mut c, "paypal_x", None).await;
    assert_eq!(
        (s, v["error"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken")),
        "{v}"
    );
    assert!(v["message"].as_str().unwrap().contains("paypa1_x"), "{v}");
}

#[tokio::test]
async fn a_thai_name_registers_and_its_player_page_answers() {
    let server = crate::common::start().await;
    let mut c = Client::guest(&server).await;
    let (s, v) = register_from(&mut c, "สมชาย", None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["user"]["username"], "สมชาย");
    // Its page, by the percent-encoded name in the URL.
    let (s, p) = c
        .get("/api/users/%E0%B8%AA%E0%B8%A1%E0%B8%8A%E0%B8%B2%E0%B8%A2")
        .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["username"], "สมชาย");
    let (s, page) = c
        .get("/@/%E0%B8%AA%E0%B8%A1%E0%B8%8A%E0%B8%B2%E0%B8%A2")
        .await;
    assert_eq!(s, StatusCode::OK, "{page}");
    // Mixed scripts, and a Latin/Thai name that is taken, are refused.
    let mut other = Client::guest(&server).await;
    let (s, v) = register_from(&mut other, "สมชายabc", None).await;
    assert_eq!(
        (s, v["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_username")),
        "{v}"
    );
    assert!(v["message"].as_str().unwrap().contains("one script"), "{v}");
    let (s, v) = register_from(&mut other, "สมชาย", None).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    // It logs in by its name.
    let (s, v) = other
        .post(
            "/api/login",
            json!({ "username": "สมชาย", "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
