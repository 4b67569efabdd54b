//! Berserk in arenas: half one's own clock and no increment before one's
//! first move, refused after it, twice or outside arenas; a berserk win of
//! seven moves or more scores one arena point more.

use crate::common::tournament::{boards, create, name_of, standing_of, wait_for};
use crate::common::{Client, start, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashMap;

#[tokio::test]
async fn berserk_is_refused_outside_arenas() {
    let server = start().await;
    let (white, _black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 3, "increment": 2 } }),
    )
    .await;
    white
        .refused(
            &format!("/api/games/{id}/berserk"),
            json!({}),
            StatusCode::CONFLICT,
            "not_arena",
        )
        .await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g["clock"]["white_ms"], 180_000,
        "the clock is untouched: {g}"
    );
}

#[tokio::test]
async fn berserk_halves_the_clock_and_a_berserk_win_scores_one_more() {
    let server = start().await;
    let a = Client::registered(&server, "bz").await;
    let b = Client::registered(&server, "bz").await;
    let id = create(
        &a,
        json!({ "name": "Berserk arena", "variant": "makruk", "kind": "arena", "duration_minutes": 10,
                "time_control": { "kind": "live", "minutes": 3, "increment": 2 } }),
    )
    .await;
    for p in [&a, &b] {
        p.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    a.post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = wait_for(&a, &id, "the first pairing", |t| !boards(t).is_empty()).await;
    let board = boards(&t)[0].clone();
    let players: HashMap<String, &Client> = [&a, &b].iter().map(|p| (p.name(), *p)).collect();
    let white = players[&name_of(&board["white"])];
    let black = players[&name_of(&board["black"])];
    let game = board["game_id"].as_str().unwrap().to_string();
    let path = |what: &str| format!("/api/games/{game}/{what}");

    // White goes berserk before the first move: half of 3 minutes.
    let g = white.post_ok(&path("berserk"), json!({})).await;
    assert_eq!(g["clock"]["white_ms"], 90_000, "{g}");
    assert_eq!(g["clock"]["black_ms"], 180_000, "{g}");
    // The opponent sees it.
    let (_, seen) = black.get(&format!("/api/games/{game}")).await;
    let berserks: Vec<&Value> = seen["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "berserk")
        .collect();
    assert_eq!(berserks.len(), 1, "{seen}");
    assert_eq!(berserks[0]["uci"], "white");
    assert_eq!(seen["clock"]["white_ms"], 90_000);
    // Not twice.
    white
        .refused(
            &path("berserk"),
            json!({}),
            StatusCode::CONFLICT,
            "already_berserk",
        )
        .await;
    // Seven moves each, pawns forward; Black does not go berserk.
    let moves = [
        "a3a4", "a6a5", "b3b4", "b6b5", "c3c4", "c6c5", "d3d4", "d6d5", "e3e4", "e6e5", "f3f4",
        "f6f5", "g3g4", "g6g5",
    ];
    for (i, mv) in moves.iter().enumerate() {
        let player = if i % 2 == 0 { white } else { black };
        let g = player.post_ok(&path("move"), json!({ "move": mv })).await;
        if i == 2 {
            // Black has moved: too late for Black.
            black
                .refused(
                    &path("berserk"),
                    json!({}),
                    StatusCode::CONFLICT,
                    "too_late_to_berserk",
                )
                .await;
        }
        if i >= 3 {
            // White's moves earn no increment; Black's earn 2 s.
            let (w, bl) = (
                g["clock"]["white_ms"].as_i64().unwrap(),
                g["clock"]["black_ms"].as_i64().unwrap(),
            );
            assert!(w <= 90_000, "berserk: no increment for White: {w}");
            if i % 2 == 1 {
                assert!(bl > 180_000, "Black's increment: {bl}");
            }
        }
    }
    black.post_ok(&path("resign"), json!({})).await;
    let t = wait_for(&a, &id, "the berserk point", |t| {
        standing_of(t, &white.name())["score"] == 3
    })
    .await;
    let row = standing_of(&t, &white.name());
    assert_eq!(row["sheet"], json!([3]), "{row}");
    assert_eq!(
        (row["berserks"].as_i64(), row["berserk_points"].as_i64()),
        (Some(1), Some(1))
    );
    let loser = standing_of(&t, &black.name());
    assert_eq!(
        (loser["score"].as_i64(), loser["berserks"].as_i64()),
        (Some(0), Some(0))
    );
}
