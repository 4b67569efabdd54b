//! Tournament storage, the reaction to finished games, and the routes.
//!
//! Round-robin tournaments start every game at once (correspondence, as
//! SchemingMind does); swiss tournaments pair one round at a time and pair
//! the next when the last game of a round ends; arenas pair waiting players
//! as their games end until the end time, and finish when the last game in
//! progress at the end time is over. Tournament games are ordinary games.

use super::pairing::{self, ArenaWaiting, Colour, Pair, SwissPlayer};
use super::standings::{self, ArenaGame, ArenaRow, Board, Outcome, Row, System};
use crate::AppState;
use crate::api::{Body, check_id};
use crate::auth::{Actor, User, Viewer};
use crate::clock::{TcKind, TimeControl, TimeControlRequest};
use crate::error::{ApiError, ApiResult};
use crate::games::{Command, Games, Status};
use crate::rules::{Variant, new_game};
use crate::util::{now_ms, random_id};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row as _};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// Longest tournament name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// Most swiss rounds.
pub const MAX_SWISS_ROUNDS: i64 = 20;
/// Most players of a round-robin.
pub const MAX_ROUND_ROBIN_PLAYERS: i64 = 32;
/// Most players of a swiss or an arena.
pub const MAX_PLAYERS: i64 = 256;
/// Shortest arena, minutes.
pub const MIN_ARENA_MINUTES: f64 = 0.05;
/// Longest arena, minutes.
pub const MAX_ARENA_MINUTES: f64 = 24.0 * 60.0;
/// Furthest start time of an arena, ms from now.
pub const MAX_START_DELAY_MS: i64 = 30 * 86_400_000;

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(list).post(create))
        .route("/tournaments/{id}", get(detail))
        .route("/tournaments/{id}/join", post(join))
        .route("/tournaments/{id}/withdraw", post(withdraw))
        .route("/tournaments/{id}/start", post(start))
        .route("/tournaments/{id}/cancel", post(cancel))
        .route("/games/{id}/tournament", get(of_game))
}

/// The pairing system of a tournament.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Everyone plays everyone (correspondence).
    RoundRobin,
    /// A fixed number of rounds, players of equal score paired (correspondence).
    Swiss,
    /// Continuous pairing for a fixed duration (live).
    Arena,
}

impl Kind {
    /// API and database name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::RoundRobin => "round_robin",
            Kind::Swiss => "swiss",
            Kind::Arena => "arena",
        }
    }
    /// Parses an API name.
    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "round_robin" => Some(Kind::RoundRobin),
            "swiss" => Some(Kind::Swiss),
            "arena" => Some(Kind::Arena),
            _ => None,
        }
    }
}

/// `POST /api/tournaments` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Name, 3 to 60 characters.
    pub name: String,
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[serde(default)]
    pub rules: Option<String>,
    /// `round_robin`, `swiss` or `arena`.
    pub kind: String,
    /// Correspondence for round-robin and swiss, live for arena (defaults:
    /// 3 days + 1 day per move; 3 minutes + 2 seconds).
    #[serde(default)]
    pub time_control: Option<TimeControlRequest>,
    /// Swiss: the number of rounds (1 to 20).
    #[serde(default)]
    pub rounds: Option<i64>,
    /// Round-robin: play everyone twice, colours reversed.
    #[serde(default)]
    pub double: Option<bool>,
    /// Arena: minutes of play.
    #[serde(default)]
    pub duration_minutes: Option<f64>,
    /// Most players (round-robin 2 to 32, default 16; others 2 to 256,
    /// default 64 and 256).
    #[serde(default)]
    pub max_players: Option<i64>,
    /// Arena: when it starts by itself, ms since the epoch (optional; the
    /// creator may also start it).
    #[serde(default)]
    pub starts_at: Option<i64>,
}

/// A player in tournament views.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerRef {
    /// User id.
    pub id: String,
    /// Name.
    pub username: String,
}

