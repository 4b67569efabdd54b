//! Games from a set-up position (the board editor's "Continue from here")
//! through a real server: the rules crates check the position (a bad one is
//! a 400 with the reason), games against the computer and challenges start
//! at it, are casual, export it as `[SetUp]`/`[FEN]`, and are played to
//! the end from it.

use crate::common::{Client, legal_ucis, start, start_on, test_database, wait_for_ply, with_query};
use reqwest::StatusCode;
use serde_json::json;

/// Makruk's start with Black to move.
const BLACK_FIRST: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1";
/// White mates at once (Rh8#).
const MATE_IN_ONE: &str = "4k3/R7/8/8/8/8/8/3K3R w - - 0 1";

/// Whether `uci` is a legal move of `variant`/`rules` at `fen` (asked of
/// the analysis board's rules service).
async fn legal_at(c: &Client, variant: &str, rules: &str, fen: &str, uci: &str) -> bool {
    let q = with_query(
        "/api/position",
        &[("variant", variant), ("rules", rules), ("fen", fen)],
    );
    let (s, v) = c.get(&q).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["uci"] == uci)
}

#[tokio::test]
async fn bad_positions_are_refused_with_the_rules_crates_reason() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    let player = Client::registered(&server, "setup").await;
    let engine = |variant: &str, fen: &str| json!({ "variant": variant, "level": 1, "fen": fen });
    for (variant, fen, code, reason) in [
        (
            "makruk",
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "bad_fen",
            "no khun",
        ),
        (
            "makruk",
            "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
            "bad_fen",
            "side not to move is in check",
        ),
        (
            "makruk",
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "bad_fen",
            "bia on a8",
        ),
        (
            "makruk",
            "4k3/8/8/8/8/8/RRRRR3/4K3 w - - 0 1",
            "bad_fen",
            "at most 2",
        ),
        ("makruk", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "bad_fen", "'x'"),
        (
            "cambodian",
            "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
            "bad_fen",
            "'Q'",
        ),
        ("makhos", "W:Wb2:Bb2", "bad_fen", "makhos position"),
        (
            "makruk",
            "k7/1R6/1K6/8/8/8/8/8 b - - 0 1",
            "position_over",
            "already over",
        ),
    ] {
        let (s, e) = guest.post("/api/engine-games", engine(variant, fen)).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{fen}: {e}"
        );
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(reason), "{fen}: {message}");
        let (s, e) = player
            .post("/api/challenges", json!({ "variant": variant, "fen": fen }))
            .await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{fen}: {e}"
        );
    }
    // A set-up game is casual: asking for a rated one is refused.
    player
        .refused(
            "/api/challenges",
            json!({ "variant": "makruk", "fen": BLACK_FIRST, "rated": true,
                    "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
            StatusCode::BAD_REQUEST,
            "invalid_rated",
        )
        .await;
    // Nothing was made.
    let (_, mine) = player.get("/api/my-games").await;
    assert_eq!(mine.as_array().map(Vec::len), Some(0), "{mine}");
}

#[tokio::test]
async fn the_computer_plays_from_a_set_up_position_to_the_end() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    // Black to move at the start, the guest White: the engine moves first, from the FEN.
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1, "fen": BLACK_FIRST }),
        )
        .await;
    assert_eq!(g["start_fen"], BLACK_FIRST);
    assert_eq!(g["rated"], false);
    let id = g["id"].as_str().unwrap();
    let g = wait_for_ply(&guest, id, 1).await;
    assert_eq!(g["ply"], 1, "{g}");
    assert_eq!(g["turn"], "white");
    let reply = g["actions"][0]["uci"].as_str().unwrap().to_string();
    assert!(
        legal_at(&guest, "makruk", "default", BLACK_FIRST, &reply).await,
        "{reply}"
    );
    // The FEN of ply 0 is the set-up position, after a reload too.
    let (_, fen0) = guest.get(&format!("/api/games/{id}/fen?ply=0")).await;
    assert_eq!(fen0, BLACK_FIRST);

    // A mate in one from a set-up position: the game ends there, and its
    // record carries the position.
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 3, "fen": MATE_IN_ONE }),
        )
        .await;
    assert_eq!(g["fen"], MATE_IN_ONE);
    let id = g["id"].as_str().unwrap();
    let g = guest
        .post_ok(
            &format!("/api/games/{id}/move"),
            json!({ "move": "h1h8", "ply": 0 }),
        )
        .await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("1-0"), Some("checkmate")),
        "{g}"
    );
    let (_, pgn) = guest.get(&format!("/api/games/{id}/pgn")).await;
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{MATE_IN_ONE}\"]")), "{pgn}");
    assert!(pgn.contains("1-0"), "{pgn}");
}

#[tokio::test]
async fn challenges_start_at_the_set_up_position_with_its_rule_option() {
    let server = start().await;
    let a = Client::registered(&server, "seta").await;
    let b = Client::registered(&server, "setb").await;
    // An open Mak-hot challenge under no-reverse, with a clock, Black to move.
    let fen = "B:Wb2,d2,h2:Ba7,c5";
    let id = a
        .challenge(
            json!({ "variant": "makhos", "rules": "no-reverse", "color": "white", "fen": fen,
                           "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
        )
        .await;
    let (_, g) = b.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(g["status"], "ongoing", "{g}");
    assert_eq!(g["rules"], "no-reverse");
    assert_eq!(
        g["rated"], false,
        "a set-up game is casual even with a clock"
    );
    assert_eq!(g["turn"], "black");
    let start_fen = g["start_fen"].as_str().unwrap().to_string();
    assert!(start_fen.starts_with("B:"), "{start_fen}");
    let mv = legal_ucis(&g)[0].clone();
    assert!(legal_at(&b, "makhos", "no-reverse", &start_fen, &mv).await);
    let g = b
        .post_ok(
            &format!("/api/games/{id}/move"),
            json!({ "move": mv, "ply": 0 }),
        )
        .await;
    assert_eq!(g["ply"], 1);
    assert_eq!(g["start_fen"], start_fen);
    // A named challenge of Ouk Chatrang keeps the leap rights.
    let ouk = "r3k2r/8/pppppppp/8/8/PPPPPPPP/8/R2K3R w De - 0 1".to_string();
    let (s, g) = a
        .post(
            "/api/challenges",
            json!({ "variant": "cambodian", "opponent": b.name(), "fen": ouk }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap();
    let (_, g) = b.post(&format!("/api/games/{id}/accept"), json!({})).await;
    assert_eq!(g["start_fen"], ouk, "{g}");
    // The khun's leap (d1 to b2) is a legal first move there.
    assert!(legal_ucis(&g).contains(&"d1b2".to_string()), "{g}");
}

#[tokio::test]
async fn a_set_up_game_reads_back_after_a_restart_with_its_promoted_bia() {
    let (url, _) = test_database();
    let server = start_on(&url, false).await;
    let guest = Client::guest(&server).await;
    // Two white mets: legal only because one is a promoted bia (`M~`).
    let fen = "4k3/8/8/8/8/3M~4/3M4/4K3 w - - 0 1";
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1, "fen": fen }),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["start_fen"], "4k3/8/8/8/8/3M4/3M4/4K3 w - - 0 1");
    server.abort();
    drop(server);
    // A new server reads the game from the database, from its set-up start.
    let server = start_on(&url, false).await;
    let c = Client::guest(&server).await;
    let (s, g) = c.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["start_fen"], "4k3/8/8/8/8/3M4/3M4/4K3 w - - 0 1");
    assert_eq!(g["status"], "ongoing");
    assert!(legal_ucis(&g).contains(&"e1f2".to_string()), "{g}");
}
