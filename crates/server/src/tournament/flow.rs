//! Running tournaments: the start, the next swiss round, the arena's
//! pairing loop, its end and its no-shows, the end of a tournament, and
//! picking all of that up again after a restart.
//!
//! Round-robin tournaments start every game at once (correspondence, as
//! SchemingMind does); swiss tournaments pair one round at a time and pair
//! the next when the last game of a round ends; arenas pair waiting players
//! as their games end until the end time, and finish when the last game in
//! progress at the end time is over. Tournament games are ordinary games.

use super::pairing::{self, ArenaWaiting, Colour, Pair, SwissPlayer};
use super::standings::Outcome;
use super::store::{self, Entrant, Kind, StoredBoard, Summary, boards, entrants, load, user};
use super::view::{Standings, compute_standings};
use crate::game::{Command, Games, Status};
use crate::infra::error::{ApiError, ApiResult};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// Per-tournament locks: one change of a tournament at a time in this process.
pub(crate) fn lock_for(id: &str) -> Arc<tokio::sync::Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    let mut map = LOCKS
        .get_or_init(Default::default)
        .lock()
        .expect("tournament locks");
    map.entry(id.to_string()).or_default().clone()
}

/// Starts an upcoming tournament: the first pairings and their games.
pub async fn start_tournament(games: &Arc<Games>, id: &str) -> ApiResult<()> {
    let lock = lock_for(id);
    let _guard = lock.lock().await;
    let pool = &games.db().pool;
    let t = load(pool, id).await?;
    if t.status != "upcoming" {
        return Err(ApiError::conflict(
            "already_started",
            format!("the tournament is {}", t.status),
        ));
    }
    if t.players < 2 {
        return Err(ApiError::conflict(
            "not_enough_players",
            "a tournament needs at least 2 players",
        ));
    }
    let entrants = entrants(pool, id).await?;
    let players: Vec<&Entrant> = entrants.iter().collect();
    // A round-robin pairs every round at once.
    let all_rounds = if t.kind == Kind::RoundRobin {
        pairing::round_robin(players.len(), t.rounds == 2)
    } else {
        Vec::new()
    };
    let now = games.time.now_ms();
    let ends_at = (t.kind == Kind::Arena).then(|| now + t.duration_ms);
    let round = (all_rounds.len() as i64).max(1);
    if !store::mark_started(pool, id, now, ends_at, round).await? {
        return Err(ApiError::conflict(
            "already_started",
            "the tournament has just started",
        ));
    }
    match t.kind {
        Kind::RoundRobin => {
            for (r, round) in all_rounds.iter().enumerate() {
                create_round(games, &t, &players, r as i64 + 1, round).await?;
            }
        }
        Kind::Swiss => {
            let round = pairing::swiss(&vec![SwissPlayer::default(); players.len()], 1);
            create_round(games, &t, &players, 1, &round).await?;
        }
        Kind::Arena => {
            let waiting: Vec<ArenaWaiting> = (0..players.len())
                .map(|player| ArenaWaiting {
                    player,
                    score: 0,
                    last_opponent: None,
                    colour_diff: 0,
                })
                .collect();
            let round = pairing::arena(&waiting);
            create_round(games, &t, &players, 1, &round).await?;
            if let Some(end) = ends_at {
                schedule_end(games, id, end);
            }
        }
    }
    Ok(())
}

/// Creates the games of a round and records its boards.
async fn create_round(
    games: &Arc<Games>,
    t: &Summary,
    players: &[&Entrant],
    round: i64,
    pairs: &[Pair],
) -> ApiResult<()> {
    let pool = &games.db().pool;
    let kind = games::GameKind::from_names(&t.variant, Some(&t.rules))
        .map_err(|e| ApiError::internal(format!("tournament {}: {e}", t.id)))?;
    // Games first, byes last, as boards 1, 2, ...
    let mut ordered: Vec<&Pair> = pairs.iter().filter(|p| p.black.is_some()).collect();
    ordered.extend(pairs.iter().filter(|p| p.black.is_none()));
    let mut rows = Vec::new();
    for p in ordered {
        let white = &players[p.white].user;
        let (black_id, game_id) = match p.black {
            Some(b) => {
                let black = &players[b].user;
                let w = user(pool, &white.id).await?;
                let bl = user(pool, &black.id).await?;
                let game = games
                    .start_game(kind, t.time_control, &w, &bl, &t.id)
                    .await?;
                if t.kind == Kind::Arena {
                    watch_first_moves(games, &t.id, &game);
                }
                (Some(black.id.clone()), Some(game))
            }
            None => (None, None),
        };
        rows.push((white.id.clone(), black_id, game_id));
    }
    // The round appears whole, in one transaction.
    store::insert_round(pool, &t.id, round, rows).await?;
    // A game that ended before its board was recorded found no tournament:
    // look again once the caller lets go of the tournament.
    advance_later(games, &t.id);
    Ok(())
}

