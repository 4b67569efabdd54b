//! Resource limits on loopback: connections per address, header and body
//! timeouts (idle and slow clients), the body size limit, WebSockets per
//! address and per user, and one message rate per user.

use crate::common::{Client, test_config, test_database};
use serde_json::json;
use std::time::{Duration, Instant};
use thaiboard_server::{Config, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;

async fn server(config: impl FnOnce(Config) -> Config) -> Server {
    let (url, _) = test_database();
    Server::start(config(Config {
        exempt_loopback: false,
        ..test_config(&url)
    }))
    .await
    .unwrap()
}

/// Reads until the server closes the connection (or `within` passes);
/// returns what it sent and when it closed.
async fn read_to_close(tcp: &mut TcpStream, within: Duration) -> Option<(String, Instant)> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, tcp.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => {
                return Some((String::from_utf8_lossy(&got).into_owned(), Instant::now()));
            }
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Whether the server has closed `tcp` (end of stream, after any answer).
fn closed_by_server(tcp: &TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        match tcp.try_read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(_) => return true,
        }
    }
}

#[tokio::test]
async fn idle_connections_from_one_address_are_capped_and_time_out() {
    let cap = 100;
    let timeout = Duration::from_millis(2000);
    let server = server(|c| Config {
        max_connections_per_ip: cap,
        header_read_timeout_ms: timeout.as_millis() as u64,
        ..c
    })
    .await;
    let opened = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..500 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // The 400 over the cap are closed at once, the 100 under it stay open...
    tokio::time::sleep(Duration::from_millis(500)).await;
    let closed = idle.iter().filter(|t| closed_by_server(t)).count();
    assert!(opened.elapsed() < timeout, "checked before the timeout");
    assert_eq!(closed, 500 - cap);
    // ...until the header timeout runs out.
    tokio::time::sleep(timeout + Duration::from_millis(500)).await;
    let closed = idle.iter().filter(|t| closed_by_server(t)).count();
    assert_eq!(closed, 500);
    // The address has its places back.
    let c = Client::guest(&server).await;
    assert_eq!(c.get("/api/lobby").await.0, reqwest::StatusCode::OK);
}

