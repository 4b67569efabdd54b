//! Whole games of the real variants through the server: Makruk to
//! checkmate, Mak-hot to a win, a Makruk board's-honour count declared and
//! run out to a draw, and Ouk Chatrang's start.

use crate::common::{play_over_sockets, start, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A Makruk game that ends with Black's checkmate (found by a seeded random search).
const MAKRUK_MATE: &str = "a3a4 g8e7 b3b4 g6g5 b1d2 e7d5 g1e2 d5e3";

/// A Mak-hot game (default rules) that White wins, with multi-captures.
const MAKHOS_WIN: &str = "f2-e3 c7-b6 g1-f2 b8-c7 d2-c3 e7-f6 e1-d2 b6-a5 e3-f4 f6-e5 f4xd6xb8 d8-c7 b8xd6 \
    f8-e7 d6xf8xh6 a7-b6 d2-e3 h8-g7 h6xf8 b6-c5 f8xb4";

/// A Makruk game where Black declares a board's-honour count (`count:black`)
/// once no bia is left, and the count runs out: a draw by the server.
const MAKRUK_COUNT: &str = include_str!("../data/makruk_board_count.txt");

fn san_of(game: &Value, uci: &str) -> String {
    game["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
        .unwrap_or_else(|| panic!("{uci} not among the legal moves {}", game["legal"]))["san"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn makruk_game_to_checkmate_over_websockets() {
    let server = start().await;
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 3 } }),
    )
    .await;
    let (mut ws_w, snap) = white.socket(&id).await;
    let (mut ws_b, _) = black.socket(&id).await;
    assert_eq!(
        snap["game"]["fen"],
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    );
    assert_eq!(snap["game"]["legal"].as_array().unwrap().len(), 23);
    let moves: Vec<&str> = MAKRUK_MATE.split_whitespace().collect();
    let game = play_over_sockets(
        &mut ws_w,
        &mut ws_b,
        snap["game"].clone(),
        0..moves.len(),
        |ply, game| {
            // White types UCI, Black types SAN.
            let uci = moves[ply];
            let text = if ply % 2 == 0 {
                uci.to_string()
            } else {
                san_of(game, uci)
            };
            (text, uci.to_string())
        },
    )
    .await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], "0-1");
    assert_eq!(game["reason"], "checkmate");
    let pgn = reqwest::get(format!("{}/api/games/{id}/pgn", white.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        pgn.contains("[Variant \"makruk\"]") && pgn.contains("0-1"),
        "{pgn}"
    );
    assert!(pgn.contains("1. a4 "), "{pgn}");
}

