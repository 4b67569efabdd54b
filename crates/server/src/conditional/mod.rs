//! Conditional moves in correspondence games: "if they play X, I reply Y",
//! several plies deep.
//!
//! While waiting for the opponent, a player stores lines of alternating
//! moves, the opponent's first: `[X, Y, X2, Y2, ...]`. When the opponent's
//! move matches a line's first move, the server plays the player's reply
//! through the ordinary move path and keeps the rest of the matching lines;
//! lines that do not match are cancelled. Any other change of the game (a
//! move the lines did not foresee, the end of the game) cancels them too.
//!
//! - [`model`]: checking lines against a game and following them after a
//!   move, without I/O;
//! - [`store`]: every SQL statement of conditional moves, with bound parameters;
//! - [`routes`]: `GET` and `PUT /api/games/{id}/conditional`;
//! - here: the subscriber of the game service that plays the replies.

pub mod model;
pub mod routes;
pub mod store;

pub use routes::routes;

use crate::game::clock::TcKind;
use crate::game::{Action, ActionKind, Command, GameEvent, GameView, Games, Status};
use crate::infra::error::ApiResult;
use sqlx::AnyPool;
use std::sync::Arc;

/// Subscribes conditional moves to the game service: after every change of
/// a correspondence game, [`after_change`] runs in the background.
pub fn subscribe(games: &Arc<Games>) {
    let service = Arc::downgrade(games);
    games.subscribe(Box::new(move |event: &GameEvent| {
        if event.remote || event.game.time_control.kind != TcKind::Correspondence {
            return;
        }
        let Some(games) = service.upgrade() else {
            return;
        };
        let (view, action) = (event.game.clone(), event.action.clone());
        tokio::spawn(async move {
            let pool = games.db().pool.clone();
            let id = view.id.clone();
            if let Err(e) = after_change(games, pool, &view, action).await {
                eprintln!(
                    "thaiboard-server: conditional moves of game {id}: {}",
                    e.message
                );
            }
        });
    }));
}

/// After every committed change of a game: play the reply of a matching
/// line of the player now to move, and cancel what no longer applies.
pub async fn after_change(
    games: Arc<Games>,
    pool: AnyPool,
    view: &GameView,
    action: Option<Action>,
) -> ApiResult<()> {
    if view.time_control.kind != TcKind::Correspondence {
        return Ok(());
    }
    if view.status != Status::Ongoing {
        return store::delete_game(&pool, &view.id).await;
    }
    let Some(player) = view.player(view.turn) else {
        return Ok(());
    };
    let (base, lines) = store::load(&pool, &view.id, &player.id).await?;
    if lines.is_empty() {
        return Ok(());
    }
    let last = action.filter(|a| a.kind == ActionKind::Move).map(|a| a.uci);
    let Some((reply, rest)) = model::follow(lines, base, view.ply, last.as_deref()) else {
        return store::replace(&pool, &view.id, &player.id, 0, &[]).await;
    };
    // Store the rest first: the reply's own change runs this again for the opponent.
    store::replace(&pool, &view.id, &player.id, view.ply + 1, &rest).await?;
    let who = store::user(&pool, &player.id).await?;
    games
        .act(
            &who,
            &view.id,
            Command::Move {
                text: reply,
                ply: Some(view.ply),
            },
        )
        .await
        .map(|_| ())
}
