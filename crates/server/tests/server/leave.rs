//! Leave for correspondence players and public/private games, against a
//! real server on loopback (SQLite, or PostgreSQL with
//! `THAIBOARD_TEST_DATABASE_URL`). Time is injected: the server's
//! `TimeSource` is moved forward by days at once, nothing sleeps for them.

use crate::common::{Client, own_database, started_game, test_config};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;
use thaiboard_server::TimeSource;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;

/// A server on `url` going by `time`, with `leave_days` of leave a year.
async fn start_on(url: &str, time: &TimeSource, leave_days: i64) -> Server {
    let mut config = test_config(url);
    config.time = time.clone();
    config.leave_days = leave_days;
    config.engine_searches = 0;
    Server::start(config).await.unwrap()
}

async fn start(time: &TimeSource, leave_days: i64) -> Server {
    start_on(&own_database().await, time, leave_days).await
}

/// Today in UTC by the server's time.
fn today(time: &TimeSource) -> Date {
    jiff::Timestamp::from_millisecond(time.now_ms())
        .unwrap()
        .to_zoned_datetime(TimeZone::UTC)
        .date()
}

/// The instant `date` begins in UTC, ms.
fn midnight(date: Date) -> i64 {
    date.to_zoned_datetime(TimeZone::UTC)
        .unwrap()
        .timestamp()
        .as_millisecond()
}

fn days_after(date: Date, days: i64) -> Date {
    date.checked_add(jiff::Span::new().days(days)).unwrap()
}

/// A correspondence game of three days a move (no increment) between two
/// new players, White to move.
async fn correspondence_game(server: &Server) -> (Client, Client, String) {
    started_game(
        server,
        "makruk",
        json!({ "time_control": { "kind": "correspondence", "days": 3, "increment_days": 0 } }),
    )
    .await
}

async fn view(c: &Client, id: &str) -> Value {
    let (status, g) = c.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g
}

/// The game once its status is `want` (the clock task runs on its own: a
/// few seconds at most).
async fn until_status(c: &Client, id: &str, want: &str) -> Value {
    for _ in 0..100 {
        let g = view(c, id).await;
        if g["status"] == want {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never became {want}: {}", view(c, id).await);
}

fn ms(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("a number: {v}"))
}

async fn book(c: &Client, from: Option<Date>, to: Date) -> (StatusCode, Value) {
    let mut body = json!({ "to": to.to_string() });
    if let Some(from) = from {
        body["from"] = json!(from.to_string());
    }
    c.post("/api/account/leave", body).await
}

async fn book_ok(c: &Client, from: Option<Date>, to: Date) -> Value {
    let (status, o) = book(c, from, to).await;
    assert_eq!(status, StatusCode::OK, "{o}");
    o
}

#[test]
fn leave_stops_a_correspondence_clock_and_moves_the_deadline_by_exactly_the_leave() {
    crate::common::one_at_a_time(
        leave_stops_a_correspondence_clock_and_moves_the_deadline_by_exactly_the_leave_body(),
    );
}

async fn leave_stops_a_correspondence_clock_and_moves_the_deadline_by_exactly_the_leave_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (white, black, id) = correspondence_game(&server).await;
    let started = ms(&view(&white, &id).await["clock"]["server_now"]);
    // White, to move, books tomorrow and the day after: exactly two days.
    let first = days_after(today(&time), 1);
    let o = book_ok(&white, Some(first), days_after(first, 1)).await;
    let period = &o["periods"][0];
    assert_eq!(period["days"], 2, "{o}");
    assert_eq!(period["state"], "booked");
    assert_eq!(ms(&period["from"]), midnight(first));
    assert_eq!(ms(&period["until"]), midnight(first) + 2 * DAY);
    assert_eq!(o["years"][0]["left"], 28, "{o}");
    // Both players' game page shows the coming pause and the leave.
    let g = view(&black, &id).await;
    assert_eq!(
        g["clock"]["pauses"],
        json!([{ "from": midnight(first), "until": midnight(first) + 2 * DAY }])
    );
    assert_eq!(g["leave"][0]["side"], "white", "{g}");
    assert_eq!(g["leave"][0]["ply"], 0);

    // Inside the leave the clock stands still.
    time.advance(midnight(first) + HOUR - time.now_ms());
    let a = ms(&view(&white, &id).await["clock"]["white_ms"]);
    time.advance(12 * HOUR);
    let b = ms(&view(&white, &id).await["clock"]["white_ms"]);
    assert_eq!(a, b, "no time runs on leave");

    // The three days run out two days late: one minute before, White still has it.
    let deadline = started + 3 * DAY + 2 * DAY;
    time.advance(deadline - MINUTE - time.now_ms());
    let g = view(&white, &id).await;
    assert_eq!(g["status"], "ongoing", "{g}");
    let left = ms(&g["clock"]["white_ms"]);
    assert!((MINUTE - 5_000..=MINUTE).contains(&left), "{left}");
    // And one minute after, the clock task ends the game on time.
    time.advance(2 * MINUTE);
    let g = until_status(&white, &id, "finished").await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("timeout"))
    );
}

