//! Tournament storage: the rows of a tournament, its entrants and its
//! boards (with their games' state), read back for views and pairing.

use super::standings::Outcome;
use crate::account::auth::User;
use crate::game::clock::{TcKind, TimeControl};
use crate::infra::error::{ApiError, ApiResult};
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

pub(crate) const SELECT_TOURNAMENT: &str = "SELECT t.id, t.name, t.kind, t.variant, t.rules, t.tc_kind, t.tc_initial_ms, \
    t.tc_increment_ms, t.tc_max_ms, t.rounds, t.duration_ms, t.max_players, t.status, t.creator_id, u.username, \
    t.current_round, t.starts_at, t.started_at, t.ends_at, t.finished_at, t.created_at, \
    (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id), \
    t.leave_rule, t.leave_cap_days, t.public_games \
    FROM tournaments t JOIN users u ON u.id = t.creator_id";

/// A tournament row as a summary.
pub(crate) fn summary(r: &sqlx::any::AnyRow) -> ApiResult<Summary> {
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
         g.status, g.result, g.reason, g.updated_at, g.white_rating, g.black_rating FROM tournament_games tg \
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
            })
        })
        .collect()
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
