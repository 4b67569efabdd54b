//! Behind a reverse proxy: the limits count the client named by
//! `X-Forwarded-For` only when the connection comes from a trusted proxy
//! (`--trust-proxy`); from anyone else the header is ignored.

mod common;

use common::{test_config, test_database};
use reqwest::StatusCode;
use thaiboard_server::{Config, Server};

async fn server(trusted: &[&str]) -> Server {
    let (url, _) = test_database();
    Server::start(Config {
        exempt_loopback: false,
        guests_per_ip_burst: 3.0,
        guests_per_ip_per_hour: 6.0,
        trusted_proxies: trusted
            .iter()
            .map(|t| thaiboard_server::proxy::parse_cidr(t).unwrap())
            .collect(),
        ..test_config(&url)
    })
    .await
    .unwrap()
}

/// A cookie-less `GET /api/session` as forwarded for `client`.
async fn new_guest(server: &Server, client: &str) -> StatusCode {
    reqwest::Client::new()
        .get(format!("http://{}/api/session", server.addr))
        .header("x-forwarded-for", client)
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn a_trusted_proxys_clients_are_counted_apart() {
    let server = server(&["127.0.0.1/32"]).await;
    for _ in 0..3 {
        assert_eq!(new_guest(&server, "203.0.113.7").await, StatusCode::OK);
    }
    assert_eq!(
        new_guest(&server, "203.0.113.7").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another client through the same proxy has its own quota; a spoofed
    // entry left of the proxy's does not help the first.
    assert_eq!(new_guest(&server, "203.0.113.8").await, StatusCode::OK);
    assert_eq!(
        new_guest(&server, "198.51.100.1, 203.0.113.7").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn an_untrusted_peer_cannot_choose_its_address() {
    let server = server(&[]).await;
    for n in 0..3 {
        assert_eq!(
            new_guest(&server, &format!("203.0.113.{n}")).await,
            StatusCode::OK
        );
    }
    assert_eq!(
        new_guest(&server, "203.0.113.99").await,
        StatusCode::TOO_MANY_REQUESTS,
        "all counted as 127.0.0.1"
    );
}
