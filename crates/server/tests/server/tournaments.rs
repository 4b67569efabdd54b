//! Tournaments end to end: round-robins and swisses played through the
//! API, their restarts, and the refusals of bad requests. Arenas:
//! `tournament_arenas.rs`.

use crate::common::tournament::{boards, create, name_of, settle, standing_of, wait_for};
use crate::common::{Client, start};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use thaiboard_server::Server;

/// A Makruk swiss of `rounds` rounds between two new players, started:
/// the players, its id and the tournament as the start answered.
async fn started_swiss(
    server: &Server,
    name: &str,
    rounds: u32,
) -> (Client, Client, String, Value) {
    let a = Client::registered(server, "sw").await;
    let b = Client::registered(server, "sw").await;
    let id = create(
        &a,
        json!({ "name": name, "variant": "makruk", "kind": "swiss", "rounds": rounds }),
    )
    .await;
    for p in [&a, &b] {
        p.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    let t = a
        .post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    (a, b, id, t)
}

/// Ends `game` as a win for White straight in the database, as if the
/// server had died right after committing it.
async fn white_won_offline(db: &thaiboard_server::db::Db, game: &str) {
    sqlx::query(
        "UPDATE games SET status = 'finished', result = '1-0', reason = 'resignation' WHERE id = $1",
    )
    .bind(game)
    .execute(&db.pool)
    .await
    .unwrap();
}

#[tokio::test]
async fn a_four_player_round_robin_is_played_to_the_end() {
    let server = start().await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        clients.push(Client::registered(&server, "rr").await);
    }
    let id = create(
        &clients[0],
        json!({ "name": "Round-robin cup", "variant": "makruk", "kind": "round_robin",
                "time_control": { "kind": "correspondence", "days": 3 } }),
    )
    .await;
    for c in &clients {
        c.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    clients[1]
        .refused(
            &format!("/api/tournaments/{id}/start"),
            json!({}),
            StatusCode::FORBIDDEN,
            "not_creator",
        )
        .await;
    let t = clients[0]
        .post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(t["status"], "running");
    assert_eq!(t["current_round"], 3, "every round is paired at the start");
    // Berger tables: 3 rounds of 2 boards, every pair once, all games started at once.
    let rounds = t["pairings"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "{t}");
    let mut met = HashSet::new();
    for r in rounds {
        let mut seen = HashSet::new();
        for b in r["boards"].as_array().unwrap() {
            assert_eq!(b["status"], "ongoing", "{b}");
            let (w, bl) = (name_of(&b["white"]), name_of(&b["black"]));
            assert!(seen.insert(w.clone()) && seen.insert(bl.clone()));
            let key = if w < bl { (w, bl) } else { (bl, w) };
            assert!(met.insert(key), "a pair meets once");
        }
    }
    assert_eq!(met.len(), 6);
    // The games are ordinary games: in the players' lists, with the tournament's name.
    let (_, mine) = clients[1].get("/api/my-games").await;
    let listed = mine
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["tournament_id"] == id.as_str())
        .count();
    assert_eq!(listed, 3, "{mine}");
    assert!(
        mine.as_array()
            .unwrap()
            .iter()
            .all(|g| g["tournament_name"] == "Round-robin cup")
    );
    let game0 = boards(&t)[0]["game_id"].as_str().unwrap().to_string();
    let (_, of_game) = clients[1]
        .get(&format!("/api/games/{game0}/tournament"))
        .await;
    assert_eq!(of_game["id"], id.as_str());

    // Results (players by seed p0..p3): p1 beats p0, p0 beats p2, p0 draws
    // p3, p1 draws p2, p3 beats p1, p3 beats p2. Points: p3 2.5, p1 1.5, p0
    // 1.5, p2 0.5; p1 and p0 are level on Sonneborn-Berger (1.75) and p1
    // is ahead on the direct encounter.
    let names: Vec<String> = clients.iter().map(|c| c.name()).collect();
    let players: HashMap<String, &Client> = clients.iter().map(|c| (c.name(), c)).collect();
    let result = |a: usize, b: usize| -> Option<Option<usize>> {
        let table = [
            ((0, 1), Some(1)),
            ((0, 2), Some(0)),
            ((0, 3), None),
            ((1, 2), None),
            ((1, 3), Some(3)),
            ((2, 3), Some(3)),
        ];
        table
            .iter()
            .find(|((x, y), _)| (*x, *y) == (a.min(b), a.max(b)))
            .map(|(_, w)| *w)
    };
    for b in boards(&t) {
        let seat = |p: &Value| names.iter().position(|n| *n == name_of(p)).unwrap();
        let (w, bl) = (seat(&b["white"]), seat(&b["black"]));
        let winner = result(w, bl).unwrap().map(|i| names[i].as_str());
        settle(&players, &b, winner).await;
    }
    let t = wait_for(&clients[2], &id, "the end", |t| t["status"] == "finished").await;
    let order: Vec<String> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| name_of(&s["user"]))
        .collect();
    assert_eq!(
        order,
        vec![
            names[3].clone(),
            names[1].clone(),
            names[0].clone(),
            names[2].clone()
        ],
        "{t:#}"
    );
    let expect = [
        (3, 2.5, 2.75, 1),
        (1, 1.5, 1.75, 2),
        (0, 1.5, 1.75, 3),
        (2, 0.5, 0.75, 4),
    ];
    for (p, points, sb, rank) in expect {
        let s = standing_of(&t, &names[p]);
        assert_eq!(s["points"], points, "{s}");
        assert_eq!(s["sonneborn_berger"], sb, "{s}");
        assert_eq!(s["rank"], rank, "{s}");
    }
    assert_eq!(standing_of(&t, &names[1])["direct_encounter"], 1.0);
    assert_eq!(standing_of(&t, &names[0])["direct_encounter"], 0.0);
    assert!(t["finished_at"].is_i64());
    // Listed among the finished tournaments.
    let (_, lists) = clients[0].get("/api/tournaments").await;
    assert!(
        lists["finished"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id.as_str())
    );
}