/// A tournament as listed.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Pairing system.
    pub kind: Kind,
    /// Variant name.
    pub variant: String,
    /// Rule option.
    pub rules: String,
    /// Time control of its games.
    pub time_control: TimeControl,
    /// Swiss rounds; round-robin cycles (2: double); 0 for an arena.
    pub rounds: i64,
    /// Arena length, ms.
    pub duration_ms: i64,
    /// Most players.
    pub max_players: i64,
    /// `upcoming`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// Who created it (and may start it).
    pub creator: PlayerRef,
    /// The round being played (swiss); the last round paired otherwise.
    pub current_round: i64,
    /// Arena: planned start.
    pub starts_at: Option<i64>,
    /// When it started.
    pub started_at: Option<i64>,
    /// Arena: no pairings after this time.
    pub ends_at: Option<i64>,
    /// When it finished.
    pub finished_at: Option<i64>,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// Number of entrants.
    pub players: i64,
}

/// `GET /api/tournaments`.
#[derive(Debug, Serialize)]
pub struct Lists {
    /// Not started yet.
    pub upcoming: Vec<Summary>,
    /// Being played.
    pub running: Vec<Summary>,
    /// Over (the latest 50).
    pub finished: Vec<Summary>,
}

/// An entrant.
#[derive(Clone, Debug, Serialize)]
pub struct Entrant {
    /// The player.
    pub user: PlayerRef,
    /// Seed (join order), from 0.
    pub seed: i64,
    /// Arena: still in the pairing pool.
    pub active: bool,
}

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

/// A board as stored, with its game's state.
#[derive(Clone, Debug)]
struct StoredBoard {
    round: i64,
    board: i64,
    white: PlayerRef,
    black: Option<PlayerRef>,
    game_id: Option<String>,
    status: Option<String>,
    result: Option<String>,
    reason: Option<String>,
    ended_at: i64,
}

impl StoredBoard {
    fn outcome(&self) -> Outcome {
        match &self.status {
            Some(s) => Outcome::from_game(s, self.result.as_deref()),
            None => Outcome::Pending,
        }
    }
    /// A game still to be decided (byes are settled).
    fn pending(&self) -> bool {
        self.game_id.is_some() && !self.outcome().is_over()
    }
}

const SELECT_TOURNAMENT: &str = "SELECT t.id, t.name, t.kind, t.variant, t.rules, t.tc_kind, t.tc_initial_ms, \
    t.tc_increment_ms, t.tc_max_ms, t.rounds, t.duration_ms, t.max_players, t.status, t.creator_id, u.username, \
    t.current_round, t.starts_at, t.started_at, t.ends_at, t.finished_at, t.created_at, \
    (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id) \
    FROM tournaments t JOIN users u ON u.id = t.creator_id";

fn summary(r: &sqlx::any::AnyRow) -> ApiResult<Summary> {
    let kind: String = r.try_get(2)?;
    Ok(Summary {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        kind: Kind::parse(&kind)
            .ok_or_else(|| ApiError::internal(format!("bad tournament kind {kind}")))?,
        variant: r.try_get(3)?,
        rules: r.try_get(4)?,
        time_control: TimeControl {
            kind: TcKind::parse(&r.try_get::<String, _>(5)?).unwrap_or(TcKind::None),
            initial_ms: r.try_get(6)?,
            increment_ms: r.try_get(7)?,
            max_ms: r.try_get(8)?,
        },
        rounds: r.try_get(9)?,
        duration_ms: r.try_get(10)?,
        max_players: r.try_get(11)?,
        status: r.try_get(12)?,
        creator: PlayerRef {
            id: r.try_get(13)?,
            username: r.try_get(14)?,
        },
        current_round: r.try_get(15)?,
        starts_at: r.try_get(16)?,
        started_at: r.try_get(17)?,
        ends_at: r.try_get(18)?,
        finished_at: r.try_get(19)?,
        created_at: r.try_get(20)?,
        players: r.try_get(21)?,
    })
}

/// Refuses tournament ids that cannot exist as 404.
fn check_tournament_id(id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::not_found(format!("no tournament {id:?}")));
    }
    Ok(())
}

async fn load(pool: &AnyPool, id: &str) -> ApiResult<Summary> {
    let row = sqlx::query(&format!("{SELECT_TOURNAMENT} WHERE t.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no tournament {id:?}")))?;
    summary(&row)
}

