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
