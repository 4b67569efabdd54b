//! The analysis board's engine on the server: lines streamed as the search
//! deepens, in SAN and Thai as well as the engine's form; at most two at
//! once, a place freed when a client goes; bad positions refused.

use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;

/// Reads ndjson lines from `resp` until `n` lines with a depth arrived.
async fn depths(resp: &mut reqwest::Response, n: usize) -> Vec<Value> {
    let mut buf = String::new();
    let mut out = Vec::new();
    while out.len() < n {
        let chunk = tokio::time::timeout(Duration::from_secs(20), resp.chunk())
            .await
            .expect("a line within 20 s")
            .unwrap()
            .expect("the stream ended early");
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(i) = buf.find('\n') {
            let line: String = buf.drain(..=i).collect();
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line.trim()).unwrap();
            if v.get("depth").is_some() {
                out.push(v);
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_streams_deepening_lines_and_frees_its_place() {
    let server = crate::common::start().await;
    let base = format!("http://{}/api/analysis/live", server.addr);
    let url = format!("{base}?variant=makruk&moves=e3e4,d6d5");
    let mut first = reqwest::get(&url).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()["content-type"], "application/x-ndjson");
    let lines = depths(&mut first, 3).await;
    assert!(
        lines
            .windows(2)
            .all(|w| w[1]["depth"].as_u64() >= w[0]["depth"].as_u64())
    );
    let last = lines.last().unwrap();
    let pv = last["pv"].as_array().unwrap();
    let san = last["pv_san"].as_array().unwrap();
    assert!(!pv.is_empty() && san.len() == pv.len(), "{last}");
    assert_eq!(last["pv_thai"].as_array().unwrap().len(), pv.len());
    assert!(
        last["eval"]["cp"].is_i64() || last["eval"]["mate"].is_i64(),
        "{last}"
    );
    // A second search may run beside it; a third is refused.
    let mut second = reqwest::get(&url).await.unwrap();
    assert_eq!(second.status(), StatusCode::OK);
    depths(&mut second, 1).await;
    let third = reqwest::get(&url).await.unwrap();
    assert_eq!(third.status(), StatusCode::SERVICE_UNAVAILABLE);
    // A client that goes frees its place.
    drop(first);
    let mut freed = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let r = reqwest::get(&url).await.unwrap();
        if r.status() == StatusCode::OK {
            freed = true;
            break;
        }
    }
    assert!(freed, "the place of a client that went is given again");

    // Bad positions: refused with the reason.
    let bad = reqwest::get(format!("{base}?variant=makruk&fen=hello"))
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let mate = reqwest::get(format!(
        "{base}?variant=makruk&fen=8/8/8/8/8/8/8/8%20w%20-%20-%200%201"
    ))
    .await
    .unwrap();
    assert!(mate.status().is_client_error(), "{}", mate.status());
}

/// Threads of this process named as the engine's lazy-SMP helpers
/// (`search helper N`; Linux lists a process's threads under /proc).
fn search_helpers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task lists this process's threads")
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("search helper"))
        .count()
}

/// The helper count once `done` holds of it, or after 5 s the last one read.
async fn helpers_once(done: impl Fn(usize) -> bool) -> usize {
    let mut seen = search_helpers();
    for _ in 0..100 {
        if done(seen) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        seen = search_helpers();
    }
    seen
}

/// `serve --engine-threads N`: the analysis board's search runs N threads
/// (N - 1 helpers beside the main search); the default is one thread. No
/// other test asks for more than one, so helpers seen here are this search's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_searches_with_the_threads_the_operator_gives() {
    for threads in [1, 3] {
        let (url, _) = crate::common::test_database();
        let mut config = crate::common::test_config(&url);
        config.engine_threads = threads;
        let server = thaiboard_server::Server::start(config).await.unwrap();
        let url = format!(
            "http://{}/api/analysis/live?variant=makruk&moves=e3e4",
            server.addr
        );
        let mut resp = reqwest::get(&url).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        depths(&mut resp, 2).await;
        // A thread takes its name when it first runs: on a busy machine the
        // main search may report before every helper has been scheduled.
        // The search runs for seconds more, so wait for them (and a count
        // above N - 1 fails at once).
        let seen = helpers_once(|n| n >= threads - 1).await;
        assert_eq!(
            seen,
            threads - 1,
            "helper threads of a search with --engine-threads {threads}"
        );
        drop(resp);
        // The search stops when its client goes, and its helpers with it.
        let left = helpers_once(|n| n == 0).await;
        assert_eq!(left, 0, "helpers still running after the client went");
    }
}
