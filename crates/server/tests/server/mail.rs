//! E-mail to correspondence players, read back from a real SMTP server
//! (Python's aiosmtpd from PyPI, writing a maildir): the verification link,
//! "your move", the deadline warning, game over, the unsubscribe link that
//! ends the mail, and bad input. Skipped (with a note) where aiosmtpd is
//! not installed; `.ci/run` installs it.

use crate::common::{Client, play_moves};
use reqwest::StatusCode;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

/// A local SMTP server that files every mail into a maildir.
pub(crate) struct Smtp {
    child: Child,
    pub(crate) port: u16,
    pub(crate) dir: PathBuf,
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub(crate) fn start_smtp() -> Option<Smtp> {
    let ok = Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: aiosmtpd is not installed (pip install aiosmtpd)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!(
        "thaiboard-mail-{}",
        thaiboard_server::util::random_id(8)
    ));
    let mut child = Command::new("python3")
        .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
        .args(["-c", "aiosmtpd.handlers.Mailbox"])
        .arg(&dir)
        .spawn()
        .unwrap();
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(Smtp { child, port, dir });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("aiosmtpd did not start");
}

/// A mail as received: recipient, subject, body.
#[derive(Debug)]
pub(crate) struct Mail {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) body: String,
}

fn header(raw: &str, name: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in raw.lines() {
        if line.is_empty() {
            break;
        }
        if inside && line.starts_with([' ', '\t']) {
            out.push_str(line.trim_start_matches([' ', '\t']));
            continue;
        }
        inside = line
            .to_ascii_lowercase()
            .starts_with(&format!("{}:", name.to_ascii_lowercase()));
        if inside {
            out = line[name.len() + 1..].trim().to_string();
        }
    }
    out
}

pub(crate) fn mails(dir: &Path) -> Vec<Mail> {
    let Ok(entries) = std::fs::read_dir(dir.join("new")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| {
            let raw = std::fs::read_to_string(e.path())
                .unwrap()
                .replace("\r\n", "\n");
            let body = raw.split_once("\n\n").map_or("", |(_, b)| b).to_string();
            let body = if header(&raw, "Content-Transfer-Encoding")
                .eq_ignore_ascii_case("quoted-printable")
            {
                unquote(&body)
            } else {
                body
            };
            Mail {
                to: header(&raw, "To"),
                subject: header(&raw, "Subject"),
                body,
            }
        })
        .collect()
}

