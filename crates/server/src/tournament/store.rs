//! Every SQL statement of tournaments, with bound parameters (SQLite and
//! PostgreSQL alike): the rows of a tournament, its entrants and its boards
//! (with their games' state), read back for views and pairing, and every
//! change the routes and the flow make to them.

use super::standings::Outcome;
use crate::account::auth::User;
use crate::game::clock::{TcKind, TimeControl};
use crate::infra::db::{Backend, Db};
use crate::infra::error::{ApiError, ApiResult};
use crate::leave::model::LeaveRule;
use games::GameKind;
use serde::Serialize;
use sqlx::{AnyPool, Row as _};

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
    /// The rule on leave: `allowed`, `forbidden` or `capped` (see
    /// [`crate::leave::model::LeaveRule`]).
    pub leave: String,
    /// With `capped`: the most days of a player's leave that stop its clocks.
    pub leave_cap_days: i64,
    /// Its games are public: spectators read the players' comments.
    pub public_games: bool,
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

/// A board as stored, with its game's state.
#[derive(Clone, Debug)]
pub(crate) struct StoredBoard {
    pub(crate) round: i64,
    pub(crate) board: i64,
    pub(crate) white: PlayerRef,
    pub(crate) black: Option<PlayerRef>,
    pub(crate) game_id: Option<String>,
    pub(crate) status: Option<String>,
    pub(crate) result: Option<String>,
    pub(crate) reason: Option<String>,
    pub(crate) ended_at: i64,
    /// White's and Black's ratings as the game started.
    pub(crate) ratings: [Option<i32>; 2],
    /// Whether White and Black went berserk (recorded as the game ended).
    pub(crate) berserk: [bool; 2],
    /// The game's moves (plies) so far.
    pub(crate) plies: i64,
}

impl StoredBoard {
    pub(crate) fn outcome(&self) -> Outcome {
        match &self.status {
            Some(s) => Outcome::from_game(s, self.result.as_deref()),
            None => Outcome::Pending,
        }
    }
    /// A game still to be decided (byes are settled).
    pub(crate) fn pending(&self) -> bool {
        self.game_id.is_some() && !self.outcome().is_over()
    }
}

const SELECT_TOURNAMENT: &str = "SELECT t.id, t.name, t.kind, t.variant, t.rules, t.tc_kind, t.tc_initial_ms, \
    t.tc_increment_ms, t.tc_max_ms, t.rounds, t.duration_ms, t.max_players, t.status, t.creator_id, u.username, \
    t.current_round, t.starts_at, t.started_at, t.ends_at, t.finished_at, t.created_at, \
    (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id), \
    t.leave_rule, t.leave_cap_days, t.public_games \
    FROM tournaments t JOIN users u ON u.id = t.creator_id";

/// A tournament row as a summary.
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
        leave: r.try_get(22)?,
        leave_cap_days: r.try_get(23)?,
        public_games: r.try_get::<i32, _>(24)? != 0,
    })
}

/// A tournament by id.
pub(crate) async fn load(pool: &AnyPool, id: &str) -> ApiResult<Summary> {
    let row = sqlx::query(&format!("{SELECT_TOURNAMENT} WHERE t.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no tournament {id:?}")))?;
    summary(&row)
}

/// Its entrants in seed order.
pub(crate) async fn entrants(pool: &AnyPool, id: &str) -> ApiResult<Vec<Entrant>> {
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

/// Its boards in round and board order, with their games' state.
pub(crate) async fn boards(pool: &AnyPool, id: &str) -> ApiResult<Vec<StoredBoard>> {
    let rows = sqlx::query(
        "SELECT tg.round, tg.board, tg.white_id, wu.username, tg.black_id, bu.username, tg.game_id, \
         g.status, g.result, g.reason, g.updated_at, g.white_rating, g.black_rating, \
         tg.white_berserk, tg.black_berserk, g.ply FROM tournament_games tg \
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
                ratings: [r.try_get(11)?, r.try_get(12)?],
                berserk: [r.try_get::<i32, _>(13)? != 0, r.try_get::<i32, _>(14)? != 0],
                plies: r.try_get::<Option<i32>, _>(15)?.map_or(0, i64::from),
            })
        })
        .collect()
}

