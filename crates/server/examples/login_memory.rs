//! The server's memory after many logins at once (issue 20, item 6):
//!
//! ```sh
//! cargo run --release -p thaiboard-server --example login_memory -- AT_ONCE [LOGINS]
//! ```
//!
//! Starts a server in this process (temporary SQLite file, argon2 at its
//! default 19 MiB), registers one account, then sends LOGINS (default 100)
//! logins to it at the same time, with at most AT_ONCE password hashes
//! computed at once (`Config::password_hashes_at_once`; AT_ONCE = LOGINS
//! is the server before the bound). Prints the resident memory before and
//! after, the peak, and the time the logins took. Run each setting in its
//! own process: a process's peak is kept.

use std::time::Instant;
use thaiboard_server::{Config, Server};

// The allocator of the `thaiboard` binary, whose memory this measures.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn status_kib(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

async fn session(http: &reqwest::Client, base: &str) -> String {
    let v: serde_json::Value = http
        .get(format!("{base}/api/session"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    match v["csrf"].as_str() {
        Some(csrf) => csrf.to_string(),
        None => panic!("GET /api/session gave no session: {v}"),
    }
}

async fn post(http: &reqwest::Client, base: &str, path: &str, csrf: &str, name: &str) -> u16 {
    http.post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .header("x-csrf-token", csrf)
        .body(serde_json::json!({ "username": name, "password": "correct horse" }).to_string())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let at_once: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let logins: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let dir = std::env::temp_dir().join(format!("login-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(format!("sqlite://{}", dir.join("db").display())),
        rate_per_sec: 0.0,
        // Every login comes from 127.0.0.1: lift the per-address guest cap.
        exempt_loopback: true,
        engine_searches: 0,
        password_hashes_at_once: at_once,
        login_free_failures_per_account: u32::MAX,
        login_free_failures_per_ip: u32::MAX,
        ..Config::default()
    };
    let server = Server::start(config).await.unwrap();
    let base = format!("http://{}", server.addr);
    let client = || {
        reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap()
    };
    let owner = client();
    let csrf = session(&owner, &base).await;
    assert_eq!(
        post(&owner, &base, "/api/register", &csrf, "memoryprobe").await,
        201
    );
    let mut browsers = Vec::new();
    for _ in 0..logins {
        let http = client();
        let csrf = session(&http, &base).await;
        browsers.push((http, csrf));
    }
    let before = status_kib("VmRSS:");
    let started = Instant::now();
    let tasks: Vec<_> = browsers
        .into_iter()
        .map(|(http, csrf)| {
            let base = base.clone();
            tokio::spawn(
                async move { post(&http, &base, "/api/login", &csrf, "memoryprobe").await },
            )
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        if t.await.unwrap() == 200 {
            ok += 1;
        }
    }
    let took = started.elapsed();
    // Let freed memory settle, as a server between bursts would.
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let after = status_kib("VmRSS:");
    println!(
        "hashes at once {at_once}: {ok}/{logins} logins in {:.2} s; resident {:.1} MB before, {:.1} MB after, peak {:.1} MB",
        took.as_secs_f64(),
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        status_kib("VmHWM:") as f64 / 1024.0,
    );
    server.abort();
    let _ = std::fs::remove_dir_all(&dir);
}