/// Decodes a quoted-printable body (soft line breaks and `=XX` bytes).
fn unquote(text: &str) -> String {
    let joined = text.replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() + 1 {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..(i + 3).min(joined.len())], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Waits (up to 10 s) for a mail to `to` whose subject contains `subject`.
pub(crate) async fn wait_mail(dir: &Path, to: &str, subject: &str) -> Mail {
    for _ in 0..200 {
        if let Some(m) = mails(dir)
            .into_iter()
            .find(|m| m.to.contains(to) && m.subject.contains(subject))
        {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no mail to {to} about {subject:?}: {:?}", mails(dir));
}

/// The link in `body` that contains `path`.
pub(crate) fn link(body: &str, path: &str) -> String {
    body.split_whitespace()
        .find(|w| w.contains(path))
        .unwrap_or_else(|| panic!("no {path} link in {body}"))
        .to_string()
}

pub(crate) async fn put_email(c: &Client, email: &str) -> (StatusCode, serde_json::Value) {
    let r = c
        .http
        .put(format!("{}/api/account/email", c.base))
        .header("x-csrf-token", &c.csrf)
        .json(&json!({ "email": email, "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap())
}

#[test]
fn correspondence_players_get_their_mail_and_can_stop_it() {
    crate::common::one_at_a_time(correspondence_players_get_their_mail_and_can_stop_it_body());
}

async fn correspondence_players_get_their_mail_and_can_stop_it_body() {
    let Some(smtp) = start_smtp() else { return };
    let (url, _) = crate::common::test_database();
    let mut config = crate::common::test_config(&url);
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", smtp.port));
    config.mail_sweep_secs = 1;
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let a = Client::registered(&server, "mail").await;
    let b = Client::registered(&server, "mail").await;

    // Bad addresses are refused; a good one gets a verification link.
    let (s, e) = put_email(&a, "not an address").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_email"))
    );
    for (c, addr) in [(&a, "alice@example.com"), (&b, "bob@example.com")] {
        let (s, v) = put_email(c, addr).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["verified"], false);
        let m = wait_mail(&smtp.dir, addr, "Verify").await;
        let verify = link(&m.body, "/api/account/email/verify?token=");
        let page = reqwest::get(&verify).await.unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.text().await.unwrap().contains("Address verified"));
        assert_eq!(c.get("/api/account/email").await.1["verified"], true);
        // The same link again: used.
        assert_eq!(
            reqwest::get(&verify).await.unwrap().status(),
            StatusCode::NOT_FOUND
        );
    }
    let broken = format!("http://{}/api/account/email/verify?token=xyz", server.addr);
    assert_eq!(
        reqwest::get(&broken).await.unwrap().status(),
        StatusCode::BAD_REQUEST
    );

    // A correspondence game with an hour on the clock: "your move", then the deadline warning.
    let id = a
        .challenge(json!({ "variant": "makruk", "color": "white", "opponent": b.name(),
                           "time_control": { "kind": "correspondence", "days": 0.05, "increment_days": 0 } }))
        .await;
    b.post_ok(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    let m = wait_mail(&smtp.dir, "alice@example.com", "Your move").await;
    assert!(m.body.contains(&format!("/game/{id}")), "{m:?}");
    assert!(
        m.body.contains("/api/unsubscribe?token="),
        "every mail can be stopped: {m:?}"
    );
    wait_mail(&smtp.dir, "alice@example.com", "Your time runs out").await;
    play_moves(&a, &b, &id, &["e3e4"]).await;
    wait_mail(&smtp.dir, "bob@example.com", "Your move").await;
    b.post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    let over = wait_mail(&smtp.dir, "alice@example.com", "Game over").await;
    assert!(over.subject.contains("1-0"), "{over:?}");
    wait_mail(&smtp.dir, "bob@example.com", "Game over").await;

    // Alice unsubscribes with the link from her mail: no more mail to her.
    let stop = link(&over.body, "/api/unsubscribe?token=");
    let page = reqwest::get(&stop).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(a.get("/api/account/email").await.1["subscribed"], false);
    let before = mails(&smtp.dir)
        .iter()
        .filter(|m| m.to.contains("alice"))
        .count();
    let id2 = b
        .challenge(
            json!({ "variant": "makruk", "color": "black", "opponent": a.name(),
                           "time_control": { "kind": "correspondence", "days": 3 } }),
        )
        .await;
    a.post_ok(&format!("/api/games/{id2}/accept"), json!({}))
        .await;
    // Bob (Black) hears of Alice's move; Alice hears nothing of hers.
    play_moves(&a, &b, &id2, &["e3e4"]).await;
    wait_mail(&smtp.dir, "bob@example.com", "Your move against").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = mails(&smtp.dir)
        .iter()
        .filter(|m| m.to.contains("alice"))
        .count();
    assert_eq!(before, after, "no mail after unsubscribing");
}

#[test]
fn a_server_without_smtp_says_it_sends_no_mail() {
    crate::common::one_at_a_time(a_server_without_smtp_says_it_sends_no_mail_body());
}

async fn a_server_without_smtp_says_it_sends_no_mail_body() {
    let server = crate::common::start().await;
    let a = Client::registered(&server, "mail").await;
    let (s, e) = put_email(&a, "alice@example.com").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("mail_disabled"))
    );
    assert_eq!(a.get("/api/account/email").await.1["enabled"], false);
}

/// Verifies `c`'s address `addr` through the mailed link.
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

#[test]
fn the_deadline_warning_waits_for_the_end_of_leave() {
    crate::common::one_at_a_time(the_deadline_warning_waits_for_the_end_of_leave_body());
}

async fn the_deadline_warning_waits_for_the_end_of_leave_body() {
    const DAY: i64 = 86_400_000;
    let Some(smtp) = start_smtp() else { return };
    let url = crate::common::own_database().await;
    let mut config = crate::common::test_config(&url);
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", smtp.port));
    config.mail_sweep_secs = 1;
    let time = config.time.clone();
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let a = Client::registered(&server, "away").await;
    let b = Client::registered(&server, "home").await;
    verified(&smtp, &a, "away@example.com").await;
    // Alice, to move with three days, goes on leave at once for two more days.
    let id = a
        .challenge(json!({ "variant": "makruk", "color": "white", "opponent": b.name(),
                           "time_control": { "kind": "correspondence", "days": 3, "increment_days": 0 } }))
        .await;
    b.post_ok(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    let today = jiff::Timestamp::from_millisecond(time.now_ms())
        .unwrap()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    let last = today.checked_add(jiff::Span::new().days(2)).unwrap();
    let o = a
        .post_ok("/api/account/leave", json!({ "to": last.to_string() }))
        .await;
    let leave =
        o["periods"][0]["until"].as_i64().unwrap() - o["periods"][0]["from"].as_i64().unwrap();
    // Two and a half days on: without the leave the warning would be due.
    time.advance(5 * DAY / 2);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let to_alice = || {
        mails(&smtp.dir)
            .into_iter()
            .filter(|m| m.to.contains("away@example.com"))
            .map(|m| m.subject)
            .collect::<Vec<_>>()
    };
    let seen = to_alice();
    assert!(
        !seen.iter().any(|s| s.contains("Your time runs out")),
        "no warning while the clock stands still: {seen:?}"
    );
    // Booking leave is no move: "your move" came once, when the game began.
    assert_eq!(
        seen.iter().filter(|s| s.contains("Your move")).count(),
        1,
        "{seen:?}"
    );
    // Within a day of the deadline moved by the leave, it comes.
    time.advance(leave);
    wait_mail(&smtp.dir, "away@example.com", "Your time runs out").await;
}