/// Records which players of game `game_id`'s board went berserk (White's, Black's).
pub(crate) async fn set_berserk(
    pool: &AnyPool,
    game_id: &str,
    berserk: [bool; 2],
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tournament_games SET white_berserk = $1, black_berserk = $2 WHERE game_id = $3",
    )
    .bind(i32::from(berserk[0]))
    .bind(i32::from(berserk[1]))
    .bind(game_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// A user by id.
pub(crate) async fn user(pool: &AnyPool, id: &str) -> ApiResult<User> {
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

/// A new tournament, checked, as it is written.
pub(crate) struct NewTournament<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
    pub(crate) kind: Kind,
    pub(crate) game: GameKind,
    pub(crate) tc: TimeControl,
    pub(crate) rounds: i64,
    pub(crate) duration_ms: i64,
    pub(crate) max_players: i64,
    pub(crate) creator_id: &'a str,
    pub(crate) starts_at: Option<i64>,
    pub(crate) created_at: i64,
    pub(crate) leave: LeaveRule,
    pub(crate) public_games: bool,
}

/// How many of `creator_id`'s tournaments are upcoming or running.
pub(crate) async fn open_count_of_creator(pool: &AnyPool, creator_id: &str) -> ApiResult<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) FROM tournaments WHERE creator_id = $1 AND status IN ('upcoming', 'running')",
    )
    .bind(creator_id)
    .fetch_one(pool)
    .await?;
    Ok(row.try_get(0)?)
}

/// Writes a new, upcoming tournament.
pub(crate) async fn insert(pool: &AnyPool, t: &NewTournament<'_>) -> ApiResult<()> {
    let (leave_rule, leave_cap_days) = t.leave.stored();
    sqlx::query(
        "INSERT INTO tournaments (id, name, kind, variant, rules, tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, \
         rounds, duration_ms, max_players, status, creator_id, current_round, starts_at, started_at, ends_at, \
         finished_at, created_at, leave_rule, leave_cap_days, public_games) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'upcoming', $13, 0, $14, NULL, NULL, NULL, $15, $16, $17, $18)",
    )
    .bind(t.id)
    .bind(t.name)
    .bind(t.kind.name())
    .bind(t.game.variant_name())
    .bind(t.game.rules_name())
    .bind(t.tc.kind.name())
    .bind(t.tc.initial_ms)
    .bind(t.tc.increment_ms)
    .bind(t.tc.max_ms)
    .bind(t.rounds)
    .bind(t.duration_ms)
    .bind(t.max_players)
    .bind(t.creator_id)
    .bind(t.starts_at)
    .bind(t.created_at)
    .bind(leave_rule)
    .bind(leave_cap_days)
    .bind(i32::from(t.public_games))
    .execute(pool)
    .await?;
    Ok(())
}

/// The lists of `GET /api/tournaments`.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Shelf {
    /// Not started yet, newest first (at most 200).
    Upcoming,
    /// Being played, latest started first (at most 200).
    Running,
    /// Over, latest finished first (at most 50).
    Finished,
}

/// The tournaments on a shelf.
pub(crate) async fn list(pool: &AnyPool, shelf: Shelf) -> ApiResult<Vec<Summary>> {
    let (status, order, limit) = match shelf {
        Shelf::Upcoming => ("upcoming", "t.created_at DESC", 200),
        Shelf::Running => ("running", "t.started_at DESC", 200),
        Shelf::Finished => ("finished", "t.finished_at DESC", 50),
    };
    let rows = sqlx::query(&format!(
        "{SELECT_TOURNAMENT} WHERE t.status = $1 ORDER BY {order}, t.id LIMIT {limit}"
    ))
    .bind(status)
    .fetch_all(pool)
    .await?;
    rows.iter().map(summary).collect()
}