/// Runs [`advance`] in the background (a plain function: the future is
/// boxed here, outside the cycle advance → create_round → advance).
fn advance_later(games: &Arc<Games>, id: &str) {
    let (weak, id) = (Arc::downgrade(games), id.to_string());
    let task: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> =
        Box::pin(async move {
            if let Some(g) = weak.upgrade()
                && let Err(e) = advance(&g, &id).await
            {
                eprintln!("thaiboard-server: tournament {id}: {}", e.message);
            }
        });
    tokio::spawn(task);
}

/// Subscribes tournaments to the game service: when a game ends, its
/// tournament (if any) goes on, the next swiss round, new arena pairings or
/// the tournament's end (in the background).
pub fn subscribe(games: &Arc<Games>) {
    let service = Arc::downgrade(games);
    games.subscribe(Box::new(move |event| {
        if event.remote || !event.ended() {
            return;
        }
        let Some(games) = service.upgrade() else {
            return;
        };
        let id = event.game.id.clone();
        tokio::spawn(async move {
            if let Err(e) = game_over(&games, &id).await {
                eprintln!(
                    "thaiboard-server: tournament after game {id}: {}",
                    e.message
                );
            }
        });
    }));
}

/// After a tournament game ended: record its berserk players (from its
/// actions, the one record of them) on its board, and carry the
/// tournament on.
pub async fn game_over(games: &Arc<Games>, game_id: &str) -> ApiResult<()> {
    let Some(id) = store::tournament_of_game(&games.db().pool, game_id).await? else {
        return Ok(());
    };
    let view = games.view(game_id, true).await?;
    let went = |side: &str| {
        view.actions
            .iter()
            .flatten()
            .any(|a| a.kind == crate::game::ActionKind::Berserk && a.uci == side)
    };
    let berserk = [went("white"), went("black")];
    if berserk.contains(&true) {
        store::set_berserk(&games.db().pool, game_id, berserk).await?;
    }
    advance(games, &id).await
}

