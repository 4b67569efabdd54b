//! The Bot API as lichess-bot and berserk use it: tokens, accounts, the
//! event and game streams, bot moves and challenges, and the bad input
//! each refused with a clear error that changes nothing.

use crate::common::bot::{Bot, answer, assert_refused, server_with_bot, token_of};
use crate::common::{Client, started_game};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn tokens_are_shown_once_stored_hashed_and_revocable() {
    let server = crate::common::start().await;
    let c = Client::registered(&server, "tok").await;
    let (token, id) = token_of(&c, &["bot:play", "challenge:read"]).await;
    assert!(token.starts_with("tbp_"));
    // Stored as its SHA-256 only.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM api_tokens")
        .fetch_all(&server.app.db.pool)
        .await
        .unwrap();
    assert!(stored.contains(&thaiboard_server::util::sha256_hex(&token)));
    assert!(!stored.contains(&token));
    // Listed without the token.
    let (s, list) = c.get("/api/account/tokens").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["scopes"], json!(["bot:play", "challenge:read"]));
    assert!(list[0].get("token").is_none(), "{list}");
    // Bad requests make nothing.
    for body in [
        json!({ "description": "x", "scopes": ["admin"] }),
        json!({ "description": "", "scopes": [] }),
        json!({ "description": "x" }),
    ] {
        let (s, _) = c.post("/api/account/tokens", body).await;
        assert!(s == StatusCode::BAD_REQUEST, "{s}");
    }
    let guest = Client::guest(&server).await;
    guest
        .refused(
            "/api/account/tokens",
            json!({ "description": "x", "scopes": [] }),
            StatusCode::FORBIDDEN,
            "account_required",
        )
        .await;
    let (_, list) = c.get("/api/account/tokens").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    // Revoked: the token no longer works; another user cannot revoke it.
    let bot = Bot {
        http: reqwest::Client::new(),
        base: c.base.clone(),
        token: token.clone(),
        name: c.name(),
    };
    assert_eq!(bot.get("/api/account").await.0, StatusCode::OK);
    let mut open_stream = bot.stream("/api/stream/event").await.unwrap();
    let other = Client::registered(&server, "other").await;
    let del = |who: &Client| {
        who.http
            .delete(format!("{}/api/account/tokens/{id}", who.base))
            .header("x-csrf-token", &who.csrf)
            .send()
    };
    assert_eq!(del(&other).await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(bot.get("/api/account").await.0, StatusCode::OK);
    assert_eq!(del(&c).await.unwrap().status(), StatusCode::OK);
    assert_refused(
        bot.get("/api/account").await,
        StatusCode::UNAUTHORIZED,
        "no_such_token",
    );
    // Its open stream ends at the next keep-alive.
    while let Some(line) = open_stream.line().await {
        assert_eq!(line, "", "only keep-alives before the end");
    }
}

#[tokio::test]
async fn wrong_missing_and_out_of_scope_tokens_are_refused_and_change_nothing() {
    let server = crate::common::start().await;
    let (reader, _) = Bot::new(&server, &["challenge:read"], false).await;
    // Out of scope: the upgrade needs bot:play.
    assert_refused(
        reader.post("/api/bot/account/upgrade").await,
        StatusCode::FORBIDDEN,
        "missing_scope",
    );
    let (_, me) = reader.get("/api/account").await;
    assert!(me.get("title").is_none(), "{me}");
    assert_refused(
        reader
            .post_form("/api/challenge/someone", "variant=makruk")
            .await,
        StatusCode::FORBIDDEN,
        "missing_scope",
    );
    let wrong = Bot {
        token: "tbp_0000".into(),
        ..reader
    };
    assert_refused(
        wrong.get("/api/account").await,
        StatusCode::UNAUTHORIZED,
        "no_such_token",
    );
    assert!(wrong.stream("/api/stream/event").await.is_err());
    let (s, v) = answer(
        reqwest::get(format!("{}/api/account", wrong.base))
            .await
            .unwrap(),
    )
    .await;
    assert_refused((s, v), StatusCode::UNAUTHORIZED, "no_token");
}