#[tokio::test]
async fn a_five_player_swiss_pairs_its_rounds_by_itself() {
    let server = start().await;
    let mut clients = Vec::new();
    for _ in 0..5 {
        clients.push(Client::registered(&server, "sw").await);
    }
    let id = create(
        &clients[0],
        json!({ "name": "Swiss open", "variant": "makhos", "rules": "no-reverse", "kind": "swiss",
                "rounds": 3, "time_control": { "kind": "correspondence", "days": 2 } }),
    )
    .await;
    for c in &clients {
        c.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    let players: HashMap<String, &Client> = clients.iter().map(|c| (c.name(), c)).collect();
    clients[0]
        .post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let mut met: HashSet<(String, String)> = HashSet::new();
    let mut byes: Vec<String> = Vec::new();
    for round in 1..=3 {
        let t = wait_for(&clients[0], &id, "the round's pairings", |t| {
            t["pairings"].as_array().unwrap().len() == round
        })
        .await;
        assert_eq!(t["current_round"], round as i64);
        let r = &t["pairings"][round - 1];
        let boards = r["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 3, "two games and a bye: {r}");
        let bye: Vec<&Value> = boards.iter().filter(|b| b["black"].is_null()).collect();
        assert_eq!(bye.len(), 1);
        assert!(bye[0]["game_id"].is_null());
        let bye_name = name_of(&bye[0]["white"]);
        assert!(!byes.contains(&bye_name), "one bye per player: {byes:?}");
        byes.push(bye_name);
        for b in boards.iter().filter(|b| !b["black"].is_null()) {
            let (w, bl) = (name_of(&b["white"]), name_of(&b["black"]));
            let key = if w < bl {
                (w.clone(), bl)
            } else {
                (bl, w.clone())
            };
            assert!(met.insert(key), "no rematch: {t:#}");
            // The game is a Mak-hot game with the tournament's rule option.
            let (_, g) = clients[0]
                .get(&format!("/api/games/{}", b["game_id"].as_str().unwrap()))
                .await;
            assert_eq!(
                (g["variant"].as_str(), g["rules"].as_str()),
                (Some("makhos"), Some("no-reverse"))
            );
            // White wins every game.
            settle(&players, b, Some(&w)).await;
        }
    }
    let t = wait_for(&clients[0], &id, "the end", |t| t["status"] == "finished").await;
    assert_eq!(t["pairings"].as_array().unwrap().len(), 3);
    // The first bye went to the lowest seed.
    assert_eq!(byes[0], clients[4].name());
    let rows = t["standings"].as_array().unwrap();
    let total: f64 = rows.iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 6.0 + 3.0, "six games and three byes of a point");
    // Buchholz: the sum of the final points of the opponents met.
    let points: HashMap<String, f64> = rows
        .iter()
        .map(|s| (name_of(&s["user"]), s["points"].as_f64().unwrap()))
        .collect();
    for s in rows {
        let me = name_of(&s["user"]);
        let expected: f64 = met
            .iter()
            .filter_map(|(a, b)| {
                if *a == me {
                    Some(points[b])
                } else if *b == me {
                    Some(points[a])
                } else {
                    None
                }
            })
            .sum();
        assert_eq!(s["buchholz"].as_f64().unwrap(), expected, "{s}");
        assert!(s["byes"].as_i64().unwrap() <= 1, "{s}");
    }
    assert_eq!(
        rows.iter()
            .map(|s| s["byes"].as_i64().unwrap())
            .sum::<i64>(),
        3
    );
    for w in rows.windows(2) {
        assert!(w[0]["points"].as_f64() >= w[1]["points"].as_f64());
    }
}

#[tokio::test]
async fn bad_tournament_requests_are_refused() {
    let server = start().await;
    let a = Client::registered(&server, "bad").await;
    let b = Client::registered(&server, "bad").await;
    let guest = Client::guest(&server).await;
    let rr = json!({ "name": "Club round-robin", "variant": "makruk", "kind": "round_robin" });
    guest
        .refused(
            "/api/tournaments",
            rr.clone(),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
    let bad = |patch: Value| {
        let mut body = rr.clone();
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    for (patch, code) in [
        (json!({ "kind": "knockout" }), "invalid_kind"),
        (json!({ "name": "" }), "invalid_name"),
        (json!({ "name": "x".repeat(61) }), "invalid_name"),
        (json!({ "variant": "chess" }), "invalid_variant"),
        (json!({ "rules": "no-reverse" }), "invalid_rules"),
        (
            json!({ "time_control": { "kind": "live", "minutes": 5 } }),
            "invalid_time_control",
        ),
        (
            json!({ "time_control": { "kind": "correspondence", "days": 0 } }),
            "invalid_time_control",
        ),
        (json!({ "rounds": 3 }), "invalid_rounds"),
        (json!({ "kind": "swiss" }), "invalid_rounds"),
        (json!({ "kind": "swiss", "rounds": 0 }), "invalid_rounds"),
        (json!({ "kind": "arena" }), "invalid_duration"),
        (
            json!({ "kind": "arena", "duration_minutes": 30,
                    "time_control": { "kind": "correspondence" } }),
            "invalid_time_control",
        ),
        (json!({ "max_players": 1 }), "invalid_max_players"),
        (json!({ "starts_at": 1 }), "invalid_start"),
        (json!({ "colour": "white" }), "malformed_json"),
    ] {
        a.refused(
            "/api/tournaments",
            bad(patch),
            StatusCode::BAD_REQUEST,
            code,
        )
        .await;
    }
    let (s, e) = a.get("/api/tournaments/nosuchthing").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found")),
        "{e}"
    );
    let (s, _) = a.get("/api/tournaments/..%2F").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // The creator may call a tournament off before it starts.
    let off = create(&a, rr.clone()).await;
    b.refused(
        &format!("/api/tournaments/{off}/cancel"),
        json!({}),
        StatusCode::FORBIDDEN,
        "not_creator",
    )
    .await;
    let t = a
        .post_ok(&format!("/api/tournaments/{off}/cancel"), json!({}))
        .await;
    assert_eq!(
        (t["status"].as_str(), t["you"]["can_join"].as_bool()),
        (Some("cancelled"), Some(false))
    );
    b.refused(
        &format!("/api/tournaments/{off}/join"),
        json!({}),
        StatusCode::CONFLICT,
        "not_open",
    )
    .await;
    let (_, lists) = a.get("/api/tournaments").await;
    for list in ["upcoming", "running", "finished"] {
        assert!(
            !lists[list]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["id"] == off.as_str())
        );
    }

    let id = create(&a, bad(json!({ "max_players": 2 }))).await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    guest
        .refused(
            &path("join"),
            json!({}),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
    a.refused(
        &path("start"),
        json!({}),
        StatusCode::CONFLICT,
        "not_enough_players",
    )
    .await;
    a.refused(
        &path("withdraw"),
        json!({}),
        StatusCode::CONFLICT,
        "not_joined",
    )
    .await;
    a.post_ok(&path("join"), json!({})).await;
    a.refused(
        &path("join"),
        json!({}),
        StatusCode::CONFLICT,
        "already_joined",
    )
    .await;
    // Withdraw and come back.
    a.post_ok(&path("withdraw"), json!({})).await;
    a.post_ok(&path("join"), json!({})).await;
    b.post_ok(&path("join"), json!({})).await;
    let c = Client::registered(&server, "bad").await;
    c.refused(
        &path("join"),
        json!({}),
        StatusCode::CONFLICT,
        "tournament_full",
    )
    .await;
    let (_, view) = c.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["you"]["can_join"], false);
    assert_eq!(view["players"], 2);
    let (_, view) = a.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["you"]["can_start"], true);
    let t = a.post_ok(&path("start"), json!({})).await;
    a.refused(
        &path("start"),
        json!({}),
        StatusCode::CONFLICT,
        "already_started",
    )
    .await;
    a.refused(
        &path("cancel"),
        json!({}),
        StatusCode::CONFLICT,
        "already_started",
    )
    .await;
    // Players cannot call a tournament game off.
    let game = boards(&t)[0]["game_id"].as_str().unwrap().to_string();
    a.refused(
        &format!("/api/games/{game}/abort"),
        json!({}),
        StatusCode::CONFLICT,
        "tournament_game",
    )
    .await;
    c.refused(&path("join"), json!({}), StatusCode::CONFLICT, "not_open")
        .await;
    b.refused(
        &path("withdraw"),
        json!({}),
        StatusCode::CONFLICT,
        "not_open",
    )
    .await;
    let (_, lists) = a.get("/api/tournaments").await;
    assert!(
        lists["running"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id.as_str() && x["players"] == 2)
    );
}

