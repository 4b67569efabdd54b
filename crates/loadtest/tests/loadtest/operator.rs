//! The operator's jobs with the load tool running: a graceful restart (the
//! players connect again and play on, no acknowledged move is lost, no error
//! beyond the reconnection) and a backup taken during play (restored into a
//! fresh server, it holds every move acknowledged before it began).

use loadtest::{Options, Report, run, verify};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use thaiboard_server::{Config, Server, backup};

/// Pairs of players in each test (two sockets a pair).
const PAIRS: usize = 4;
/// Games of each pair.
const GAMES_PER_PAIR: usize = 5;

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "thaiboard-operator-test-{}",
        thaiboard_server::util::random_id(8)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The load tool's server: every per-socket and per-user limit as served,
/// loopback exempt from the per-address caps only.
fn config(url: &str, bind: std::net::SocketAddr) -> Config {
    Config {
        bind,
        database_url: Some(url.to_string()),
        argon2_memory_kib: 64,
        exempt_loopback: true,
        shutdown_grace_ms: 5_000,
        ..Default::default()
    }
}

/// Long enough games that play spans the operator's job, at a pace inside
/// the per-user message rate (each player has five games at once: about
/// 25 moves a second against the 40 served).
fn load(base: String) -> Options {
    Options {
        base,
        games: PAIRS * GAMES_PER_PAIR,
        plies: 90,
        think_ms: 100,
        variant: "makruk".into(),
        games_per_pair: GAMES_PER_PAIR,
        minutes: 30.0,
        ..Options::default()
    }
}

/// Waits until every player's socket is open (setup done, play begun).
async fn until_playing(server: &Server) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.app.socket_limits.open_total() < 2 * PAIRS {
        assert!(Instant::now() < deadline, "the players never connected");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Some moves first.
    tokio::time::sleep(Duration::from_millis(800)).await;
}

fn acked_after(report: &Report, t: Instant) -> usize {
    report.acked.iter().filter(|m| m.at > t).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_ride_through_a_graceful_restart_and_no_acknowledged_move_is_lost() {
    let dir = temp_dir();
    let url = match std::env::var("THAIBOARD_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => format!("sqlite://{}", dir.join("live.db").display()),
    };
    let first = Server::start(config(&url, "127.0.0.1:0".parse().unwrap()))
        .await
        .unwrap();
    let addr = first.addr;
    let load = tokio::spawn(run(load(format!("http://{addr}"))));
    until_playing(&first).await;
    // SIGTERM's path: stop taking connections, finish writes, tell every
    // socket "restarting"; then the new process on the same address.
    first.shutdown().await.unwrap();
    let restarted = Instant::now();
    let second = Server::start(config(&url, addr)).await.unwrap();
    let report = load.await.unwrap().unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.lost, Some(0), "{report}");
    assert!(
        report.reconnects >= 2 * PAIRS,
        "every socket came back: {report}"
    );
    assert!(
        acked_after(&report, restarted) > 0,
        "play went on after the restart: {report}"
    );
    assert!(report.acked.len() > acked_after(&report, restarted));
    second.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_during_the_load_holds_every_move_acknowledged_before_it() {
    let dir = temp_dir();
    let url = format!("sqlite://{}", dir.join("live.db").display());
    let server = Server::start(config(&url, "127.0.0.1:0".parse().unwrap()))
        .await
        .unwrap();
    let load = tokio::spawn(run(load(format!("http://{}", server.addr))));
    until_playing(&server).await;
    let began = Instant::now();
    let out = dir.join("backup.db");
    let games = backup::backup(&url, &out).await.unwrap();
    assert_eq!(games, (PAIRS * GAMES_PER_PAIR) as i64);
    let report = load.await.unwrap().unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.lost, Some(0), "{report}");
    let before = report.acked.len() - acked_after(&report, began);
    assert!(before > 0 && acked_after(&report, began) > 0, "{report}");
    // Restored into a fresh server: every move acknowledged before the
    // backup began is there.
    let restored_url = format!("sqlite://{}", dir.join("restored.db").display());
    backup::restore(&out, &restored_url, false).await.unwrap();
    let restored = Server::start(config(&restored_url, "127.0.0.1:0".parse().unwrap()))
        .await
        .unwrap();
    let base = format!("http://{}", restored.addr);
    assert_eq!(verify(&base, &report.acked, Some(began)).await, Ok(0));
    // And it is a copy from the middle of play, not the end.
    assert!(verify(&base, &report.acked, None).await.unwrap() > 0);
    server.shutdown().await.unwrap();
    restored.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