async fn entrants(pool: &AnyPool, id: &str) -> ApiResult<Vec<Entrant>> {
    let rows = sqlx::query(
        "SELECT e.user_id, u.username, e.seed, e.active FROM tournament_entrants e \
         JOIN users u ON u.id = e.user_id WHERE e.tournament_id = $1 ORDER BY e.seed, e.joined_at, e.user_id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Entrant {
                user: PlayerRef {
                    id: r.try_get(0)?,
                    username: r.try_get(1)?,
                },
                seed: r.try_get(2)?,
                active: r.try_get::<i64, _>(3)? != 0,
            })
        })
        .collect()
}

async fn boards(pool: &AnyPool, id: &str) -> ApiResult<Vec<StoredBoard>> {
    let rows = sqlx::query(
        "SELECT tg.round, tg.board, tg.white_id, wu.username, tg.black_id, bu.username, tg.game_id, \
         g.status, g.result, g.reason, g.updated_at FROM tournament_games tg \
         JOIN users wu ON wu.id = tg.white_id LEFT JOIN users bu ON bu.id = tg.black_id \
         LEFT JOIN games g ON g.id = tg.game_id WHERE tg.tournament_id = $1 ORDER BY tg.round, tg.board",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            let black_id: Option<String> = r.try_get(4)?;
            Ok(StoredBoard {
                round: r.try_get(0)?,
                board: r.try_get(1)?,
                white: PlayerRef {
                    id: r.try_get(2)?,
                    username: r.try_get(3)?,
                },
                black: match black_id {
                    Some(id) => Some(PlayerRef {
                        id,
                        username: r.try_get(5)?,
                    }),
                    None => None,
                },
                game_id: r.try_get(6)?,
                status: r.try_get(7)?,
                result: r.try_get(8)?,
                reason: r.try_get(9)?,
                ended_at: r.try_get::<Option<i64>, _>(10)?.unwrap_or(0),
            })
        })
        .collect()
}