#[tokio::test]
async fn account_upgrade_and_token_test_answer_in_lichess_shape() {
    let server = crate::common::start().await;
    let (bot, _) = Bot::new(&server, &["bot:play"], false).await;
    let (s, me) = bot.get("/api/account").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(me["username"], bot.name.as_str());
    assert_eq!(me["id"], bot.name.to_lowercase());
    assert!(me.get("title").is_none());
    assert_eq!(bot.post("/api/bot/account/upgrade").await.0, StatusCode::OK);
    assert_eq!(bot.get("/api/account").await.1["title"], "BOT");
    // token/test: known tokens with their scopes, unknown ones null.
    let resp = reqwest::Client::new()
        .post(format!("{}/api/token/test", bot.base))
        .body(format!("{},nonsense", bot.token))
        .send()
        .await
        .unwrap();
    let (s, v) = answer(resp).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v[&bot.token]["userId"], bot.name.to_lowercase());
    assert_eq!(v[&bot.token]["scopes"], "bot:play");
    assert_eq!(v["nonsense"], Value::Null);
    // The engine's levels are bot accounts.
    let (_, engine) = bot.get("/api/user/engine-level-3").await;
    assert_eq!(engine["title"], "BOT");
    // An account that has played cannot become a bot.
    let (white, _, id) = started_game(&server, "makruk", json!({})).await;
    assert_eq!(
        white.get(&format!("/api/games/{id}")).await.1["status"],
        "ongoing"
    );
    let (token, _) = token_of(&white, &["bot:play"]).await;
    let played = Bot {
        token,
        name: white.name(),
        ..bot
    };
    assert_refused(
        played.post("/api/bot/account/upgrade").await,
        StatusCode::BAD_REQUEST,
        "has_played",
    );
    assert!(played.get("/api/account").await.1.get("title").is_none());
}

/// A human (session) challenges a bot; the bot hears it, accepts, plays
/// over its streams and resigns.
#[tokio::test]
async fn a_bot_accepts_a_challenge_and_plays_over_its_streams() {
    let (server, bot) = server_with_bot().await;
    let human = Client::registered(&server, "human").await;
    let mut events = bot.stream("/api/stream/event").await.unwrap();
    let id = human
        .challenge(json!({ "variant": "makruk", "color": "white", "opponent": bot.name }))
        .await;
    let challenge = events.next_of("challenge").await;
    assert_eq!(challenge["challenge"]["id"], id.as_str());
    assert_eq!(challenge["challenge"]["variant"]["key"], "makruk");
    assert_eq!(
        challenge["challenge"]["challenger"]["id"],
        human.name().to_lowercase()
    );
    assert_eq!(challenge["challenge"]["destUser"]["title"], "BOT");
    // Accepting another variant, or an unknown one, is refused; the challenge stays open.
    let accept = format!("/api/challenge/{id}/accept");
    assert_refused(
        bot.post_form(&accept, "variant=makhos").await,
        StatusCode::CONFLICT,
        "variant_mismatch",
    );
    assert_refused(
        bot.post_form(&accept, "variant=chess").await,
        StatusCode::BAD_REQUEST,
        "invalid_variant",
    );
    assert_eq!(
        human.get(&format!("/api/games/{id}")).await.1["status"],
        "open"
    );
    assert_eq!(
        bot.post_form(&accept, "variant=makruk").await.0,
        StatusCode::OK
    );
    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["id"], id.as_str());
    assert_eq!(start["game"]["color"], "black");
    assert_eq!(start["game"]["isMyTurn"], false);

    let path = format!("/api/bot/game/stream/{id}");
    let mut game = bot.stream(&path).await.unwrap();
    let full = game.next_of("gameFull").await;
    assert_eq!(full["id"], id.as_str());
    assert_eq!(full["variant"]["key"], "makruk");
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["black"]["title"], "BOT");
    assert_eq!(full["white"]["name"], human.name().as_str());
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");

    // Out of turn: refused, nothing changes.
    let mv = |m: &str| format!("/api/bot/game/{id}/move/{m}");
    assert_refused(
        bot.post(&mv("e6e5")).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    human
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    let state = game.next_of("gameState").await;
    assert_eq!(state["moves"], "e3e4");
    // Illegal and malformed moves: refused.
    assert_refused(
        bot.post(&mv("e6e3")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
    );
    assert_refused(
        bot.post(&mv("zz")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
    );
    assert_refused(
        bot.post(&format!("{}?offeringDraw=perhaps", mv("e6e5")))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_parameter",
    );
    // Another bot is not a player here.
    let (stranger, _) = Bot::new(&server, &["bot:play"], true).await;
    assert_refused(
        stranger.post(&mv("e6e5")).await,
        StatusCode::FORBIDDEN,
        "not_a_player",
    );
    assert_refused(
        stranger.stream(&path).await.err().unwrap(),
        StatusCode::FORBIDDEN,
        "not_a_player",
    );
    assert_eq!(human.get(&format!("/api/games/{id}")).await.1["ply"], 1);
    assert_eq!(bot.post(&mv("e6e5")).await.0, StatusCode::OK);
    assert_eq!(game.next_of("gameState").await["moves"], "e3e4 e6e5");

    // Chat: stored, streamed, and replayed on reconnection with gameFull.
    let chat = format!("/api/bot/game/{id}/chat");
    assert_eq!(
        bot.post_json(&chat, json!({ "room": "player", "text": "good luck" }))
            .await
            .0,
        StatusCode::OK
    );
    let line = game.next_of("chatLine").await;
    assert_eq!(
        (&line["text"], &line["room"]),
        (&json!("good luck"), &json!("player"))
    );
    assert_refused(
        bot.post_form(&chat, "room=lobby&text=hi").await,
        StatusCode::BAD_REQUEST,
        "invalid_room",
    );
    assert_refused(
        bot.post_form(&chat, &format!("text={}", "x".repeat(141)))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_text",
    );
    drop(game);
    let mut game = bot.stream(&path).await.unwrap();
    let full = game.next_of("gameFull").await;
    assert_eq!(full["state"]["moves"], "e3e4 e6e5");
    assert_eq!(game.next_of("chatLine").await["text"], "good luck");

    // Resigning ends the game stream and tells the event stream.
    assert_eq!(
        bot.post(&format!("/api/bot/game/{id}/resign")).await.0,
        StatusCode::OK
    );
    let end = game.next_of("gameState").await;
    assert_eq!(
        (&end["status"], &end["winner"]),
        (&json!("resign"), &json!("white"))
    );
    assert_eq!(game.line().await, None, "the stream ends with the game");
    let finish = events.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], id.as_str());
    assert_eq!(finish["game"]["winner"], "white");
}