/// Moves a running tournament on: pairs the next swiss round when the
/// current one is over, pairs waiting arena players, and finishes the
/// tournament when nothing is left to play. Safe to call at any time.
pub async fn advance(games: &Arc<Games>, id: &str) -> ApiResult<()> {
    let lock = lock_for(id);
    let _guard = lock.lock().await;
    let pool = &games.db().pool;
    let t = load(pool, id).await?;
    if t.status != "running" {
        return Ok(());
    }
    let boards = boards(pool, id).await?;
    let any_pending = boards.iter().any(StoredBoard::pending);
    match t.kind {
        Kind::RoundRobin => {
            if !any_pending {
                finish(games, id).await?;
            }
        }
        Kind::Swiss => {
            if any_pending {
                return Ok(());
            }
            // The round number is taken before the round's games are made:
            // a round without boards was taken by a pairing that stopped
            // half-way (a failed write, a server that died). It is paired
            // now, not mistaken for the last round played.
            let current_paired = boards.iter().any(|b| b.round == t.current_round);
            let next = if current_paired {
                if t.current_round >= t.rounds {
                    return finish(games, id).await;
                }
                let next = t.current_round + 1;
                if !store::take_next_round(pool, id, t.current_round, next).await? {
                    return Ok(()); // another server process paired it
                }
                next
            } else {
                eprintln!(
                    "thaiboard-server: tournament {id}: round {} had no boards; pairing it again",
                    t.current_round
                );
                t.current_round
            };
            // Players who withdrew are not paired any more.
            let all = entrants(pool, id).await?;
            if all.is_empty() {
                // It started with players: they cannot be gone.
                return Err(ApiError::internal(format!(
                    "tournament {id}: no entrants read for round {next}"
                )));
            }
            let active: Vec<Entrant> = all.into_iter().filter(|e| e.active).collect();
            if active.is_empty() {
                return finish(games, id).await; // everyone withdrew
            }
            let players: Vec<&Entrant> = active.iter().collect();
            let swiss = swiss_players(&active, &boards);
            let round = pairing::swiss(&swiss, next as u32);
            create_round(games, &t, &players, next, &round).await?;
        }
        Kind::Arena => {
            let over = t.ends_at.is_none_or(|e| games.time.now_ms() >= e);
            if over {
                if !any_pending {
                    finish(games, id).await?;
                }
                return Ok(());
            }
            let entrants = entrants(pool, id).await?;
            let players: Vec<&Entrant> = entrants.iter().collect();
            let waiting = arena_waiting(&entrants, &boards);
            let round = pairing::arena(&waiting);
            if !round.is_empty() {
                let next = boards.iter().map(|b| b.round).max().unwrap_or(0) + 1;
                store::set_current_round(pool, id, next).await?;
                create_round(games, &t, &players, next, &round).await?;
            }
        }
    }
    Ok(())
}

/// Marks a running tournament finished, now.
async fn finish(games: &Games, id: &str) -> ApiResult<()> {
    store::mark_finished(&games.db().pool, id, games.time.now_ms()).await
}

/// The swiss history of each entrant (by seed order).
fn swiss_players(entrants: &[Entrant], boards: &[StoredBoard]) -> Vec<SwissPlayer> {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.user.id.as_str(), i))
        .collect();
    let mut out = vec![SwissPlayer::default(); entrants.len()];
    for b in boards {
        let Some(&w) = index.get(b.white.id.as_str()) else {
            continue;
        };
        let Some(black) = &b.black else {
            out[w].half_points += 2;
            out[w].had_bye = true;
            continue;
        };
        let Some(&bl) = index.get(black.id.as_str()) else {
            continue;
        };
        out[w].opponents.insert(bl);
        out[bl].opponents.insert(w);
        out[w].colours.push(Colour::White);
        out[bl].colours.push(Colour::Black);
        let (hw, hb) = match b.outcome() {
            Outcome::WhiteWin => (2, 0),
            Outcome::BlackWin => (0, 2),
            Outcome::Draw => (1, 1),
            _ => (0, 0),
        };
        out[w].half_points += hw;
        out[bl].half_points += hb;
    }
    out
}

/// The arena players waiting for a game: active, not in a game.
fn arena_waiting(entrants: &[Entrant], boards: &[StoredBoard]) -> Vec<ArenaWaiting> {
    let busy: HashSet<&str> = boards
        .iter()
        .filter(|b| b.pending())
        .flat_map(|b| {
            std::iter::once(b.white.id.as_str()).chain(b.black.as_ref().map(|p| p.id.as_str()))
        })
        .collect();
    let scores = match compute_standings(Kind::Arena, entrants, boards) {
        Standings::Arena(rows) => rows
            .into_iter()
            .map(|s| (s.user.id, s.row.score))
            .collect::<HashMap<_, _>>(),
        Standings::Table(_) => HashMap::new(),
    };
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.user.id.as_str(), i))
        .collect();
    entrants
        .iter()
        .enumerate()
        .filter(|(_, e)| e.active && !busy.contains(e.user.id.as_str()))
        .map(|(player, e)| {
            let mine = boards.iter().filter(|b| {
                b.white.id == e.user.id || b.black.as_ref().is_some_and(|p| p.id == e.user.id)
            });
            let mut last_opponent = None;
            let mut colour_diff = 0;
            for b in mine {
                if b.white.id == e.user.id {
                    colour_diff += 1;
                    last_opponent = b
                        .black
                        .as_ref()
                        .and_then(|p| index.get(p.id.as_str()).copied());
                } else {
                    colour_diff -= 1;
                    last_opponent = index.get(b.white.id.as_str()).copied();
                }
            }
            ArenaWaiting {
                player,
                score: scores.get(&e.user.id).copied().unwrap_or(0),
                last_opponent,
                colour_diff,
            }
        })
        .collect()
}

