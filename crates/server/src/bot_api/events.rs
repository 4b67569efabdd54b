//! The event stream `GET /api/stream/event`: ndjson lines `gameStart`,
//! `gameFinish`, `challenge`, `challengeCanceled` and `challengeDeclined` in
//! lichess's shapes, with a keep-alive newline every few seconds. On
//! connecting, a client first hears its ongoing games and open challenges
//! (as lichess does); then [`subscribe`] turns the game service's events
//! into lines for the players who have a stream open in this process.

use super::hub::{BotHub, UserLine};
use super::tokens::{Bearer, ChallengeRead};
use super::{ndjson, shapes, store, too_many_streams};
use crate::AppState;
use crate::game::{GameEvent, GameView, Games, Status};
use crate::infra::db::Db;
use crate::infra::error::ApiResult;
use axum::extract::State;
use axum::response::Response;
use games::Color;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

/// `gameStart` or `gameFinish` lines of `view`, one per player: (user id, line).
async fn game_lines(db: &Db, kind: &str, view: &GameView) -> ApiResult<Vec<(String, Value)>> {
    let mut lines = Vec::new();
    for side in Color::BOTH {
        let (Some(me), Some(opponent)) = (view.player(side), view.player(side.other())) else {
            continue;
        };
        let opponent_bot = store::is_bot(db, &opponent.id).await?;
        let game = shapes::event_game(view, side, opponent_bot);
        lines.push((me.id.clone(), json!({ "type": kind, "game": game })));
    }
    Ok(lines)
}

/// A challenge line about the open (or just closed) challenge `view`, and
/// the ids of the two players it concerns; `None` for an open challenge
/// to anyone (the lobby's).
async fn challenge_line(
    db: &Db,
    kind: &str,
    view: &GameView,
    status: &str,
) -> ApiResult<Option<([String; 2], Value)>> {
    let Some(dest) = store::invited(db, &view.id).await? else {
        return Ok(None);
    };
    let bots = (
        store::is_bot(db, &view.creator.id).await?,
        store::is_bot(db, &dest.id).await?,
    );
    let challenge = shapes::challenge(view, &(&dest).into(), bots, status);
    let mut line = json!({ "type": kind, "challenge": challenge });
    if kind == "challengeDeclined" {
        line["challenge"]["declineReason"] = json!("The challenge was declined.");
        line["challenge"]["declineReasonKey"] = json!("generic");
    }
    Ok(Some(([view.creator.id.clone(), dest.id], line)))
}

/// Hands what the game service publishes to the event streams: a new
/// challenge, a closed one, a started game, a finished one.
///
/// The lines are made (which reads the database) one event after another,
/// on one task, in the order the events were published: a bot never hears
/// a challenge cancelled before it hears the challenge, nor a game finish
/// before its start.
pub fn subscribe(games: &Arc<Games>, bots: Arc<BotHub>) {
    let db = games.db().clone();
    let (queue, mut queued) = mpsc::unbounded_channel::<Announcement>();
    let announcer = bots.clone();
    tokio::spawn(async move {
        while let Some(next) = queued.recv().await {
            if let Err(e) = announce(&db, &announcer, &next).await {
                eprintln!("thaiboard-server: bot event of game {}: {e}", next.view.id);
            }
        }
    });
    games.subscribe(Box::new(move |event: &GameEvent| {
        let view = &event.game;
        if event.ended() {
            bots.forget_started(&view.id);
        }
        // Game lines go to the players; whether one listens is known at
        // once (challenges need the invited player, looked up below).
        let listened = || {
            [view.white.as_ref(), view.black.as_ref()]
                .into_iter()
                .flatten()
                .any(|p| bots.listens(&p.id))
        };
        let declined = match view.status {
            Status::Cancelled => bots.take_declining(&view.id),
            _ => None,
        };
        let what = match view.status {
            Status::Open => ("challenge", "created"),
            Status::Cancelled if declined.is_some() => ("challengeDeclined", "declined"),
            Status::Cancelled => ("challengeCanceled", "canceled"),
            Status::Ongoing if listened() && bots.mark_started(&view.id) => ("gameStart", ""),
            Status::Ongoing => return,
            Status::Finished | Status::Aborted if listened() => ("gameFinish", ""),
            Status::Finished | Status::Aborted => return,
        };
        // Fails only once the announcer has stopped, with the server.
        let _ = queue.send(Announcement {
            what,
            declined,
            view: view.clone(),
        });
    }));
}

/// An event waiting for its lines to be made and sent: its kind and status
/// (see [`announce`]), a decline's reason, and the game.
struct Announcement {
    what: (&'static str, &'static str),
    declined: Option<String>,
    view: Arc<GameView>,
}

/// Makes the lines of `next` and sends them to the users they concern.
async fn announce(db: &Db, bots: &BotHub, next: &Announcement) -> ApiResult<()> {
    let ((kind, status), view) = (next.what, &*next.view);
    let lines = if status.is_empty() {
        game_lines(db, kind, view).await?
    } else {
        match challenge_line(db, kind, view, status).await? {
            Some((ids, mut line)) => {
                if let Some(reason) = &next.declined {
                    line["challenge"]["declineReasonKey"] = json!(reason);
                }
                ids.into_iter().map(|id| (id, line.clone())).collect()
            }
            None => Vec::new(),
        }
    };
    for (user_id, line) in lines {
        let about = format!("{kind} {}", view.id);
        let line = format!("{line}\n");
        bots.send_user(&user_id, UserLine { about, line });
    }
    Ok(())
}

/// `GET /api/stream/event`: the token's user's events, as ndjson.
pub async fn stream(
    State(app): State<AppState>,
    auth: Bearer<ChallengeRead>,
) -> ApiResult<Response> {
    let slot = app
        .bots
        .open_stream(&auth.token.id)
        .ok_or_else(too_many_streams)?;
    // Subscribed before reading what is pending, so that nothing falls
    // between; what the pending list sent is skipped when its live line
    // comes (a challenge made, or a game started, while the list was read).
    let mut rx = app.bots.subscribe_user(&auth.user.id);
    let (games, challenges) = store::pending_of(&app.db, &auth.user.id).await?;
    let mut sent: HashSet<String> = HashSet::new();
    let mut first = Vec::new();
    for id in games {
        let view = app.games.view(&id, true).await?;
        app.bots.mark_started(&id);
        let mine = game_lines(&app.db, "gameStart", &view).await?;
        sent.insert(format!("gameStart {id}"));
        first.extend(
            mine.into_iter()
                .filter(|(u, _)| *u == auth.user.id)
                .map(|(_, l)| l),
        );
    }
    for id in challenges {
        let view = app.games.view(&id, false).await?;
        if let Some((_, line)) = challenge_line(&app.db, "challenge", &view, "created").await? {
            sent.insert(format!("challenge {id}"));
            first.push(line);
        }
    }
    let token_id = auth.token.id.clone();
    Ok(ndjson::response(slot, move |lines| async move {
        for line in &first {
            if !lines.send(line).await {
                return;
            }
        }
        let mut timer = ndjson::keep_alive_timer();
        loop {
            let alive = tokio::select! {
                event = rx.recv() => match event {
                    // Sent already from the pending list: skipped, once.
                    Ok(live) if sent.remove(&live.about) => true,
                    Ok(live) => lines.send_text(live.line).await,
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => false,
                },
                _ = timer.tick() => ndjson::keep_alive_while(&lines, &app, &token_id).await,
                _ = lines.closed() => false,
            };
            if !alive {
                return;
            }
        }
    }))
}
