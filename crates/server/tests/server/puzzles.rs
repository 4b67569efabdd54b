//! Puzzles against a real server: the answers' shape (daily, by id, next,
//! streak), rounds that move the player's and the puzzle's Glicko-2
//! ratings in the right directions (checked against the `glicko2` package
//! from PyPI), a round counted once, guests not rated, the usual refusals.
//! The tests use whatever puzzles the server loaded (the shipped set).

use crate::common::{Client, start};
use games::{AnyGame, AnyPosition, GameKind};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The `glicko2` package's new (rating, rd) after one period with one game.
fn oracle(r: f64, rd: f64, vol: f64, opp: f64, opp_rd: f64, score: f64) -> (f64, f64) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/glicko2_check.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            writeln!(
                child.stdin.take().unwrap(),
                "{r} {rd} {vol} {opp} {opp_rd} {score}"
            )?;
            child.wait_with_output()
        })
        .expect("python3 with the glicko2 package (pip install glicko2)");
    assert!(out.status.success(), "the glicko2 oracle failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Vec<f64> = text
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    (v[0], v[1])
}

/// A legal first move of the puzzle that is not right (neither the
/// solution's nor a move that wins at once).
pub fn wrong_move(p: &Value) -> String {
    let kind = GameKind::from_names(
        p["game"]["variant"].as_str().unwrap(),
        p["game"]["rules"].as_str(),
    )
    .unwrap();
    let fen = p["puzzle"]["fen"].as_str().unwrap();
    let first = p["puzzle"]["solution"][0].as_str().unwrap();
    let position = AnyPosition::from_fen(kind, fen).unwrap();
    position
        .legal_moves()
        .into_iter()
        .map(|m| m.to_engine())
        .find(|m| {
            let mut g = AnyGame::from_position(position.clone());
            g.play_engine(m).unwrap();
            m != first && g.outcome().is_none()
        })
        .expect("a puzzle with a legal wrong first move")
}