/// The standings of a tournament from its entrants and boards.
fn compute_standings(kind: Kind, entrants: &[Entrant], boards: &[StoredBoard]) -> Standings {
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
fn pairings_view(boards: &[StoredBoard]) -> Vec<RoundView> {
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

/// The full view of a tournament for `viewer`.
pub async fn detail_of(pool: &AnyPool, id: &str, viewer: Option<&User>) -> ApiResult<Detail> {
    let t = load(pool, id).await?;
    let entrants = entrants(pool, id).await?;
    let boards = boards(pool, id).await?;
    let standings = compute_standings(t.kind, &entrants, &boards);
    let mut you = You::default();
    if let Some(u) = viewer {
        let me = entrants.iter().find(|e| e.user.id == u.id);
        you.joined = me.is_some_and(|e| e.active);
        you.creator = t.creator.id == u.id;
        let open = match t.status.as_str() {
            "upcoming" => t.players < t.max_players,
            "running" => t.kind == Kind::Arena && t.ends_at.is_some_and(|e| now_ms() < e),
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

fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

/// A checked creation request.
struct Checked {
    name: String,
    kind: Kind,
    variant: Variant,
    rules: String,
    tc: TimeControl,
    rounds: i64,
    duration_ms: i64,
    max_players: i64,
    starts_at: Option<i64>,
}

/// Checks every field of a creation request.
fn check_create(req: &CreateTournament, test_variant: bool, now: i64) -> ApiResult<Checked> {
    let name = req.name.trim().to_string();
    let chars = name.chars().count();
    if !(3..=MAX_NAME_CHARS).contains(&chars) || name.chars().any(char::is_control) {
        return Err(bad(
            "invalid_name",
            format!("a tournament name has 3 to {MAX_NAME_CHARS} printable characters"),
        ));
    }
    let kind = Kind::parse(&req.kind).ok_or_else(|| {
        bad(
            "invalid_kind",
            format!(
                "unknown kind {:?}: use round_robin, swiss or arena",
                req.kind
            ),
        )
    })?;
    let variant = Variant::parse(&req.variant)
        .filter(|v| *v != Variant::Test || test_variant)
        .ok_or_else(|| {
            bad(
                "invalid_variant",
                format!(
                    "unknown variant {:?}: use makruk, cambodian or makhos",
                    req.variant
                ),
            )
        })?;
    let rules = req.rules.clone().unwrap_or_else(|| "default".into());
    new_game(variant, &rules).map_err(|e| bad("invalid_rules", e))?;
    let wanted = if kind == Kind::Arena {
        TcKind::Live
    } else {
        TcKind::Correspondence
    };
    let mut tc_req = req.time_control.clone().unwrap_or_default();
    if tc_req.kind.is_none() {
        tc_req.kind = Some(wanted);
        if wanted == TcKind::Live && tc_req.minutes.is_none() {
            tc_req.minutes = Some(3.0);
            tc_req.increment = tc_req.increment.or(Some(2.0));
        }
    }
    if tc_req.kind != Some(wanted) {
        return Err(bad(
            "invalid_time_control",
            if kind == Kind::Arena {
                "an arena is played with a live clock (time_control kind live)"
            } else {
                "round-robin and swiss tournaments are played by correspondence (time_control kind correspondence)"
            },
        ));
    }
    let tc = tc_req.resolve()?;
    let rounds = match (kind, req.rounds) {
        (Kind::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
        (Kind::Swiss, _) => {
            return Err(bad(
                "invalid_rounds",
                format!("a swiss tournament needs rounds: 1 to {MAX_SWISS_ROUNDS}"),
            ));
        }
        (_, Some(_)) => {
            return Err(bad(
                "invalid_rounds",
                "rounds is for swiss tournaments (a round-robin has double: true|false)",
            ));
        }
        (Kind::RoundRobin, None) => {
            if req.double.unwrap_or(false) {
                2
            } else {
                1
            }
        }
        (Kind::Arena, None) => 0,
    };
    if req.double.is_some() && kind != Kind::RoundRobin {
        return Err(bad(
            "invalid_double",
            "double is for round-robin tournaments",
        ));
    }
    let duration_ms = match (kind, req.duration_minutes) {
        (Kind::Arena, Some(m))
            if m.is_finite() && (MIN_ARENA_MINUTES..=MAX_ARENA_MINUTES).contains(&m) =>
        {
            (m * 60_000.0).round() as i64
        }
        (Kind::Arena, _) => {
            return Err(bad(
                "invalid_duration",
                format!(
                    "an arena needs duration_minutes: {MIN_ARENA_MINUTES} to {MAX_ARENA_MINUTES}"
                ),
            ));
        }
        (_, Some(_)) => {
            return Err(bad("invalid_duration", "duration_minutes is for arenas"));
        }
        (_, None) => 0,
    };
    let (default_max, limit) = match kind {
        Kind::RoundRobin => (16, MAX_ROUND_ROBIN_PLAYERS),
        Kind::Swiss => (64, MAX_PLAYERS),
        Kind::Arena => (MAX_PLAYERS, MAX_PLAYERS),
    };
    let max_players = req.max_players.unwrap_or(default_max);
    if !(2..=limit).contains(&max_players) {
        return Err(bad(
            "invalid_max_players",
            format!("max_players must be between 2 and {limit}"),
        ));
    }
    let starts_at = match (kind, req.starts_at) {
        (Kind::Arena, Some(t)) if t > now && t <= now + MAX_START_DELAY_MS => Some(t),
        (Kind::Arena, Some(_)) => {
            return Err(bad(
                "invalid_start",
                "starts_at must be in the next 30 days (ms since the epoch)",
            ));
        }
        (_, Some(_)) => {
            return Err(bad(
                "invalid_start",
                "starts_at is for arenas; the creator starts other tournaments",
            ));
        }
        (_, None) => None,
    };
    Ok(Checked {
        name,
        kind,
        variant,
        rules,
        tc,
        rounds,
        duration_ms,
        max_players,
        starts_at,
    })
}

/// `POST /api/tournaments`.
async fn create(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(req): Body<CreateTournament>,
) -> ApiResult<(StatusCode, Json<Detail>)> {
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register or log in to create tournaments",
        ));
    }
    let now = now_ms();
    let c = check_create(&req, app.config.enable_test_variant, now)?;
    let id = random_id(10);
    sqlx::query(
        "INSERT INTO tournaments (id, name, kind, variant, rules, tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, \
         rounds, duration_ms, max_players, status, creator_id, current_round, starts_at, started_at, ends_at, \
         finished_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'upcoming', $13, 0, $14, NULL, NULL, NULL, $15)",
    )
    .bind(&id)
    .bind(&c.name)
    .bind(c.kind.name())
    .bind(c.variant.name())
    .bind(&c.rules)
    .bind(c.tc.kind.name())
    .bind(c.tc.initial_ms)
    .bind(c.tc.increment_ms)
    .bind(c.tc.max_ms)
    .bind(c.rounds)
    .bind(c.duration_ms)
    .bind(c.max_players)
    .bind(&s.user.id)
    .bind(c.starts_at)
    .bind(now)
    .execute(&app.db.pool)
    .await?;
    if let Some(at) = c.starts_at {
        schedule_start(&app.games, &id, at);
    }
    Ok((
        StatusCode::CREATED,
        Json(detail_of(&app.db.pool, &id, Some(&s.user)).await?),
    ))
}

/// `GET /api/tournaments`.
async fn list(State(app): State<AppState>) -> ApiResult<Json<Lists>> {
    let mut out = Lists {
        upcoming: Vec::new(),
        running: Vec::new(),
        finished: Vec::new(),
    };
    for (status, order, limit) in [
        ("upcoming", "t.created_at DESC", 200),
        ("running", "t.started_at DESC", 200),
        ("finished", "t.finished_at DESC", 50),
    ] {
        let rows = sqlx::query(&format!(
            "{SELECT_TOURNAMENT} WHERE t.status = $1 ORDER BY {order}, t.id LIMIT {limit}"
        ))
        .bind(status)
        .fetch_all(&app.db.pool)
        .await?;
        let list = rows.iter().map(summary).collect::<ApiResult<Vec<_>>>()?;
        match status {
            "upcoming" => out.upcoming = list,
            "running" => out.running = list,
            _ => out.finished = list,
        }
    }
    Ok(Json(out))
}

/// `GET /api/tournaments/{id}`.
async fn detail(
    State(app): State<AppState>,
    Viewer(s): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    Ok(Json(
        detail_of(&app.db.pool, &id, s.as_ref().map(|s| &s.user)).await?,
    ))
}

/// The tournament of a game, if any: `{id, name, round}` or `null`.
async fn of_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    check_id(&id)?;
    let row = sqlx::query(
        "SELECT t.id, t.name, tg.round FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament_id \
         WHERE tg.game_id = $1",
    )
    .bind(&id)
    .fetch_optional(&app.db.pool)
    .await?;
    Ok(Json(match row {
        Some(r) => serde_json::json!({
            "id": r.try_get::<String, _>(0)?,
            "name": r.try_get::<String, _>(1)?,
            "round": r.try_get::<i64, _>(2)?,
        }),
        None => serde_json::Value::Null,
    }))
}

/// `POST /api/tournaments/{id}/join`: enter before the start (an arena
/// also while it runs, or to come back to the pool).
async fn join(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let user = &s.user;
    if user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register or log in to join tournaments",
        ));
    }
    let lock = lock_for(&id);
    let guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    let now = now_ms();
    let arena_open =
        t.status == "running" && t.kind == Kind::Arena && t.ends_at.is_some_and(|e| now < e);
    if t.status != "upcoming" && !arena_open {
        return Err(ApiError::conflict(
            "not_open",
            format!(
                "the tournament is {}: players join before it starts",
                t.status
            ),
        ));
    }
    let existing = sqlx::query(
        "SELECT active FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(&id)
    .bind(&user.id)
    .fetch_optional(pool)
    .await?;
    match existing {
        Some(r) if r.try_get::<i64, _>(0)? != 0 => {
            return Err(ApiError::conflict(
                "already_joined",
                "you are already in this tournament",
            ));
        }
        Some(_) => {
            sqlx::query(
                "UPDATE tournament_entrants SET active = 1 WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(&id)
            .bind(&user.id)
            .execute(pool)
            .await?;
        }
        None => {
            let done = sqlx::query(
                "INSERT INTO tournament_entrants (tournament_id, user_id, seed, joined_at, active) \
                 SELECT $1, $2, (SELECT COALESCE(MAX(seed), -1) + 1 FROM tournament_entrants WHERE tournament_id = $1), $3, 1 \
                 WHERE (SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = $1) < $4",
            )
            .bind(&id)
            .bind(&user.id)
            .bind(now)
            .bind(t.max_players)
            .execute(pool)
            .await?;
            if done.rows_affected() != 1 {
                return Err(ApiError::conflict(
                    "tournament_full",
                    format!("the tournament is full ({} players)", t.max_players),
                ));
            }
        }
    }
    drop(guard);
    if arena_open {
        advance(&app.games, &id).await?;
    }
    Ok(Json(detail_of(pool, &id, Some(user)).await?))
}

/// `POST /api/tournaments/{id}/withdraw`: leave before the start; while it
/// runs, an arena player leaves the pairing pool and a swiss player is not
/// paired in later rounds (games in progress go on, results stay).
async fn withdraw(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let lock = lock_for(&id);
    let _guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    let q = match (t.status.as_str(), t.kind) {
        ("upcoming", _) => {
            "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 AND active = 1"
        }
        ("running", Kind::Arena | Kind::Swiss) => {
            "UPDATE tournament_entrants SET active = 0 WHERE tournament_id = $1 AND user_id = $2 AND active = 1"
        }
        _ => {
            return Err(ApiError::conflict(
                "not_open",
                format!(
                    "the tournament is {}: its games are paired (resign a game to give it up)",
                    t.status
                ),
            ));
        }
    };
    let done = sqlx::query(q)
        .bind(&id)
        .bind(&s.user.id)
        .execute(pool)
        .await?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "not_joined",
            "you are not in this tournament",
        ));
    }
    Ok(Json(detail_of(pool, &id, Some(&s.user)).await?))
}

