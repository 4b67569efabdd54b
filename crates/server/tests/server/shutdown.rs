//! A graceful stop: moves keep coming over sockets while the server stops;
//! every socket hears "server restarting" and is closed; no new connection
//! is taken; and a new server on the same database has every move that was
//! acknowledged, and takes the players' reconnection.

use crate::common::{Client, Ws, legal_ucis, started_game, test_config, test_database};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;
use tokio_tungstenite::tungstenite::Message;

/// Plays legal moves over the two players' sockets until a socket closes;
/// returns how many plies were acknowledged, and whether each socket was
/// told `restarting` and closed with code 1012.
async fn play_until_closed(mut white: Ws, mut black: Ws, mut game: Value) -> (u64, bool) {
    let mut acked = 0u64;
    let mut told = true;
    for ply in 0..200u64 {
        let ws = if ply % 2 == 0 { &mut white } else { &mut black };
        let Some(mv) = legal_ucis(&game).first().cloned() else {
            break;
        };
        let sent = futures_util::SinkExt::send(
            &mut ws.stream,
            Message::Text(
                json!({ "type": "move", "move": mv, "ply": ply, "id": ply })
                    .to_string()
                    .into(),
            ),
        )
        .await;
        if sent.is_err() {
            break;
        }
        // The ack, the update, or the server's goodbye.
        let mut closed = false;
        let mut got_ack = false;
        let answered = |got_ack: bool, game: &Value| got_ack && game["ply"] == ply + 1;
        while !(closed || answered(got_ack, &game)) {
            let next = tokio::time::timeout(Duration::from_secs(10), ws.stream.next())
                .await
                .expect("the server answers or closes");
            match next {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    match v["type"].as_str() {
                        Some("ack") if v["id"] == ply => got_ack = true,
                        Some("update") => game = v["game"].clone(),
                        Some("restarting") => {}
                        Some("error") => panic!("{v}"),
                        _ => {}
                    }
                }
                Some(Ok(Message::Close(frame))) => {
                    told &= frame.is_some_and(|f| u16::from(f.code) == 1012);
                    closed = true;
                }
                Some(Ok(_)) => {}
                None | Some(Err(_)) => closed = true,
            }
        }
        if got_ack {
            acked = ply + 1;
        }
        if closed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    (acked, told)
}

#[tokio::test]
async fn a_stop_loses_no_acknowledged_move_and_players_reconnect() {
    let (url, _) = test_database();
    let server = Server::start(test_config(&url)).await.unwrap();
    let addr = server.addr;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (ws_w, snap) = white.socket(&id).await;
    let (ws_b, _) = black.socket(&id).await;
    let mut lobby = white.lobby_socket().await;
    let _ = lobby.next_of("lobby").await;
    let players = tokio::spawn(play_until_closed(ws_w, ws_b, snap["game"].clone()));
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.shutdown().await.unwrap();
    let (acked, told) = players.await.unwrap();
    assert!(acked > 0, "moves were played before the stop");
    assert!(
        told,
        "the playing sockets were closed with 1012 (service restart)"
    );
    let note = lobby.next_of("restarting").await;
    assert!(
        note["message"].as_str().unwrap().contains("restarting"),
        "{note}"
    );
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no connection is taken once stopped"
    );

    // The next server on the same database has every acknowledged move.
    let next = Server::start(test_config(&url)).await.unwrap();
    let mut white = white;
    white.base = format!("http://{}", next.addr);
    let (_, game) = white.get(&format!("/api/games/{id}")).await;
    let ply = game["ply"].as_u64().unwrap();
    assert!(
        ply >= acked,
        "{acked} moves were acknowledged, the game has {ply}"
    );
    // The player reconnects (the session lives in the database) and plays on.
    let (mut ws, snap) = white.socket(&id).await;
    if ply % 2 == 0 {
        let mv = legal_ucis(&snap["game"])[0].clone();
        let r = ws
            .command(json!({ "type": "move", "move": mv, "ply": ply }), 1)
            .await;
        assert_eq!(r["type"], "ack", "{r}");
    }
    let _ = Client::guest(&next).await;
}
