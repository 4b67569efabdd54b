//! Backups while serving: a backup taken while moves are being played holds
//! every move acknowledged before it began; restored into a fresh server,
//! the players log in and play on. Bad backups and overwrites are refused
//! with the reason. (SQLite only: PostgreSQL is backed up with pg_dump.)

use crate::common::{Client, legal_ucis, started_game, test_config};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use thaiboard_server::Server;
use thaiboard_server::backup;

#[tokio::test]
async fn a_backup_taken_during_play_restores_every_acknowledged_move() {
    let dir = std::env::temp_dir().join(crate::common::unique("thaiboard-backup-"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("live.db").display());
    // Moves about as fast as acks come, as the load tool plays them.
    let server = Server::start(thaiboard_server::Config {
        ws_rate_per_sec: 0.0,
        ws_user_rate_per_sec: 0.0,
        ..test_config(&url)
    })
    .await
    .unwrap();
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut ws_w, snap) = white.socket(&id).await;
    let (mut ws_b, _) = black.socket(&id).await;
    // The players move on and on, each move waiting for its ack.
    let acked = Arc::new(AtomicU64::new(0));
    let counter = acked.clone();
    let play = tokio::spawn(async move {
        let mut game = snap["game"].clone();
        for ply in 0..120u64 {
            let ws = if ply % 2 == 0 { &mut ws_w } else { &mut ws_b };
            let Some(mv) = legal_ucis(&game).first().cloned() else {
                break;
            };
            let r = ws
                .command(json!({ "type": "move", "move": mv, "ply": ply }), ply)
                .await;
            assert_eq!(r["type"], "ack", "{r}");
            counter.store(ply + 1, Ordering::SeqCst);
            game = ws.update_at(ply as usize + 1).await["game"].clone();
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let before = acked.load(Ordering::SeqCst);
    let out = dir.join("backup.db");
    let games = backup::backup(&url, &out).await.unwrap();
    assert_eq!(games, 1);
    play.await.unwrap();
    let total = acked.load(Ordering::SeqCst);
    assert!(
        before > 0 && total > before,
        "moves before ({before}) and after ({total}) the backup"
    );
    // A backup never overwrites.
    let e = backup::backup(&url, &out).await.unwrap_err();
    assert!(e.contains("exists"), "{e}");

    // Restored into a fresh database, for a fresh server.
    let fresh_url = format!("sqlite://{}", dir.join("restored.db").display());
    assert_eq!(backup::restore(&out, &fresh_url, false).await.unwrap(), 1);
    let e = backup::restore(&out, &fresh_url, false).await.unwrap_err();
    assert!(e.contains("--force"), "an existing database is kept: {e}");
    let restored = Server::start(test_config(&fresh_url)).await.unwrap();
    let c = Client::guest(&restored).await;
    let (_, game) = c.get(&format!("/api/games/{id}")).await;
    let ply = game["ply"].as_u64().unwrap();
    assert!(
        (before..=total).contains(&ply),
        "the backup holds every move acknowledged before it ({before}) and none never made ({total}): {ply}"
    );
    // The players' accounts came along: they log in there.
    let (s, body) = c
        .post(
            "/api/login",
            json!({ "username": white.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, reqwest::StatusCode::OK, "{body}");
}

#[tokio::test]
async fn bad_backups_and_postgres_urls_are_refused_with_the_reason() {
    let dir = std::env::temp_dir().join(crate::common::unique("thaiboard-backup-"));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.db");
    std::fs::write(&junk, b"this is not a database").unwrap();
    let url = format!("sqlite://{}", dir.join("target.db").display());
    let e = backup::restore(&junk, &url, false).await.unwrap_err();
    assert!(e.contains("junk.db"), "{e}");
    assert!(!dir.join("target.db").exists(), "nothing was put in place");
    let e = backup::backup("postgres://u:p@127.0.0.1/db", &dir.join("x.db"))
        .await
        .unwrap_err();
    assert!(e.contains("pg_dump"), "{e}");
    let e = backup::restore(&junk, "postgres://u:p@127.0.0.1/db", false)
        .await
        .unwrap_err();
    assert!(e.contains("pg_restore"), "{e}");
}

#[tokio::test]
async fn a_restore_is_refused_while_a_server_process_runs_on_the_database() {
    let dir = std::env::temp_dir().join(crate::common::unique("thaiboard-lock-"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("live.db").display());
    let (mut server, addr) = crate::kill_restart::spawn(&url);
    // A registration the server acknowledged.
    let name = crate::common::unique("kept");
    let c = crate::kill_restart::client(&addr, &name, true).await;
    // A backup works as ever while it serves...
    let out = dir.join("before.db");
    backup::backup(&url, &out).await.unwrap();
    // ...a restore, even forced, is refused with the reason, and so is a
    // second server on the same file.
    let e = backup::restore(&out, &url, true).await.unwrap_err();
    assert!(
        e.contains("running thaiboard server") && e.contains("live.db"),
        "{e}"
    );
    let e = Server::start(test_config(&url)).await.err().unwrap();
    assert!(e.to_string().contains("stop that server"), "{e}");
    // The server goes on serving what it acknowledged.
    let (status, p) = c.get(&format!("/api/users/{name}")).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{p}");
    server.kill().unwrap();
    server.wait().unwrap();
    // Once it is gone, the restore goes ahead.
    assert_eq!(backup::restore(&out, &url, true).await.unwrap(), 0);
}