/// Ends an arena's pairing at `end` (then finishes it when its last game ends).
fn schedule_end(games: &Arc<Games>, id: &str, end: i64) {
    let (weak, id, time) = (Arc::downgrade(games), id.to_string(), games.time.clone());
    tokio::spawn(async move {
        let wait = (end - time.now_ms()).max(0) as u64;
        tokio::time::sleep(std::time::Duration::from_millis(wait + 5)).await;
        if let Some(g) = weak.upgrade()
            && let Err(e) = advance(&g, &id).await
        {
            eprintln!("thaiboard-server: end of arena {id}: {}", e.message);
        }
    });
}

/// Starts an arena by itself at its start time (if it has 2 players then).
pub(crate) fn schedule_start(games: &Arc<Games>, id: &str, at: i64) {
    let (weak, id, time) = (Arc::downgrade(games), id.to_string(), games.time.clone());
    tokio::spawn(async move {
        let wait = (at - time.now_ms()).max(0) as u64;
        tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        if let Some(g) = weak.upgrade() {
            match start_tournament(&g, &id).await {
                Ok(()) => {}
                Err(e) if e.code == "already_started" => {}
                Err(e) => eprintln!("thaiboard-server: start of arena {id}: {}", e.message),
            }
        }
    });
}

/// Aborts an arena game whose players have not both moved in time; the
/// absent player leaves the pool.
fn watch_first_moves(games: &Arc<Games>, tournament: &str, game: &str) {
    let weak = Arc::downgrade(games);
    let (tournament, game) = (tournament.to_string(), game.to_string());
    tokio::spawn(async move {
        let wait = match weak.upgrade() {
            Some(g) => g
                .arena_first_move_ms
                .load(std::sync::atomic::Ordering::Relaxed),
            None => return,
        };
        tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        let Some(g) = weak.upgrade() else {
            return;
        };
        let Ok(view) = g.view(&game, false).await else {
            return;
        };
        if view.status != Status::Ongoing || view.ply >= 2 {
            return;
        }
        let absent = if view.ply == 0 {
            view.white
        } else {
            view.black
        };
        let Some(absent) = absent else {
            return;
        };
        let pool = g.db().pool.clone();
        let _ = store::deactivate_entrant(&pool, &tournament, &absent.id).await;
        if let Ok(u) = user(&pool, &absent.id).await {
            let _ = g.act(&u, &game, Command::AbortAbsent).await;
        }
    });
}

/// After the server starts: schedules arena starts and ends, and moves on
/// tournaments whose games ended while it was down.
pub async fn resume(games: &Arc<Games>) -> ApiResult<()> {
    let pool = &games.db().pool;
    let mut running = Vec::new();
    for store::Unfinished {
        id,
        status,
        kind,
        starts_at,
        ends_at,
    } in store::unfinished(pool).await?
    {
        match (status.as_str(), starts_at, ends_at) {
            ("upcoming", Some(at), _) if kind == "arena" => schedule_start(games, &id, at),
            ("running", _, end) => {
                if let Some(end) = end {
                    schedule_end(games, &id, end);
                    // Arena games still waiting for first moves are watched again.
                    for b in boards(pool, &id).await?.iter().filter(|b| b.pending()) {
                        if let Some(game) = &b.game_id {
                            watch_first_moves(games, &id, game);
                        }
                    }
                }
                running.push(id);
            }
            _ => {}
        }
    }
    // One after the other, in the background: a gentle start on one connection.
    let weak = Arc::downgrade(games);
    let task: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> =
        Box::pin(async move {
            for id in running {
                let Some(g) = weak.upgrade() else {
                    return;
                };
                if let Err(e) = advance(&g, &id).await {
                    eprintln!("thaiboard-server: tournament {id}: {}", e.message);
                }
            }
        });
    tokio::spawn(task);
    Ok(())
}
