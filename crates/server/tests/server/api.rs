//! Integration tests of the HTTP and WebSocket API against a real server on a
//! loopback port, with Makruk games (one of them a whole game of the
//! test vectors, played to its end).

use crate::common::{Client, play_moves, play_over_sockets, start, started_game, unique};
use reqwest::StatusCode;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn whole_game_over_websockets() {
    // 127 moves in a row: more than a socket's default message burst.
    let (url, _) = crate::common::test_database();
    let config = thaiboard_server::Config {
        ws_rate_per_sec: 1000.0,
        ..crate::common::test_config(&url)
    };
    let server = thaiboard_server::Server::start(config).await.unwrap();
    let white = Client::registered(&server, "alice").await;
    let black = Client::registered(&server, "bob").await;
    let watcher = Client::guest(&server).await;

    let id = white.challenge(json!({ "variant": "makruk", "color": "white", "time_control": { "kind": "live", "minutes": 5, "increment": 2 } })).await;
    let (_, lobby) = black.get("/api/lobby").await;
    assert!(
        lobby.as_array().unwrap().iter().any(|g| g["id"] == id),
        "{lobby}"
    );
    let (status, game) = black
        .post(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["white"]["username"], white.user["username"]);
    assert_eq!(game["black"]["username"], black.user["username"]);

    let (mut ws_w, snap) = white.socket(&id).await;
    assert_eq!(snap["game"]["status"], "ongoing");
    assert_eq!(snap["game"]["legal"].as_array().unwrap().len(), 23);
    let (mut ws_b, _) = black.socket(&id).await;
    let (mut ws_x, _) = watcher.socket(&id).await;

    // A game of the vectors that ends with the khuns alone (127 plies).
    let (moves, sans) = vector_game(2);
    assert_eq!(moves.len(), 127);
    play_over_sockets(
        &mut ws_w,
        &mut ws_b,
        snap["game"].clone(),
        0..moves.len(),
        |ply, _| (sans[ply].clone(), moves[ply].clone()),
    )
    .await;
    let seen = ws_x.update_at(moves.len()).await;
    assert_eq!(seen["game"]["ply"], moves.len());
    let (_, game) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], "1/2-1/2");
    assert_eq!(game["reason"], "insufficient_material");
    assert_eq!(game["actions"].as_array().unwrap().len(), moves.len());

    let pgn = reqwest::get(format!("{}/api/games/{id}/pgn", white.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!(
            "1. {} {} 2. {} {}",
            sans[0], sans[1], sans[2], sans[3]
        )),
        "{pgn}"
    );

    let (_, mine) = white.get("/api/my-games").await;
    assert_eq!(mine[0]["id"], id);
    assert_eq!(mine[0]["result"], "1/2-1/2");
}

/// Game `n` of the Makruk vectors (vectors/): its moves in UCI and in SAN.
fn vector_game(n: usize) -> (Vec<String>, Vec<String>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../vectors/makruk/games.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("cannot read {path}: {e} (the vectors/ folder of the repository)")
    });
    let game: serde_json::Value = serde_json::from_str(text.lines().nth(n).unwrap()).unwrap();
    let list = |key: &str| -> Vec<String> {
        game[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    };
    (list("moves"), list("san"))
}

#[tokio::test]
async fn moves_over_http_and_my_games_order() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (status, g) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 1);
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1"
    );
    // A second game where it is white's move: it comes first in black's... and white's lists.
    let id2 = white
        .challenge(json!({ "variant": "makruk", "color": "black" }))
        .await;
    black
        .post(&format!("/api/games/{id2}/accept"), json!({}))
        .await;
    let (_, mine) = black.get("/api/my-games").await;
    assert_eq!(mine[0]["your_move"], true, "{mine}");
    let (_, mine_w) = white.get("/api/my-games").await;
    assert_eq!(mine_w[0]["your_move"], false);
    assert_eq!(mine_w[1]["your_move"], false);
}

#[tokio::test]
async fn resign_and_draw_agreement() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (s, g) = black
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"], "1-0");
    assert_eq!(g["reason"], "resignation");
    let (s, e) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"], "game_over");

    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let draw = format!("/api/games/{id}/draw");
    let (s, e) = black.post(&draw, json!({ "action": "accept" })).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("no_draw_offer"))
    );
    let (s, g) = white.post(&draw, json!({ "action": "offer" })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["draw_offer"], "white");
    let (_, g) = black.post(&draw, json!({ "action": "decline" })).await;
    assert_eq!(g["draw_offer"], serde_json::Value::Null);
    let (mut ws_b, _) = black.socket(&id).await;
    white.post(&draw, json!({ "action": "offer" })).await;
    let update = ws_b.next_of("update").await;
    assert_eq!(update["game"]["draw_offer"], "white");
    let ack = ws_b
        .command(json!({ "type": "draw", "action": "accept" }), 1)
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["result"], "1/2-1/2");
    assert_eq!(g["reason"], "agreement");
}

