//! Puzzle streaks kept on the server, and puzzles across server processes:
//! an account's run counts the rounds the server judged, in order and once
//! each, and its best streak is that count, never a number the client
//! sends; two servers on one PostgreSQL database agree on the daily puzzle
//! and see each other's rated rounds (skipped on SQLite, whose file one
//! server holds alone).

use crate::common::{Client, start};
use crate::puzzles::{solution, wrong_move};
use reqwest::StatusCode;
use serde_json::{Value, json};
use thaiboard_server::Server;

/// A new streak run: its id and its puzzles.
async fn new_run(c: &Client, variant: &str) -> (String, Vec<String>, Value) {
    let v = c
        .post_ok(&format!("/api/puzzle/streak?variant={variant}"), json!({}))
        .await;
    let run = v["run"].as_str().expect("an account's run").to_string();
    let ids = v["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    (run, ids, v)
}

/// Posts a round of run `run` on puzzle `id` with `moves`.
async fn round(c: &Client, run: &str, id: &str, moves: Vec<String>) -> (StatusCode, Value) {
    c.post(
        &format!("/api/puzzle/streak/{run}/round"),
        json!({ "puzzle": id, "moves": moves }),
    )
    .await
}

async fn solve(c: &Client, run: &str, id: &str) -> Value {
    let p = c.get_ok(&format!("/api/puzzle/{id}")).await;
    let (s, v) = round(c, run, id, solution(&p)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

async fn best(c: &Client, variant: &str) -> Value {
    c.get_ok(&format!("/api/puzzle/streak?variant={variant}"))
        .await["best"]
        .clone()
}

#[tokio::test]
async fn a_run_of_solved_rounds_then_a_failure_keeps_the_servers_count() {
    let server = start().await;
    let c = Client::registered(&server, "st").await;
    let (run, ids, started) = new_run(&c, "makruk").await;
    assert_eq!(started["best"], 0, "{started}");
    assert!(ids.len() > 5, "{started}");
    for (i, id) in ids.iter().take(2).enumerate() {
        let v = solve(&c, &run, id).await;
        assert_eq!(
            (
                &v["win"],
                &v["counted"],
                &v["score"],
                &v["best"],
                &v["over"]
            ),
            (
                &json!(true),
                &json!(true),
                &json!(i + 1),
                &json!(i + 1),
                &json!(false)
            ),
            "{v}"
        );
        assert_eq!(v["next"], ids[i + 1].as_str(), "{v}");
    }
    // A double click on the third round: both posts at once count once.
    let p3 = c.get_ok(&format!("/api/puzzle/{}", ids[2])).await;
    let (one, two) = tokio::join!(
        round(&c, &run, &ids[2], solution(&p3)),
        round(&c, &run, &ids[2], solution(&p3))
    );
    assert_eq!(
        (one.0, two.0),
        (StatusCode::OK, StatusCode::OK),
        "{one:?} {two:?}"
    );
    let counted = [&one.1, &two.1]
        .iter()
        .filter(|v| v["counted"] == true)
        .count();
    assert_eq!(counted, 1, "{one:?} {two:?}");
    assert_eq!((&one.1["score"], &two.1["score"]), (&json!(3), &json!(3)));
    // The same round once more, later: still 3.
    let again = solve(&c, &run, &ids[2]).await;
    assert_eq!(
        (&again["counted"], &again["score"]),
        (&json!(false), &json!(3))
    );
    // The first wrong move ends the run; the record is the server's count.
    let p4 = c.get_ok(&format!("/api/puzzle/{}", ids[3])).await;
    let (s, end) = round(&c, &run, &ids[3], vec![wrong_move(&p4)]).await;
    assert_eq!(s, StatusCode::OK, "{end}");
    assert_eq!(
        (
            &end["win"],
            &end["over"],
            &end["score"],
            &end["best"],
            &end["next"]
        ),
        (
            &json!(false),
            &json!(true),
            &json!(3),
            &json!(3),
            &Value::Null
        ),
        "{end}"
    );
    // The failed round sent twice counts once; nothing counts after it.
    let (s, twice) = round(&c, &run, &ids[3], vec![wrong_move(&p4)]).await;
    assert_eq!(
        (s, &twice["counted"], &twice["score"]),
        (StatusCode::OK, &json!(false), &json!(3))
    );
    let (s, e) = round(&c, &run, &ids[3], solution(&p4)).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("streak_over")),
        "{e}"
    );
    solve_refused(&c, &run, &ids[4], "streak_over").await;
    assert_eq!(best(&c, "makruk").await, 3);
    assert_eq!(best(&c, "makhos").await, 0, "each game has its own best");
    // A shorter run later keeps the record.
    let (run2, ids2, started) = new_run(&c, "makruk").await;
    assert_eq!(started["best"], 3);
    let v = solve(&c, &run2, &ids2[0]).await;
    assert_eq!((&v["score"], &v["best"]), (&json!(1), &json!(3)), "{v}");
    assert_eq!(best(&c, "makruk").await, 3);
    // An account keeps its newest five runs: a sixth forgets the oldest.
    for _ in 0..5 {
        new_run(&c, "makhos").await;
    }
    let p2 = c.get_ok(&format!("/api/puzzle/{}", ids2[1])).await;
    let (s, e) = round(&c, &run2, &ids2[1], solution(&p2)).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found")),
        "{e}"
    );
    // A guest's streak has no run and no best on the server.
    let guest = Client::guest(&server).await;
    let g = guest
        .post_ok("/api/puzzle/streak?variant=makruk", json!({}))
        .await;
    assert_eq!((&g["run"], &g["best"]), (&Value::Null, &Value::Null), "{g}");
    assert!(!g["puzzles"].as_array().unwrap().is_empty());
    // A theme no puzzle has: nothing to play, for anyone.
    for who in [&guest, &c] {
        who.refused(
            "/api/puzzle/streak?variant=makruk&theme=noSuchTheme77",
            json!({}),
            StatusCode::NOT_FOUND,
            "not_found",
        )
        .await;
    }
}

