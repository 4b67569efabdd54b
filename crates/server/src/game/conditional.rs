//! Conditional moves in correspondence games: "if they play X, I reply Y",
//! several plies deep.
//!
//! While waiting for the opponent, a player stores lines of alternating
//! moves, the opponent's first: `[X, Y, X2, Y2, ...]`. When the opponent's
//! move matches a line's first move, the server plays the player's reply
//! through the ordinary move path and keeps the rest of the matching lines;
//! lines that do not match are cancelled. Any other change of the game (a
//! move the lines did not foresee, the end of the game) cancels them too.

use crate::AppState;
use crate::account::auth::{Actor, User, Viewer};
use crate::game::clock::TcKind;
use crate::game::{Action, ActionKind, Command, GameEvent, GameView, Games, Status, ThaiText};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::{Body, check_id};
use axum::extract::{Path, State};
use axum::{Json, Router, routing::get};
use games::{AnyGame, Color};
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use std::sync::Arc;

/// Most lines per player and game.
pub const MAX_LINES: usize = 16;
/// Most plies in a line.
pub const MAX_LINE_PLIES: usize = 20;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/games/{id}/conditional", get(mine).put(set))
}

/// My conditional lines in a game.
#[derive(Debug, Serialize)]
pub struct Conditional {
    /// The number of moves made when the lines start (the opponent's move
    /// comes next).
    pub ply: u32,
    /// Each line: the opponent's move, my reply, and so on (engine form).
    pub lines: Vec<Vec<String>>,
    /// The same lines in display form.
    pub display: Vec<Vec<String>>,
    /// The same lines in Thai notation.
    pub display_thai: Vec<Vec<ThaiText>>,
}

/// `PUT /api/games/{id}/conditional` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetConditional {
    /// The lines (replacing any stored ones); moves in any accepted notation.
    pub lines: Vec<Vec<String>>,
}

async fn load(pool: &AnyPool, game: &str, user: &str) -> ApiResult<(u32, Vec<Vec<String>>)> {
    let rows = sqlx::query(
        "SELECT base_ply, line FROM conditional_moves WHERE game_id = $1 AND user_id = $2 ORDER BY seq",
    )
    .bind(game)
    .bind(user)
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?;
    let mut base = 0;
    let mut lines = Vec::new();
    for r in rows {
        base = r.try_get::<i64, _>(0).map_err(ApiError::internal)? as u32;
        let line: String = r.try_get(1).map_err(ApiError::internal)?;
        lines.push(line.split_whitespace().map(str::to_string).collect());
    }
    Ok((base, lines))
}

async fn store(
    pool: &AnyPool,
    game: &str,
    user: &str,
    base: u32,
    lines: &[Vec<String>],
) -> ApiResult<()> {
    let mut tx = pool.begin().await.map_err(ApiError::internal)?;
    sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND user_id = $2")
        .bind(game)
        .bind(user)
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    for (seq, line) in lines.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        sqlx::query(
            "INSERT INTO conditional_moves (game_id, user_id, seq, base_ply, line) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game)
        .bind(user)
        .bind(seq as i64)
        .bind(i64::from(base))
        .bind(line.join(" "))
        .execute(&mut *tx)
        .await
        .map_err(ApiError::internal)?;
    }
    tx.commit().await.map_err(ApiError::internal)
}

/// Lines of moves.
type Lines = Vec<Vec<String>>;

/// Lines checked: in engine form, in display form, in Thai notation.
type Checked = (Lines, Lines, Vec<Vec<ThaiText>>);

/// Replays a game's moves and then each line, normalising moves to engine
/// form; returns the lines and their display forms, or why one is refused.
fn check_lines(view: &GameView, lines: &[Vec<String>]) -> Result<Checked, String> {
    let mut current = AnyGame::new_declared(view.kind);
    for a in view.actions.iter().flatten() {
        a.replay(&mut current).map_err(|e| e.to_string())?;
    }
    let mut out = Vec::new();
    let mut display = Vec::new();
    let mut display_thai = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.is_empty() || line.len() > MAX_LINE_PLIES || line.len() % 2 != 0 {
            return Err(format!(
                "line {}: give pairs of moves (theirs, then your reply), 2 to {MAX_LINE_PLIES} moves",
                i + 1
            ));
        }
        let mut g = current.clone();
        let (mut norm, mut shown, mut thai) = (Vec::new(), Vec::new(), Vec::new());
        for (k, text) in line.iter().enumerate() {
            if g.outcome().is_some() {
                return Err(format!(
                    "line {}, move {}: the game is over before it",
                    i + 1,
                    k + 1
                ));
            }
            let m = g
                .parse_text(text)
                .map_err(|e| format!("line {}, move {} ({text:?}): {e}", i + 1, k + 1))?;
            shown.push(g.display_move(&m));
            thai.push(ThaiText::of(&g.position(), &m));
            g.play(&m).map_err(|e| e.to_string())?;
            norm.push(m.to_engine());
        }
        out.push(norm);
        display.push(shown);
        display_thai.push(thai);
    }
    // Lines that agree up to one of the opponent's moves must agree on the reply.
    for a in 0..out.len() {
        for b in a + 1..out.len() {
            let same = out[a]
                .iter()
                .zip(&out[b])
                .take_while(|(x, y)| x == y)
                .count();
            if same % 2 == 1 && same < out[a].len() && same < out[b].len() {
                return Err(format!(
                    "lines {} and {} answer the same move differently",
                    a + 1,
                    b + 1
                ));
            }
        }
    }
    Ok((out, display, display_thai))
}

