//! "Practise this ending" (`POST /api/engine-games/practice`): games against
//! the tables' perfect play, with small tables generated here (Makruk's
//! rook against a bare khun, Mak-hot's endings of three pieces). The player
//! plays the tables' own moves (`GET /api/tablebase`); the tables judge
//! every position of the game, so the server's defence is held to their
//! distances, its attack to their fastest win, and its draws to draws.

use crate::common::{Client, test_config, test_database};
use games::{AnyGame, AnyPosition, GameKind};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use thaiboard_tablebase::makruk::generate_tables;
use thaiboard_tablebase::makruk::material::Material;

/// Makruk's KRvK and every Mak-hot table of three pieces (default rules),
/// generated once for this test binary (a few seconds).
fn tables_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("thaiboard-practice-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rook = Material::from_name("KRvK").unwrap();
        generate_tables(makruk::Variant::Makruk, &[rook], &dir, false, |_| {}).unwrap();
        thaiboard_tablebase::makhos::generate(&dir, makhos::Rules::Default, 3, false, |_| {})
            .unwrap();
        dir
    })
}

async fn server_with_tables() -> thaiboard_server::Server {
    let (url, _) = test_database();
    let config = thaiboard_server::Config {
        tablebase_dir: Some(tables_dir().clone()),
        ..test_config(&url)
    };
    thaiboard_server::Server::start(config).await.unwrap()
}