#[test]
fn leave_stops_the_clock_of_the_opponent_whose_reply_is_due() {
    crate::common::one_at_a_time(leave_stops_the_clock_of_the_opponent_whose_reply_is_due_body());
}

async fn leave_stops_the_clock_of_the_opponent_whose_reply_is_due_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (white, black, id) = correspondence_game(&server).await;
    crate::common::play_moves(&white, &black, &id, &["e3e4"]).await;
    let turn = ms(&view(&black, &id).await["clock"]["server_now"]);
    // Black's reply is due in three days; White goes on leave at once until
    // the end of the day after tomorrow, over Black's deadline.
    let until = days_after(today(&time), 2);
    let o = book_ok(&white, None, until).await;
    assert_eq!(o["periods"][0]["state"], "running", "{o}");
    assert_eq!(o["periods"][0]["days"], 3);
    let on_leave = ms(&o["periods"][0]["from"]);
    let back = midnight(days_after(until, 1));
    assert_eq!(ms(&o["on_leave_until"]), back);
    // White's profile tells opponents.
    let (_, profile) = black.get(&format!("/api/users/{}", white.name())).await;
    assert_eq!(ms(&profile["leave"]["until"]), back, "{profile}");
    // In the one inclusive form the account page shows (issue 37, item 9).
    let days = &profile["leave_days"];
    assert_eq!(days["first_day"], o["periods"][0]["first_day"], "{profile}");
    assert_eq!(days["last_day"], until.to_string().as_str(), "{profile}");
    assert_eq!(days["last_day"], o["periods"][0]["last_day"]);
    assert_eq!(days["days"], 3);

    // Black's three days: what ran before the leave, then after it.
    let before = on_leave - turn;
    let deadline = back + 3 * DAY - before;
    time.advance(turn + 3 * DAY + HOUR - time.now_ms());
    assert_eq!(view(&black, &id).await["status"], "ongoing");
    time.advance(deadline - MINUTE - time.now_ms());
    let g = view(&black, &id).await;
    assert_eq!(g["status"], "ongoing", "{g}");
    let left = ms(&g["clock"]["black_ms"]);
    assert!((MINUTE - 5_000..=MINUTE).contains(&left), "{left}");
    // Black replies in time; the overview keeps the leave after White's move.
    crate::common::play_moves(&black, &white, &id, &["e6e5"]).await;
    let g = view(&white, &id).await;
    assert_eq!(g["leave"][0]["ply"], 1, "{g}");
    assert_eq!(g["status"], "ongoing");
}

#[test]
fn ending_leave_early_or_cancelling_it_gives_the_days_back_and_restarts_the_clock() {
    crate::common::one_at_a_time(
        ending_leave_early_or_cancelling_it_gives_the_days_back_and_restarts_the_clock_body(),
    );
}