/// A bot challenges a person; declining and cancelling are announced.
#[tokio::test]
async fn challenges_by_bots_are_checked_declined_and_cancelled() {
    let server = crate::common::start().await;
    let (bot, bot_client) = Bot::new(&server, &["bot:play"], true).await;
    let (person, _) = Bot::new(&server, &["challenge:read", "challenge:write"], false).await;
    let to = format!("/api/challenge/{}", person.name);
    for (form, status, code) in [
        ("variant=chess", StatusCode::BAD_REQUEST, "invalid_variant"),
        (
            "variant=makruk&rated=true",
            StatusCode::BAD_REQUEST,
            "rated_bot",
        ),
        ("rated=maybe", StatusCode::BAD_REQUEST, "invalid_parameter"),
        (
            "clock.limit=60&days=2",
            StatusCode::BAD_REQUEST,
            "invalid_time_control",
        ),
        (
            "clock.limit=sixty",
            StatusCode::BAD_REQUEST,
            "invalid_parameter",
        ),
        ("fen=8%2F8", StatusCode::BAD_REQUEST, "bad_fen"),
        ("color=purple", StatusCode::BAD_REQUEST, "invalid_color"),
    ] {
        assert_refused(bot.post_form(&to, form).await, status, code);
    }
    assert_refused(
        bot.post_body(&to, "application/json", "{not json").await,
        StatusCode::BAD_REQUEST,
        "malformed_json",
    );
    assert_refused(
        bot.post_form("/api/challenge/nobody-here", "variant=makruk")
            .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    let made: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE creator_id = $1")
        .bind(bot_client.user["id"].as_str().unwrap())
        .fetch_one(&server.app.db.pool)
        .await
        .unwrap();
    assert_eq!(made, 0, "nothing was made");

    let mut events = person.stream("/api/stream/event").await.unwrap();
    // berserk's JSON body, with its nulls.
    let (s, c) = bot
        .post_json(
            &to,
            json!({ "rated": false, "clock.limit": 300, "clock.increment": 2, "days": null,
                    "color": "white", "variant": "cambodian", "fen": null }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["variant"]["key"], "cambodian");
    assert_eq!(c["timeControl"]["limit"], 300);
    assert_eq!(c["speed"], "blitz", "300 s + 40 × 2 s");
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        events.next_of("challenge").await["challenge"]["id"],
        id.as_str()
    );
    // Only the invited player declines; only the challenger cancels.
    assert_refused(
        bot.post(&format!("/api/challenge/{id}/decline")).await,
        StatusCode::FORBIDDEN,
        "not_invited",
    );
    assert_refused(
        person.post(&format!("/api/challenge/{id}/cancel")).await,
        StatusCode::FORBIDDEN,
        "not_yours",
    );
    assert_refused(
        person
            .post_form(&format!("/api/challenge/{id}/decline"), "reason=bored")
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_reason",
    );
    assert_eq!(
        person
            .post_json(
                &format!("/api/challenge/{id}/decline"),
                json!({ "reason": "tooFast" })
            )
            .await
            .0,
        StatusCode::OK
    );
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(declined["challenge"]["declineReasonKey"], "tooFast");
    assert_refused(
        person.post(&format!("/api/challenge/{id}/accept")).await,
        StatusCode::CONFLICT,
        "not_open",
    );

    let (_, c) = bot.post_form(&to, "days=2&variant=makhos").await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(c["timeControl"]["daysPerTurn"], 2);
    events.next_of("challenge").await;
    assert_eq!(
        bot.post(&format!("/api/challenge/{id}/cancel")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        events.next_of("challengeCanceled").await["challenge"]["id"],
        id.as_str()
    );
}

/// Mak-hot moves in the engine form, and draws through `offeringDraw`.
#[tokio::test]
async fn makhos_engine_form_moves_and_draw_offers_with_a_move() {
    let (server, bot) = server_with_bot().await;
    let (human_bot, human) = Bot::new(&server, &["challenge:write"], false).await;
    let (_, c) = human_bot
        .post_form(
            &format!("/api/challenge/{}", bot.name),
            "variant=makhos&color=white",
        )
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        bot.post(&format!("/api/challenge/{id}/accept")).await.0,
        StatusCode::OK
    );
    let game_path = format!("/api/games/{id}");
    let view = |_: &Client| human.get(&game_path);
    let first = view(&human).await.1["legal"][0]["uci"]
        .as_str()
        .unwrap()
        .to_string();
    human
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": first }))
        .await;
    let reply = view(&human).await.1["legal"][0]["uci"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(reply.len(), 4, "engine form: {reply}");
    let (s, v) = bot
        .post(&format!(
            "/api/bot/game/{id}/move/{reply}?offeringDraw=true"
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, g) = view(&human).await;
    assert_eq!(
        (g["ply"].clone(), g["draw_offer"].clone()),
        (json!(2), json!("black"))
    );
    // The person moves on (declining) and offers a draw; the bot agrees
    // with offeringDraw instead of moving.
    let third = g["legal"][0]["uci"].as_str().unwrap().to_string();
    human
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": third }))
        .await;
    human
        .post_ok(
            &format!("/api/games/{id}/draw"),
            json!({ "action": "offer" }),
        )
        .await;
    let (_, g) = view(&human).await;
    let any = g["legal"][0]["uci"].as_str().unwrap().to_string();
    let (s, v) = bot
        .post(&format!("/api/bot/game/{id}/move/{any}?offeringDraw=true"))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, g) = view(&human).await;
    assert_eq!(
        (&g["status"], &g["result"], &g["ply"]),
        (&json!("finished"), &json!("1/2-1/2"), &json!(3)),
        "{g}"
    );
    let mut stream = bot
        .stream(&format!("/api/bot/game/stream/{id}"))
        .await
        .unwrap();
    let full = stream.next_of("gameFull").await;
    assert_eq!(full["variant"]["key"], "makhos");
    assert_eq!(full["state"]["status"], "draw");
    assert_eq!(full["state"]["moves"], format!("{first} {reply} {third}"));
}

#[tokio::test]
async fn bot_routes_need_a_bot_account() {
    let server = crate::common::start().await;
    let (player, _) = Bot::new(&server, &["bot:play"], false).await;
    let (white, _, id) = started_game(&server, "makruk", json!({})).await;
    drop(white);
    assert_refused(
        player.post(&format!("/api/bot/game/{id}/resign")).await,
        StatusCode::FORBIDDEN,
        "not_a_bot",
    );
    assert_refused(
        player
            .stream(&format!("/api/bot/game/stream/{id}"))
            .await
            .err()
            .unwrap(),
        StatusCode::FORBIDDEN,
        "not_a_bot",
    );
}

#[tokio::test]
async fn streams_per_token_are_limited_and_keep_alive() {
    let (server, bot) = server_with_bot().await;
    let max = thaiboard_server::MAX_STREAMS_PER_TOKEN;
    let mut open = Vec::new();
    for _ in 0..max {
        open.push(bot.stream("/api/stream/event").await.unwrap());
    }
    assert_refused(
        bot.stream("/api/stream/event").await.err().unwrap(),
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_streams",
    );
    // Another token of the same user has its own streams.
    let (other, _) = Bot::new(&server, &["bot:play"], true).await;
    assert!(other.stream("/api/stream/event").await.is_ok());
    // A closed stream frees its slot.
    drop(open.pop());
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if let Ok(s) = bot.stream("/api/stream/event").await {
            again = Some(s);
            break;
        }
    }
    let mut again = again.expect("the closed stream's slot is free again");
    // An idle stream sends keep-alive newlines.
    assert_eq!(again.line().await.as_deref(), Some(""));
}

/// Two bots in one game: when one's game stream closes, the other hears
/// `opponentGone`, and hears it end when the stream comes back.
#[tokio::test]
async fn a_bot_hears_when_its_opponents_stream_goes_and_comes_back() {
    let (server, white) = server_with_bot().await;
    let (black, _) = Bot::new(&server, &["bot:play"], true).await;
    let (_, c) = white
        .post_form(&format!("/api/challenge/{}", black.name), "color=white")
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        black.post(&format!("/api/challenge/{id}/accept")).await.0,
        StatusCode::OK
    );
    let path = format!("/api/bot/game/stream/{id}");
    let mut watching = white.stream(&path).await.unwrap();
    watching.next_of("gameFull").await;
    let theirs = black.stream(&path).await.unwrap();
    let back = watching.next_of("opponentGone").await;
    assert_eq!(back["gone"], false);
    drop(theirs);
    let gone = watching.next_of("opponentGone").await;
    assert_eq!(gone["gone"], true);
    let _theirs = black.stream(&path).await.unwrap();
    assert_eq!(watching.next_of("opponentGone").await["gone"], false);
}