/// The tables' answer on a position (Mak-hot: with `count` plies of no progress).
async fn probe(c: &Client, variant: &str, fen: &str, count: u32) -> Value {
    let resp = c
        .http
        .get(format!("{}/api/tablebase", c.base))
        .query(&[
            ("variant", variant),
            ("fen", fen),
            ("count", &count.to_string()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK, "{fen}");
    resp.json().await.unwrap()
}

/// Waits (up to 30 s) until game `id` is over or `side` is to move.
async fn wait_for_turn(c: &Client, id: &str, side: &str) -> Value {
    for _ in 0..600 {
        let (_, g) = c.get(&format!("/api/games/{id}")).await;
        if g["status"] != "ongoing" || g["turn"] == side {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id}: the computer never moved");
}

/// The tables' judgement of one position the player had to move in.
#[derive(Debug)]
struct Judged {
    /// `win`, `draw` or `loss` for the player.
    category: String,
    /// Plies to the end for the player (Makruk: to mate; Mak-hot: to the end of the game).
    distance: Option<i64>,
}

/// A practice game played out by the player with the tables' own moves.
#[derive(Debug)]
struct PlayedOut {
    /// Every position the player was to move in, in order, as the tables judged it.
    judged: Vec<Judged>,
    /// The finished game.
    game: Value,
    /// Moves (plies) played in the game.
    plies: i64,
}

/// The signed distance of a tablebase answer: to mate (Makruk) or to the end (Mak-hot).
fn distance(a: &Value) -> Option<i64> {
    a["dtm"].as_i64().or(a["dtw"].as_i64())
}

/// The player's move: the tables' best; in a drawn position the draw move
/// nearest to a mate the count forbids (the best try), not merely the first.
fn tables_move(a: &Value) -> &str {
    let moves = a["moves"].as_array().unwrap();
    let best = if a["category"] == "draw" {
        moves
            .iter()
            .filter(|m| m["category"] == "draw")
            .min_by_key(|m| match distance(m) {
                Some(d) if d < 0 => (0, -d),
                None => (1, 0),
                Some(d) => (2, -d),
            })
            .unwrap()
    } else {
        &moves[0]
    };
    best["uci"].as_str().unwrap()
}

/// Starts a practice game from `fen` as `side` and plays the tables' move at
/// every turn of the player until the game ends.
async fn play_out(c: &Client, variant: &str, fen: &str, side: &str) -> PlayedOut {
    let g = c
        .post_ok(
            "/api/engine-games/practice",
            json!({ "variant": variant, "fen": fen, "color": side }),
        )
        .await;
    let other = if side == "white" { "black" } else { "white" };
    assert_eq!(g[side]["id"], c.user["id"], "{g}");
    assert_eq!(g[other]["username"], "engine-level-8", "{g}");
    assert_eq!(g["rated"], false);
    let id = g["id"].as_str().unwrap().to_string();
    let kind = GameKind::from_names(variant, None).unwrap();
    let mut judged = Vec::new();
    for _ in 0..200 {
        let g = wait_for_turn(c, &id, side).await;
        if g["status"] != "ongoing" {
            let plies = g["ply"].as_i64().unwrap();
            return PlayedOut {
                judged,
                game: g,
                plies,
            };
        }
        // Mak-hot's no-progress count, from the game's moves replayed.
        let (_, full) = c.get(&format!("/api/games/{id}")).await;
        let mut rules = AnyGame::from_position(
            AnyPosition::from_fen(kind, g["start_fen"].as_str().unwrap()).unwrap(),
        );
        for a in full["actions"].as_array().unwrap() {
            if a["kind"] == "move" {
                rules.play_engine(a["uci"].as_str().unwrap()).unwrap();
            }
        }
        let count = match &rules {
            AnyGame::Makhos(m) => m.no_progress_plies(),
            AnyGame::Makruk(_) => 0,
        };
        let fen = g["fen"].as_str().unwrap();
        let a = probe(c, variant, fen, count).await;
        judged.push(Judged {
            category: a["category"].as_str().unwrap().to_string(),
            distance: distance(&a),
        });
        let mv = tables_move(&a);
        let (status, body) = c
            .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
        assert_eq!(status, StatusCode::OK, "{mv} in {fen}: {body}");
    }
    panic!("game {id} did not end in 200 moves");
}

/// Against the player's perfect attack, the server's defence keeps the tables'
/// value at every move (a loss never becomes a faster loss: the player's
/// distance falls by exactly the two plies of a move pair), and the game
/// ends exactly at the tables' distance: neither sooner (the defence) nor
/// later (the attack).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_defence_never_loses_faster_than_the_tables_say() {
    let server = server_with_tables().await;
    let c = Client::guest(&server).await;
    for (variant, fen) in [
        // A rook against a bare khun, the count running: mate in 27 plies, the last the count allows.
        ("makruk", "8/8/8/3k4/8/8/8/R3K3 w - 32 6 1"),
        // The same with no count yet: it starts with the first move.
        ("makruk", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        // Two kings against one, two men against a king.
        ("makhos", "W:WKb8,Kd8:BKh2"),
        ("makhos", "W:Wa1,c1:BKh8"),
    ] {
        let turn = if fen.contains(" b ") || fen.starts_with("B:") {
            "black"
        } else {
            "white"
        };
        let played = play_out(&c, variant, fen, turn).await;
        let first = &played.judged[0];
        assert_eq!(first.category, "win", "{fen}: {played:?}");
        let start = first.distance.expect("a distance to the end");
        for (i, pair) in played.judged.windows(2).enumerate() {
            assert_eq!(pair[1].category, "win", "{fen}: move {i}: {played:?}");
            assert_eq!(
                pair[1].distance,
                pair[0].distance.map(|d| d - 2),
                "{fen}: the server's reply after the player's move {i} lost faster than the tables say"
            );
        }
        assert_eq!(played.plies, start, "{fen}: {}", played.game);
        let won = if turn == "white" { "1-0" } else { "0-1" };
        assert_eq!(played.game["result"], won, "{fen}: {}", played.game);
    }
}

/// A drawn ending: the server holds the draw at every move against the
/// player's best tries, and the game ends drawn, in Makruk by the count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_defence_holds_a_drawn_ending() {
    let server = server_with_tables().await;
    let c = Client::guest(&server).await;
    // Makruk: mate needs 27 plies, the count leaves 13.
    let played = play_out(&c, "makruk", "8/8/8/3k4/8/8/8/R3K3 w - 32 20 1", "white").await;
    assert!(
        played.judged.iter().all(|j| j.category == "draw"),
        "{played:?}"
    );
    assert_eq!(played.game["result"], "1/2-1/2", "{}", played.game);
    assert_eq!(played.game["reason"], "counting_draw", "{}", played.game);
    // Mak-hot: one king against a king and a man, the server (White) to move first.
    let played = play_out(&c, "makhos", "W:WKa1:BKh8,g7", "black").await;
    assert!(!played.judged.is_empty());
    assert!(
        played.judged.iter().all(|j| j.category == "draw"),
        "{played:?}"
    );
    assert_eq!(played.game["result"], "1/2-1/2", "{}", played.game);
}

/// A won ending played out with the tables' moves ends in a win within the
/// count: mate on the last ply the count allows, shown as players count.
/// And where the server has the winning side it takes the fastest win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_won_ending_mates_within_the_count_and_the_server_wins_fastest() {
    let server = server_with_tables().await;
    let c = Client::guest(&server).await;
    let fen = "8/8/8/3k4/8/8/8/R3K3 w - 32 6 1";
    let a = probe(&c, "makruk", fen, 0).await;
    assert_eq!(
        (a["dtm"].as_i64(), a["plies_left"].as_i64()),
        (Some(27), Some(27))
    );
    let played = play_out(&c, "makruk", fen, "white").await;
    let g = &played.game;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("1-0"), Some("checkmate")),
        "{g}"
    );
    // The count as players say it: pieces' honour, Black counting, the last number of 16.
    assert_eq!(g["count"]["kind"], "pieces", "{g}");
    assert_eq!(g["count"]["side"], "black", "{g}");
    assert_eq!(g["count"]["spoken_limit"], 16, "{g}");
    assert_eq!(
        g["count"]["spoken"], 16,
        "mated at the count's last move: {g}"
    );

    // The server has the rook: it mates in exactly the tables' distance
    // against the player's longest resistance (the tables' moves too).
    let fen = "3k4/8/8/8/8/8/8/R3K3 b - - 0 1";
    let a = probe(&c, "makruk", fen, 0).await;
    assert_eq!(a["category"], "loss", "{a}");
    let played = play_out(&c, "makruk", fen, "black").await;
    assert!(
        played.judged.iter().all(|j| j.category == "loss"),
        "{played:?}"
    );
    assert_eq!(played.plies, -distance(&a).unwrap(), "{}", played.game);
    assert_eq!(played.game["reason"], "checkmate", "{}", played.game);
}

