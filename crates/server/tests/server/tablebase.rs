//! `GET /api/tablebase` with small tables generated on the fly: the tablebase API's
//! shape, the count, and the errors (no tables, a position outside them, bad input).

use crate::common::*;
use reqwest::StatusCode;
use serde_json::Value;

async fn tablebase(c: &Client, query: &[(&str, &str)]) -> (StatusCode, Value) {
    let resp = c
        .http
        .get(format!("{}/api/tablebase", c.base))
        .query(query)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

fn tables_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("thaiboard-server-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    thaiboard_tablebase::makhos::generate(&dir, makhos::Rules::Default, 3, false, |_| {}).unwrap();
    dir
}

#[tokio::test]
async fn the_tables_answer_like_lichess_and_follow_the_count() {
    let dir = tables_dir("answers");
    let (url, _) = test_database();
    let config = thaiboard_server::Config {
        tablebase_dir: Some(dir.clone()),
        ..test_config(&url)
    };
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let c = Client::guest(&server).await;
    let fen = "W:WKb8,Kd8:BKh2";
    let (status, v) = tablebase(&c, &[("variant", "makhos"), ("fen", fen)]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["category"], "win");
    assert_eq!(v["dtz"], 7);
    assert_eq!(v["dtw"], 7, "capturing the last king ends the game");
    assert_eq!(v["moves"][0]["uci"], "d8b6");
    assert_eq!(v["moves"][0]["category"], "loss");
    let (_, late) = tablebase(&c, &[("variant", "makhos"), ("fen", fen), ("count", "26")]).await;
    assert_eq!(late["category"], "draw");
    assert_eq!(late["dtw"], Value::Null);
    // With one ply left on the count only the man's move wins, and the end is further.
    let men = "W:Wb6,Kc7:Bb8";
    let (_, fresh) = tablebase(&c, &[("variant", "makhos"), ("fen", men)]).await;
    assert_eq!(
        (fresh["dtz"].clone(), fresh["dtw"].clone()),
        (1.into(), 3.into())
    );
    assert_eq!(fresh["moves"][0]["uci"], "c7d6");
    let (_, tight) = tablebase(&c, &[("variant", "makhos"), ("fen", men), ("count", "31")]).await;
    assert_eq!(tight["dtw"], 11, "{tight}");
    assert_eq!(tight["moves"][0]["uci"], "b6a7");
    assert_eq!(tight["moves"][1]["category"], "draw");

    let (status, v) = tablebase(&c, &[("variant", "makhos"), ("fen", "W:WKa1,Kc1,Ke1:BKh8")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert!(v.to_string().contains("outside the tables"), "{v}");
    assert_eq!(v["error"], "not_in_tablebases", "{v}");
    let (status, _) = tablebase(&c, &[("variant", "makhos"), ("fen", "nonsense")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = tablebase(&c, &[("variant", "makhos"), ("fen", fen), ("count", "x")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, v) = tablebase(
        &c,
        &[
            ("variant", "makruk"),
            ("fen", "7k/8/6K1/8/8/8/8/R7 w - - 0 1"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no Makruk tables here: {v}");
    assert_eq!(v["error"], "no_tablebases", "{v}");
    assert!(v.to_string().contains("no Makruk endgame tables"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_server_without_tables_says_so() {
    let server = start().await;
    let c = Client::guest(&server).await;
    let (status, v) = tablebase(&c, &[("variant", "makhos"), ("fen", "W:WKb8,Kd8:BKh2")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert!(v.to_string().contains("no endgame tables"), "{v}");
    assert_eq!(v["error"], "no_tablebases", "{v}");
}

#[tokio::test]
async fn a_damaged_table_stops_the_server_from_starting() {
    let dir = tables_dir("damaged");
    let file = dir.join("makhos-default-KKvK.thtb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
    let (url, _) = test_database();
    let config = thaiboard_server::Config {
        tablebase_dir: Some(dir.clone()),
        ..test_config(&url)
    };
    let err = thaiboard_server::Server::start(config).await.err().unwrap();
    assert!(err.to_string().contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With `--tablebases`, the analysis board's engine probes the tables inside
/// its search: three men against a king, where only h2-g3 wins (a 4-ply
/// search without the tables plays another move), is shown as h2-g3 with a
/// won score from its first lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_analysis_probes_the_tables_inside_its_search() {
    let dir = std::env::temp_dir().join(format!("thaiboard-server-tb-{}-live", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    thaiboard_tablebase::makhos::generate(&dir, makhos::Rules::Default, 4, false, |_| {}).unwrap();
    let (url, _) = test_database();
    let config = thaiboard_server::Config {
        tablebase_dir: Some(dir.clone()),
        ..test_config(&url)
    };
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let live = format!(
        "http://{}/api/analysis/live?variant=makhos&fen=W:Wb2,h2,a5:BKa7",
        server.addr
    );
    let mut resp = reqwest::get(&live).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // The lines from depth 2 on (the first a table answers below the root).
    let mut buf = String::new();
    let line = loop {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(30), resp.chunk())
            .await
            .expect("a line within 30 s")
            .unwrap()
            .expect("the stream ended before depth 2");
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        let found = buf
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["depth"].as_u64().is_some_and(|d| d >= 2));
        if let Some(v) = found {
            break v;
        }
    };
    assert_eq!(line["pv"][0], "h2g3", "{line}");
    let won = line["eval"]["mate"].as_i64().is_some_and(|m| m > 0)
        || line["eval"]["cp"].as_i64().is_some_and(|cp| cp >= 10_000);
    assert!(won, "a won score from the tables: {line}");
    drop(resp);
    let _ = std::fs::remove_dir_all(&dir);
}