/// The tournament of game `game_id`, if any: its id, its name and the round.
pub(crate) async fn of_game(
    pool: &AnyPool,
    game_id: &str,
) -> ApiResult<Option<(String, String, i64)>> {
    let row = sqlx::query(
        "SELECT t.id, t.name, tg.round FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament_id \
         WHERE tg.game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(pool)
    .await?;
    match row {
        Some(r) => Ok(Some((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?))),
        None => Ok(None),
    }
}

/// The id of game `game_id`'s tournament, if any.
pub(crate) async fn tournament_of_game(pool: &AnyPool, game_id: &str) -> ApiResult<Option<String>> {
    let row = sqlx::query("SELECT tournament_id FROM tournament_games WHERE game_id = $1")
        .bind(game_id)
        .fetch_optional(pool)
        .await?;
    match row {
        Some(r) => Ok(Some(r.try_get(0)?)),
        None => Ok(None),
    }
}

/// Whether `user_id` entered tournament `id`: `Some(active)`, or `None`.
pub(crate) async fn entry_of(pool: &AnyPool, id: &str, user_id: &str) -> ApiResult<Option<bool>> {
    let row = sqlx::query(
        "SELECT active FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(id)
    .bind(user_id)
    .fetch_optional(pool)
    .await?;
    match row {
        Some(r) => Ok(Some(r.try_get::<i64, _>(0)? != 0)),
        None => Ok(None),
    }
}

/// Puts an entrant who had left back in the pairing pool.
pub(crate) async fn reactivate(pool: &AnyPool, id: &str, user_id: &str) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tournament_entrants SET active = 1 WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Enters `user_id` with the next seed unless tournament `id` already has
/// `max_players`; whether they entered. On PostgreSQL the tournament's row
/// is locked first, so that joins through other server processes at the
/// same time neither pass the count together nor take the same seed
/// (SQLite runs one writer at a time; in one process the routes' lock
/// serialises joins already).
pub(crate) async fn add_entrant(
    db: &Db,
    id: &str,
    user_id: &str,
    now: i64,
    max_players: i64,
) -> ApiResult<bool> {
    let mut tx = db.pool.begin().await?;
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE")
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    let done = sqlx::query(
        "INSERT INTO tournament_entrants (tournament_id, user_id, seed, joined_at, active) \
         SELECT $1, $2, (SELECT COALESCE(MAX(seed), -1) + 1 FROM tournament_entrants WHERE tournament_id = $1), $3, 1 \
         WHERE (SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = $1) < $4",
    )
    .bind(id)
    .bind(user_id)
    .bind(now)
    .bind(max_players)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() == 1)
}

/// Removes an active entrant (before the start); whether there was one.
pub(crate) async fn remove_entrant(pool: &AnyPool, id: &str, user_id: &str) -> ApiResult<bool> {
    let done = sqlx::query(
        "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 AND active = 1",
    )
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes an active entrant out of the pairing pool (while it runs); whether
/// there was one.
pub(crate) async fn withdraw_entrant(pool: &AnyPool, id: &str, user_id: &str) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE tournament_entrants SET active = 0 WHERE tournament_id = $1 AND user_id = $2 AND active = 1",
    )
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes an entrant out of the pairing pool (an arena's no-show).
pub(crate) async fn deactivate_entrant(pool: &AnyPool, id: &str, user_id: &str) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tournament_entrants SET active = 0 WHERE tournament_id = $1 AND user_id = $2",
    )
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Calls an upcoming tournament off; whether it was upcoming.
pub(crate) async fn cancel(pool: &AnyPool, id: &str, now: i64) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'cancelled', finished_at = $1 WHERE id = $2 AND status = 'upcoming'",
    )
    .bind(now)
    .bind(id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks an upcoming tournament running; whether it was upcoming.
pub(crate) async fn mark_started(
    pool: &AnyPool,
    id: &str,
    now: i64,
    ends_at: Option<i64>,
    current_round: i64,
) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE tournaments SET status = 'running', started_at = $1, ends_at = $2, current_round = $3 \
         WHERE id = $4 AND status = 'upcoming'",
    )
    .bind(now)
    .bind(ends_at)
    .bind(current_round)
    .bind(id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A board to record: White, Black (none for a bye) and the game (none for a bye).
pub(crate) type NewBoard = (String, Option<String>, Option<String>);

/// Records the boards of a round, numbered 1, 2, ... in order, in one transaction.
pub(crate) async fn insert_round(
    pool: &AnyPool,
    id: &str,
    round: i64,
    boards: Vec<NewBoard>,
) -> ApiResult<()> {
    let mut tx = pool.begin().await?;
    for (board, (white, black, game)) in boards.into_iter().enumerate() {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, board, white_id, black_id, game_id) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(round)
        .bind(board as i64 + 1)
        .bind(white)
        .bind(black)
        .bind(game)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Takes round `next` of a running swiss whose current round is `current`;
/// whether this call took it (not another server process).
pub(crate) async fn take_next_round(
    pool: &AnyPool,
    id: &str,
    current: i64,
    next: i64,
) -> ApiResult<bool> {
    let done = sqlx::query(
        "UPDATE tournaments SET current_round = $1 WHERE id = $2 AND current_round = $3 AND status = 'running'",
    )
    .bind(next)
    .bind(id)
    .bind(current)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets the last round paired (an arena).
pub(crate) async fn set_current_round(pool: &AnyPool, id: &str, round: i64) -> ApiResult<()> {
    sqlx::query("UPDATE tournaments SET current_round = $1 WHERE id = $2")
        .bind(round)
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Marks a running tournament finished.
pub(crate) async fn mark_finished(pool: &AnyPool, id: &str, now: i64) -> ApiResult<()> {
    sqlx::query(
        "UPDATE tournaments SET status = 'finished', finished_at = $1 WHERE id = $2 AND status = 'running'",
    )
    .bind(now)
    .bind(id)
    .execute(pool)
    .await?;
    Ok(())
}

/// An upcoming or running tournament as a restarted server picks it up.
pub(crate) struct Unfinished {
    pub(crate) id: String,
    pub(crate) status: String,
    pub(crate) kind: String,
    pub(crate) starts_at: Option<i64>,
    pub(crate) ends_at: Option<i64>,
}

/// The tournaments upcoming or running.
pub(crate) async fn unfinished(pool: &AnyPool) -> ApiResult<Vec<Unfinished>> {
    let rows = sqlx::query(
        "SELECT id, status, kind, starts_at, ends_at FROM tournaments WHERE status IN ('upcoming', 'running')",
    )
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Unfinished {
                id: r.try_get(0)?,
                status: r.try_get(1)?,
                kind: r.try_get(2)?,
                starts_at: r.try_get(3)?,
                ends_at: r.try_get(4)?,
            })
        })
        .collect()
}