async fn ending_leave_early_or_cancelling_it_gives_the_days_back_and_restarts_the_clock_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (white, _black, id) = correspondence_game(&server).await;
    let first_day = today(&time);
    let o = book_ok(&white, None, days_after(first_day, 4)).await;
    let running = o["periods"][0]["id"].as_str().unwrap().to_string();
    let later = days_after(today(&time), 20);
    let o = book_ok(&white, Some(later), days_after(later, 2)).await;
    assert_eq!(o["periods"].as_array().unwrap().len(), 2);
    let booked = o["periods"][1]["id"].as_str().unwrap().to_string();
    time.advance(HOUR);
    let paused = ms(&view(&white, &id).await["clock"]["white_ms"]);
    // Ending the running leave restarts the clock at once.
    let (status, o) = white
        .send(
            "DELETE",
            &format!("/api/account/leave/{running}"),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{o}");
    assert_eq!(o["periods"][0]["state"], "over");
    // Five days were booked; ended an hour in, it takes only the days it
    // touched (one, or two across midnight).
    let touched = if today(&time) == first_day { 1 } else { 2 };
    assert_eq!(o["periods"][0]["days"], touched, "{o}");
    assert!(o["on_leave_until"].is_null());
    time.advance(HOUR);
    let running_again = ms(&view(&white, &id).await["clock"]["white_ms"]);
    assert!(paused - running_again >= HOUR, "{paused} {running_again}");
    // Cancelling leave not begun removes it.
    let (status, o) = white
        .send("DELETE", &format!("/api/account/leave/{booked}"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{o}");
    assert_eq!(o["periods"].as_array().unwrap().len(), 1, "{o}");
    // Leave that is over cannot be changed; another player's is not found.
    let (status, e) = white
        .send(
            "DELETE",
            &format!("/api/account/leave/{running}"),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("leave_over"))
    );
    let stranger = Client::registered(&server, "stranger").await;
    let (status, _) = stranger
        .send(
            "DELETE",
            &format!("/api/account/leave/{running}"),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A first day `ahead` days from now whose `len` days stay in one year.
fn in_one_year(time: &TimeSource, ahead: i64, len: i64) -> Date {
    let first = days_after(today(&time.clone()), ahead);
    let last = days_after(first, len - 1);
    if first.year() == last.year() {
        first
    } else {
        Date::new(last.year(), 1, 2).unwrap()
    }
}

#[test]
fn the_yearly_allowance_runs_out_and_bad_bookings_change_nothing() {
    crate::common::one_at_a_time(
        the_yearly_allowance_runs_out_and_bad_bookings_change_nothing_body(),
    );
}

async fn the_yearly_allowance_runs_out_and_bad_bookings_change_nothing_body() {
    let time = TimeSource::default();
    let server = start(&time, 10).await;
    let player = Client::registered(&server, "leave").await;
    // Six days, then five more in the same year: one day too many.
    let first = in_one_year(&time, 7, 20);
    book_ok(&player, Some(first), days_after(first, 5)).await;
    let (status, before) = player.get("/api/account/leave").await;
    assert_eq!(status, StatusCode::OK, "{before}");
    assert_eq!(
        before["periods"].as_array().map(Vec::len),
        Some(1),
        "{before}"
    );
    let second = days_after(first, 10);
    let refused = |status: StatusCode, body: Value, words: &str| {
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["error"], "invalid_leave", "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(words), "{message:?} should say {words:?}");
    };
    let (s, e) = book(&player, Some(second), days_after(second, 4)).await;
    refused(
        s,
        e,
        &format!(
            "needs 5 days in {}, but you have 4 of 10 left",
            second.year()
        ),
    );
    // In the past.
    let (s, e) = book(&player, Some(days_after(today(&time), -1)), today(&time)).await;
    refused(s, e, "leave cannot start in the past");
    // Overlapping the leave booked.
    let (s, e) = book(&player, Some(days_after(first, 5)), days_after(first, 6)).await;
    refused(s, e, &format!("overlaps your leave from {first}"));
    // Longer than any allowance, and too far ahead.
    let (s, e) = book(&player, Some(days_after(first, 30)), days_after(first, 500)).await;
    refused(s, e, "one leave lasts at most 366 days");
    let far = days_after(today(&time), 400);
    let (s, e) = book(&player, Some(far), far).await;
    refused(s, e, "leave may start at most 365 days ahead");
    // Ends before it starts; a date that is none.
    let (s, e) = book(&player, Some(second), first).await;
    refused(s, e, "leave ends before it starts");
    let (s, e) = player
        .post(
            "/api/account/leave",
            json!({ "from": "2026-02-30", "to": "soon" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_date")),
        "{e}"
    );
    assert_eq!(
        e["message"],
        "from must be a date written YYYY-MM-DD, not \"2026-02-30\""
    );
    // None of it changed the leave booked.
    assert_eq!(player.get("/api/account/leave").await.1, before);
    // Four days still fit.
    book_ok(&player, Some(second), days_after(second, 3)).await;
    // Guests take no leave.
    let guest = Client::guest(&server).await;
    let (s, e) = book(&guest, None, today(&time)).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("account_required"))
    );
    let (s, e) = guest.get("/api/account/leave").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("account_required"))
    );
}

#[test]
fn days_are_counted_in_the_players_time_zone() {
    crate::common::one_at_a_time(days_are_counted_in_the_players_time_zone_body());
}

async fn days_are_counted_in_the_players_time_zone_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let player = Client::registered(&server, "tz").await;
    let (s, e) = player
        .send(
            "PUT",
            "/api/account/settings",
            json!({ "timeZone": "Mars/Olympus" }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_setting"))
    );
    let (s, settings) = player
        .send(
            "PUT",
            "/api/account/settings",
            json!({ "timeZone": "Asia/Bangkok" }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{settings}");
    let bangkok = TimeZone::get("Asia/Bangkok").unwrap();
    let first = days_after(today(&time), 3);
    let o = book_ok(&player, Some(first), first).await;
    assert_eq!(o["time_zone"], "Asia/Bangkok");
    let start = first
        .to_zoned_datetime(bangkok)
        .unwrap()
        .timestamp()
        .as_millisecond();
    assert_eq!(
        ms(&o["periods"][0]["from"]),
        start,
        "Bangkok's midnight, 17:00 UTC the day before"
    );
    assert_eq!(ms(&o["periods"][0]["until"]) - start, DAY);
}

#[test]
fn leave_survives_a_server_restart() {
    crate::common::one_at_a_time(leave_survives_a_server_restart_body());
}

async fn leave_survives_a_server_restart_body() {
    let time = TimeSource::default();
    let url = own_database().await;
    let server = start_on(&url, &time, 30).await;
    let (white, _black, id) = correspondence_game(&server).await;
    let started = ms(&view(&white, &id).await["clock"]["server_now"]);
    let o = book_ok(&white, None, days_after(today(&time), 1)).await;
    let back = ms(&o["periods"][0]["until"]);
    let taken = back - ms(&o["periods"][0]["from"]);
    time.advance(DAY);
    server.abort();
    let again = start_on(&url, &time, 30).await;
    let white = Client {
        base: format!("http://{}", again.addr),
        ..white
    };
    let g = view(&white, &id).await;
    assert_eq!(g["clock"]["pauses"][0]["until"], back, "{g}");
    // The first three days pass during and after the leave: not over yet.
    time.advance(started + 3 * DAY + MINUTE - time.now_ms());
    assert_eq!(view(&white, &id).await["status"], "ongoing");
    // The deadline is later by exactly the leave taken.
    time.advance(started + 3 * DAY + taken + MINUTE - time.now_ms());
    let g = until_status(&white, &id, "finished").await;
    assert_eq!(g["reason"], "timeout");
}

/// A round-robin of two new players with the `terms` asked (leave, public
/// games...), started: (its creator, the other player, the tournament).
async fn round_robin_of_two(server: &Server, terms: Value) -> (Client, Client, Value) {
    let a = Client::registered(server, "rra").await;
    let b = Client::registered(server, "rrb").await;
    let mut body = json!({ "name": "Leave cup", "variant": "makruk", "kind": "round_robin" });
    for (k, v) in terms.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (s, t) = a.post("/api/tournaments", body).await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_str().unwrap();
    for p in [&a, &b] {
        p.post_ok(&format!("/api/tournaments/{tid}/join"), json!({}))
            .await;
    }
    let started = a
        .post_ok(&format!("/api/tournaments/{tid}/start"), json!({}))
        .await;
    (a, b, started)
}

#[test]
fn a_tournament_that_forbids_leave_keeps_its_clocks_running() {
    crate::common::one_at_a_time(a_tournament_that_forbids_leave_keeps_its_clocks_running_body());
}

async fn a_tournament_that_forbids_leave_keeps_its_clocks_running_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (a, b, t) = round_robin_of_two(
        &server,
        json!({ "time_control": { "kind": "correspondence", "days": 3, "increment_days": 0 },
                "leave": "forbidden" }),
    )
    .await;
    assert_eq!(t["leave"], "forbidden");
    let board = &t["pairings"][0]["boards"][0];
    let cup_game = board["game_id"].as_str().unwrap().to_string();
    let white = if board["white"]["username"] == a.name() {
        &a
    } else {
        &b
    };
    // The same players' game outside the tournament.
    let other = if std::ptr::eq(white, &a) { &b } else { &a };
    let friendly = white
        .challenge(
            json!({ "variant": "makruk", "color": "white", "opponent": other.name(),
            "time_control": { "kind": "correspondence", "days": 3, "increment_days": 0 } }),
        )
        .await;
    other
        .post_ok(&format!("/api/games/{friendly}/accept"), json!({}))
        .await;
    book_ok(white, None, days_after(today(&time), 5)).await;
    assert!(
        view(white, &cup_game).await["clock"]["pauses"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    time.advance(3 * DAY + MINUTE);
    let g = until_status(white, &cup_game, "finished").await;
    assert_eq!(
        g["reason"], "timeout",
        "leave does not stop a no-leave tournament's clock"
    );
    assert_eq!(view(white, &friendly).await["status"], "ongoing");
    // An arena cannot take a leave rule.
    let (s, e) = a
        .post(
            "/api/tournaments",
            json!({ "name": "Blitz", "variant": "makruk", "kind": "arena",
                    "duration_minutes": 30, "leave": "capped", "leave_cap_days": 3 }),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_leave")),
        "{e}"
    );
}

/// The comment texts `c` reads in game `id`.
async fn texts(id: &str, c: &Client) -> Vec<String> {
    let (s, list) = c.get(&format!("/api/games/{id}/comments")).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap().to_string())
        .collect()
}

/// Game `id`'s record as `c` downloads it.
async fn pgn(id: &str, c: &Client) -> String {
    let (_, text) = c.get(&format!("/api/games/{id}/pgn")).await;
    text.as_str().unwrap_or_default().to_string()
}

#[test]
fn comments_reach_spectators_only_in_public_games() {
    crate::common::one_at_a_time(comments_reach_spectators_only_in_public_games_body());
}

async fn comments_reach_spectators_only_in_public_games_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (white, black, id) = correspondence_game(&server).await;
    crate::common::play_moves(&white, &black, &id, &["e3e4"]).await;
    white
        .post_ok(
            &format!("/api/games/{id}/comments"),
            json!({ "ply": 1, "text": "the bia goes first" }),
        )
        .await;
    let spectator = Client::registered(&server, "watcher").await;
    spectator
        .post_ok(
            &format!("/api/games/{id}/comments"),
            json!({ "ply": 1, "text": "my own note", "private": true }),
        )
        .await;
    let guest = Client::guest(&server).await;
    // Private game: the players read the comment, spectators and guests do not.
    assert_eq!(texts(&id, &black).await, ["the bia goes first"]);
    assert_eq!(texts(&id, &spectator).await, ["my own note"]);
    assert!(texts(&id, &guest).await.is_empty());
    assert!(!pgn(&id, &guest).await.contains("the bia goes first"));
    assert!(pgn(&id, &black).await.contains("the bia goes first"));
    // One mark is not enough; both make it public.
    let g = white
        .post_ok(
            &format!("/api/games/{id}/public"),
            json!({ "public": true }),
        )
        .await;
    assert_eq!(
        (g["public"].as_bool(), g["public_marks"].clone()),
        (Some(false), json!(["white"]))
    );
    assert!(texts(&id, &guest).await.is_empty());
    let g = black
        .post_ok(
            &format!("/api/games/{id}/public"),
            json!({ "public": true }),
        )
        .await;
    assert_eq!(g["public"], true);
    assert_eq!(texts(&id, &guest).await, ["the bia goes first"]);
    assert_eq!(
        texts(&id, &spectator).await,
        ["the bia goes first", "my own note"]
    );
    assert!(pgn(&id, &guest).await.contains("the bia goes first"));
    assert!(
        !pgn(&id, &guest).await.contains("my own note"),
        "private notes stay private"
    );
    // Taking a mark back makes it private again; spectators cannot mark.
    black
        .post_ok(
            &format!("/api/games/{id}/public"),
            json!({ "public": false }),
        )
        .await;
    assert!(texts(&id, &guest).await.is_empty());
    spectator
        .refused(
            &format!("/api/games/{id}/public"),
            json!({ "public": true }),
            StatusCode::FORBIDDEN,
            "not_a_player",
        )
        .await;
    // A live game has no public mark.
    let (lw, _lb, live) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "live", "minutes": 5 } }),
    )
    .await;
    lw.refused(
        &format!("/api/games/{live}/public"),
        json!({ "public": true }),
        StatusCode::BAD_REQUEST,
        "not_correspondence",
    )
    .await;
}