/// `POST /api/tournaments/{id}/start`: the creator starts the tournament.
async fn start(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let t = load(&app.db.pool, &id).await?;
    if t.creator.id != s.user.id {
        return Err(ApiError::forbidden(
            "not_creator",
            "only the tournament's creator starts it",
        ));
    }
    start_tournament(&app.games, &id).await?;
    Ok(Json(detail_of(&app.db.pool, &id, Some(&s.user)).await?))
}

/// `POST /api/tournaments/{id}/cancel`: the creator calls the tournament
/// off before it starts (it leaves the lists; its page says so).
async fn cancel(
    State(app): State<AppState>,
    Actor(s): Actor,
    Path(id): Path<String>,
) -> ApiResult<Json<Detail>> {
    check_tournament_id(&id)?;
    let lock = lock_for(&id);
    let guard = lock.lock().await;
    let pool = &app.db.pool;
    let t = load(pool, &id).await?;
    if t.creator.id != s.user.id {
        return Err(ApiError::forbidden(
            "not_creator",
            "only the tournament's creator calls it off",
        ));
    }
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'cancelled', finished_at = $1 WHERE id = $2 AND status = 'upcoming'",
    )
    .bind(now_ms())
    .bind(&id)
    .execute(pool)
    .await?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "already_started",
            format!(
                "the tournament is {}: only an upcoming one is called off",
                t.status
            ),
        ));
    }
    drop(guard);
    Ok(Json(detail_of(pool, &id, Some(&s.user)).await?))
}