#[tokio::test]
async fn a_swiss_player_who_withdraws_is_not_paired_again() {
    let server = start().await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        clients.push(Client::registered(&server, "wd").await);
    }
    let id = create(
        &clients[0],
        json!({ "name": "Club swiss", "variant": "cambodian", "kind": "swiss", "rounds": 2 }),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for c in &clients {
        c.post_ok(&path("join"), json!({})).await;
    }
    let t = clients[0].post_ok(&path("start"), json!({})).await;
    assert_eq!(t["time_control"]["kind"], "correspondence");
    let quitter = &clients[3];
    let (_, view) = quitter.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["you"]["can_withdraw"], true);
    quitter.post_ok(&path("withdraw"), json!({})).await;
    quitter
        .refused(&path("join"), json!({}), StatusCode::CONFLICT, "not_open")
        .await;
    // The round goes on: the quitter's game too (White wins every game).
    let players: HashMap<String, &Client> = clients.iter().map(|c| (c.name(), c)).collect();
    for b in boards(&t) {
        settle(&players, &b, Some(&name_of(&b["white"]))).await;
    }
    let t = wait_for(&clients[0], &id, "round 2", |t| {
        t["pairings"].as_array().unwrap().len() == 2
    })
    .await;
    let round2 = t["pairings"][1]["boards"].as_array().unwrap();
    assert_eq!(round2.len(), 2, "one game and a bye among three: {t:#}");
    for b in round2 {
        assert_ne!(name_of(&b["white"]), quitter.name());
        assert!(b["black"].is_null() || name_of(&b["black"]) != quitter.name());
    }
    // Still in the standings with the result of round 1.
    assert_eq!(standing_of(&t, &quitter.name())["games"], 1);
}

