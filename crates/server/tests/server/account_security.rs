//! Accounts people can trust (issue 38, items 8–12), against a real server
//! on loopback, with mail read back from a real local SMTP server (see
//! `mail.rs`): password reset by e-mail, the change of address, two-factor
//! (codes computed from the enrolled secret), the devices signed in and the
//! security log, closing an account with its export.

use crate::common::{Client, own_database, started_game, test_config, test_database};
use crate::mail::{Smtp, link, mails, put_email, start_smtp, wait_mail};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;

const PASSWORD: &str = "correct horse";
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// A browser with its own cookies and this User-Agent, holding a guest session.
async fn browser(server: &Server, user_agent: &str) -> Client {
    Client::browser(server, Some(user_agent)).await
}

/// Logs `c` in as `name`; the status and answer (the client takes the new session).
async fn login(
    c: &mut Client,
    name: &str,
    password: &str,
    totp: Option<&str>,
) -> (StatusCode, Value) {
    // The session this browser holds now (a guest's, if its own ended).
    let (_, now) = c.get("/api/session").await;
    c.csrf = now["csrf"].as_str().unwrap().to_string();
    let mut body = json!({ "username": name, "password": password });
    if let Some(code) = totp {
        body["totp"] = json!(code);
    }
    let (s, v) = c.post("/api/login", body).await;
    if s == StatusCode::OK {
        c.csrf = v["csrf"].as_str().unwrap().to_string();
        c.user = v["user"].clone();
    }
    (s, v)
}

/// A server that mails through `smtp`; its clock can be moved.
async fn mail_server(smtp: &Smtp) -> (Server, thaiboard_server::TimeSource) {
    let url = own_database().await;
    let mut config = test_config(&url);
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", smtp.port));
    let time = config.time.clone();
    (Server::start(config).await.unwrap(), time)
}

/// Gives `c` the verified address `addr`.
async fn verified(smtp: &Smtp, c: &Client, addr: &str) {
    let (s, v) = put_email(c, addr).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let m = wait_mail(&smtp.dir, addr, "Verify").await;
    let verify = link(&m.body, "/api/account/email/verify?token=");
    assert_eq!(
        reqwest::get(&verify).await.unwrap().status(),
        StatusCode::OK
    );
}

