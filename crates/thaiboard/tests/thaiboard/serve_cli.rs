//! `thaiboard serve` as an operator runs it: `--access-log` writes a line
//! per request with the client's address, and SIGTERM stops it gracefully.

#![cfg(feature = "server")]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn the_access_log_has_a_line_per_request_and_sigterm_stops_the_server() {
    let dir = std::env::temp_dir().join(format!("thaiboard-serve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--access-log",
            "--data-dir",
        ])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        tcp,
        "GET /api/games/nosuchgame?token=secret HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    let term = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = server.wait().unwrap();
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(status.success(), "{status:?}: {log}");
    let line = log
        .lines()
        .find(|l| l.contains("GET /api/games/nosuchgame"))
        .unwrap_or_else(|| panic!("no access log line in {log:?}"));
    // Time, client address, method, path (never the query), status, duration.
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields.len(), 6, "{line}");
    assert!(fields[0].ends_with('Z'), "{line}");
    assert_eq!(
        &fields[1..5],
        ["127.0.0.1", "GET", "/api/games/nosuchgame", "404"]
    );
    assert!(fields[5].ends_with("ms"), "{line}");
    assert!(!log.contains("secret"));
    assert!(log.contains("stopping"), "{log}");
    let _ = std::fs::remove_dir_all(dir);
}
