//! The player layer against a real server: rematches (offered after a game,
//! accepted by the opponent, colours swapped), the games being played now
//! with a spectator following one live, and the archive's search filters.

use crate::common::{Client, start, started_game};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_rematch_is_offered_accepted_and_swaps_colours() {
    let server = start().await;
    let tc = json!({ "time_control": { "kind": "live", "minutes": 5, "increment": 3 } });
    let (white, black, id) = started_game(&server, "makruk", tc).await;
    let rematch = format!("/api/games/{id}/rematch");
    // Not before the game is over.
    white
        .refused(
            &rematch,
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "not_over",
        )
        .await;
    black
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    let outsider = Client::registered(&server, "olga").await;
    outsider
        .refused(
            &rematch,
            json!({ "action": "offer" }),
            StatusCode::FORBIDDEN,
            "not_a_player",
        )
        .await;
    white
        .refused(
            &rematch,
            json!({ "action": "accept" }),
            StatusCode::CONFLICT,
            "no_rematch_offer",
        )
        .await;
    white
        .refused(
            &rematch,
            json!({ "action": "dance" }),
            StatusCode::BAD_REQUEST,
            "invalid_action",
        )
        .await;
    let (mut ws_w, _) = white.socket(&id).await;
    let g = black.post_ok(&rematch, json!({ "action": "offer" })).await;
    assert_eq!(g["rematch_offer"], "black", "{g}");
    black
        .refused(
            &rematch,
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "already_offered",
        )
        .await;
    let seen = ws_w.next_of("update").await;
    assert_eq!(seen["game"]["rematch_offer"], "black", "{seen}");
    let g = white.post_ok(&rematch, json!({ "action": "accept" })).await;
    let new_id = g["rematch"].as_str().expect("the rematch's id").to_string();
    let (_, new) = white.get(&format!("/api/games/{new_id}")).await;
    assert_eq!(new["status"], "ongoing");
    assert_eq!(new["white"]["username"], black.user["username"], "{new}");
    assert_eq!(new["black"]["username"], white.user["username"]);
    assert_eq!(new["time_control"], g["time_control"]);
    assert_eq!(new["rated"], true);
    // Only once.
    black
        .refused(
            &rematch,
            json!({ "action": "offer" }),
            StatusCode::CONFLICT,
            "rematch_started",
        )
        .await;
}

#[tokio::test]
async fn spectators_find_games_being_played_and_follow_them_live() {
    let server = start().await;
    let (white, _black, id) = started_game(&server, "makruk", json!({})).await;
    let spectator = Client::guest(&server).await;
    let (s, list) = spectator.get("/api/games/now-playing").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()),
        "{list}"
    );
    let (mut ws, snap) = spectator.socket(&id).await;
    assert_eq!(snap["game"]["status"], "ongoing");
    white
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    let seen = ws.update_at(1).await;
    assert_eq!(seen["action"]["uci"], "e3e4", "{seen}");
    // Games against the computer are not listed.
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok(
            "/api/engine-games",
            json!({ "variant": "makruk", "color": "white", "level": 1 }),
        )
        .await;
    let (_, list) = spectator.get("/api/games/now-playing").await;
    assert!(
        !list.as_array().unwrap().iter().any(|x| x["id"] == g["id"]),
        "{list}"
    );
}

/// The ids of `c`'s archive search `q`, sorted.
async fn search(c: &Client, q: &str) -> Vec<String> {
    let (s, v) = c.get(&format!("/api/users/{}/games?{q}", c.name())).await;
    assert_eq!(s, StatusCode::OK, "{q}: {v}");
    let mut found: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    found.sort();
    found
}