/// A personal API token of `c` with `bot:play`.
async fn token(c: &Client) -> String {
    let (s, v) = c
        .post(
            "/api/account/tokens",
            json!({ "description": "my bot", "scopes": ["bot:play"] }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_string()
}

async fn token_status(server: &Server, token: &str) -> StatusCode {
    reqwest::Client::new()
        .get(format!("http://{}/api/account", server.addr))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

/// Whether `c`'s session still stands (not replaced by a new guest's).
async fn signed_in(c: &Client) -> bool {
    let (_, v) = c.get("/api/session").await;
    v["user"]["guest"] == false
}

#[test]
fn a_password_is_reset_by_a_single_use_mailed_link_that_ends_every_session() {
    crate::common::one_at_a_time(reset_body());
}

async fn reset_body() {
    let Some(smtp) = start_smtp() else { return };
    let (server, time) = mail_server(&smtp).await;
    let mut a = Client::registered(&server, "reset").await;
    let name = a.name();
    verified(&smtp, &a, "reset-me@example.com").await;
    let bot = token(&a).await;
    let mut other = browser(&server, FIREFOX).await;
    assert_eq!(
        login(&mut other, &name, PASSWORD, None).await.0,
        StatusCode::OK
    );
    let mut socket = other.lobby_socket().await;
    assert_eq!(token_status(&server, &bot).await, StatusCode::OK);

    // Known and unknown addresses get the same answer; only the known one gets mail.
    let stranger = Client::guest(&server).await;
    let known = stranger
        .post(
            "/api/account/reset",
            json!({ "email": "Reset-Me@example.com" }),
        )
        .await;
    let unknown = stranger
        .post(
            "/api/account/reset",
            json!({ "email": "nobody@example.com" }),
        )
        .await;
    assert_eq!(known.0, StatusCode::OK, "{known:?}");
    assert_eq!(
        known, unknown,
        "the answer does not tell whether the address is known"
    );
    let mail = wait_mail(
        &smtp.dir,
        "reset-me@example.com",
        "Reset your thaiboard password",
    )
    .await;
    assert!(mail.body.contains(&name), "{mail:?}");
    let reset = link(&mail.body, "/reset-password?token=");
    let token_text = reset.split("token=").nth(1).unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !mails(&smtp.dir).iter().any(|m| m.to.contains("nobody")),
        "nothing is mailed to an unknown address"
    );
    // Bad input: a malformed address, a short password, a forged token.
    let (s, e) = stranger
        .post("/api/account/reset", json!({ "email": "nope" }))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_email"))
    );
    let (s, e) = stranger
        .post(
            "/api/account/reset/confirm",
            json!({ "token": token_text, "password": "short" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_password"))
    );
    let (s, e) = stranger
        .post(
            "/api/account/reset/confirm",
            json!({ "token": "00".repeat(32), "password": "a new secret" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::GONE, Some("reset_link_invalid"))
    );

    // The link sets the password, ends every session (their sockets close) and revokes the tokens.
    let (s, v) = stranger
        .post(
            "/api/account/reset/confirm",
            json!({ "token": token_text, "password": "a new secret" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["username"], name);
    socket.ends_with_session_ended().await;
    assert!(!signed_in(&a).await, "the first browser's session ended");
    assert!(
        !signed_in(&other).await,
        "the second browser's session ended"
    );
    assert_eq!(token_status(&server, &bot).await, StatusCode::UNAUTHORIZED);
    // Once only.
    let (s, _) = stranger
        .post(
            "/api/account/reset/confirm",
            json!({ "token": token_text, "password": "a third secret" }),
        )
        .await;
    assert_eq!(s, StatusCode::GONE);
    let mut fresh = Client::guest(&server).await;
    assert_eq!(
        login(&mut fresh, &name, PASSWORD, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&mut a, &name, "a new secret", None).await.0,
        StatusCode::OK
    );
    let kinds = log_kinds(&a).await;
    assert!(kinds.contains(&"password_reset".to_string()), "{kinds:?}");

    // A link expires after an hour.
    stranger
        .post(
            "/api/account/reset",
            json!({ "email": "reset-me@example.com" }),
        )
        .await;
    let late = loop {
        let found: Vec<_> = mails(&smtp.dir)
            .into_iter()
            .filter(|m| m.subject.contains("Reset your") && !m.body.contains(&token_text))
            .collect();
        if let Some(m) = found.into_iter().next() {
            break m;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let late_token = link(&late.body, "/reset-password?token=")
        .split("token=")
        .nth(1)
        .unwrap()
        .to_string();
    time.advance(61 * 60_000);
    let (s, _) = stranger
        .post(
            "/api/account/reset/confirm",
            json!({ "token": late_token, "password": "a late secret" }),
        )
        .await;
    assert_eq!(s, StatusCode::GONE, "an hour-old link is refused");
}

/// The kinds of the events in `c`'s security log, newest first.
async fn log_kinds(c: &Client) -> Vec<String> {
    let (s, v) = c.get("/api/account/security-log").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn reset_requests_are_throttled_per_account_and_per_address() {
    crate::common::one_at_a_time(reset_throttle_body());
}

async fn reset_throttle_body() {
    let Some(smtp) = start_smtp() else { return };
    // Per account: a sixth request answers alike, but only three links go out in an hour.
    let (server, _) = mail_server(&smtp).await;
    let a = Client::registered(&server, "many").await;
    verified(&smtp, &a, "many@example.com").await;
    let stranger = Client::guest(&server).await;
    let mut answers = Vec::new();
    for _ in 0..6 {
        answers.push(
            stranger
                .post("/api/account/reset", json!({ "email": "many@example.com" }))
                .await,
        );
    }
    assert!(
        answers
            .iter()
            .all(|a| *a == answers[0] && a.0 == StatusCode::OK),
        "{answers:?}"
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let sent = mails(&smtp.dir)
        .iter()
        .filter(|m| m.to.contains("many@example.com") && m.subject.contains("Reset"))
        .count();
    assert_eq!(sent, 3, "three links an hour per account");

    // Per client address (loopback counted here): ten an hour, then 429.
    let (url, _) = test_database();
    let mut config = test_config(&url);
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", smtp.port));
    config.exempt_loopback = false;
    let strict = Server::start(config).await.unwrap();
    let c = Client::guest(&strict).await;
    let mut statuses = Vec::new();
    for n in 0..12 {
        let (s, _) = c
            .post(
                "/api/account/reset",
                json!({ "email": format!("x{n}@example.com") }),
            )
            .await;
        statuses.push(s);
    }
    assert!(
        statuses[..10].iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    assert_eq!(statuses[10], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
}

#[test]
fn a_new_address_is_verified_by_its_own_link_and_the_old_one_is_told() {
    crate::common::one_at_a_time(change_body());
}

async fn change_body() {
    let Some(smtp) = start_smtp() else { return };
    let (server, _) = mail_server(&smtp).await;
    let a = Client::registered(&server, "move").await;
    verified(&smtp, &a, "old-home@example.com").await;
    // The password is asked.
    let (s, e) = a
        .send(
            "PUT",
            "/api/account/email",
            json!({ "email": "new-home@example.com", "password": "wrong guess" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );
    let (s, v) = put_email(&a, "new-home@example.com").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["email"], "old-home@example.com",
        "the old address stays until the link"
    );
    assert_eq!(v["pending"], "new-home@example.com");
    let notice = wait_mail(&smtp.dir, "old-home@example.com", "being changed").await;
    assert!(notice.body.contains("n****@example.com"), "{notice:?}");
    let m = wait_mail(&smtp.dir, "new-home@example.com", "Verify your new").await;
    let verify = link(&m.body, "/api/account/email/verify?token=");
    assert_eq!(
        reqwest::get(&verify).await.unwrap().status(),
        StatusCode::OK
    );
    let (_, v) = a.get("/api/account/email").await;
    assert_eq!(
        (v["email"].as_str(), v["verified"].as_bool()),
        (Some("new-home@example.com"), Some(true)),
        "{v}"
    );
    assert!(v["pending"].is_null(), "{v}");
    assert_eq!(
        reqwest::get(&verify).await.unwrap().status(),
        StatusCode::NOT_FOUND,
        "once"
    );
    let kinds = log_kinds(&a).await;
    assert!(
        kinds.contains(&"email_change_requested".to_string()),
        "{kinds:?}"
    );
    assert_eq!(kinds[0], "email_changed", "{kinds:?}");
    // A reset now goes to the new address only.
    let stranger = Client::guest(&server).await;
    stranger
        .post(
            "/api/account/reset",
            json!({ "email": "old-home@example.com" }),
        )
        .await;
    stranger
        .post(
            "/api/account/reset",
            json!({ "email": "new-home@example.com" }),
        )
        .await;
    wait_mail(&smtp.dir, "new-home@example.com", "Reset your").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !mails(&smtp.dir)
            .iter()
            .any(|m| m.to.contains("old-home") && m.subject.contains("Reset")),
        "the old address resets nothing"
    );
}

/// The code of the enrolled `otpauth://` address at `ms`.
fn code_at(url: &str, ms: i64) -> String {
    totp_rs::TOTP::from_url(url)
        .unwrap()
        .generate((ms / 1000) as u64)
}

#[tokio::test]
async fn two_factor_is_enrolled_by_qr_code_and_asked_at_login_and_for_a_new_password() {
    let url = own_database().await;
    let config = test_config(&url);
    let time = config.time.clone();
    let server = Server::start(config).await.unwrap();
    let a = Client::registered(&server, "otp").await;
    let name = a.name();
    let (s, setup) = a.post("/api/account/totp/setup", json!({})).await;
    assert_eq!(s, StatusCode::OK, "{setup}");
    assert!(
        setup["qr_svg"].as_str().unwrap().starts_with("<?xml")
            || setup["qr_svg"].as_str().unwrap().contains("<svg")
    );
    let otpauth = setup["otpauth_url"].as_str().unwrap().to_string();
    assert!(
        otpauth.starts_with("otpauth://totp/thaiboard:"),
        "{otpauth}"
    );
    assert!(
        otpauth.contains(setup["secret"].as_str().unwrap()),
        "{otpauth}"
    );
    // Not on until a code of the new secret is given.
    let mut b = Client::guest(&server).await;
    assert_eq!(login(&mut b, &name, PASSWORD, None).await.0, StatusCode::OK);
    let wrong = if code_at(&otpauth, time.now_ms()) == "000000" {
        "111111"
    } else {
        "000000"
    };
    let (s, e) = a
        .post(
            "/api/account/totp/enable",
            json!({ "password": PASSWORD, "code": wrong }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_totp"))
    );
    let (s, on) = a
        .post(
            "/api/account/totp/enable",
            json!({ "password": PASSWORD, "code": code_at(&otpauth, time.now_ms()) }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{on}");
    let recovery: Vec<String> = on["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(recovery.len(), 10);
    assert_eq!(a.get("/api/account/totp").await.1["enabled"], true);

    // Login asks for the code; the code just used does not pass again.
    let mut c = Client::guest(&server).await;
    let (s, e) = login(&mut c, &name, PASSWORD, None).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("totp_required"))
    );
    let (s, e) = login(
        &mut c,
        &name,
        PASSWORD,
        Some(&code_at(&otpauth, time.now_ms())),
    )
    .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_totp")),
        "replayed code"
    );
    time.advance(30_000);
    let (s, v) = login(
        &mut c,
        &name,
        PASSWORD,
        Some(&code_at(&otpauth, time.now_ms())),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A recovery code passes once, however written.
    let mut d = Client::guest(&server).await;
    let written = recovery[0].to_uppercase().replace('-', " ");
    assert_eq!(
        login(&mut d, &name, PASSWORD, Some(&written)).await.0,
        StatusCode::OK
    );
    let mut e2 = Client::guest(&server).await;
    assert_eq!(
        login(&mut e2, &name, PASSWORD, Some(&recovery[0])).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(a.get("/api/account/totp").await.1["recovery_codes_left"], 9);

    // The password change asks for it too.
    let (s, e) = a
        .post(
            "/api/account/password",
            json!({ "current": PASSWORD, "new": "another horse" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("totp_required"))
    );
    time.advance(30_000);
    let (s, v) = a
        .post("/api/account/password", json!({ "current": PASSWORD, "new": "another horse", "totp": code_at(&otpauth, time.now_ms()) }))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // Wrong codes are throttled as wrong passwords are: past the free failures, 429.
    let mut f = Client::guest(&server).await;
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(
            login(&mut f, &name, "another horse", Some("000001"))
                .await
                .0,
        );
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    let kinds = log_kinds(&a).await;
    assert!(kinds.contains(&"totp_enabled".to_string()), "{kinds:?}");
    assert!(kinds.contains(&"login_failed".to_string()), "{kinds:?}");
}

#[tokio::test]
async fn two_factor_can_be_turned_off_with_the_password_and_a_code() {
    let url = own_database().await;
    let config = test_config(&url);
    let time = config.time.clone();
    let server = Server::start(config).await.unwrap();
    let a = Client::registered(&server, "otpoff").await;
    let (_, setup) = a.post("/api/account/totp/setup", json!({})).await;
    let otpauth = setup["otpauth_url"].as_str().unwrap().to_string();
    a.post_ok(
        "/api/account/totp/enable",
        json!({ "password": PASSWORD, "code": code_at(&otpauth, time.now_ms()) }),
    )
    .await;
    let (s, _) = a.post("/api/account/totp/setup", json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "no new secret while it is on");
    let (s, e) = a
        .post("/api/account/totp/disable", json!({ "password": PASSWORD }))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("totp_required"))
    );
    time.advance(30_000);
    a.post_ok(
        "/api/account/totp/disable",
        json!({ "password": PASSWORD, "totp": code_at(&otpauth, time.now_ms()) }),
    )
    .await;
    let mut b = Client::guest(&server).await;
    assert_eq!(
        login(&mut b, &a.name(), PASSWORD, None).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_account_page_lists_each_device_and_ends_any_of_them() {
    let server = crate::common::start().await;
    let a = Client::registered(&server, "devices").await;
    let name = a.name();
    let mut phone = browser(&server, FIREFOX).await;
    let mut bad = Client::guest(&server).await;
    assert_eq!(
        login(&mut bad, &name, "not the password", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&mut phone, &name, PASSWORD, None).await.0,
        StatusCode::OK
    );
    token(&a).await;
    let (s, list) = a.get("/api/account/sessions").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    let this = list
        .iter()
        .find(|d| d["current"] == true)
        .expect("this browser");
    let firefox = list
        .iter()
        .find(|d| d["current"] == false)
        .expect("the other browser");
    assert_eq!(firefox["browser"], "Firefox 128 on Linux");
    assert_eq!(firefox["ip"], "127.0.0.1");
    assert!(firefox["last_seen"].as_i64().unwrap() > 0);
    assert_ne!(this["id"], firefox["id"]);
    // Ending it closes its sockets and its session.
    let mut ws = phone.lobby_socket().await;
    let (s, v) = a
        .send(
            "DELETE",
            &format!("/api/account/sessions/{}", firefox["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    ws.ends_with_session_ended().await;
    assert!(!signed_in(&phone).await);
    assert!(signed_in(&a).await);
    let (s, _) = a
        .send("DELETE", "/api/account/sessions/nosuchid", json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Another player cannot end mine, nor see them.
    let b = Client::registered(&server, "other").await;
    let (s, _) = b
        .send(
            "DELETE",
            &format!("/api/account/sessions/{}", this["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(signed_in(&a).await);
    // "End every other session".
    let mut tablet = Client::guest(&server).await;
    login(&mut tablet, &name, PASSWORD, None).await;
    let v = a
        .post_ok("/api/account/sessions/others/end", json!({}))
        .await;
    assert_eq!(v["ended"], 1);
    assert!(!signed_in(&tablet).await);
    // The log: the logins, the failed one, the token, the ended sessions.
    let (_, log) = a.get("/api/account/security-log").await;
    let kinds: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    for kind in ["login", "login_failed", "token_created", "session_revoked"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    let failed = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "login_failed")
        .unwrap();
    assert_eq!(failed["ip"], "127.0.0.1");
    let (s, _) = Client::guest(&server)
        .await
        .get("/api/account/sessions")
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "guests have no devices list");
}

/// Two server processes on one PostgreSQL: ending a device through one
/// closes its sockets on the other. Runs only when
/// `THAIBOARD_TEST_DATABASE_URL` names a PostgreSQL database.
#[tokio::test]
async fn ending_a_device_closes_its_sockets_on_every_server() {
    let Some((one, two)) = crate::common::postgres_pair().await else {
        return;
    };
    let a = Client::registered(&one, "pgdev").await;
    let mut phone = browser(&two, FIREFOX).await;
    assert_eq!(
        login(&mut phone, &a.name(), PASSWORD, None).await.0,
        StatusCode::OK
    );
    let mut ws = phone.lobby_socket().await;
    let (_, list) = a.get("/api/account/sessions").await;
    let id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["current"] == false)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, _) = a
        .send("DELETE", &format!("/api/account/sessions/{id}"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    ws.ends_with_session_ended().await;
    assert!(!signed_in(&phone).await);
}

#[tokio::test]
async fn a_closed_account_keeps_its_games_and_its_name_and_its_data_was_exported() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let name = white.name();
    let (s, v) = white
        .send(
            "PUT",
            "/api/account/settings",
            json!({ "boardTheme": "green" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let bot = token(&white).await;
    // Not while a game is under way.
    let (s, e) = white
        .post("/api/account/close", json!({ "password": PASSWORD }))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("games_under_way"))
    );
    white
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    // The export first.
    let (s, data) = white.get("/api/account/export").await;
    assert_eq!(s, StatusCode::OK, "{data}");
    assert_eq!(data["profile"]["username"], name);
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["id"], id);
    assert!(
        games[0]["record"].as_str().unwrap().contains(&name),
        "{}",
        games[0]
    );
    assert_eq!(data["settings"]["boardTheme"], "green");
    assert_eq!(data["api_tokens"][0]["description"], "my bot");
    // The password is asked.
    let (s, _) = white
        .post("/api/account/close", json!({ "password": "not it at all" }))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let mut ws = white.lobby_socket().await;
    let v = white
        .post_ok("/api/account/close", json!({ "password": PASSWORD }))
        .await;
    assert_eq!(v["closed"], true);
    ws.ends_with_session_ended().await;
    assert!(!signed_in(&white).await);
    assert_eq!(token_status(&server, &bot).await, StatusCode::UNAUTHORIZED);
    // No login; the name stays reserved, in any case.
    let mut c = Client::guest(&server).await;
    assert_eq!(
        login(&mut c, &name, PASSWORD, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (s, e) = c
        .post(
            "/api/register",
            json!({ "username": name.to_uppercase(), "password": PASSWORD }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken")),
        "{e}"
    );
    // The game stays, under the closed account's name.
    let (s, g) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let text = g.to_string();
    assert!(
        !text.contains(&name),
        "the old name is gone from the game: {text}"
    );
    assert!(text.contains("closed-"), "{text}");
    // Nobody can challenge the closed account by its old name: not on the
    // site, not through the Bot API.
    black
        .refused(
            "/api/challenges",
            json!({ "opponent": name, "variant": "makruk" }),
            StatusCode::BAD_REQUEST,
            "account_closed",
        )
        .await;
    let (s, v) = black
        .post(
            "/api/account/tokens",
            json!({ "description": "challenges", "scopes": ["challenge:write"] }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let reply = reqwest::Client::new()
        .post(format!("http://{}/api/challenge/{name}", server.addr))
        .bearer_auth(v["token"].as_str().unwrap())
        .form(&[("variant", "makruk")])
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::BAD_REQUEST);
    let v: Value = reply.json().await.unwrap();
    assert_eq!(v["error"], "account_closed", "{v}");
}