#[test]
fn a_public_tournaments_games_show_their_comments_to_everyone() {
    crate::common::one_at_a_time(a_public_tournaments_games_show_their_comments_to_everyone_body());
}

async fn a_public_tournaments_games_show_their_comments_to_everyone_body() {
    let time = TimeSource::default();
    let server = start(&time, 30).await;
    let (a, _b, t) = round_robin_of_two(&server, json!({ "public_games": true })).await;
    let game = t["pairings"][0]["boards"][0]["game_id"].as_str().unwrap();
    a.post_ok(
        &format!("/api/games/{game}/comments"),
        json!({ "ply": 0, "text": "good luck" }),
    )
    .await;
    let guest = Client::guest(&server).await;
    let (_, list) = guest.get(&format!("/api/games/{game}/comments")).await;
    assert_eq!(list[0]["text"], "good luck", "{list}");
    let g = view(&guest, game).await;
    assert_eq!(g["public"], true);
    a.refused(
        &format!("/api/games/{game}/public"),
        json!({ "public": false }),
        StatusCode::CONFLICT,
        "tournament_public",
    )
    .await;
}

#[test]
fn leave_booked_on_one_server_process_stops_the_clock_on_another() {
    crate::common::one_at_a_time(
        leave_booked_on_one_server_process_stops_the_clock_on_another_body(),
    );
}

async fn leave_booked_on_one_server_process_stops_the_clock_on_another_body() {
    // Server processes share games through PostgreSQL only.
    let url = own_database().await;
    if !url.starts_with("postgres") {
        eprintln!("skipped: needs THAIBOARD_TEST_DATABASE_URL=postgres://...");
        return;
    }
    let time = TimeSource::default();
    let a = start_on(&url, &time, 30).await;
    let b = start_on(&url, &time, 30).await;
    let (white, black, id) = correspondence_game(&a).await;
    let on_b = Client {
        base: format!("http://{}", b.addr),
        ..black
    };
    // B has the game in its cache, without pauses.
    assert!(
        view(&on_b, &id).await["clock"]["pauses"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let o = book_ok(&white, None, days_after(today(&time), 1)).await;
    let until = o["periods"][0]["until"].clone();
    for _ in 0..100 {
        let g = view(&on_b, &id).await;
        if g["clock"]["pauses"][0]["until"] == until {
            assert_eq!(g["leave"][0]["side"], "white");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server B never saw the leave: {}", view(&on_b, &id).await);
}