/// Per-tournament locks: one change of a tournament at a time in this process.
fn lock_for(id: &str) -> Arc<tokio::sync::Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    let mut map = LOCKS
        .get_or_init(Default::default)
        .lock()
        .expect("tournament locks");
    map.entry(id.to_string()).or_default().clone()
}

async fn user(pool: &AnyPool, id: &str) -> ApiResult<User> {
    let r = sqlx::query("SELECT id, username, is_guest FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    Ok(User {
        id: r.try_get(0)?,
        username: r.try_get(1)?,
        guest: r.try_get::<i64, _>(2).unwrap_or(0) != 0,
    })
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
    let now = now_ms();
    let ends_at = (t.kind == Kind::Arena).then(|| now + t.duration_ms);
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'running', started_at = $1, ends_at = $2, current_round = 1 \
         WHERE id = $3 AND status = 'upcoming'",
    )
    .bind(now)
    .bind(ends_at)
    .bind(id)
    .execute(pool)
    .await?;
    if done.rows_affected() != 1 {
        return Err(ApiError::conflict(
            "already_started",
            "the tournament has just started",
        ));
    }
    let entrants = entrants(pool, id).await?;
    let players: Vec<&Entrant> = entrants.iter().collect();
    match t.kind {
        Kind::RoundRobin => {
            let rounds = pairing::round_robin(players.len(), t.rounds == 2);
            let total = rounds.len() as i64;
            for (r, round) in rounds.iter().enumerate() {
                create_round(games, &t, &players, r as i64 + 1, round).await?;
            }
            sqlx::query("UPDATE tournaments SET current_round = $1 WHERE id = $2")
                .bind(total)
                .bind(id)
                .execute(pool)
                .await?;
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
    let variant = Variant::parse(&t.variant)
        .ok_or_else(|| ApiError::internal(format!("bad variant {}", t.variant)))?;
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
                    .start_game(variant, &t.rules, t.time_control, &w, &bl)
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
    let mut tx = pool.begin().await?;
    for (board, (white, black, game)) in rows.into_iter().enumerate() {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, board, white_id, black_id, game_id) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&t.id)
        .bind(round)
        .bind(board as i64 + 1)
        .bind(white)
        .bind(black)
        .bind(game)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
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

/// After a tournament game ended: carry the tournament on.
pub async fn game_over(games: &Arc<Games>, game_id: &str) -> ApiResult<()> {
    let row = sqlx::query("SELECT tournament_id FROM tournament_games WHERE game_id = $1")
        .bind(game_id)
        .fetch_optional(&games.db().pool)
        .await?;
    match row {
        Some(r) => advance(games, &r.try_get::<String, _>(0)?).await,
        None => Ok(()),
    }
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
                finish(pool, id).await?;
            }
        }
        Kind::Swiss => {
            if any_pending {
                return Ok(());
            }
            if t.current_round >= t.rounds {
                return finish(pool, id).await;
            }
            let next = t.current_round + 1;
            let done = sqlx::query(
                "UPDATE tournaments SET current_round = $1 WHERE id = $2 AND current_round = $3 AND status = 'running'",
            )
            .bind(next)
            .bind(id)
            .bind(t.current_round)
            .execute(pool)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(()); // another server process paired it
            }
            // Players who withdrew are not paired any more.
            let active: Vec<Entrant> = entrants(pool, id)
                .await?
                .into_iter()
                .filter(|e| e.active)
                .collect();
            let players: Vec<&Entrant> = active.iter().collect();
            let swiss = swiss_players(&active, &boards);
            let round = pairing::swiss(&swiss, next as u32);
            create_round(games, &t, &players, next, &round).await?;
        }
        Kind::Arena => {
            let over = t.ends_at.is_none_or(|e| now_ms() >= e);
            if over {
                if !any_pending {
                    finish(pool, id).await?;
                }
                return Ok(());
            }
            let entrants = entrants(pool, id).await?;
            let players: Vec<&Entrant> = entrants.iter().collect();
            let waiting = arena_waiting(&entrants, &boards);
            let round = pairing::arena(&waiting);
            if !round.is_empty() {
                let next = boards.iter().map(|b| b.round).max().unwrap_or(0) + 1;
                sqlx::query("UPDATE tournaments SET current_round = $1 WHERE id = $2")
                    .bind(next)
                    .bind(id)
                    .execute(pool)
                    .await?;
                create_round(games, &t, &players, next, &round).await?;
            }
        }
    }
    Ok(())
}

