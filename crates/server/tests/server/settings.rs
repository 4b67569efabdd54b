//! A player's settings kept with the account: read back as written, every
//! field checked (a bad value named, nothing stored), guests refused.

use crate::common::Client;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn settings_are_kept_per_account_and_checked() {
    let server = crate::common::start().await;
    let a = Client::registered(&server, "set").await;
    let (s, defaults) = a.get("/api/account/settings").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(defaults["boardTheme"], "wood");
    assert_eq!(defaults["confirmMoves"], "correspondence");
    let put = |c: &Client, body: serde_json::Value| {
        let req = c
            .http
            .put(format!("{}/api/account/settings", c.base))
            .header("x-csrf-token", &c.csrf)
            .json(&body)
            .send();
        async move {
            let r = req.await.unwrap();
            (r.status(), r.json::<serde_json::Value>().await.unwrap())
        }
    };
    let (s, saved) = put(
        &a,
        json!({ "boardTheme": "green", "pieceSet": "carved", "volume": 0, "premoves": false }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{saved}");
    assert_eq!(
        saved["animationMs"], 200,
        "missing fields take their defaults"
    );
    let (_, back) = a.get("/api/account/settings").await;
    assert_eq!(back, saved);
    // Bad values: named in the error, nothing changes.
    for (body, needle) in [
        (json!({ "boardTheme": "pink" }), "boardTheme cannot be pink"),
        (json!({ "volume": 101 }), "volume cannot be 101"),
        (json!({ "animationMs": 5000 }), "animationMs cannot be 5000"),
        (json!({ "language": "fr" }), "language cannot be fr"),
    ] {
        let (s, e) = put(&a, body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
        assert!(e["message"].as_str().unwrap().contains(needle), "{e}");
    }
    let (s, e) = put(&a, json!({ "colour": "red" })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (_, still) = a.get("/api/account/settings").await;
    assert_eq!(still, saved);
    // Another account has its own; a guest keeps none here.
    let b = Client::registered(&server, "set").await;
    assert_eq!(b.get("/api/account/settings").await.1["boardTheme"], "wood");
    let guest = Client::guest(&server).await;
    let (s, e) = put(&guest, json!({ "volume": 10 })).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("account_required"))
    );
}