/// The solution's moves of a puzzle answer.
pub fn solution(p: &Value) -> Vec<String> {
    p["puzzle"]["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Checks the documented shape of a puzzle answer.
fn check_shape(v: &Value, variant: &str) {
    assert_eq!(v["game"]["variant"], variant, "{v}");
    assert!(v["game"]["rules"].is_string(), "{v}");
    assert!(v["game"]["name"].is_string(), "{v}");
    let p = &v["puzzle"];
    assert!(p["id"].is_string(), "{v}");
    let kind = GameKind::from_names(variant, v["game"]["rules"].as_str()).unwrap();
    let position = AnyPosition::from_fen(kind, p["fen"].as_str().unwrap()).unwrap();
    assert_eq!(
        p["color"],
        if position.turn() == games::Color::White {
            "white"
        } else {
            "black"
        }
    );
    // The solution replays from the position, the solver's move last.
    let moves = solution(v);
    assert_eq!(moves.len() % 2, 1, "{v}");
    let mut g = AnyGame::from_position(position);
    for m in &moves {
        g.play_engine(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {v}"));
    }
    assert!(p["themes"].is_array(), "{v}");
    assert!(p["rating"].is_i64() && p["plays"].is_i64(), "{v}");
    assert!(p["initialPly"].is_u64(), "{v}");
}

#[tokio::test]
async fn daily_by_id_next_and_streak_answer_the_documented_shape() {
    let server = start().await;
    let c = Client::guest(&server).await;
    for variant in ["makruk", "cambodian", "makhos"] {
        let daily = c
            .get_ok(&format!("/api/puzzle/daily?variant={variant}"))
            .await;
        check_shape(&daily, variant);
        assert_eq!(daily["user"], Value::Null, "a guest has no puzzle rating");
        let again = c
            .get_ok(&format!("/api/puzzle/daily?variant={variant}"))
            .await;
        assert_eq!(
            daily["puzzle"]["id"], again["puzzle"]["id"],
            "one daily a day"
        );
        let id = daily["puzzle"]["id"].as_str().unwrap();
        let by_id = c.get_ok(&format!("/api/puzzle/{id}")).await;
        assert_eq!(by_id, daily);
        let next = c
            .get_ok(&format!("/api/puzzle/next?variant={variant}"))
            .await;
        check_shape(&next, variant);
        // A theme filter keeps to puzzles with that theme.
        if let Some(theme) = next["puzzle"]["themes"][0].as_str() {
            for _ in 0..5 {
                let t = c
                    .get_ok(&format!("/api/puzzle/next?variant={variant}&theme={theme}"))
                    .await;
                assert!(
                    t["puzzle"]["themes"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|x| x == theme),
                    "{theme}: {t}"
                );
            }
        }
        // A streak: ids of rising rating.
        let streak = c
            .get_ok(&format!("/api/puzzle/streak?variant={variant}"))
            .await;
        let ids = streak["puzzles"].as_array().unwrap();
        assert!(!ids.is_empty(), "{streak}");
        let mut last = 0;
        for id in ids {
            let p = c
                .get_ok(&format!("/api/puzzle/{}", id.as_str().unwrap()))
                .await;
            let r = p["puzzle"]["rating"].as_i64().unwrap();
            assert!(r >= last, "{streak}: {r} after {last}");
            last = r;
        }
    }
    // Refusals say what is wrong.
    for (path, status, code) in [
        ("/api/puzzle/zzzz9999", StatusCode::NOT_FOUND, "not_found"),
        ("/api/puzzle/no!such", StatusCode::NOT_FOUND, "not_found"),
        (
            "/api/puzzle/daily?variant=chess",
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            "/api/puzzle/next?variant=makruk&theme=mate-in-2",
            StatusCode::BAD_REQUEST,
            "bad_theme",
        ),
        (
            "/api/puzzle/next?variant=makruk&theme=noSuchTheme77",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
    ] {
        let (s, v) = c.get(path).await;
        assert_eq!(
            (s, v["error"].as_str()),
            (status, Some(code)),
            "{path}: {v}"
        );
        assert!(v["message"].as_str().unwrap().len() > 5, "{path}: {v}");
    }
}

#[tokio::test]
async fn a_wrong_move_lowers_the_player_and_raises_the_puzzle_as_glicko2_says() {
    let server = start().await;
    let c = Client::registered(&server, "pz").await;
    let p = c.get_ok("/api/puzzle/next?variant=makruk").await;
    assert_eq!(
        p["user"],
        json!({ "rating": 1500, "provisional": true }),
        "a new player's puzzle rating"
    );
    let id = p["puzzle"]["id"].as_str().unwrap().to_string();
    let puzzle_rating = p["puzzle"]["rating"].as_f64().unwrap();
    let plays = p["puzzle"]["plays"].as_i64().unwrap();
    let wrong = wrong_move(&p);
    let round = c
        .post_ok(
            &format!("/api/puzzle/{id}/round"),
            json!({ "moves": [wrong] }),
        )
        .await;
    assert_eq!(round["round"]["win"], false, "{round}");
    assert_eq!(round["round"]["rated"], true, "{round}");
    let user_diff = round["user"]["ratingDiff"].as_i64().unwrap();
    let puzzle_diff = round["puzzle"]["ratingDiff"].as_i64().unwrap();
    assert!(user_diff < 0 && puzzle_diff > 0, "{round}");
    // The independent Glicko-2: the player lost to the puzzle, the puzzle beat the player.
    // A new puzzle row has the deviation and volatility of a new player.
    let (player_new, _) = oracle(1500.0, 350.0, 0.06, puzzle_rating, 350.0, 0.0);
    let (puzzle_new, _) = oracle(puzzle_rating, 350.0, 0.06, 1500.0, 350.0, 1.0);
    let shown_user = round["user"]["rating"].as_f64().unwrap();
    let shown_puzzle = round["puzzle"]["rating"].as_f64().unwrap();
    assert!(
        (shown_user - player_new).abs() <= 1.0,
        "{round}: glicko2 says {player_new}"
    );
    assert!(
        (shown_puzzle - puzzle_new).abs() <= 1.0,
        "{round}: glicko2 says {puzzle_new}"
    );
    assert_eq!(round["puzzle"]["plays"], plays + 1);
    // The puzzle and the player's rating are stored.
    let after = c.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(after["puzzle"]["rating"], round["puzzle"]["rating"]);
    assert_eq!(after["puzzle"]["plays"], plays + 1);
    assert_eq!(after["user"]["rating"], round["user"]["rating"]);
    // The same round again (a double POST, or a retry that solves it) counts once.
    let again = c
        .post_ok(
            &format!("/api/puzzle/{id}/round"),
            json!({ "moves": solution(&p) }),
        )
        .await;
    assert_eq!(again["round"]["rated"], false, "{again}");
    assert_eq!(again["round"]["ratingDiff"], 0);
    assert_eq!(again["user"]["rating"], round["user"]["rating"]);
    assert_eq!(again["puzzle"]["rating"], round["puzzle"]["rating"]);
    assert_eq!(again["puzzle"]["plays"], plays + 1);
    // The played puzzle is not served again soon.
    for _ in 0..10 {
        let n = c.get_ok("/api/puzzle/next?variant=makruk").await;
        assert_ne!(n["puzzle"]["id"], id.as_str(), "served again");
    }
}

#[tokio::test]
async fn a_solved_round_raises_the_player_and_a_key_sent_twice_counts_once() {
    let server = start().await;
    let c = Client::registered(&server, "pz").await;
    let p = c.get_ok("/api/puzzle/next?variant=makhos").await;
    let id = p["puzzle"]["id"].as_str().unwrap().to_string();
    let path = format!("{}/api/puzzle/{id}/round", c.base);
    let send = || {
        c.http
            .post(&path)
            .header("x-csrf-token", &c.csrf)
            .header("idempotency-key", "round-once-1")
            .json(&json!({ "win": true, "moves": solution(&p) }))
            .send()
    };
    let first = send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["round"]["win"], true, "{first}");
    assert!(first["user"]["ratingDiff"].as_i64().unwrap() > 0, "{first}");
    assert!(
        first["puzzle"]["ratingDiff"].as_i64().unwrap() < 0,
        "{first}"
    );
    let second = send().await.unwrap();
    assert_eq!(
        second
            .headers()
            .get("idempotent-replayed")
            .map(|v| v.to_str().unwrap()),
        Some("true")
    );
    let second: Value = second.json().await.unwrap();
    assert_eq!(second, first);
    let after = c.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(
        after["puzzle"]["plays"],
        p["puzzle"]["plays"].as_i64().unwrap() + 1
    );
    assert_eq!(after["user"]["rating"], first["user"]["rating"]);
}

#[tokio::test]
async fn guests_play_unrated_and_bad_rounds_are_refused() {
    let server = start().await;
    let guest = Client::guest(&server).await;
    let p = guest.get_ok("/api/puzzle/next?variant=cambodian").await;
    let id = p["puzzle"]["id"].as_str().unwrap().to_string();
    let round_path = format!("/api/puzzle/{id}/round");
    let r = guest
        .post_ok(&round_path, json!({ "moves": solution(&p) }))
        .await;
    assert_eq!(
        r["round"],
        json!({ "win": true, "rated": false, "ratingDiff": 0 })
    );
    assert_eq!(r["user"], Value::Null);
    assert_eq!(r["puzzle"]["ratingDiff"], 0);
    let wrong = wrong_move(&p);
    let r = guest
        .post_ok(&round_path, json!({ "moves": [wrong] }))
        .await;
    assert_eq!(r["round"]["win"], false);
    let after = guest.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(
        after["puzzle"]["plays"], p["puzzle"]["plays"],
        "guests' rounds are not counted"
    );
    assert_eq!(after["puzzle"]["rating"], p["puzzle"]["rating"]);

    let c = Client::registered(&server, "pz").await;
    let sol = solution(&p);
    c.refused(
        &round_path,
        json!({}),
        StatusCode::BAD_REQUEST,
        "missing_result",
    )
    .await;
    c.refused(
        &round_path,
        json!({ "moves": ["a1a1"] }),
        StatusCode::BAD_REQUEST,
        "bad_moves",
    )
    .await;
    // More moves than the solution has.
    let mut long = sol.clone();
    long.push(sol[0].clone());
    c.refused(
        &round_path,
        json!({ "moves": long }),
        StatusCode::BAD_REQUEST,
        "bad_moves",
    )
    .await;
    c.refused(
        &round_path,
        json!({ "win": false, "moves": sol }),
        StatusCode::BAD_REQUEST,
        "win_mismatch",
    )
    .await;
    c.refused(
        &round_path,
        json!({ "win": "yes" }),
        StatusCode::BAD_REQUEST,
        "malformed_json",
    )
    .await;
    c.refused(
        "/api/puzzle/zzzz9999/round",
        json!({ "win": true }),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    // A state change needs the session's CSRF token, and a session.
    let (s, e) = c
        .post_raw(&round_path, None, json!({ "win": true }).to_string())
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf")),
        "{e}"
    );
    let resp = reqwest::Client::new()
        .post(format!("{}{round_path}", c.base))
        .json(&json!({ "win": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    // None of the refused rounds counted.
    let after = c.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(after["puzzle"]["plays"], p["puzzle"]["plays"]);
    assert_eq!(
        after["user"],
        json!({ "rating": 1500, "provisional": true })
    );
}

/// Every bad input of the puzzle routes answers a 4xx with a code and a
/// reason, and counts nothing; a double click on a round counts once.
#[tokio::test]
async fn bad_input_answers_a_clear_4xx_and_a_double_click_counts_once() {
    let server = start().await;
    let c = Client::registered(&server, "pzbad").await;
    let p = c.get_ok("/api/puzzle/next?variant=makruk").await;
    let id = p["puzzle"]["id"].as_str().unwrap().to_string();
    let round_path = format!("/api/puzzle/{id}/round");
    let long_id = "a".repeat(200);
    // Bad ids and bad queries.
    for (path, status, code) in [
        (
            "/api/puzzle/ab".to_string(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            format!("/api/puzzle/{long_id}"),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "/api/puzzle/x%20y%2Fz".into(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "/api/puzzle/%E0%B8%81%E0%B8%81%E0%B8%81".into(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "/api/puzzle/daily?variant=".into(),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            "/api/puzzle/daily?variant=makruk&rules=bogus".into(),
            StatusCode::BAD_REQUEST,
            "bad_rules",
        ),
        (
            "/api/puzzle/daily?variant=%FF".into(),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            "/api/puzzle/next?variant=chess".into(),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            format!("/api/puzzle/next?variant=makruk&theme={long_id}"),
            StatusCode::BAD_REQUEST,
            "bad_theme",
        ),
        (
            "/api/puzzle/streak?variant=xiangqi".into(),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
    ] {
        let (s, v) = c.get(&path).await;
        assert_eq!(
            (s, v["error"].as_str()),
            (status, Some(code)),
            "{path}: {v}"
        );
        assert!(v["message"].as_str().unwrap().len() > 5, "{path}: {v}");
    }
    // Rounds: for a puzzle that does not exist, and bad moves of every kind.
    for bad in ["/api/puzzle/zzzz9999/round", "/api/puzzle/ab/round"] {
        c.refused(
            bad,
            json!({ "win": true }),
            StatusCode::NOT_FOUND,
            "not_found",
        )
        .await;
    }
    let sol = solution(&p);
    let many: Vec<String> = std::iter::repeat_n(sol[0].clone(), 65).collect();
    for (moves, why) in [
        (json!([]), "no move"),
        (json!([""]), "an empty move"),
        (json!(["é1é2"]), "not a move"),
        (json!(["a1a9"]), "off the board"),
        (json!(["x".repeat(5000)]), "a huge move"),
        (json!(many), "more moves than any solution"),
    ] {
        let (s, e) = c.post(&round_path, json!({ "moves": moves })).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_moves")),
            "{why}: {e}"
        );
        let message = e["message"].as_str().unwrap();
        assert!(message.len() > 5 && message.len() < 200, "{why}: {message}");
    }
    for body in [
        json!({ "moves": [1, 2] }),
        json!({ "moves": "e3e4" }),
        json!({ "win": true, "rating": 3000 }),
    ] {
        c.refused(&round_path, body, StatusCode::BAD_REQUEST, "malformed_json")
            .await;
    }
    let (s, e) = c
        .post_raw(&round_path, Some(&c.csrf), "{\"win\":".into())
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed_json")),
        "{e}"
    );
    let resp = c
        .http
        .post(format!("{}{round_path}", c.base))
        .header("x-csrf-token", &c.csrf)
        .body("{\"win\": true}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // None of that counted.
    let after = c.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(after["puzzle"]["plays"], p["puzzle"]["plays"]);
    assert_eq!(
        after["user"],
        json!({ "rating": 1500, "provisional": true })
    );
    // A double click: two posts of the round at once count once.
    let body = json!({ "moves": sol });
    let (one, two) = tokio::join!(c.post(&round_path, body.clone()), c.post(&round_path, body));
    assert_eq!(
        (one.0, two.0),
        (StatusCode::OK, StatusCode::OK),
        "{one:?} {two:?}"
    );
    let rated = [&one.1, &two.1]
        .iter()
        .filter(|v| v["round"]["rated"] == true)
        .count();
    assert_eq!(rated, 1, "{one:?} {two:?}");
    let after = c.get_ok(&format!("/api/puzzle/{id}")).await;
    assert_eq!(
        after["puzzle"]["plays"],
        p["puzzle"]["plays"].as_i64().unwrap() + 1
    );
}