async fn solve_refused(c: &Client, run: &str, id: &str, code: &str) {
    let p = c.get_ok(&format!("/api/puzzle/{id}")).await;
    let (s, e) = round(c, run, id, solution(&p)).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some(code)),
        "{e}"
    );
    assert!(e["message"].as_str().unwrap().len() > 10, "{e}");
}

#[tokio::test]
async fn a_forged_streak_is_not_stored() {
    let server = start().await;
    let c = Client::registered(&server, "st").await;
    let (run, ids, _) = new_run(&c, "cambodian").await;
    let path = format!("/api/puzzle/streak/{run}/round");
    let p0 = c.get_ok(&format!("/api/puzzle/{}", ids[0])).await;
    // A score, or a result, the client claims: refused, the body has no such field.
    for body in [
        json!({ "puzzle": ids[0], "moves": solution(&p0), "score": 40 }),
        json!({ "puzzle": ids[0], "win": true }),
        json!({ "puzzle": ids[0] }),
    ] {
        c.refused(&path, body, StatusCode::BAD_REQUEST, "malformed_json")
            .await;
    }
    // Skipping ahead, a puzzle of another run, an unfinished solution, a
    // made-up run, a run id that cannot be one.
    solve_refused(&c, &run, &ids[5], "not_next").await;
    let other = c.get_ok("/api/puzzle/next?variant=makruk").await;
    solve_refused(
        &c,
        &run,
        other["puzzle"]["id"].as_str().unwrap(),
        "not_in_run",
    )
    .await;
    let sol = solution(&p0);
    if sol.len() > 1 {
        c.refused(
            &path,
            json!({ "puzzle": ids[0], "moves": [sol[0]] }),
            StatusCode::BAD_REQUEST,
            "bad_moves",
        )
        .await;
    }
    c.refused(
        "/api/puzzle/streak/abcdefghijklmnop/round",
        json!({ "puzzle": ids[0], "moves": sol }),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    c.refused(
        "/api/puzzle/streak/no!run/round",
        json!({ "puzzle": ids[0], "moves": sol }),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    // Someone else's run, a guest, no CSRF token.
    let eve = Client::registered(&server, "eve").await;
    eve.refused(
        &path,
        json!({ "puzzle": ids[0], "moves": sol }),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    let guest = Client::guest(&server).await;
    guest
        .refused(
            &path,
            json!({ "puzzle": ids[0], "moves": sol }),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
    let (s, e) = c
        .post_raw(
            &path,
            None,
            json!({ "puzzle": ids[0], "moves": sol }).to_string(),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf")),
        "{e}"
    );
    let (s, e) = c
        .post_raw("/api/puzzle/streak?variant=makruk", None, "{}".into())
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf")),
        "{e}"
    );
    // Nothing of that counted.
    assert_eq!(best(&c, "cambodian").await, 0);
    assert_eq!(best(&eve, "cambodian").await, 0);
    // The run itself still works: its first puzzle, solved, counts one.
    let v = solve(&c, &run, &ids[0]).await;
    assert_eq!((&v["score"], &v["best"]), (&json!(1), &json!(1)), "{v}");
    assert_eq!(best(&c, "cambodian").await, 1);
}

/// `c`'s browser (its cookies and CSRF token) talking to `server`.
fn same_browser_on(c: &Client, server: &Server) -> Client {
    Client {
        http: c.http.clone(),
        jar: c.jar.clone(),
        base: format!("http://{}", server.addr),
        csrf: c.csrf.clone(),
        user: c.user.clone(),
    }
}

/// Two server processes on one PostgreSQL database: the same daily puzzle
/// of every game (on a day neither chose before, asked of both at once, and
/// on the next day), a rated round through one seen (plays, ratings) through
/// the other, a streak run started on one and counted on the other. Runs
/// only when `THAIBOARD_TEST_DATABASE_URL` names a PostgreSQL database.
#[tokio::test]
async fn two_servers_on_one_database_agree_on_dailies_and_rounds() {
    // Both go by one clock, moved on a day below, on a database no other
    // test's server shares (its dailies are theirs alone).
    let url = crate::common::own_database().await;
    if !url.starts_with("postgres") {
        eprintln!("skipped: THAIBOARD_TEST_DATABASE_URL is not a PostgreSQL URL");
        return;
    }
    let time = thaiboard_server::TimeSource::default();
    let config = || {
        let mut c = crate::common::test_config(&url);
        c.time = time.clone();
        c
    };
    let one = Server::start(config()).await.unwrap();
    let two = Server::start(config()).await.unwrap();
    let a = Client::registered(&one, "pg2").await;
    let b = same_browser_on(&a, &two);
    for variant in ["makruk", "cambodian", "makhos"] {
        let path = format!("/api/puzzle/daily?variant={variant}");
        // Asked of both at once, and again.
        let (x, y) = tokio::join!(a.get_ok(&path), b.get_ok(&path));
        assert_eq!(x["puzzle"]["id"], y["puzzle"]["id"], "{variant}");
        assert_eq!(b.get_ok(&path).await["puzzle"]["id"], x["puzzle"]["id"]);
        // A rated round through the first, seen through the second.
        let id = x["puzzle"]["id"].as_str().unwrap();
        let r = a
            .post_ok(
                &format!("/api/puzzle/{id}/round"),
                json!({ "moves": solution(&x) }),
            )
            .await;
        assert_eq!(r["round"]["rated"], true, "{r}");
        let seen = b.get_ok(&format!("/api/puzzle/{id}")).await;
        assert_eq!(seen["puzzle"]["plays"], r["puzzle"]["plays"], "{seen} {r}");
        assert_eq!(
            seen["puzzle"]["rating"], r["puzzle"]["rating"],
            "{seen} {r}"
        );
        assert_eq!(seen["user"]["rating"], r["user"]["rating"], "{seen} {r}");
        // The same round through the second server counts nothing.
        let again = b
            .post_ok(
                &format!("/api/puzzle/{id}/round"),
                json!({ "moves": solution(&x) }),
            )
            .await;
        assert_eq!(again["round"]["rated"], false, "{again}");
        assert_eq!(again["puzzle"]["plays"], r["puzzle"]["plays"]);
    }
    // The next day, both change to the same new dailies.
    time.advance(86_400_000);
    for variant in ["makruk", "cambodian", "makhos"] {
        let path = format!("/api/puzzle/daily?variant={variant}");
        let (x, y) = tokio::join!(b.get_ok(&path), a.get_ok(&path));
        assert_eq!(x["puzzle"]["id"], y["puzzle"]["id"], "{variant}");
    }
    let (run, ids, _) = new_run(&a, "makhos").await;
    assert_eq!(solve(&b, &run, &ids[0]).await["score"], 1);
    assert_eq!(solve(&a, &run, &ids[0]).await["counted"], false);
    assert_eq!(best(&a, "makhos").await, 1);
}