#[tokio::test]
async fn a_slow_header_or_body_is_cut_off_and_a_huge_body_refused_unread() {
    let server = server(|c| Config {
        header_read_timeout_ms: 1000,
        body_read_timeout_ms: 1000,
        ..c
    })
    .await;
    // Headers dribbled a byte at a time.
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    let started = Instant::now();
    let request = b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let mut cut = false;
    for b in request {
        if slow.write_all(&[*b]).await.is_err() {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    if !cut {
        let closed = read_to_close(&mut slow, Duration::from_secs(3)).await;
        assert!(closed.is_some(), "a dribbled header is cut off");
    }
    assert!(started.elapsed() < Duration::from_secs(5));

    // A 1 GB body is refused from its Content-Length, before it is sent.
    let c = Client::guest(&server).await;
    let mut big = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /api/challenges HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\nCookie: {}\r\nX-CSRF-Token: {}\r\n\r\n",
        server.addr,
        c.cookie_header().unwrap(),
        c.csrf
    );
    big.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = read_to_close(&mut big, Duration::from_secs(3))
        .await
        .expect("answered and closed at once");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"too_large\""), "{answer}");

    // A body that stalls halfway is given up.
    let mut stalled = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /api/challenges HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nCookie: {}\r\nX-CSRF-Token: {}\r\n\r\n{{\"variant\":",
        server.addr,
        c.cookie_header().unwrap(),
        c.csrf
    );
    stalled.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    let (answer, _) = read_to_close(&mut stalled, Duration::from_secs(5))
        .await
        .expect("a stalled body ends the request");
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// Opens a WebSocket at `path` as `c`; the HTTP status if refused.
async fn try_socket(c: &Client, path: &str) -> Result<crate::common::Ws, u16> {
    use tungstenite::client::IntoClientRequest;
    let url = format!("{}{path}", c.base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    if let Some(cookie) = c.cookie_header() {
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((stream, _)) => Ok(crate::common::Ws { stream }),
        Err(tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn websockets_are_capped_per_user_and_per_address() {
    let server = server(|c| Config {
        max_sockets_per_user: 3,
        max_sockets_per_ip: 5,
        ..c
    })
    .await;
    let alice = Client::guest(&server).await;
    let mut open = Vec::new();
    for path in ["/api/ws", "/api/lobby/ws", "/api/notifications/ws"] {
        open.push(try_socket(&alice, path).await.expect("under the cap"));
    }
    assert_eq!(
        try_socket(&alice, "/api/ws").await.err(),
        Some(429),
        "a 4th socket for one user"
    );
    // Closing one gives its place back.
    let mut first = open.remove(0);
    first.stream.close(None).await.unwrap();
    drop(first);
    let mut again = None;
    for _ in 0..50 {
        if let Ok(ws) = try_socket(&alice, "/api/ws").await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    open.push(again.expect("a place came back"));
    // Other users from the same address: two more, then the address is full.
    let bob = Client::guest(&server).await;
    open.push(try_socket(&bob, "/api/ws").await.unwrap());
    open.push(try_socket(&bob, "/api/ws").await.unwrap());
    assert_eq!(
        try_socket(&bob, "/api/ws").await.err(),
        Some(429),
        "a 6th socket from one address"
    );
}

#[tokio::test]
async fn a_users_sockets_together_keep_one_message_rate() {
    let server = server(|c| Config {
        ws_rate_per_sec: 100.0,
        ws_user_rate_per_sec: 5.0,
        max_sockets_per_user: 20,
        max_sockets_per_ip: 100,
        ..c
    })
    .await;
    let c = Client::guest(&server).await;
    let mut sockets = Vec::new();
    for _ in 0..10 {
        sockets.push(c.lobby_socket().await);
    }
    let started = Instant::now();
    for ws in &mut sockets {
        for _ in 0..10 {
            ws.send_json(json!({ "type": "ping" })).await;
        }
    }
    let (mut pongs, mut limited) = (0, 0);
    for ws in &mut sockets {
        let mut answers = 0;
        while answers < 10 {
            let m = ws.next_json().await;
            match m["type"].as_str() {
                Some("pong") => pongs += 1,
                Some("error") if m["error"] == "rate_limited" => limited += 1,
                _ => continue,
            }
            answers += 1;
        }
    }
    // A burst of twice the rate, and what the rate refilled meanwhile.
    let refill = (started.elapsed().as_secs_f64() * 5.0).ceil() as usize;
    assert!(pongs <= 10 + refill, "{pongs} pongs of 100 pings at 5/s");
    assert_eq!(pongs + limited, 100);
    // Another user is not held back by this one.
    let other = Client::guest(&server).await;
    let mut ws = other.lobby_socket().await;
    ws.send_json(json!({ "type": "ping" })).await;
    ws.next_of("pong").await;
}

#[tokio::test]
async fn following_games_counts_against_the_users_own_follow_budget() {
    // 1 command a second per user: follows get ten times that, with a burst
    // of twice the most games one connection may follow.
    let server = server(|c| Config {
        ws_rate_per_sec: 1000.0,
        ws_user_rate_per_sec: 1.0,
        max_sockets_per_user: 20,
        max_sockets_per_ip: 100,
        ..c
    })
    .await;
    let c = Client::guest(&server).await;
    let burst = 2 * thaiboard_server::MAX_SUBSCRIPTIONS;
    let mut sockets = Vec::new();
    for _ in 0..4 {
        sockets.push(c.multi_socket().await);
    }
    // Many more subscribe/unsubscribe pairs than the burst, spread over the
    // user's sockets (the game need not exist: each is still a read).
    let per_socket = burst / 2 + 100;
    let started = Instant::now();
    for ws in &mut sockets {
        for i in 0..per_socket {
            let kind = if i % 2 == 0 {
                "subscribe"
            } else {
                "unsubscribe"
            };
            ws.send_json(json!({ "type": kind, "game": "nosuchgame", "id": i }))
                .await;
        }
    }
    let (mut served, mut limited) = (0, 0);
    for ws in &mut sockets {
        let mut answers = 0;
        while answers < per_socket {
            let m = ws.next_json().await;
            match (m["type"].as_str(), m["error"].as_str()) {
                (Some("error"), Some("rate_limited")) => limited += 1,
                (Some("ack"), _) | (Some("error"), Some("not_found")) => served += 1,
                _ => continue,
            }
            answers += 1;
        }
    }
    let refill = (started.elapsed().as_secs_f64() * 10.0).ceil() as usize;
    assert_eq!(served + limited, 4 * per_socket);
    assert!(
        served <= burst + refill,
        "{served} follows served of {} at a burst of {burst}",
        4 * per_socket
    );
    assert!(limited > 0);
}

#[tokio::test]
async fn the_request_rate_per_address_spares_loopback_only_when_exempt() {
    for exempt in [false, true] {
        let server = server(|c| Config {
            rate_per_sec: 1.0,
            rate_burst: 3.0,
            address_rate_per_sec: 1.0,
            address_rate_burst: 3.0,
            exempt_loopback: exempt,
            ..c
        })
        .await;
        let http = reqwest::Client::new();
        let mut limited = 0;
        for _ in 0..20 {
            let r = http
                .get(format!("http://{}/api/games/nosuchgame", server.addr))
                .send()
                .await
                .unwrap();
            limited += usize::from(r.status() == 429);
        }
        if exempt {
            assert_eq!(limited, 0, "the load tool's loopback clients");
        } else {
            assert!(limited >= 15, "{limited} of 20 limited at 1/s");
        }
    }
}

/// Sends `n` GETs of `path` one after the other (as fast as the server
/// answers); the number refused 429, and how long they took, s.
async fn flood(c: &Client, path: &str, n: usize) -> (usize, f64) {
    let started = Instant::now();
    let mut limited = 0;
    for _ in 0..n {
        limited += usize::from(c.get(path).await.0 == 429);
    }
    (limited, started.elapsed().as_secs_f64())
}

#[tokio::test]
async fn a_cafe_behind_one_address_fits_the_default_request_limits_and_one_flooder_does_not() {
    let d = Config::default();
    let server = server(|c| Config {
        rate_per_sec: d.rate_per_sec,
        rate_burst: d.rate_burst,
        address_rate_per_sec: d.address_rate_per_sec,
        address_rate_burst: d.address_rate_burst,
        // The guests' own budget is not what is tested here.
        guests_per_ip_burst: 100.0,
        ..c
    })
    .await;
    // 40 players of one address, each with a session, all loading pages at
    // once: 40 × 40 requests, far past what one address may send without
    // sessions (and past the old limit of 20 a second per address).
    let mut players = Vec::new();
    for _ in 0..40 {
        players.push(Client::guest(&server).await);
    }
    let started = Instant::now();
    let rounds =
        futures_util::future::join_all(players.iter().map(|p| flood(p, "/api/lobby", 40))).await;
    let refused: usize = rounds.iter().map(|r| r.0).sum();
    let took = started.elapsed().as_secs_f64();
    assert_eq!(refused, 0, "{refused} of the café's 1,600 requests refused");
    assert!(
        1600.0 > d.address_rate_burst + d.address_rate_per_sec * took,
        "the café's requests ({took:.1} s) would have fitted one address's budget: no proof"
    );
    // One of them floods: held to its session's bucket.
    let (limited, took) = flood(&players[0], "/api/lobby", 400).await;
    let allowed = d.rate_burst + d.rate_per_sec * took + 5.0;
    assert!(
        (400 - limited) as f64 <= allowed,
        "a session's flood: {} of 400 served in {took:.1} s",
        400 - limited
    );
    // A client without a live session floods, making up a cookie for each
    // request: held to the address's bucket.
    let http = reqwest::Client::new();
    let started = Instant::now();
    let mut limited = 0;
    for i in 0..1500 {
        let r = http
            .get(format!("http://{}/api/lobby", server.addr))
            .header("cookie", format!("tb_session=forged{i}"))
            .send()
            .await
            .unwrap();
        limited += usize::from(r.status() == 429);
    }
    let took = started.elapsed().as_secs_f64();
    let allowed = d.address_rate_burst + d.address_rate_per_sec * took + 5.0;
    assert!(
        (1500 - limited) as f64 <= allowed,
        "a sessionless flood: {} of 1500 served in {took:.1} s",
        1500 - limited
    );
    assert!(limited > 0);
    // The café's players go on meanwhile.
    let (status, _) = players[1].get("/api/lobby").await;
    assert_eq!(status, 200);
}
