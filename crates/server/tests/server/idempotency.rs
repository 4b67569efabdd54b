//! The `Idempotency-Key` header (issue 37, item 4): a repeated creating
//! POST with the same key gets the first answer and creates nothing; the
//! same key with another body is refused 422; concurrent repeats wait for
//! the first; keys are per session and forgotten after five minutes. And a
//! second abort is answered as done.

use crate::common::{Client, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// POSTs `body` to `path` with `key` (if any); status, body and whether
/// the answer was a replay.
async fn post_keyed(
    c: &Client,
    path: &str,
    key: Option<&str>,
    body: &Value,
) -> (StatusCode, Value, bool) {
    let keyed: Vec<_> = key.map(|k| ("idempotency-key", k)).into_iter().collect();
    let (status, body, headers) = c.post_with(path, body, &keyed).await;
    (status, body, headers.get("idempotent-replayed").is_some())
}

async fn open_challenges(server: &thaiboard_server::Server, user: &Value) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE creator_id = $1 AND status = 'open'")
        .bind(user["id"].as_str().unwrap())
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_repeated_challenge_with_a_key_creates_one() {
    // Its clock is moved on: a database of its own.
    let server = crate::common::start_on_own_database().await;
    let c = Client::registered(&server, "idem").await;
    let body = json!({ "variant": "makruk" });
    // Without a key, two requests are two challenges: the server cannot tell.
    let (s1, a, _) = post_keyed(&c, "/api/challenges", None, &body).await;
    let (s2, b, _) = post_keyed(&c, "/api/challenges", None, &body).await;
    assert_eq!((s1, s2), (StatusCode::CREATED, StatusCode::CREATED));
    assert_ne!(a["id"], b["id"]);
    assert_eq!(open_challenges(&server, &c.user).await, 2);
    // With a key: the repeat gets the first answer, marked as replayed.
    let (s1, a, replayed1) = post_keyed(&c, "/api/challenges", Some("k-1"), &body).await;
    let (s2, b, replayed2) = post_keyed(&c, "/api/challenges", Some("k-1"), &body).await;
    assert_eq!(
        (s1, s2),
        (StatusCode::CREATED, StatusCode::CREATED),
        "{a} {b}"
    );
    assert_eq!(a, b);
    assert_eq!((replayed1, replayed2), (false, true));
    assert_eq!(open_challenges(&server, &c.user).await, 3);
    // The quoted form of the draft's structured field is the same key.
    let (_, q, replayed) = post_keyed(&c, "/api/challenges", Some("\"k-1\""), &body).await;
    assert_eq!((q["id"].clone(), replayed), (a["id"].clone(), true));
    // The same key with another body: 422, nothing made.
    let (s, e, _) = post_keyed(
        &c,
        "/api/challenges",
        Some("k-1"),
        &json!({ "variant": "makhos" }),
    )
    .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("idempotency_key_reused")
        ),
        "{e}"
    );
    // ...or to another path.
    let (s, e, _) = post_keyed(&c, "/api/engine-games", Some("k-1"), &body).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(open_challenges(&server, &c.user).await, 3);
    // A bad key is refused.
    let long = "x".repeat(300);
    let (s, e, _) = post_keyed(&c, "/api/challenges", Some(&long), &body).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_idempotency_key"))
    );
    // Another session's same key is its own.
    let other = Client::registered(&server, "idem").await;
    let (s, o, replayed) = post_keyed(&other, "/api/challenges", Some("k-1"), &body).await;
    assert_eq!((s, replayed), (StatusCode::CREATED, false));
    assert_ne!(o["id"], a["id"]);
    // Five minutes on, the key is forgotten: a new challenge.
    server.app.games.time.advance(5 * 60 * 1000 + 1);
    let (s, later, replayed) = post_keyed(&c, "/api/challenges", Some("k-1"), &body).await;
    assert_eq!((s, replayed), (StatusCode::CREATED, false));
    assert_ne!(later["id"], a["id"]);
    assert_eq!(open_challenges(&server, &c.user).await, 4);
}

#[tokio::test]
async fn concurrent_repeats_wait_for_the_first_and_create_one() {
    let server = crate::common::start().await;
    let c = Client::guest(&server).await;
    let body = json!({ "variant": "makruk", "color": "white", "level": 1,
                       "time_control": { "kind": "live", "minutes": 5, "increment": 0 } });
    for round in 0..10 {
        let key = format!("play-{round}");
        let answers = futures_util::future::join_all(
            (0..4).map(|_| post_keyed(&c, "/api/engine-games", Some(&key), &body)),
        )
        .await;
        let first = &answers[0].1;
        for (s, v, _) in &answers {
            assert!(s.is_success(), "{s} {v}");
            assert_eq!(v["id"], first["id"], "round {round}");
        }
        assert_eq!(
            answers.iter().filter(|a| !a.2).count(),
            1,
            "one ran, the others were replays"
        );
    }
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE white_id = $1")
        .bind(c.user["id"].as_str().unwrap())
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap();
    assert_eq!(games, 10);
}

#[tokio::test]
async fn a_second_abort_is_answered_as_done() {
    let server = crate::common::start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let path = format!("/api/games/{id}/abort");
    let first = white.post_ok(&path, json!({})).await;
    assert_eq!(first["status"], "aborted");
    let again = white.post_ok(&path, json!({})).await;
    assert_eq!(again["status"], "aborted");
    // The opponent's abort of the aborted game is done too; a stranger's is refused.
    assert_eq!(black.post_ok(&path, json!({})).await["status"], "aborted");
    let stranger = Client::guest(&server).await;
    let (s, e) = stranger.post(&path, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    // Other commands on the aborted game are still refused.
    white
        .refused(
            &format!("/api/games/{id}/resign"),
            json!({}),
            StatusCode::CONFLICT,
            "game_over",
        )
        .await;
}
