//! Logins: throttled per account name and per address with a doubling
//! lock, answered alike (in words and in time) whether or not the account
//! exists.

use crate::common::{Client, test_config, test_database, unique};
use reqwest::StatusCode;
use serde_json::json;
use std::time::{Duration, Instant};
use thaiboard_server::{Config, Server};

async fn server(config: impl FnOnce(Config) -> Config) -> Server {
    let (url, _) = test_database();
    Server::start(config(test_config(&url))).await.unwrap()
}

/// Logs in as `name` with `password`: the status, the error code and `Retry-After`.
async fn login(c: &Client, name: &str, password: &str) -> (StatusCode, String, Option<u64>) {
    let resp = c
        .http
        .post(format!("{}/api/login", c.base))
        .header("content-type", "application/json")
        .header("x-csrf-token", &c.csrf)
        .body(json!({ "username": name, "password": password }).to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let retry = resp
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let body: serde_json::Value = resp.json().await.unwrap_or_default();
    (
        status,
        body["error"].as_str().unwrap_or("").to_string(),
        retry,
    )
}

#[tokio::test]
async fn failed_logins_lock_the_name_for_a_doubling_delay() {
    let first_lock = Duration::from_millis(1500);
    let server = server(|c| Config {
        login_free_failures_per_account: 3,
        login_free_failures_per_ip: 1000,
        login_first_lock_ms: first_lock.as_millis() as u64,
        ..c
    })
    .await;
    let alice = Client::registered(&server, "alice").await;
    let name = alice.name();
    let missing = unique("nobody");
    let c = Client::guest(&server).await;
    // The same answers for an account and for a name nobody has.
    for who in [name.as_str(), missing.as_str()] {
        for _ in 0..4 {
            let (s, e, _) = login(&c, who, "wrong password").await;
            assert_eq!(
                (s, e.as_str()),
                (StatusCode::UNAUTHORIZED, "bad_credentials")
            );
        }
        // Locked: even the right password is refused without being checked.
        let (s, e, retry) = login(&c, who, "correct horse").await;
        assert_eq!(
            (s, e.as_str()),
            (StatusCode::TOO_MANY_REQUESTS, "login_throttled"),
            "{who}"
        );
        assert_eq!(retry, Some(2), "1.5 s rounded up");
    }
    tokio::time::sleep(first_lock + Duration::from_millis(200)).await;
    // One more failure doubles the lock: still locked after the first delay.
    let (s, _, _) = login(&c, &name, "wrong again").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _, retry) = login(&c, &name, "correct horse").await;
    assert_eq!((s, retry), (StatusCode::TOO_MANY_REQUESTS, Some(3)));
    tokio::time::sleep(first_lock + Duration::from_millis(200)).await;
    let (s, _, _) = login(&c, &name, "correct horse").await;
    assert_eq!(
        s,
        StatusCode::TOO_MANY_REQUESTS,
        "the second lock is twice the first"
    );
    tokio::time::sleep(first_lock).await;
    let (s, e, _) = login(&c, &name, "correct horse").await;
    assert_eq!((s, e.as_str()), (StatusCode::OK, ""), "the lock ran out");
    // A success forgets the name's failures: the next one is free again.
    let other = Client::guest(&server).await;
    let (s, _, _) = login(&other, &name, "wrong password").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _, _) = login(&other, &name, "correct horse").await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn failed_logins_from_one_address_lock_it_across_names() {
    let server = server(|c| Config {
        login_free_failures_per_account: 1000,
        login_free_failures_per_ip: 4,
        login_first_lock_ms: 60_000,
        ..c
    })
    .await;
    let bob = Client::registered(&server, "bob").await;
    let c = Client::guest(&server).await;
    for _ in 0..5 {
        let (s, _, _) = login(&c, &unique("guess"), "password1").await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let (s, e, retry) = login(&c, &bob.name(), "correct horse").await;
    assert_eq!(
        (s, e.as_str()),
        (StatusCode::TOO_MANY_REQUESTS, "login_throttled")
    );
    assert_eq!(retry, Some(60));
}

#[tokio::test]
async fn a_login_takes_as_long_whether_or_not_the_account_exists() {
    // A real argon2 cost, so that hashing dominates the time of a login.
    let server = server(|c| Config {
        argon2_memory_kib: 8 * 1024,
        login_free_failures_per_account: 1000,
        login_free_failures_per_ip: 1000,
        ..c
    })
    .await;
    let alice = Client::registered(&server, "alice").await;
    let c = Client::guest(&server).await;
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let mut real = Vec::new();
    let mut missing = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        assert_eq!(
            login(&c, &alice.name(), "wrong password").await.0,
            StatusCode::UNAUTHORIZED
        );
        real.push(t.elapsed());
        let t = Instant::now();
        assert_eq!(
            login(&c, &unique("ghost"), "wrong password").await.0,
            StatusCode::UNAUTHORIZED
        );
        missing.push(t.elapsed());
    }
    let (real, missing) = (median(real), median(missing));
    let ratio = real.as_secs_f64() / missing.as_secs_f64();
    assert!(
        (0.33..3.0).contains(&ratio),
        "an existing account's login took {real:?}, a missing one's {missing:?}"
    );
}

#[tokio::test]
async fn a_request_not_answered_in_time_gets_503_timeout_in_json() {
    // One password hash at a time, each slow (64 MiB): logins queue behind
    // it, and those that would wait past the request timeout are answered
    // at the timeout.
    let server = server(|c| Config {
        request_timeout_ms: 300,
        argon2_memory_kib: 65536,
        password_hashes_at_once: 1,
        login_free_failures_per_ip: 1000,
        ..c
    })
    .await;
    let c = Client::guest(&server).await;
    let started = Instant::now();
    let names: Vec<String> = (0..8).map(|_| unique("nobody")).collect();
    let tries = names.iter().map(|name| login(&c, name, "wrong password"));
    let answers = futures_util::future::join_all(tries).await;
    let timed_out = answers
        .iter()
        .filter(|(s, e, _)| *s == StatusCode::SERVICE_UNAVAILABLE && e == "timeout")
        .count();
    let refused = answers
        .iter()
        .filter(|(s, e, _)| *s == StatusCode::UNAUTHORIZED && e == "bad_credentials")
        .count();
    // However fast the machine hashes, the last in the queue waits past
    // the timeout; those answered in time are refused as usual.
    assert_eq!(timed_out + refused, 8, "{answers:?}");
    assert!(timed_out >= 1, "{answers:?}");
    // Nobody waited much longer than the timeout.
    assert!(started.elapsed() < Duration::from_secs(5));
}