#[tokio::test]
async fn a_swiss_everyone_left_ends_with_the_round_in_play() {
    let server = start().await;
    let (a, b, id, t) = started_swiss(&server, "Empty swiss", 3).await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    for p in [&a, &b] {
        p.post_ok(&path("withdraw"), json!({})).await;
    }
    let players: HashMap<String, &Client> = [&a, &b].iter().map(|p| (p.name(), *p)).collect();
    let board = &boards(&t)[0];
    settle(&players, board, Some(&name_of(&board["white"]))).await;
    let t = wait_for(&a, &id, "the end", |t| t["status"] != "running").await;
    assert_eq!(t["status"], "finished", "{t:#}");
    assert_eq!(boards(&t).len(), 1, "nobody left to pair: {t:#}");
}

#[tokio::test]
async fn a_restarted_server_carries_on_a_tournament_whose_last_game_ended_while_it_was_down() {
    let (url, _) = crate::common::test_database();
    let first = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let (a, b, id, t) = started_swiss(&first, "Restart swiss", 2).await;
    let players: HashMap<String, &Client> = [&a, &b].iter().map(|p| (p.name(), *p)).collect();
    settle(&players, &boards(&t)[0], Some(&a.name())).await;
    let t = wait_for(&a, &id, "round 2", |t| boards(t).len() == 2).await;
    let last = boards(&t)[1]["game_id"].as_str().unwrap().to_string();
    first.abort();
    drop(first);
    // The last game ends while no server runs (as if the server died right
    // after committing it).
    let db = thaiboard_server::db::open(&url).await.unwrap();
    white_won_offline(&db, &last).await;
    let second = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let watcher = Client::guest(&second).await;
    let t = wait_for(&watcher, &id, "the end after the restart", |t| {
        t["status"] == "finished"
    })
    .await;
    assert_eq!(t["pairings"].as_array().unwrap().len(), 2);
    assert!(
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["points"] == 1.0),
        "{t:#}"
    );
}

