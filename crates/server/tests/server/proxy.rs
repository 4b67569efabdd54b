//! Behind a reverse proxy: the limits count the client named by
//! `X-Forwarded-For` only when the connection comes from a trusted proxy
//! (`--trust-proxy`); from anyone else the header is ignored.

use crate::common::{test_config, test_database};
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
            .map(|t| thaiboard_server::parse_cidr(t).unwrap())
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

/// nginx's configuration for the test: the README's, on loopback ports, with
/// a self-signed certificate for its TLS listener.
fn nginx_conf(
    dir: &std::path::Path,
    http_port: u16,
    tls_port: u16,
    upstream: std::net::SocketAddr,
) -> String {
    let d = dir.display();
    format!(
        r#"daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{http_port};
        listen 127.0.0.1:{tls_port} ssl;
        ssl_certificate {d}/cert.pem;
        ssl_certificate_key {d}/key.pem;
        client_max_body_size 64k;
        location / {{
            proxy_pass http://{upstream};
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_buffering off;
        }}
    }}
}}
"#
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Stops the nginx it holds when dropped: SIGTERM to the master, which
/// ends its workers too (a SIGKILL would leave them running).
struct Nginx(std::process::Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(self.0.id().to_string())
            .status();
        let _ = self.0.wait();
    }
}

/// Debian's nginx on loopback in front of the server: each client is counted
/// under its own address (as nginx saw it), whatever it claims, and
/// WebSockets pass. Skipped where nginx is not installed.
#[tokio::test]
async fn through_debians_nginx_each_client_is_counted_under_its_own_address() {
    let nginx_bin = std::path::Path::new("/usr/sbin/nginx");
    if !nginx_bin.exists() {
        eprintln!("skipped: /usr/sbin/nginx is not installed (apt-get install nginx-light)");
        return;
    }
    let server = server(&["127.0.0.1/32"]).await;
    let dir = std::env::temp_dir().join(crate::common::unique("thaiboard-nginx-"));
    std::fs::create_dir_all(&dir).unwrap();
    let made = std::process::Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
        ])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let (http_port, tls_port) = (free_port(), free_port());
    let conf = dir.join("nginx.conf");
    std::fs::write(&conf, nginx_conf(&dir, http_port, tls_port, server.addr)).unwrap();
    let _nginx = Nginx(
        std::process::Command::new(nginx_bin)
            .arg("-c")
            .arg(&conf)
            .arg("-p")
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let front = format!("127.0.0.1:{http_port}");
    let mut up = false;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(&front).await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        up,
        "nginx listens: {}",
        std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
    );
    // Clients from two loopback addresses, one claiming to be someone else.
    let from = |ip: [u8; 4]| {
        reqwest::Client::builder()
            .local_address(std::net::IpAddr::from(ip))
            .build()
            .unwrap()
    };
    let guest = |c: reqwest::Client, claim: Option<&'static str>| {
        let url = format!("http://{front}/api/session");
        async move {
            let mut req = c.get(url);
            if let Some(claim) = claim {
                req = req.header("x-forwarded-for", claim);
            }
            req.send().await.unwrap().status()
        }
    };
    let a = from([127, 0, 0, 3]);
    for n in 0..3 {
        let claim = ["203.0.113.1", "203.0.113.2", "203.0.113.3"][n];
        assert_eq!(guest(a.clone(), Some(claim)).await, StatusCode::OK);
    }
    assert_eq!(
        guest(a.clone(), Some("203.0.113.4")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "counted as 127.0.0.3 whatever it claims"
    );
    let b = from([127, 0, 0, 4]);
    assert_eq!(
        guest(b, None).await,
        StatusCode::OK,
        "another client, its own count"
    );
    // A WebSocket through nginx.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{front}/api/lobby/ws"))
        .await
        .unwrap();
    let first = futures_util::StreamExt::next(&mut ws)
        .await
        .unwrap()
        .unwrap();
    assert!(first.to_text().unwrap().contains("\"lobby\""), "{first:?}");
}