/// `GET /api/games/{id}/conditional`: my lines.
async fn mine(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Conditional>> {
    check_id(&id)?;
    let s = s.ok_or_else(|| {
        ApiError::unauthorized(
            "no_session",
            "no valid session: call GET /api/session first",
        )
    })?;
    let view = app.games.view_for(&id, true, &s.user.id).await?;
    let (ply, lines) = load(&app.db.pool, &id, &s.user.id).await?;
    let (display, display_thai) = check_lines(&view, &lines)
        .map(|(_, d, t)| (d, t))
        .unwrap_or_default();
    Ok(Json(Conditional {
        ply,
        lines,
        display,
        display_thai,
    }))
}

/// `PUT /api/games/{id}/conditional`: replace my lines (empty to cancel).
async fn set(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
    Body(req): Body<SetConditional>,
) -> ApiResult<Json<Conditional>> {
    check_id(&id)?;
    let view = app.games.view_for(&id, true, &s.user.id).await?;
    let side = if view.white.as_ref().is_some_and(|p| p.id == s.user.id) {
        Color::White
    } else if view.black.as_ref().is_some_and(|p| p.id == s.user.id) {
        Color::Black
    } else {
        return Err(ApiError::forbidden(
            "not_a_player",
            "only the game's players set conditional moves",
        ));
    };
    if view.status != Status::Ongoing || view.time_control.kind != TcKind::Correspondence {
        return Err(ApiError::conflict(
            "not_correspondence",
            "conditional moves are for ongoing correspondence games",
        ));
    }
    if view.turn == side && !req.lines.is_empty() {
        return Err(ApiError::conflict(
            "your_move",
            "it is your move: play it, then set conditional moves for the replies",
        ));
    }
    if req.lines.len() > MAX_LINES {
        return Err(ApiError::bad_request(
            "bad_conditional",
            format!("at most {MAX_LINES} lines"),
        ));
    }
    let (lines, display, display_thai) =
        check_lines(&view, &req.lines).map_err(|e| ApiError::bad_request("bad_conditional", e))?;
    store(&app.db.pool, &id, &s.user.id, view.ply, &lines).await?;
    Ok(Json(Conditional {
        ply: view.ply,
        lines,
        display,
        display_thai,
    }))
}

async fn user(pool: &AnyPool, id: &str) -> ApiResult<User> {
    let r = sqlx::query("SELECT id, username, is_guest FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .map_err(ApiError::internal)?;
    Ok(User {
        id: r.try_get(0).map_err(ApiError::internal)?,
        username: r.try_get(1).map_err(ApiError::internal)?,
        guest: r.try_get::<i64, _>(2).map_err(ApiError::internal)? != 0,
    })
}

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
        sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1")
            .bind(&view.id)
            .execute(&pool)
            .await
            .map_err(ApiError::internal)?;
        return Ok(());
    }
    let Some(player) = view.player(view.turn) else {
        return Ok(());
    };
    let (base, lines) = load(&pool, &view.id, &player.id).await?;
    if lines.is_empty() {
        return Ok(());
    }
    let last = action.filter(|a| a.kind == ActionKind::Move).map(|a| a.uci);
    let matching: Vec<Vec<String>> = match &last {
        Some(mv) if view.ply == base + 1 => lines
            .into_iter()
            .filter(|l| l.first() == Some(mv))
            .map(|l| l[1..].to_vec())
            .collect(),
        _ => Vec::new(),
    };
    let Some(reply) = matching.first().and_then(|l| l.first()).cloned() else {
        return store(&pool, &view.id, &player.id, 0, &[]).await;
    };
    let rest: Vec<Vec<String>> = matching.into_iter().map(|l| l[1..].to_vec()).collect();
    // Store the rest first: the reply's own change runs this again for the opponent.
    store(&pool, &view.id, &player.id, view.ply + 1, &rest).await?;
    let who = user(&pool, &player.id).await?;
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
