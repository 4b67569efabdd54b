//! Picture exports through the real HTTP API: the GIF of a game has one
//! frame per position, a game's PNG is exactly the picture of the asked
//! position, and bad parameters get clear 400s.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::json;

async fn fetch(c: &Client, path: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = c
        .http
        .get(format!("{}{path}", c.base))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let ctype = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ctype, resp.bytes().await.unwrap().to_vec())
}

fn gif_frames(bytes: &[u8]) -> usize {
    let mut decoder = gif::DecodeOptions::new().read_info(bytes).unwrap();
    let mut n = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

#[tokio::test]
async fn game_gif_and_png_show_the_game() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let moves = ["e3e4", "d6d5", "e4d5"];
    play_moves(&white, &black, &id, &moves).await;
    // Anyone may download: a fresh guest.
    let watcher = Client::guest(&server).await;
    let (status, ctype, gif) = fetch(&watcher, &format!("/api/games/{id}/gif")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ctype, "image/gif");
    assert_eq!(gif_frames(&gif), moves.len() + 1);

    // The PNG after two moves is exactly the picture of that position with d6-d5 highlighted.
    let (status, ctype, png) = fetch(
        &watcher,
        &format!("/api/games/{id}/png?ply=2&flip=1&size=32"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ctype, "image/png");
    let mut game = makruk::Game::new(makruk::Variant::Makruk);
    game.play_uci("e3e4").unwrap();
    game.play_uci("d6d5").unwrap();
    let want = render::Scene::makruk(game.position())
        .with_flipped(true)
        .with_highlight([
            render::makruk_cell("d6".parse().unwrap()),
            render::makruk_cell("d5".parse().unwrap()),
        ]);
    let got = render::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!(got, render::Renderer::new(32).draw(&want));

    // Bad parameters.
    for (query, code) in [
        ("png?ply=4", "bad_ply"),
        ("png?ply=-1", "bad_ply"),
        ("png?size=57", "bad_size"),
        ("gif?flip=maybe", "bad_flip"),
    ] {
        let (status, body) = watcher.get(&format!("/api/games/{id}/{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], code, "{query}: {body}");
    }
    let (status, _) = watcher.get("/api/games/nosuchgame/gif").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn mak_hot_game_gif() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makhos", json!({})).await;
    play_first_legal(&white, &black, &id, 3).await;
    let (status, ctype, gif) = fetch(&white, &format!("/api/games/{id}/gif?size=32")).await;
    assert_eq!((status, ctype.as_str()), (StatusCode::OK, "image/gif"));
    assert_eq!(gif_frames(&gif), 4);
}

#[tokio::test]
async fn picture_of_any_position() {
    let server = start().await;
    let c = Client::guest(&server).await;
    let fen = "4k3/8/8/8/8/8/3M~4/4K3 w - - 0 1";
    let url = with_query(
        "/api/picture.png",
        &[
            ("variant", "makruk"),
            ("size", "48"),
            ("last", "d1d2"),
            ("fen", fen),
        ],
    );
    let (status, ctype, png) = fetch(&c, &url).await;
    assert_eq!(
        (status, ctype.as_str()),
        (StatusCode::OK, "image/png"),
        "{}",
        String::from_utf8_lossy(&png)
    );
    let got = render::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((got.width(), got.height()), (384, 384));

    let (status, body) = c.get("/api/picture.png?variant=makruk&fen=8%2F8%20w").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "bad_fen");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("makruk position"),
        "{body}"
    );
    let (status, body) = c
        .get("/api/picture.png?variant=makhos&fen=W%3AWc3%3ABc3")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = c.get("/api/picture.png?variant=chess&fen=x").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = c.get("/api/picture.png?variant=makruk").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let long = "p".repeat(500);
    let (status, body) = c.get(&format!("/api/picture.png?fen={long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}