#[tokio::test]
async fn the_archive_is_searched_by_opponent_game_result_rating_and_date() {
    let server = start().await;
    let ann = Client::registered(&server, "ann").await;
    let ben = Client::registered(&server, "ben").await;
    let cat = Client::registered(&server, "cat").await;
    let live = json!({ "kind": "live", "minutes": 5, "increment": 0 });
    // ann beats ben (Makruk, rated), draws cat (Mak-hot, casual), loses to ben (Ouk, casual, no clock).
    let game = |opponent: &Client, variant: &str, tc: serde_json::Value| {
        let body = json!({ "variant": variant, "color": "white", "opponent": opponent.name(), "time_control": tc });
        (body, opponent.name())
    };
    let mut ids = Vec::new();
    for (opp, variant, tc) in [
        (&ben, "makruk", live.clone()),
        (&cat, "makhos", json!({ "kind": "none" })),
        (&ben, "cambodian", json!({ "kind": "none" })),
    ] {
        let (body, _) = game(opp, variant, tc);
        let id = ann.challenge(body).await;
        opp.post_ok(&format!("/api/games/{id}/accept"), json!({}))
            .await;
        ids.push(id);
    }
    ben.post_ok(&format!("/api/games/{}/resign", ids[0]), json!({}))
        .await;
    ann.post_ok(
        &format!("/api/games/{}/draw", ids[1]),
        json!({ "action": "offer" }),
    )
    .await;
    cat.post_ok(
        &format!("/api/games/{}/draw", ids[1]),
        json!({ "action": "accept" }),
    )
    .await;
    ann.post_ok(&format!("/api/games/{}/resign", ids[2]), json!({}))
        .await;
    let sorted = |v: &[&String]| {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(search(&ann, "").await, sorted(&[&ids[0], &ids[1], &ids[2]]));
    assert_eq!(
        search(&ann, &format!("opponent={}", ben.name())).await,
        sorted(&[&ids[0], &ids[2]])
    );
    assert_eq!(search(&ann, "variant=makhos").await, sorted(&[&ids[1]]));
    assert_eq!(search(&ann, "result=win").await, sorted(&[&ids[0]]));
    assert_eq!(search(&ann, "result=loss").await, sorted(&[&ids[2]]));
    assert_eq!(search(&ann, "result=draw").await, sorted(&[&ids[1]]));
    assert_eq!(search(&ann, "rated=true").await, sorted(&[&ids[0]]));
    assert_eq!(
        search(&ann, "rated=false&result=loss").await,
        sorted(&[&ids[2]])
    );
    assert_eq!(search(&ann, "from=2000-01-01&to=2999-12-31").await.len(), 3);
    assert_eq!(search(&ann, "to=2000-01-01").await.len(), 0);
    // Bad filters are clear errors.
    for q in [
        "result=maybe",
        "from=yesterday",
        "variant=chess",
        "page=0",
        "colour=white",
    ] {
        let (s, e) = ann
            .get(&format!("/api/users/{}/games?{q}", ann.name()))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{q}: {e}");
    }
    let (s, _) = ann
        .get(&format!(
            "/api/users/{}/games?opponent=nobody-at-all",
            ann.name()
        ))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_player_changes_the_password_and_logs_in_with_the_new_one() {
    let server = start().await;
    let c = Client::registered(&server, "dan").await;
    let path = "/api/account/password";
    c.refused(
        path,
        json!({ "current": "wrong one!", "new": "a better secret" }),
        StatusCode::UNAUTHORIZED,
        "bad_credentials",
    )
    .await;
    c.refused(
        path,
        json!({ "current": "correct horse", "new": "short" }),
        StatusCode::BAD_REQUEST,
        "invalid_password",
    )
    .await;
    c.refused(
        path,
        json!({ "current": "correct horse" }),
        StatusCode::BAD_REQUEST,
        "malformed_json",
    )
    .await;
    c.post_ok(
        path,
        json!({ "current": "correct horse", "new": "a better secret" }),
    )
    .await;
    let other = Client::guest(&server).await;
    let (s, _) = other
        .post(
            "/api/login",
            json!({ "username": c.name(), "password": "correct horse" }),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, body) = other
        .post(
            "/api/login",
            json!({ "username": c.name(), "password": "a better secret" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let guest = Client::guest(&server).await;
    guest
        .refused(
            path,
            json!({ "current": "", "new": "a better secret" }),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
}
