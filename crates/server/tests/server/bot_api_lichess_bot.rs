//! The Bot API beyond one game on one server: bots on several server
//! processes sharing PostgreSQL, the other routes lichess-bot calls, and
//! takeback answers.

use crate::common::Client;
use crate::common::bot::{Bot, assert_refused, server_with_bot};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use thaiboard_server::Server;

/// Two server processes on one PostgreSQL: a bot whose streams are open on
/// one hears challenges, declines, game starts, moves, chat lines and its
/// opponent's stream made through the other. Runs only when
/// `THAIBOARD_TEST_DATABASE_URL` names a PostgreSQL database.
#[tokio::test]
async fn a_bot_hears_what_happens_on_another_server_process() {
    let (url, _) = crate::common::test_database();
    if !url.starts_with("postgres") {
        eprintln!("skipped: THAIBOARD_TEST_DATABASE_URL is not a PostgreSQL URL");
        return;
    }
    let a = Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let b = Server::start(crate::common::test_config(&url))
        .await
        .unwrap();
    let (bot, bot_owner) = Bot::new(&a, &["bot:play"], true).await;
    let (rival_a, _) = Bot::new(&a, &["bot:play"], true).await;
    // The same accounts and tokens, through server B.
    let on_b = |x: &Bot| Bot {
        http: reqwest::Client::new(),
        base: format!("http://{}", b.addr),
        token: x.token.clone(),
        name: x.name.clone(),
    };
    let rival = on_b(&rival_a);
    let bot_b = on_b(&bot);
    let mut events = bot.stream("/api/stream/event").await.unwrap();

    // A challenge made on B, declined on B: A's stream hears both, with the reason.
    let (s, c) = rival
        .post_form(&format!("/api/challenge/{}", bot.name), "variant=cambodian")
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let heard = events.next_of("challenge").await;
    assert_eq!(heard["challenge"]["id"], id.as_str());
    assert_eq!(heard["challenge"]["variant"]["key"], "cambodian");
    let (s, v) = bot_b
        .post_form(&format!("/api/challenge/{id}/decline"), "reason=variant")
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(declined["challenge"]["id"], id.as_str());
    assert_eq!(declined["challenge"]["declineReasonKey"], "variant");

    // Another, accepted on B: gameStart on A.
    let (_, c) = rival
        .post_form(
            &format!("/api/challenge/{}", bot.name),
            "variant=makruk&color=white",
        )
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    events.next_of("challenge").await;
    assert_eq!(
        bot_b.post(&format!("/api/challenge/{id}/accept")).await.0,
        StatusCode::OK
    );
    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["id"], id.as_str());
    assert_eq!(start["game"]["color"], "black");

    // The bot's game stream on A follows the rival's moves, chat and stream on B.
    let path = format!("/api/bot/game/stream/{id}");
    let mut game = bot.stream(&path).await.unwrap();
    game.next_of("gameFull").await;
    let theirs = rival.stream(&path).await.unwrap();
    assert_eq!(game.next_of("opponentGone").await["gone"], false);
    assert_eq!(
        rival.post(&format!("/api/bot/game/{id}/move/e3e4")).await.0,
        StatusCode::OK
    );
    assert_eq!(game.next_of("gameState").await["moves"], "e3e4");
    assert_eq!(
        rival
            .post_json(
                &format!("/api/bot/game/{id}/chat"),
                json!({ "room": "player", "text": "from the other server" })
            )
            .await
            .0,
        StatusCode::OK
    );
    let chat = game.next_of("chatLine").await;
    assert_eq!(chat["text"], "from the other server");
    assert_eq!(chat["username"], rival.name.as_str());
    drop(theirs);
    assert_eq!(game.next_of("opponentGone").await["gone"], true);

    // The rival resigns on B: gameFinish on A.
    assert_eq!(
        rival.post(&format!("/api/bot/game/{id}/resign")).await.0,
        StatusCode::OK
    );
    let finish = events.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], id.as_str());

    // The bot's token revoked through server A: refused on B at once (B had
    // it cached), and B's open stream ends at its next keep-alive.
    let mut on_b = bot_b.stream("/api/stream/event").await.unwrap();
    assert_eq!(bot_b.get("/api/account").await.0, StatusCode::OK);
    let (_, tokens) = bot_owner.get("/api/account/tokens").await;
    let token_id = tokens[0]["id"].as_str().unwrap().to_string();
    let deleted = bot_owner
        .http
        .delete(format!("{}/api/account/tokens/{token_id}", bot_owner.base))
        .header("x-csrf-token", &bot_owner.csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    let mut refused = false;
    for _ in 0..50 {
        if bot_b.get("/api/account").await.0 == StatusCode::UNAUTHORIZED {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(refused, "the revoked token still works on server B");
    loop {
        match on_b.line().await {
            None => break,
            Some(line) => assert!(line.is_empty() || line.starts_with('{'), "{line}"),
        }
    }
}

/// What lichess-bot asks besides the game: its ongoing games, the bots
/// online, users' status and a game's PGN at lichess's address.
#[tokio::test]
async fn lichess_bot_lists_its_games_online_bots_and_statuses() {
    let (server, bot) = server_with_bot().await;
    let (rival, _) = Bot::new(&server, &["bot:play"], true).await;
    let (_, c) = rival
        .post_form(&format!("/api/challenge/{}", bot.name), "color=white")
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        bot.post(&format!("/api/challenge/{id}/accept")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        rival.post(&format!("/api/bot/game/{id}/move/e3e4")).await.0,
        StatusCode::OK
    );
    let (s, playing) = bot.get("/api/account/playing").await;
    assert_eq!(s, StatusCode::OK, "{playing}");
    let now = &playing["nowPlaying"][0];
    assert_eq!(now["gameId"], id.as_str());
    assert_eq!(now["color"], "black");
    assert_eq!(now["isMyTurn"], true);
    assert_eq!(now["lastMove"], "e3e4");
    assert_eq!(now["opponent"]["username"], rival.name.as_str());

    // Online: a bot with its event stream open.
    let (_, empty) = bot.get("/api/bot/online").await;
    assert_eq!(empty, Value::String(String::new()));
    let _events = bot.stream("/api/stream/event").await.unwrap();
    let (s, online) = bot.get("/api/bot/online").await;
    assert_eq!(s, StatusCode::OK);
    let line: Value =
        serde_json::from_str(online.as_str().unwrap_or(&online.to_string()).trim()).unwrap();
    assert_eq!(line["username"], bot.name.as_str());
    assert_eq!(line["title"], "BOT");
    let (s, _) = bot.get("/api/bot/online?nb=0").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    let (s, status) = bot
        .get(&format!(
            "/api/users/status?ids={},{},nobody",
            bot.name, rival.name
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{status}");
    let list = status.as_array().unwrap();
    assert_eq!(list.len(), 2, "unknown names are left out: {status}");
    assert_eq!(list[0]["online"], true);
    assert_eq!(list[0]["playing"], true);
    assert_eq!(list[1]["online"], false);
    let (s, _) = bot.get("/api/users/status").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    let pgn = reqwest::get(format!("{}/game/export/{id}", bot.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("1. e4"), "{pgn}");
    assert!(pgn.contains(&format!("/game/{id}\"]")), "{pgn}");
}

/// A person proposes a takeback in a casual game against a bot: the bot's
/// game stream shows it (`wtakeback`), and the bot answers yes through
/// lichess-bot's `takeback/{yes|no}`; nonsense answers are refused.
#[tokio::test]
async fn a_bot_answers_a_takeback_proposal() {
    let (server, bot) = server_with_bot().await;
    let human = Client::registered(&server, "human").await;
    let id = human
        .challenge(json!({ "variant": "makruk", "color": "white", "opponent": bot.name }))
        .await;
    assert_eq!(
        bot.post(&format!("/api/challenge/{id}/accept")).await.0,
        StatusCode::OK
    );
    let mut game = bot
        .stream(&format!("/api/bot/game/stream/{id}"))
        .await
        .unwrap();
    game.next_of("gameFull").await;
    human
        .post_ok(&format!("/api/games/{id}/move"), json!({ "move": "e3e4" }))
        .await;
    game.next_of("gameState").await;
    let tb = |a: &str| format!("/api/bot/game/{id}/takeback/{a}");
    assert_refused(
        bot.post(&tb("yes")).await,
        StatusCode::CONFLICT,
        "no_takeback_offer",
    );
    human
        .post_ok(
            &format!("/api/games/{id}/takeback"),
            json!({ "action": "offer" }),
        )
        .await;
    let state = game.next_of("gameState").await;
    assert_eq!(state["wtakeback"], true);
    assert_eq!(state["btakeback"], false);
    assert_refused(
        bot.post(&tb("maybe")).await,
        StatusCode::BAD_REQUEST,
        "invalid_parameter",
    );
    assert_eq!(bot.post(&tb("yes")).await.0, StatusCode::OK);
    let state = game.next_of("gameState").await;
    assert_eq!(state["moves"], "");
    assert_eq!(state["wtakeback"], false);
}
