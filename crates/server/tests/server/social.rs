//! Following players (`/api/rel/...`: follow, unfollow, whom I follow with
//! their online status and game in progress, the feed of their finished
//! games), spectator counts on the game socket, and TV (`/api/tv/...`),
//! against a real server on loopback (SQLite, or PostgreSQL with
//! `THAIBOARD_TEST_DATABASE_URL`, which also tests migration 0026 there).

use crate::common::{Client, Ws, start, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;

/// The names in `GET /api/rel/following`.
async fn following(c: &Client) -> Vec<Value> {
    let (s, v) = c.get("/api/rel/following").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["following"].as_array().unwrap().clone()
}

fn names(list: &[Value]) -> Vec<String> {
    list.iter()
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect()
}

/// The ids of the games in `GET /api/rel/feed`.
async fn feed(c: &Client) -> Vec<String> {
    let (s, v) = c.get("/api/rel/feed").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// Retries `check` on `c`'s following list for a few seconds (a socket's
/// opening or closing reaches the server on its own time).
async fn following_until(c: &Client, check: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..100 {
        let list = following(c).await;
        if check(&list) {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("following never became as wanted: {:?}", following(c).await);
}

#[tokio::test]
async fn follow_unfollow_and_their_rules() {
    let server = start().await;
    let me = Client::registered(&server, "fan").await;
    let star = Client::registered(&server, "star").await;
    let path = format!("/api/rel/follow/{}", star.name());
    // Without the CSRF token: refused, and nothing is followed.
    let (s, _) = me.post_raw(&path, None, "{}".into()).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert!(following(&me).await.is_empty());
    assert_eq!(me.post_ok(&path, json!({})).await, json!({ "ok": true }));
    // Twice is once; the name is found in any case.
    me.post_ok(
        &path
            .to_uppercase()
            .replace("/API/REL/FOLLOW/", "/api/rel/follow/"),
        json!({}),
    )
    .await;
    let list = following(&me).await;
    assert_eq!(names(&list), vec![star.name()]);
    assert_eq!(list[0]["online"], false, "{list:?}");
    assert_eq!(list[0]["playing"], Value::Null);
    // Online while a page of theirs holds a socket, offline after.
    let ws = star.lobby_socket().await;
    following_until(&me, |l| l[0]["online"] == true).await;
    drop(ws);
    following_until(&me, |l| l[0]["online"] == false).await;
    // Their page tells me I follow them; it tells a visitor nothing of me.
    let (_, st) = me.get(&format!("/api/rel/status/{}", star.name())).await;
    assert_eq!(st["following"], true, "{st}");
    let guest = Client::guest(&server).await;
    let (_, st) = guest.get(&format!("/api/rel/status/{}", star.name())).await;
    assert_eq!(st["following"], false, "{st}");
    // Not themself, not as a guest, not a stranger's name.
    me.refused(
        &format!("/api/rel/follow/{}", me.name()),
        json!({}),
        StatusCode::BAD_REQUEST,
        "cannot_follow_self",
    )
    .await;
    guest
        .refused(
            &path,
            json!({}),
            StatusCode::FORBIDDEN,
            "guests_cannot_follow",
        )
        .await;
    me.refused(
        "/api/rel/follow/nobody_at_all_here",
        json!({}),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    let (s, _) = guest.get("/api/rel/following").await;
    assert_eq!(s, StatusCode::OK, "a guest has a session: an empty list");
    // Unfollowing.
    me.post_ok(&format!("/api/rel/unfollow/{}", star.name()), json!({}))
        .await;
    assert!(following(&me).await.is_empty());
    let (_, st) = me.get(&format!("/api/rel/status/{}", star.name())).await;
    assert_eq!(st["following"], false, "{st}");
}

#[tokio::test]
async fn the_feed_shows_finished_public_games_only_and_closed_accounts_drop_out() {
    let server = start().await;
    let me = Client::registered(&server, "fan").await;
    // A finished game without a clock: in the feed.
    let (white, black, shown) = started_game(&server, "makruk", json!({})).await;
    me.post_ok(&format!("/api/rel/follow/{}", white.name()), json!({}))
        .await;
    assert!(feed(&me).await.is_empty(), "nothing finished yet");
    // Playing now: the game in progress, with a link's id.
    let list = following(&me).await;
    assert_eq!(list[0]["playing"]["id"], shown.as_str(), "{list:?}");
    black
        .post_ok(&format!("/api/games/{shown}/resign"), json!({}))
        .await;
    assert_eq!(feed(&me).await, vec![shown.clone()]);
    assert_eq!(following(&me).await[0]["playing"], Value::Null);
    // A private game (correspondence, not made public by both): never in
    // the feed, nor as "playing now".
    let corr = json!({ "variant": "makruk", "color": "white",
        "time_control": { "kind": "correspondence", "days": 3, "increment_days": 1 } });
    let private = white.challenge(corr.clone()).await;
    black
        .post_ok(&format!("/api/games/{private}/accept"), json!({}))
        .await;
    assert_eq!(following(&me).await[0]["playing"], Value::Null);
    black
        .post_ok(&format!("/api/games/{private}/resign"), json!({}))
        .await;
    // The same kind of game made public by both players: in the feed.
    let public = white.challenge(corr).await;
    black
        .post_ok(&format!("/api/games/{public}/accept"), json!({}))
        .await;
    for c in [&white, &black] {
        c.post_ok(
            &format!("/api/games/{public}/public"),
            json!({ "public": true }),
        )
        .await;
    }
    assert_eq!(following(&me).await[0]["playing"]["id"], public.as_str());
    white
        .post_ok(&format!("/api/games/{public}/resign"), json!({}))
        .await;
    let seen = feed(&me).await;
    assert_eq!(
        seen,
        vec![public.clone(), shown.clone()],
        "private {private}"
    );
    // A followed account that closes drops out of the list.
    me.post_ok(&format!("/api/rel/follow/{}", black.name()), json!({}))
        .await;
    assert_eq!(following(&me).await.len(), 2);
    black
        .post_ok("/api/account/close", json!({ "password": "correct horse" }))
        .await;
    assert_eq!(names(&following(&me).await), vec![white.name()]);
    me.refused(
        &format!("/api/rel/follow/{}", black.name()),
        json!({}),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
}

/// The next spectator count a socket hears.
async fn spectators(ws: &mut Ws) -> u64 {
    ws.next_of("spectators").await["count"].as_u64().unwrap()
}

#[tokio::test]
async fn every_game_socket_hears_its_spectator_count() {
    let server = start().await;
    let (white, black, id) = started_game(&server, "makruk", json!({})).await;
    let (mut w, _) = white.socket(&id).await;
    assert_eq!(spectators(&mut w).await, 0, "a player is told the count");
    let (mut b, _) = black.socket(&id).await;
    assert_eq!(spectators(&mut b).await, 0, "players are not spectators");
    let watcher = Client::guest(&server).await;
    let (mut one, _) = watcher.socket(&id).await;
    assert_eq!(spectators(&mut one).await, 1, "the newcomer hears itself");
    assert_eq!(spectators(&mut w).await, 1);
    let anonymous = Client::guest(&server).await;
    let (two, _) = anonymous.socket(&id).await;
    assert_eq!(spectators(&mut w).await, 2);
    assert_eq!(spectators(&mut one).await, 2);
    drop(two);
    assert_eq!(spectators(&mut w).await, 1);
    for want in [1, 2, 1] {
        assert_eq!(spectators(&mut b).await, want, "every change, in order");
    }
}

/// `wins` rated live Ouk Chatrang games that `winner` wins by resignation
/// against new players, raising their rating in that pool.
async fn rated_wins(server: &Server, winner: &Client, wins: usize) {
    for _ in 0..wins {
        let loser = Client::registered(server, "loser").await;
        rated_win(winner, &loser).await;
    }
}

/// One rated live Ouk Chatrang game that `winner` wins by resignation.
async fn rated_win(winner: &Client, loser: &Client) {
    let id = winner
        .challenge(
            json!({ "variant": "cambodian", "color": "white", "rated": true,
            "time_control": { "kind": "live", "minutes": 10, "increment": 0 } }),
        )
        .await;
    loser
        .post_ok(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    loser
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
}

/// A live game between `white` and `black`, started; its id.
async fn live_game(white: &Client, black: &Client, variant: &str) -> String {
    let id = white
        .challenge(json!({ "variant": variant, "color": "white",
            "time_control": { "kind": "live", "minutes": 10, "increment": 0 } }))
        .await;
    black
        .post_ok(&format!("/api/games/{id}/accept"), json!({}))
        .await;
    id
}

#[tokio::test]
async fn tv_shows_the_highest_rated_game_and_then_the_next() {
    let server = start().await;
    // Rated above the new players of other tests that may share the
    // database (PostgreSQL), the stronger above the other.
    let strong = Client::registered(&server, "strong").await;
    let good = Client::registered(&server, "good").await;
    rated_wins(&server, &strong, 3).await;
    rated_wins(&server, &good, 2).await;
    let a = Client::registered(&server, "a").await;
    let b = Client::registered(&server, "b").await;
    // The stronger game first, the weaker after (the more recently moved):
    // TV shows the stronger.
    let high = live_game(&strong, &b, "cambodian").await;
    let low = live_game(&good, &a, "cambodian").await;
    // Two watchers on its socket: TV tells them too.
    let (_one, _) = Client::guest(&server).await.socket(&high).await;
    let (_two, _) = Client::guest(&server).await.socket(&high).await;
    let (_, ch) = a.get("/api/tv/cambodian").await;
    assert_eq!(ch["game"]["id"], high.as_str(), "{ch}");
    assert_eq!(ch["spectators"], 2, "{ch}");
    let high_rating = ch["game"]["white_rating"]["rating"].as_i64().unwrap();
    assert!(high_rating > 1600, "{ch}");
    // A correspondence game (private unless made public, and too slow to
    // watch) is never on TV, whatever its players.
    let corr = strong
        .challenge(json!({ "variant": "makruk", "color": "white",
            "time_control": { "kind": "correspondence", "days": 3, "increment_days": 1 } }))
        .await;
    a.post_ok(&format!("/api/games/{corr}/accept"), json!({}))
        .await;
    let (_, tv) = a.get("/api/tv/channels").await;
    assert_eq!(tv["cambodian"]["game"]["id"], high.as_str(), "{tv}");
    assert_ne!(tv["makruk"]["game"]["id"], corr.as_str(), "{tv}");
    // When it ends, the next.
    b.post_ok(&format!("/api/games/{high}/resign"), json!({}))
        .await;
    let (_, ch) = a.get("/api/tv/cambodian").await;
    assert_eq!(ch["game"]["id"], low.as_str(), "{ch}");
    let low_rating = ch["game"]["white_rating"]["rating"].as_i64().unwrap();
    assert!((1550..high_rating).contains(&low_rating), "{ch}");
    let (s, e) = a.get("/api/tv/chess").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
}