#[tokio::test]
async fn a_bot_plays_people_in_casual_games_only() {
    let (server, bot) = server_with_bot().await;
    let human = Client::registered(&server, "human").await;
    // A live game would be rated between people; with a bot it is casual.
    let id = human
        .challenge(
            json!({ "variant": "makruk", "color": "white", "opponent": bot.name,
            "time_control": { "kind": "live", "minutes": 5, "increment": 0 } }),
        )
        .await;
    let (s, v) = bot.post(&format!("/api/challenge/{id}/accept")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, g) = human.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        (g["status"].as_str(), g["rated"].as_bool()),
        (Some("ongoing"), Some(false)),
        "{g}"
    );
    human
        .post_ok(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    let (_, p) = human.get(&format!("/api/users/{}", human.name())).await;
    assert_eq!(p["ratings"], json!([]), "no rating changed: {p}");
}

/// A stream opened while a challenge is being made hears it exactly once:
/// from the pending list or live, never both (issue 37, item 13). The race
/// is run again and again.
#[tokio::test]
async fn a_stream_opened_while_a_challenge_is_made_hears_it_once() {
    let (server, bot) = server_with_bot().await;
    let human = Client::registered(&server, "racer").await;
    for round in 0..200 {
        let body = json!({ "variant": "makruk", "color": "white", "opponent": bot.name });
        let (id, events) = tokio::join!(human.challenge(body), bot.stream("/api/stream/event"));
        let mut events = events.unwrap();
        assert_eq!(
            human
                .post(&format!("/api/games/{id}/cancel"), json!({}))
                .await
                .0,
            StatusCode::OK
        );
        let mut heard = 0;
        loop {
            let line = events.line().await.expect("stream ended");
            if line.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["challenge"]["id"] != id.as_str() {
                continue;
            }
            if v["type"] == "challenge" {
                heard += 1;
            }
            if v["type"] == "challengeCanceled" {
                break;
            }
        }
        // A bot hears of a challenge before it hears it cancelled.
        assert_eq!(
            heard, 1,
            "round {round}: challenge {id} cancelled before heard"
        );
        // Anything still on its way comes within a moment.
        while let Ok(Some(line)) =
            tokio::time::timeout(Duration::from_millis(20), events.line()).await
        {
            if line.contains(&id) && line.contains("\"type\":\"challenge\"") {
                heard += 1;
            }
        }
        assert_eq!(
            heard, 1,
            "round {round}: challenge {id} heard {heard} times"
        );
    }
}