#[tokio::test]
async fn time_forfeit_is_enforced_by_the_server() {
    let server = start().await;
    // One second each; clocks start after each side's first move.
    let (_white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 1.0 / 60.0, "increment": 0 } }),
    )
    .await;
    let (mut ws_w, _) = _white.socket(&id).await;
    let (mut ws_b, _) = black.socket(&id).await;
    assert_eq!(
        ws_w.command(json!({ "type": "move", "move": "e3e4" }), 1)
            .await["type"],
        "ack"
    );
    assert_eq!(
        ws_b.command(json!({ "type": "move", "move": "e6e5" }), 2)
            .await["type"],
        "ack"
    );
    // White's clock runs now; nobody sends anything: the server must end the game itself.
    let update = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let u = ws_b.next_of("update").await;
            if u["game"]["status"] == "finished" {
                return u;
            }
        }
    })
    .await
    .expect("server did not flag the game");
    assert_eq!(update["game"]["result"], "0-1");
    assert_eq!(update["game"]["reason"], "timeout");
    assert_eq!(update["game"]["clock"]["white_ms"], 0);
    let r = ws_w
        .command(json!({ "type": "move", "move": "a3a4" }), 3)
        .await;
    assert_eq!(r["error"], "game_over", "{r}");
}

#[tokio::test]
async fn restart_loses_nothing() {
    let (url, _) = crate::common::test_database();
    let server = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    black
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e6e5" }))
        .await;
    server.abort();
    drop(server);
    let server = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    // The old clients' cookies still hold; only the port changed.
    let mut white = white;
    white.base = format!("http://{}", server.addr);
    let (_, g) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 2, "{g}");
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2"
    );
    // The old jar is keyed by the old address: log in again on the new one.
    let again = Client::guest(&server).await;
    let (s, body) = again
        .post(
            "/api/login",
            json!({ "username": white.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let csrf = body["csrf"].as_str().unwrap().to_string();
    let (s, g) = again
        .post_raw(
            &format!("/api/games/{id}/move"),
            Some(&csrf),
            json!({ "move": "a3a4" }).to_string(),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/pppp1ppp/4p3/P3P3/1PPP1PPP/8/RNSKMSNR b - - 0 2"
    );
}

#[tokio::test]
async fn accounts_login_logout() {
    let server = start().await;
    let c = Client::registered(&server, "carol").await;
    let name = c.name();
    let (s, e) = c
        .post(
            "/api/register",
            json!({ "username": name, "password": "another one" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken"))
    );
    let (s, _) = c.post("/api/logout", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // The session is gone: acting needs a new one.
    let (s, e) = c
        .post("/api/challenges", json!({ "variant": "makruk" }))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("no_session"))
    );
    let d = Client::guest(&server).await;
    let (s, e) = d
        .post(
            "/api/login",
            json!({ "username": name, "password": "wrong password" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );
    let (s, b) = d
        .post(
            "/api/login",
            json!({ "username": name.to_uppercase(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["user"]["username"], name);
    for (u, p, code) in [
        ("ab", "long enough", "invalid_username"),
        ("guest-x", "long enough", "invalid_username"),
        ("bad name", "long enough", "invalid_username"),
        (&unique("ok") as &str, "short", "invalid_password"),
    ] {
        let g = Client::guest(&server).await;
        let (s, e) = g
            .post("/api/register", json!({ "username": u, "password": p }))
            .await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{u}"
        );
    }
    // Guests may not challenge players.
    let g = Client::guest(&server).await;
    let (s, e) = g
        .post("/api/challenges", json!({ "variant": "makruk" }))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("account_required"))
    );
}

/// Two server processes on one PostgreSQL: a move made through one reaches a
/// player connected to the other (LISTEN/NOTIFY). Runs only when
/// `THAIBOARD_TEST_DATABASE_URL` names a PostgreSQL database.
#[tokio::test]
async fn two_servers_share_postgres() {
    let (url, _) = crate::common::test_database();
    if !url.starts_with("postgres") {
        eprintln!("skipped: THAIBOARD_TEST_DATABASE_URL is not a PostgreSQL URL");
        return;
    }
    let a = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let b = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let (white, black, id) = started_game(&a, "makruk", json!({})).await;
    // Black logs in on server B and watches there.
    let black_b = Client::guest(&b).await;
    let (s, body) = black_b
        .post(
            "/api/login",
            json!({ "username": black.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let mut black_b = black_b;
    black_b.csrf = body["csrf"].as_str().unwrap().to_string();
    let (mut ws_b, snap) = black_b.socket(&id).await;
    assert_eq!(snap["game"]["status"], "ongoing");
    let (s, _) = white
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    assert_eq!(s, StatusCode::OK);
    let seen = ws_b.next_of("snapshot").await;
    assert_eq!(seen["game"]["ply"], 1);
    assert_eq!(
        seen["game"]["fen"],
        "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1"
    );
    // Black answers through server B; server A's copy follows.
    let ack = ws_b
        .command(json!({ "type": "move", "move": "e6e5", "ply": 1 }), 1)
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let mut fen = serde_json::Value::Null;
    for _ in 0..50 {
        let (_, g) = white.get(&format!("/api/games/{id}")).await;
        fen = g["fen"].clone();
        if fen == "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        fen,
        "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2"
    );
}

/// Two server processes on one database: a player whose server holds an
/// old copy of the game (the opponent moved through the other server, and
/// on SQLite no notice comes) still has their move carried out: the write
/// finds the copy stale and the command runs again on the game as stored.
#[tokio::test]
async fn a_command_on_an_old_copy_runs_again_on_the_stored_game() {
    let (url, _) = crate::common::test_database();
    let a = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let b = match thaiboard_server::Server::start(crate::common::test_config(&url)).await {
        Ok(b) => b,
        // One server per SQLite file (the data folder's lock): the second
        // is refused, saying why; the stale copy is PostgreSQL's case.
        Err(e) if url.starts_with("sqlite") => {
            assert!(e.to_string().contains("holds"), "{e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let white = crate::common::Client::registered(&a, "white").await;
    let black = crate::common::Client::registered(&a, "black").await;
    let id = white
        .challenge(json!({ "variant": "makruk", "color": "white" }))
        .await;
    // Cookies are kept per host, not per port: Black's session works on B.
    let mut black_b = black;
    black_b.base = format!("http://{}", b.addr);
    // B reads the challenge before it is accepted: its copy has no Black.
    let (s, g) = black_b.get(&format!("/api/games/{id}")).await;
    assert_eq!((s, g["black"].is_null()), (StatusCode::OK, true), "{g}");
    let mut black = black_b;
    black.base = format!("http://{}", a.addr);
    let (s, g) = black
        .post(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    assert_eq!(
        (s, g["status"].as_str()),
        (StatusCode::OK, Some("ongoing")),
        "{g}"
    );
    let mut black_b = black;
    black_b.base = format!("http://{}", b.addr);
    // A request that decides by who plays (the players' chat) reads the
    // stored game too: B's copy is of the open challenge.
    let (s, line) = black_b
        .post(
            &format!("/api/games/{id}/chat"),
            json!({ "text": "good luck" }),
        )
        .await;
    assert_eq!(
        (s, line["room"].as_str()),
        (StatusCode::CREATED, Some("player")),
        "{line}"
    );
    let (s, _) = white
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "e3e4", "ply": 0 }),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, g) = black_b
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "e6e5", "ply": 1 }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2"
    );
    // A command the stored game refuses is refused for that reason.
    let (s, e) = black_b
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "a6a5", "ply": 1 }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_your_turn")),
        "{e}"
    );
    // White moves through A; B's copy (ply 2) knows nothing of it. A move
    // B's copy allows is written on an old version: found stale before its
    // action is stored (whose number A already used), then refused by the
    // stored game, with nothing lost.
    let (s, g) = white
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "a3a4", "ply": 2 }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let mut white_b = white;
    white_b.base = format!("http://{}", b.addr);
    let (s, e) = white_b
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "b3b4", "ply": 2 }),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    let (_, g) = white_b.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["ply"].as_i64(), Some(3), "{g}");
}

#[tokio::test]
async fn one_socket_for_many_games() {
    let server = start().await;
    let (white, black, g1) = started_game(&server, "makruk", json!({})).await;
    let g2 = white
        .challenge(json!({ "variant": "makruk", "color": "white" }))
        .await;
    black
        .post(&format!("/api/games/{g2}/accept"), json!({}))
        .await;
    let mut ws_w = white.multi_socket().await;
    let mut ws_b = black.multi_socket().await;
    for (i, g) in [&g1, &g2].into_iter().enumerate() {
        let r = ws_w
            .command(json!({ "type": "subscribe", "game": g }), i as u64)
            .await;
        assert_eq!(r["type"], "ack", "{r}");
        let r = ws_b
            .command(json!({ "type": "subscribe", "game": g }), i as u64)
            .await;
        assert_eq!(r["type"], "ack", "{r}");
    }
    // Moves in both games over the same two sockets.
    for (n, g) in [&g1, &g2].into_iter().enumerate() {
        let r = ws_w
            .command(
                json!({ "type": "move", "game": g, "move": "e3e4", "ply": 0 }),
                10 + n as u64,
            )
            .await;
        assert_eq!(r["type"], "ack", "{r}");
        loop {
            let u = ws_b.next_of("update").await;
            if u["game"]["id"] == *g && u["game"]["ply"] == 1 {
                break;
            }
        }
    }
    let r = ws_b
        .command(json!({ "type": "move", "game": g2, "move": "e6e5" }), 20)
        .await;
    assert_eq!(r["type"], "ack", "{r}");
    let (_, g) = white.get(&format!("/api/games/{g2}")).await;
    assert_eq!(
        g["fen"],
        "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2"
    );
    // Errors: no game named, an unknown game, a move in a game one does not play.
    let r = ws_b
        .command(json!({ "type": "move", "move": "a3a4" }), 21)
        .await;
    assert_eq!(r["error"], "malformed_message", "{r}");
    let r = ws_b
        .command(json!({ "type": "subscribe", "game": "nosuchgame" }), 22)
        .await;
    assert_eq!(r["error"], "not_found", "{r}");
    let outsider = Client::registered(&server, "olga").await;
    let mut ws_o = outsider.multi_socket().await;
    let r = ws_o
        .command(json!({ "type": "move", "game": g1, "move": "a3a4" }), 23)
        .await;
    assert_eq!(r["error"], "not_a_player", "{r}");
    let r = ws_w
        .command(json!({ "type": "unsubscribe", "game": g1 }), 24)
        .await;
    assert_eq!(r["type"], "ack");
}

/// Moves are offered and recorded in Thai notation from the rules crate,
/// Thai text is played, and the FEN export marks promoted bias on request.
#[tokio::test]
async fn thai_notation_and_the_fen_export_with_promoted_marks() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (_, view) = white.get(&format!("/api/games/{id}")).await;
    let e4 = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "e3e4")
        .unwrap();
    assert_eq!(e4["thai"], json!({ "short": "จ๔", "long": "บ จ๓-จ๔" }));
    // The long form, the short form and UCI are all read.
    play_moves(&white, &black, &id, &["บ จ๓-จ๔", "ง๕", "e4d5", "ก๕"]).await;
    let (status, body) = white
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": "บ ง๕-ง๙" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("at character 7, '๙'"),
        "{body}"
    );
    play_moves(&white, &black, &id, &["d5d6m"]).await;
    let (_, view) = white.get(&format!("/api/games/{id}")).await;
    let actions = view["actions"].as_array().unwrap();
    assert_eq!(actions[0]["thai"]["long"], "บ จ๓-จ๔");
    assert_eq!(
        actions[4]["thai"],
        json!({ "short": "ง๖=M", "long": "บ ง๕-ง๖=M" })
    );
    let fen = |query: &'static str| {
        let url = format!("{}/api/games/{id}/fen{query}", white.base);
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let plain = fen("").await;
    assert_eq!(plain, view["fen"]);
    assert!(
        plain.starts_with("rnsmksnr/8/1ppMpppp/p7/8/PPPP1PPP/8/RNSKMSNR b"),
        "{plain}"
    );
    let marked = fen("?promoted_marks=1").await;
    assert_eq!(marked, plain.replacen("ppMp", "ppM~p", 1));
    assert_eq!(fen("?ply=1&promoted_marks=true").await, actions[0]["fen"]);
    assert_eq!(
        fen("?ply=0").await,
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    );
    // After a reload from the store the Thai forms are written again.
    server.app.games.invalidate(&id);
    let (_, again) = white.get(&format!("/api/games/{id}")).await;
    assert_eq!(again["actions"][4]["thai"]["short"], "ง๖=M");
    let refused = reqwest::get(format!("{}/api/games/{id}/fen?ply=9", white.base))
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
}
