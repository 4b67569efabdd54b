//! The analysis board's rules service through the real HTTP API.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::Value;

async fn position(c: &Client, query: &[(&str, &str)]) -> (StatusCode, Value) {
    let resp = c
        .http
        .get(format!("{}/api/position", c.base))
        .query(query)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap())
}

#[tokio::test]
async fn moves_from_the_start_and_from_any_position() {
    let server = start().await;
    let c = Client::guest(&server).await;
    let (status, v) = position(&c, &[("variant", "makruk")]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["legal"].as_array().unwrap().len(), 23);
    assert_eq!(v["turn"], "white");
    let (status, v) = position(&c, &[("variant", "makruk"), ("moves", "e3e4,d6d5,e4d5")]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["played"], serde_json::json!(["e4", "d5", "exd5"]));
    assert_eq!(
        v["played_thai"],
        serde_json::json!([
            { "short": "จ๔", "long": "บ จ๓-จ๔" },
            { "short": "ง๕", "long": "บ ง๖-ง๕" },
            { "short": "จxง๕", "long": "บ จ๔xง๕" }
        ])
    );
    // Moves in Thai notation, the long form's spaces inside commas.
    let (status, t) = position(&c, &[("variant", "makruk"), ("moves", "บ จ๓-จ๔, ง๕,จxง๕")]).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["fen"], v["fen"]);
    let e5 = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "e6e5");
    assert_eq!(
        e5.unwrap()["thai"],
        serde_json::json!({ "short": "จ๕", "long": "บ จ๖-จ๕" })
    );
    assert_eq!(v["turn"], "black");
    // A mate from a FEN: the result and no legal moves.
    let (status, v) = position(
        &c,
        &[
            ("variant", "makruk"),
            ("fen", "4k3/R7/8/8/8/8/8/3K3R w - - 0 1"),
            ("moves", "Rh8"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str()),
        (Some("1-0"), Some("checkmate"))
    );
    assert!(v["legal"].as_array().unwrap().is_empty());
    // Mak-hot with its rule option.
    let (status, v) = position(
        &c,
        &[
            ("variant", "makhos"),
            ("rules", "no-reverse"),
            ("fen", "W:Wc3:Bd4,f6"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["legal"][0]["san"], "c3xe5xg7");
}

#[tokio::test]
async fn bad_positions_and_moves_say_what_and_where() {
    let server = start().await;
    let c = Client::guest(&server).await;
    for (query, status, code) in [
        (
            vec![("variant", "chess")],
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            vec![("variant", "makhos"), ("rules", "x")],
            StatusCode::BAD_REQUEST,
            "bad_rules",
        ),
        (
            vec![("variant", "makruk"), ("fen", "8/8 w")],
            StatusCode::BAD_REQUEST,
            "bad_fen",
        ),
        (
            vec![("variant", "makruk"), ("moves", "e3e4,e3e4")],
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
    ] {
        let (s, v) = position(&c, &query).await;
        assert_eq!(s, status, "{query:?}: {v}");
        assert_eq!(v["error"], code, "{query:?}: {v}");
    }
    let (_, v) = position(&c, &[("variant", "makruk"), ("moves", "e3e4,e3e4")]).await;
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("move 2 (\"e3e4\")"),
        "{v}"
    );
    let many = vec!["e3e4"; 601].join(",");
    let (s, v) = position(&c, &[("moves", many.as_str())]).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}
