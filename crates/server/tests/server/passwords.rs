//! Every password check goes through one throttle (per name and address,
//! per address, per name more slowly, per known device), and a changed
//! password ends every other session and revokes every token.

use crate::common::bot::token_of;
use crate::common::{Client, test_config, test_database};
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::{Config, Server};

async fn server(config: impl FnOnce(Config) -> Config) -> Server {
    let (url, _) = test_database();
    Server::start(config(test_config(&url))).await.unwrap()
}

/// Posts `body` to `path` as `c`, forwarded for `from` when given (the
/// server trusts 127.0.0.1 as a proxy in these tests): status, body,
/// `Retry-After`.
async fn post_from(
    c: &Client,
    path: &str,
    body: Value,
    from: Option<&str>,
) -> (StatusCode, Value, Option<u64>) {
    let forwarded: Vec<_> = from.map(|f| ("x-forwarded-for", f)).into_iter().collect();
    let (status, body, headers) = c.post_with(path, &body, &forwarded).await;
    let retry = headers
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    (status, body, retry)
}

async fn login_from(c: &Client, name: &str, password: &str, from: &str) -> StatusCode {
    let body = json!({ "username": name, "password": password });
    post_from(c, "/api/login", body, Some(from)).await.0
}

/// A browser holding only `c`'s session cookie (a stolen one), not its device cookie.
fn thief_of(c: &Client) -> Client {
    let session = c
        .cookie_header()
        .unwrap()
        .split("; ")
        .find(|kv| kv.starts_with("tb_session="))
        .unwrap()
        .to_string();
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    jar.add_cookie_str(&session, &c.base.parse().unwrap());
    Client {
        http: reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .build()
            .unwrap(),
        jar,
        base: c.base.clone(),
        csrf: c.csrf.clone(),
        user: c.user.clone(),
    }
}

#[tokio::test]
async fn guessing_through_the_password_change_is_throttled_like_logins() {
    let server = server(|c| Config {
        login_free_failures_per_account: 3,
        login_first_lock_ms: 60_000,
        ..c
    })
    .await;
    let alice = Client::registered(&server, "alice").await;
    let thief = thief_of(&alice);
    let change = |current: &str| json!({ "current": current, "new": "brand new secret" });
    for n in 0..4 {
        let (s, e, _) = post_from(
            &thief,
            "/api/account/password",
            change(&format!("guess{n}")),
            None,
        )
        .await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("bad_credentials")),
            "guess {n}"
        );
    }
    // Locked now: even the right password is not checked.
    let (s, e, retry) = post_from(
        &thief,
        "/api/account/password",
        change("correct horse"),
        None,
    )
    .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("login_throttled")),
        "{e}"
    );
    assert_eq!(retry, Some(60));
    // One throttle: logins of the name from this address are locked too...
    let other = Client::guest(&server).await;
    let (s, e, _) = post_from(
        &other,
        "/api/login",
        json!({ "username": alice.name(), "password": "correct horse" }),
        None,
    )
    .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("login_throttled"))
    );
    // ...but not for the owner's own browser (its device cookie).
    let (s, e, _) = post_from(
        &alice,
        "/api/account/password",
        change("correct horse"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{e}");
}

#[tokio::test]
async fn a_changed_password_ends_every_other_session_and_revokes_the_tokens() {
    let server = crate::common::start().await;
    let home = Client::registered(&server, "alice").await;
    let (token, _) = token_of(&home, &["bot:play"]).await;
    let mut laptop = Client::guest(&server).await;
    let (s, v) = laptop
        .post(
            "/api/login",
            json!({ "username": home.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    laptop.csrf = v["csrf"].as_str().unwrap().to_string();
    let mut laptop_ws = laptop.connect("/api/notifications/ws").await;
    let bearer = |t: &str| {
        reqwest::Client::new()
            .get(format!("{}/api/account", home.base))
            .bearer_auth(t)
            .send()
    };
    assert_eq!(bearer(&token).await.unwrap().status(), StatusCode::OK);

    let (s, v) = home
        .post(
            "/api/account/password",
            json!({ "current": "correct horse", "new": "a new passphrase" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ended"], json!({ "sessions": 1, "tokens": 1 }));

    // The other login can no longer act, its socket closes, the token is dead.
    laptop_ws.ends_with_session_ended().await;
    let (s, v) = laptop
        .post(
            "/api/challenges",
            json!({ "variant": "makruk", "color": "white" }),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(
        bearer(&token).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    // The browser that changed it goes on.
    let (s, v) = home
        .post(
            "/api/challenges",
            json!({ "variant": "makruk", "color": "white" }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // The old password is gone, the new one logs in.
    let again = Client::guest(&server).await;
    let (s, _) = again
        .post(
            "/api/login",
            json!({ "username": home.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = again
        .post(
            "/api/login",
            json!({ "username": home.name(), "password": "a new passphrase" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn strangers_guesses_lock_their_own_address_and_slowly_the_name_but_never_a_known_browser() {
    let server = server(|c| Config {
        login_free_failures_per_account: 3,
        login_free_failures_per_name: 8,
        login_free_failures_per_ip: 1000,
        login_first_lock_ms: 60_000,
        trusted_proxies: vec![thaiboard_server::parse_cidr("127.0.0.1").unwrap()],
        ..c
    })
    .await;
    let owner = Client::registered(&server, "victim").await;
    let name = owner.name();
    // The owner's phone logged in once before: it holds a device cookie.
    let mut phone = Client::guest(&server).await;
    assert_eq!(
        login_from(&phone, &name, "correct horse", "198.51.100.7").await,
        StatusCode::OK
    );
    let (_, v) = phone.get("/api/session").await;
    phone.csrf = v["csrf"].as_str().unwrap().to_string();

    // Six guesses from one address: that address is locked for this name
    // (after its three free ones), the name is not.
    let attacker = Client::guest(&server).await;
    for n in 0..4 {
        let s = login_from(&attacker, &name, &format!("guess {n}"), "203.0.113.1").await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    for n in 0..2 {
        let s = login_from(&attacker, &name, &format!("guess {n}"), "203.0.113.1").await;
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    }
    let laptop = Client::guest(&server).await;
    assert_eq!(
        login_from(&laptop, &name, "correct horse", "198.51.100.8").await,
        StatusCode::OK,
        "another address is not locked by one address's guesses"
    );
    // Many addresses together: past the name's budget the name locks for
    // browsers it does not know...
    for n in 0..9 {
        let s = login_from(&attacker, &name, "guess", &format!("203.0.113.{}", 10 + n)).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let cafe = Client::guest(&server).await;
    assert_eq!(
        login_from(&cafe, &name, "correct horse", "192.0.2.44").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ...but the owner's phone, which logged in before, gets in.
    assert_eq!(
        login_from(&phone, &name, "correct horse", "192.0.2.45").await,
        StatusCode::OK
    );
}
