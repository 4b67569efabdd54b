//! The views of a tournament: standings with their players, pairings by
//! round, and what the viewer may do.

use super::standings::{self, ArenaGame, ArenaRow, Board, Row, System};
use super::store::{Entrant, Kind, PlayerRef, StoredBoard, Summary, boards, entrants, load};
use crate::account::auth::User;
use crate::game::Games;
use crate::infra::error::ApiResult;
use serde::Serialize;
use std::collections::HashMap;

/// One line of the standings with its player.
#[derive(Clone, Debug, Serialize)]
pub struct Standing<T> {
    /// The player.
    pub user: PlayerRef,
    /// Points and tie-breaks.
    #[serde(flatten)]
    pub row: T,
}

/// Standings: a table with tie-breaks, or an arena's.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Standings {
    /// Round-robin and swiss.
    Table(Vec<Standing<Row>>),
    /// Arena.
    Arena(Vec<Standing<ArenaRow>>),
}

/// One board of a round.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// Board number, from 1.
    pub board: i64,
    /// White (or the player with the bye).
    pub white: PlayerRef,
    /// Black; none for a bye.
    pub black: Option<PlayerRef>,
    /// The game (none for a bye).
    pub game_id: Option<String>,
    /// The game's status.
    pub status: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` once finished.
    pub result: Option<String>,
    /// Why it finished.
    pub reason: Option<String>,
}

/// A round's pairings.
#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    /// Round number, from 1 (arena: pairing wave).
    pub round: i64,
    /// Its boards.
    pub boards: Vec<BoardView>,
}

/// What the viewer may do.
#[derive(Clone, Debug, Serialize, Default)]
pub struct You {
    /// Entered (and, in an arena, still in the pool).
    pub joined: bool,
    /// Created the tournament.
    pub creator: bool,
    /// May join now.
    pub can_join: bool,
    /// May withdraw (arena: leave the pool) now.
    pub can_withdraw: bool,
    /// May start it now.
    pub can_start: bool,
    /// May call it off now (the creator, before the start).
    pub can_cancel: bool,
}

/// `GET /api/tournaments/{id}`.
#[derive(Clone, Debug, Serialize)]
pub struct Detail {
    /// The tournament.
    #[serde(flatten)]
    pub tournament: Summary,
    /// Its players in seed order.
    pub entrants: Vec<Entrant>,
    /// Standings, best first.
    pub standings: Standings,
    /// Pairings round by round.
    pub pairings: Vec<RoundView>,
    /// The viewer's options.
    pub you: You,
}

/// The standings of a tournament from its entrants and boards.
pub(crate) fn compute_standings(
    kind: Kind,
    entrants: &[Entrant],
    boards: &[StoredBoard],
) -> Standings {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.user.id.as_str(), i))
        .collect();
    let idx = |p: &PlayerRef| index.get(p.id.as_str()).copied().unwrap_or(usize::MAX);
    let with_user = |player: usize| entrants[player].user.clone();
    match kind {
        Kind::Arena => {
            let mut done: Vec<&StoredBoard> = boards
                .iter()
                .filter(|b| b.black.is_some() && b.outcome().is_over())
                .collect();
            done.sort_by_key(|b| (b.ended_at, b.round, b.board));
            let games: Vec<ArenaGame> = done
                .iter()
                .map(|b| ArenaGame {
                    white: idx(&b.white),
                    black: b.black.as_ref().map(idx).unwrap_or(usize::MAX),
                    outcome: b.outcome(),
                    ratings: b.ratings,
                    berserk: b.berserk,
                    plies: b.plies,
                })
                .collect();
            Standings::Arena(
                standings::arena_standings(entrants.len(), &games)
                    .into_iter()
                    .map(|row| Standing {
                        user: with_user(row.player),
                        row,
                    })
                    .collect(),
            )
        }
        _ => {
            let table: Vec<Board> = boards
                .iter()
                .map(|b| Board {
                    white: idx(&b.white),
                    black: b.black.as_ref().map(idx),
                    outcome: b.outcome(),
                })
                .collect();
            let system = if kind == Kind::Swiss {
                System::Swiss
            } else {
                System::RoundRobin
            };
            Standings::Table(
                standings::standings(entrants.len(), &table, system)
                    .into_iter()
                    .map(|row| Standing {
                        user: with_user(row.player),
                        row,
                    })
                    .collect(),
            )
        }
    }
}

/// Rounds of pairings for the page.
pub(crate) fn pairings_view(boards: &[StoredBoard]) -> Vec<RoundView> {
    let mut out: Vec<RoundView> = Vec::new();
    for b in boards {
        if out.last().is_none_or(|r| r.round != b.round) {
            out.push(RoundView {
                round: b.round,
                boards: Vec::new(),
            });
        }
        if let Some(r) = out.last_mut() {
            r.boards.push(BoardView {
                board: b.board,
                white: b.white.clone(),
                black: b.black.clone(),
                game_id: b.game_id.clone(),
                status: b.status.clone(),
                result: b.result.clone(),
                reason: b.reason.clone(),
            });
        }
    }
    out
}

/// The full view of a tournament for `viewer`, now by the game service's time.
pub async fn detail_of(games: &Games, id: &str, viewer: Option<&User>) -> ApiResult<Detail> {
    let pool = &games.db().pool;
    // Read in the order they are written (entrants before their boards,
    // the round number before the round's boards), latest first: every board
    // read has its players among the entrants, and the round number is at
    // least the last round shown.
    load(pool, id).await?; // 404 before anything else
    let boards = boards(pool, id).await?;
    let entrants = entrants(pool, id).await?;
    let t = load(pool, id).await?;
    let standings = compute_standings(t.kind, &entrants, &boards);
    let mut you = You::default();
    if let Some(u) = viewer {
        let me = entrants.iter().find(|e| e.user.id == u.id);
        you.joined = me.is_some_and(|e| e.active);
        you.creator = t.creator.id == u.id;
        let open = match t.status.as_str() {
            "upcoming" => t.players < t.max_players,
            "running" => {
                t.kind == Kind::Arena && t.ends_at.is_some_and(|e| games.time.now_ms() < e)
            }
            _ => false,
        };
        you.can_join = !u.guest && !you.joined && open;
        // A swiss player may drop out of the rounds still to be paired.
        let swiss_running = t.kind == Kind::Swiss && t.status == "running";
        you.can_withdraw = you.joined && (open || swiss_running);
        you.can_start = you.creator && t.status == "upcoming" && t.players >= 2;
        you.can_cancel = you.creator && t.status == "upcoming";
    }
    Ok(Detail {
        tournament: t,
        entrants,
        standings,
        pairings: pairings_view(&boards),
        you,
    })
}