/// Practice needs tables that hold the position: a clear 400 otherwise.
#[tokio::test]
async fn practice_is_refused_without_tables_or_outside_them() {
    let plain = crate::common::start().await;
    let c = Client::guest(&plain).await;
    let body = json!({ "variant": "makruk", "fen": "8/8/8/3k4/8/8/8/R3K3 w - 32 6 1" });
    c.refused(
        "/api/engine-games/practice",
        body,
        StatusCode::BAD_REQUEST,
        "no_tablebases",
    )
    .await;

    let server = server_with_tables().await;
    let c = Client::guest(&server).await;
    for (variant, fen) in [
        ("makruk", "8/8/8/3k4/8/8/8/RR2K3 w - - 0 1"),
        (
            "makruk",
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        ),
        ("makhos", "W:WKa1,Kc1,Ke1:BKh8"),
    ] {
        let (status, v) = c
            .post(
                "/api/engine-games/practice",
                json!({ "variant": variant, "fen": fen }),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{fen}: {v}");
        assert_eq!(v["error"], "not_in_tablebases", "{fen}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains("do not cover"),
            "{v}"
        );
    }
    // Ouk Chatrang: no tables of it here at all.
    let (_, v) = c
        .post(
            "/api/engine-games/practice",
            json!({ "variant": "cambodian", "fen": "8/8/8/3k4/8/8/8/R3K3 w - - 0 1" }),
        )
        .await;
    assert_eq!(v["error"], "no_tablebases", "{v}");
    let (_, v) = c
        .post(
            "/api/engine-games/practice",
            json!({ "variant": "makruk", "fen": "8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "color": "random" }),
        )
        .await;
    assert_eq!(v["error"], "invalid_color", "{v}");
    let (_, v) = c
        .post(
            "/api/engine-games/practice",
            json!({ "variant": "makruk", "fen": "8/8/8/3k4/8/8/8/8 w - - 0 1" }),
        )
        .await;
    assert_eq!(v["error"], "bad_fen", "{v}");
    // Without a colour the player takes the side to move.
    let g = c
        .post_ok(
            "/api/engine-games/practice",
            json!({ "variant": "makhos", "fen": "B:WKb8,Kd8:BKh2" }),
        )
        .await;
    assert_eq!(g["black"]["id"], c.user["id"], "{g}");
}