#[tokio::test]
async fn makhos_game_to_a_win() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makhos", json!({ "rules": "default" })).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g["fen"],
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8"
    );
    let mut last = Value::Null;
    for (ply, mv) in MAKHOS_WIN.split_whitespace().enumerate() {
        let who = if ply % 2 == 0 { &white } else { &black };
        // Alternate algebraic and engine forms.
        let text = if ply % 4 < 2 {
            mv.to_string()
        } else {
            mv.replace(['-', 'x'], "")
        };
        let (s, g) = who
            .post(
                &format!("/api/games/{id}/move"),
                json!({ "move": text, "ply": ply }),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{text}: {g}");
        last = g;
    }
    assert_eq!(last["status"], "finished");
    assert_eq!(last["result"], "1-0");
    assert_eq!(last["reason"], "no_moves");
    let actions = last["actions"].as_array().unwrap();
    assert_eq!(actions[10]["san"], "f4xd6xb8");
    assert_eq!(actions[10]["uci"], "f4d6b8");
    // Legal captures list every square of their path, start first.
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g["legal"],
        json!([]),
        "no legal moves once the game is over"
    );
    let pdn = reqwest::get(format!("{}/api/games/{id}/pgn", white.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pdn.contains("[GameType \"makhos\"]"), "{pdn}");

    // The rule option is kept and checked.
    let id2 = white
        .challenge(json!({ "variant": "makhos", "rules": "no-reverse" }))
        .await;
    let (_, g) = white.get(&format!("/api/games/{id2}")).await;
    assert_eq!(g["rules"], "no-reverse");
    let (s, e) = white
        .post(
            "/api/challenges",
            json!({ "variant": "makhos", "rules": "sideways" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_rules"))
    );
}

#[tokio::test]
async fn makruk_board_count_runs_out_to_a_draw() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let tokens: Vec<&str> = MAKRUK_COUNT.split_whitespace().collect();
    let mut ply = 0;
    let mut last = Value::Null;
    for (i, t) in tokens.iter().enumerate() {
        if let Some(side) = t.strip_prefix("count:") {
            let (counter, other) = if side == "white" {
                (&white, &black)
            } else {
                (&black, &white)
            };
            // Before: the count may be started; the other side cannot stop what it did not start.
            let (_, g) = counter.get(&format!("/api/games/{id}")).await;
            assert!(
                g["can_start_count"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(side)),
                "{g}"
            );
            let (s, g) = counter
                .post(
                    &format!("/api/games/{id}/count"),
                    json!({ "action": "start" }),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{g}");
            assert_eq!(g["count"]["kind"], "board");
            assert_eq!(g["count"]["side"], side);
            assert_eq!(g["count"]["limit"], 128);
            let (s, e) = other
                .post(
                    &format!("/api/games/{id}/count"),
                    json!({ "action": "stop" }),
                )
                .await;
            assert_eq!(
                (s, e["error"].as_str()),
                (StatusCode::CONFLICT, Some("count_not_allowed"))
            );
            // Stop and start again: both are recorded.
            let (s, g) = counter
                .post(
                    &format!("/api/games/{id}/count"),
                    json!({ "action": "stop" }),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{g}");
            assert_eq!(g["count"], Value::Null);
            let (s, _) = counter
                .post(
                    &format!("/api/games/{id}/count"),
                    json!({ "action": "start" }),
                )
                .await;
            assert_eq!(s, StatusCode::OK);
            continue;
        }
        let who = if ply % 2 == 0 { &white } else { &black };
        let (s, g) = who
            .post(&format!("/api/games/{id}/move"), json!({ "move": t }))
            .await;
        assert_eq!(s, StatusCode::OK, "token {i} {t}: {g}");
        ply += 1;
        last = g;
    }
    assert_eq!(last["status"], "finished", "{}", last["count"]);
    assert_eq!(last["result"], "1/2-1/2");
    assert_eq!(last["reason"], "counting_draw");

    // After a restart the game (with its count actions) replays to the same place.
    server.app.games.invalidate(&id);
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["fen"], last["fen"]);
    assert_eq!(g["reason"], "counting_draw");
}

#[tokio::test]
async fn ouk_chatrang_starts_with_its_rights() {
    let server = start().await;
    let (white, _black, id) = started_game(&server, "cambodian", json!({})).await;
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["variant"], "cambodian");
    assert!(
        g["fen"].as_str().unwrap().contains(" w DEde "),
        "{}",
        g["fen"]
    );
}

/// Pieces of the side given (`W` or `B`) in a Mak-hot FEN (`W:Wa1,Kc3:Bb8`).
fn makhos_pieces(fen: &str, side: char) -> usize {
    fen.split(':')
        .skip(1)
        .find(|part| part.starts_with(side))
        .map_or(0, |part| {
            part[1..].split(',').filter(|s| !s.is_empty()).count()
        })
}

/// A Mak-hot game in which White captures Black's last piece: White takes
/// the most it can, Black plays the move that gives White the most (a
/// fixed, deterministic line).
fn makhos_line_to_the_last_capture() -> Vec<String> {
    use games::{AnyGame, GameKind};
    let mut g = AnyGame::new(GameKind::MAKHOS);
    let mut line = Vec::new();
    fn black_after(g: &AnyGame, mv: &games::AnyMove) -> usize {
        let mut next = g.clone();
        next.play(mv).unwrap();
        makhos_pieces(&next.fen(), 'B')
    }
    while g.outcome().is_none() && line.len() < 300 {
        let moves = g.legal_moves();
        let mv = if line.len() % 2 == 0 {
            *moves.iter().min_by_key(|m| black_after(&g, m)).unwrap()
        } else {
            // The reply after which White's best capture leaves Black least.
            *moves
                .iter()
                .min_by_key(|m| {
                    let mut next = g.clone();
                    next.play(m).unwrap();
                    next.legal_moves()
                        .iter()
                        .map(|w| black_after(&next, w))
                        .min()
                        .unwrap_or(usize::MAX)
                })
                .unwrap()
        };
        line.push(mv.to_engine());
        g.play(&mv).unwrap();
    }
    line
}

#[tokio::test]
async fn makhos_win_by_capturing_every_piece_says_so() {
    let line = makhos_line_to_the_last_capture();
    let server = start().await;
    let (white, black, id) = started_game(&server, "makhos", json!({ "rules": "default" })).await;
    let mut last = Value::Null;
    for (ply, mv) in line.iter().enumerate() {
        let who = if ply % 2 == 0 { &white } else { &black };
        last = who
            .post_ok(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
    }
    assert_eq!(
        makhos_pieces(last["fen"].as_str().unwrap(), 'B'),
        0,
        "{last}"
    );
    assert_eq!(
        (&last["status"], &last["result"], &last["reason"]),
        (&json!("finished"), &json!("1-0"), &json!("all_captured")),
        "{line:?}"
    );
    // Read back from storage and in the record.
    let (_, g) = black.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["reason"], "all_captured");
    let (_, mine) = white.get("/api/my-games").await;
    assert!(mine.to_string().contains("all_captured"), "{mine}");
    let pdn = reqwest::get(format!("{}/api/games/{id}/pgn", white.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pdn.contains("[Termination \"all_captured\"]"), "{pdn}");
}
