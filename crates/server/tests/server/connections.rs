//! The server's overall connection cap: slow connections past it are closed
//! at once, unread, and a normal client is served again once they go.

use crate::common::{Client, test_config, test_database};
use std::time::{Duration, Instant};
use thaiboard_server::{Config, Server};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

#[tokio::test]
async fn connections_past_the_cap_are_shed_at_once_and_service_comes_back() {
    let (url, _) = test_database();
    // Loopback is exempt from the per-address cap, not from the total.
    let server = Server::start(Config {
        max_connections: Some(40),
        ..test_config(&url)
    })
    .await
    .unwrap();
    // Forty slow connections that never send a request hold every place.
    let mut slow = Vec::new();
    for _ in 0..40 {
        slow.push(TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Twenty more are closed at once, before sending anything.
    let started = Instant::now();
    for _ in 0..20 {
        let mut extra = TcpStream::connect(server.addr).await.unwrap();
        let mut buf = [0u8; 16];
        let read = tokio::time::timeout(Duration::from_secs(2), extra.read(&mut buf))
            .await
            .expect("a connection over the cap is closed at once, not left waiting");
        assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    }
    assert!(started.elapsed() < Duration::from_secs(2));
    // Once the slow ones go, a normal client is served.
    drop(slow);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let c = Client::guest(&server).await;
    let (s, _) = c.get("/api/session").await;
    assert_eq!(s, reqwest::StatusCode::OK);
}

#[tokio::test]
async fn a_socket_that_answers_no_ping_is_closed_and_a_live_one_stays() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let (url, _) = test_database();
    let server = Server::start(Config {
        ws_ping_secs: 1,
        ..test_config(&url)
    })
    .await
    .unwrap();
    let c = Client::guest(&server).await;
    let mut silent = c.lobby_socket().await;
    let mut live = c.lobby_socket().await;
    // The live one reads (and so answers pings with pongs) meanwhile.
    let reader = tokio::spawn(async move {
        let until = Instant::now() + Duration::from_millis(4500);
        while Instant::now() < until {
            let _ = tokio::time::timeout(Duration::from_millis(200), live.stream.next()).await;
        }
        live
    });
    tokio::time::sleep(Duration::from_millis(4500)).await;
    // The silent one missed two pings: the server closed it.
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match silent.stream.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the silent socket is closed");
    let mut live = reader.await.unwrap();
    live.send_json(serde_json::json!({ "type": "ping" })).await;
    assert_eq!(
        live.next_of("pong").await["type"],
        "pong",
        "the live one is served"
    );
}