async fn finish(pool: &AnyPool, id: &str) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tournaments SET status = 'finished', finished_at = $1 WHERE id = $2 AND status = 'running'",
    )
    .bind(now_ms())
    .bind(id)
    .execute(pool)
    .await?;
    Ok(())
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
    let (weak, id) = (Arc::downgrade(games), id.to_string());
    tokio::spawn(async move {
        let wait = (end - now_ms()).max(0) as u64;
        tokio::time::sleep(std::time::Duration::from_millis(wait + 5)).await;
        if let Some(g) = weak.upgrade()
            && let Err(e) = advance(&g, &id).await
        {
            eprintln!("thaiboard-server: end of arena {id}: {}", e.message);
        }
    });
}

/// Starts an arena by itself at its start time (if it has 2 players then).
fn schedule_start(games: &Arc<Games>, id: &str, at: i64) {
    let (weak, id) = (Arc::downgrade(games), id.to_string());
    tokio::spawn(async move {
        let wait = (at - now_ms()).max(0) as u64;
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
        let _ = sqlx::query(
            "UPDATE tournament_entrants SET active = 0 WHERE tournament_id = $1 AND user_id = $2",
        )
        .bind(&tournament)
        .bind(&absent.id)
        .execute(&pool)
        .await;
        if let Ok(u) = user(&pool, &absent.id).await {
            let _ = g.act(&u, &game, Command::AbortAbsent).await;
        }
    });
}