#[tokio::test]
async fn a_swiss_round_taken_but_never_paired_is_paired_after_a_restart() {
    let (url, _) = crate::common::test_database();
    let first = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let (_, _, id, t) = started_swiss(&first, "Half-paired swiss", 2).await;
    let game = boards(&t)[0]["game_id"].as_str().unwrap().to_string();
    first.abort();
    drop(first);
    // As if the server died between taking round 2's number and writing
    // its boards: round 1 is over, the round number says 2, no board does.
    let db = thaiboard_server::db::open(&url).await.unwrap();
    white_won_offline(&db, &game).await;
    sqlx::query("UPDATE tournaments SET current_round = 2 WHERE id = $1")
        .bind(&id)
        .execute(&db.pool)
        .await
        .unwrap();
    let second = thaiboard_server::Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let watcher = Client::guest(&second).await;
    let t = wait_for(&watcher, &id, "round 2 paired after the restart", |t| {
        t["pairings"].as_array().unwrap().len() == 2 || t["status"] != "running"
    })
    .await;
    assert_eq!(t["status"], "running", "{t:#}");
    assert_eq!(t["current_round"], 2, "{t:#}");
    let round2 = t["pairings"][1]["boards"].as_array().unwrap();
    assert_eq!(round2.len(), 1, "{t:#}");
    assert_eq!(round2[0]["status"], "ongoing", "{t:#}");
}

#[tokio::test]
async fn a_double_round_robin_of_three_has_byes_and_reversed_colours() {
    let server = start().await;
    let mut clients = Vec::new();
    for _ in 0..3 {
        clients.push(Client::registered(&server, "dr").await);
    }
    let id = create(
        &clients[0],
        json!({ "name": "Double round-robin", "variant": "makhos", "kind": "round_robin", "double": true }),
    )
    .await;
    for c in &clients {
        c.post_ok(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    let t = clients[0]
        .post_ok(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(t["rounds"], 2, "two cycles");
    let rounds = t["pairings"].as_array().unwrap();
    assert_eq!(rounds.len(), 6, "{t:#}");
    let mut colours: HashMap<(String, String), usize> = HashMap::new();
    let mut byes: HashMap<String, usize> = HashMap::new();
    for r in rounds {
        let boards = r["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 2, "a game and a bye: {r}");
        for b in boards {
            if b["black"].is_null() {
                *byes.entry(name_of(&b["white"])).or_default() += 1;
            } else {
                assert_eq!(b["status"], "ongoing", "every game starts at once");
                *colours
                    .entry((name_of(&b["white"]), name_of(&b["black"])))
                    .or_default() += 1;
            }
        }
    }
    assert_eq!(byes.len(), 3);
    assert!(byes.values().all(|&n| n == 2), "{byes:?}");
    // Each pair meets twice, once with each colour.
    assert_eq!(colours.len(), 6);
    for (w, b) in colours.keys() {
        assert!(colours.contains_key(&(b.clone(), w.clone())));
    }
}