/// After the server starts: schedules arena starts and ends, and moves on
/// tournaments whose games ended while it was down.
pub async fn resume(games: &Arc<Games>) -> ApiResult<()> {
    let pool = &games.db().pool;
    let rows = sqlx::query(
        "SELECT id, status, kind, starts_at, ends_at FROM tournaments WHERE status IN ('upcoming', 'running')",
    )
    .fetch_all(pool)
    .await?;
    for r in rows {
        let id: String = r.try_get(0)?;
        let status: String = r.try_get(1)?;
        let kind: String = r.try_get(2)?;
        let starts_at: Option<i64> = r.try_get(3)?;
        let ends_at: Option<i64> = r.try_get(4)?;
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
                advance_later(games, &id);
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(kind: &str) -> CreateTournament {
        CreateTournament {
            name: "Spring cup".into(),
            variant: "makruk".into(),
            rules: None,
            kind: kind.into(),
            time_control: None,
            rounds: None,
            double: None,
            duration_minutes: None,
            max_players: None,
            starts_at: None,
        }
    }

    #[test]
    fn creation_requests_are_checked() {
        let now = 1_000_000;
        let ok = check_create(&req("round_robin"), false, now).unwrap();
        assert_eq!(ok.tc.kind, TcKind::Correspondence);
        assert_eq!((ok.rounds, ok.max_players), (1, 16));
        let code = |r: CreateTournament| check_create(&r, false, now).err().map(|e| e.code);
        assert_eq!(code(req("knockout")), Some("invalid_kind"));
        assert_eq!(code(req("swiss")), Some("invalid_rounds"));
        assert_eq!(code(req("arena")), Some("invalid_duration"));
        assert_eq!(
            code(CreateTournament {
                name: " x ".into(),
                ..req("round_robin")
            }),
            Some("invalid_name")
        );
        assert_eq!(
            code(CreateTournament {
                variant: "test".into(),
                ..req("round_robin")
            }),
            Some("invalid_variant")
        );
        assert_eq!(
            code(CreateTournament {
                rules: Some("no-reverse".into()),
                ..req("round_robin")
            }),
            Some("invalid_rules"),
            "no-reverse is a Mak-hot option"
        );
        let makhos = CreateTournament {
            variant: "makhos".into(),
            rules: Some("no-reverse".into()),
            rounds: Some(3),
            ..req("swiss")
        };
        assert_eq!(
            check_create(&makhos, false, now).unwrap().rules,
            "no-reverse"
        );
        let live = TimeControlRequest {
            kind: Some(TcKind::Live),
            minutes: Some(5.0),
            ..Default::default()
        };
        assert_eq!(
            code(CreateTournament {
                time_control: Some(live.clone()),
                ..req("round_robin")
            }),
            Some("invalid_time_control")
        );
        let arena = CreateTournament {
            time_control: Some(live),
            duration_minutes: Some(30.0),
            starts_at: Some(now + 60_000),
            ..req("arena")
        };
        let a = check_create(&arena, false, now).unwrap();
        assert_eq!(
            (a.duration_ms, a.starts_at),
            (1_800_000, Some(now + 60_000))
        );
        assert_eq!(
            code(CreateTournament {
                starts_at: Some(now - 1),
                ..arena
            }),
            Some("invalid_start")
        );
        assert_eq!(
            code(CreateTournament {
                max_players: Some(33),
                ..req("round_robin")
            }),
            Some("invalid_max_players")
        );
        assert_eq!(
            code(CreateTournament {
                rounds: Some(21),
                ..req("swiss")
            }),
            Some("invalid_rounds")
        );
        assert_eq!(
            code(CreateTournament {
                double: Some(true),
                rounds: Some(2),
                ..req("swiss")
            }),
            Some("invalid_double")
        );
    }
}
