//! The game service: challenges, moves, resignations, draws, counts and
//! clocks, for every variant alike. The database is the truth: every change
//! is committed in one transaction (guarded by the game's `version`, so two
//! server processes cannot both change the same state) before it is
//! acknowledged or broadcast.

use crate::auth::User;
use crate::clock::{TcKind, TimeControl, TimeControlRequest};
use crate::db::{Backend, Db};
use crate::error::{ApiError, ApiResult};
use crate::hub::Hub;
use crate::rules::{CountInfo, GameRules, LegalMove, Outcome, Side, Variant, new_game};
use crate::util::{now_ms, random_id};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::Notify;

mod engine_play;
pub use engine_play::EngineGameRequest;

/// Life stage of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A challenge waiting for an opponent.
    Open,
    /// Being played.
    Ongoing,
    /// Over, with a result.
    Finished,
    /// A challenge withdrawn before anyone accepted.
    Cancelled,
    /// A game called off by a player before both sides moved (no result).
    Aborted,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Ongoing => "ongoing",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
            Status::Aborted => "aborted",
        }
    }
    fn parse(text: &str) -> Status {
        match text {
            "open" => Status::Open,
            "ongoing" => Status::Ongoing,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => Status::Cancelled,
        }
    }
}

/// One recorded action: a move or a board's-honour count start/stop.
#[derive(Clone, Debug, Serialize)]
pub struct Action {
    /// Position in the game's action log, from 1.
    pub seq: u32,
    /// `move`, `count_start` or `count_stop`.
    pub kind: String,
    /// The move in engine form; for counts, the side (`white`/`black`).
    pub uci: String,
    /// The move for display (SAN, `c3xe5xc7`), or the count's description.
    pub san: String,
    /// The position after it.
    pub fen: String,
    /// White's clock after it, ms.
    pub white_ms: i64,
    /// Black's clock after it, ms.
    pub black_ms: i64,
    /// When it happened, ms since the epoch.
    pub at: i64,
}

impl Action {
    /// For count actions: the side that started or stopped the count
    /// (recorded in `uci`).
    pub fn side(&self) -> Side {
        Side::parse(&self.uci).unwrap_or(Side::White)
    }
}

/// A game with its rules state, as kept in memory.
pub struct Game {
    /// Id.
    pub id: String,
    /// Variant.
    pub variant: Variant,
    /// Rule option (`default`, `no-reverse`).
    pub rule_option: String,
    /// Stage.
    pub status: Status,
    /// Who made the challenge.
    pub creator: User,
    /// The colour the creator asked for: `white`, `black` or `random`.
    pub creator_color: String,
    /// The only user who may accept, for a direct challenge.
    pub opponent_id: Option<String>,
    /// White, once the game started.
    pub white: Option<User>,
    /// Black, once the game started.
    pub black: Option<User>,
    /// Time control.
    pub tc: TimeControl,
    /// White's clock at `turn_since`, ms.
    pub white_ms: i64,
    /// Black's clock at `turn_since`, ms.
    pub black_ms: i64,
    /// When the side to move started thinking, ms since the epoch.
    pub turn_since: i64,
    /// Bumped by every change; guards concurrent writers.
    pub version: i64,
    /// `1-0`, `0-1` or `1/2-1/2` once finished.
    pub result: Option<String>,
    /// Why it finished: `checkmate`, `resign`, `timeout`, `agreement`, `counting`...
    pub reason: Option<String>,
    /// The side offering a draw.
    pub draw_offer: Option<Side>,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// The start position.
    pub start_fen: String,
    /// The rules state.
    pub rules: Box<dyn GameRules>,
    /// Every action so far.
    pub actions: Vec<Action>,
}

/// Player information in views.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// User id.
    pub id: String,
    /// Name.
    pub username: String,
}

/// Clock information in views. A client shows `white_ms`/`black_ms` minus
/// the time passed since `server_now` for the running side.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// White's time left at `server_now`, ms.
    pub white_ms: i64,
    /// Black's time left at `server_now`, ms.
    pub black_ms: i64,
    /// The side whose clock runs, if any.
    pub running: Option<Side>,
    /// The server's time of this reading, ms since the epoch.
    pub server_now: i64,
}

/// A game as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Id.
    pub id: String,
    /// Variant name.
    pub variant: &'static str,
    /// Rule option.
    pub rules: String,
    /// Stage.
    pub status: Status,
    /// The challenger.
    pub creator: PlayerView,
    /// Colour asked for by the challenger.
    pub creator_color: String,
    /// White player.
    pub white: Option<PlayerView>,
    /// Black player.
    pub black: Option<PlayerView>,
    /// Time control.
    pub time_control: TimeControl,
    /// Clocks.
    pub clock: ClockView,
    /// Moves made.
    pub ply: u32,
    /// Side to move.
    pub turn: Side,
    /// Current position.
    pub fen: String,
    /// Legal moves of the side to move (empty unless ongoing).
    pub legal: Vec<LegalMove>,
    /// Result once finished.
    pub result: Option<String>,
    /// Reason of the result.
    pub reason: Option<String>,
    /// Side offering a draw.
    pub draw_offer: Option<Side>,
    /// The running Makruk count.
    pub count: Option<CountInfo>,
    /// Sides that may start a board's-honour count now.
    pub can_start_count: Vec<Side>,
    /// Sides that may stop the running board's-honour count now.
    pub can_stop_count: Vec<Side>,
    /// The start position.
    pub start_fen: String,
    /// Every action (only in full views).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<Action>>,
    /// Change counter, increases with every change.
    pub version: i64,
}

impl Game {
    /// Moves made so far.
    pub fn ply(&self) -> u32 {
        self.actions.iter().filter(|a| a.kind == "move").count() as u32
    }

    /// The side `user_id` plays, if a player.
    pub fn side_of(&self, user_id: &str) -> Option<Side> {
        if self.white.as_ref().is_some_and(|u| u.id == user_id) {
            Some(Side::White)
        } else if self.black.as_ref().is_some_and(|u| u.id == user_id) {
            Some(Side::Black)
        } else {
            None
        }
    }

    fn clock_running(&self) -> bool {
        self.status == Status::Ongoing && self.tc.runs_at(self.ply())
    }

    fn stored_ms(&self, side: Side) -> i64 {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    /// Time left for `side` at `now`.
    pub fn time_left(&self, side: Side, now: i64) -> i64 {
        let stored = self.stored_ms(side);
        if self.clock_running() && side == self.rules.turn() {
            stored - (now - self.turn_since)
        } else {
            stored
        }
    }

    /// When the side to move runs out of time, if its clock runs.
    pub fn deadline(&self) -> Option<i64> {
        self.clock_running()
            .then(|| self.turn_since + self.stored_ms(self.rules.turn()))
    }

    /// The view of this game; `full` includes every action.
    pub fn view(&self, full: bool) -> GameView {
        let now = now_ms();
        let ongoing = self.status == Status::Ongoing;
        let sides = [Side::White, Side::Black];
        GameView {
            id: self.id.clone(),
            variant: self.variant.name(),
            rules: self.rule_option.clone(),
            status: self.status,
            creator: player(&self.creator),
            creator_color: self.creator_color.clone(),
            white: self.white.as_ref().map(player),
            black: self.black.as_ref().map(player),
            time_control: self.tc,
            clock: ClockView {
                white_ms: self.time_left(Side::White, now).max(0),
                black_ms: self.time_left(Side::Black, now).max(0),
                running: self.clock_running().then(|| self.rules.turn()),
                server_now: now,
            },
            ply: self.ply(),
            turn: self.rules.turn(),
            fen: self.rules.fen(),
            legal: if ongoing {
                self.rules.legal_moves()
            } else {
                Vec::new()
            },
            result: self.result.clone(),
            reason: self.reason.clone(),
            draw_offer: self.draw_offer,
            count: self.rules.count(),
            can_start_count: sides
                .into_iter()
                .filter(|s| ongoing && self.rules.can_start_count(*s))
                .collect(),
            can_stop_count: sides
                .into_iter()
                .filter(|s| ongoing && self.rules.can_stop_count(*s))
                .collect(),
            start_fen: self.start_fen.clone(),
            actions: full.then(|| self.actions.clone()),
            version: self.version,
        }
    }

    /// The game as PGN (Makruk) or PDN (Mak-hot) text.
    pub fn pgn(&self, comments: &[(u32, String)]) -> String {
        let mut out = String::new();
        let tag = |out: &mut String, k: &str, v: &str| {
            out.push_str(&format!(
                "[{k} \"{}\"]\n",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            ))
        };
        let name = |u: &Option<User>| {
            u.as_ref()
                .map(|u| u.username.clone())
                .unwrap_or_else(|| "?".into())
        };
        tag(&mut out, "Event", "thaiboard game");
        tag(&mut out, "Site", &format!("thaiboard /game/{}", self.id));
        tag(&mut out, "White", &name(&self.white));
        tag(&mut out, "Black", &name(&self.black));
        let result = self.result.clone().unwrap_or_else(|| "*".into());
        tag(&mut out, "Result", &result);
        match self.variant {
            Variant::Makhos => {
                tag(&mut out, "GameType", "makhos");
                if self.rule_option != "default" {
                    tag(&mut out, "Rules", &self.rule_option);
                }
            }
            v => tag(&mut out, "Variant", v.name()),
        }
        if let Some(reason) = &self.reason {
            tag(&mut out, "Termination", reason);
        }
        out.push('\n');
        let mut line = String::new();
        // `{...}` after the move it follows (ply 0: before the first move);
        // a brace in the text would end the comment early.
        let comment_at = |line: &mut String, ply: u32| -> bool {
            let mut any = false;
            for (_, text) in comments.iter().filter(|(p, _)| *p == ply) {
                line.push_str(&format!("{{{}}} ", text.replace(['{', '}'], "")));
                any = true;
            }
            any
        };
        let mut after_comment = comment_at(&mut line, 0);
        for (i, a) in self.actions.iter().filter(|a| a.kind == "move").enumerate() {
            if i % 2 == 0 {
                line.push_str(&format!("{}. ", i / 2 + 1));
            } else if after_comment {
                line.push_str(&format!("{}... ", i / 2 + 1));
            }
            line.push_str(&a.san);
            line.push(' ');
            after_comment = comment_at(&mut line, i as u32 + 1);
        }
        line.push_str(&result);
        out.push_str(&line);
        out.push('\n');
        out
    }
}

fn player(u: &User) -> PlayerView {
    PlayerView {
        id: u.id.clone(),
        username: u.username.clone(),
    }
}

/// A challenge as a client asks for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[serde(default)]
    pub rules: Option<String>,
    /// `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// Time control (default: none).
    #[serde(default)]
    pub time_control: Option<TimeControlRequest>,
    /// Challenge only this user (by name); otherwise an open challenge in the lobby.
    #[serde(default)]
    pub opponent: Option<String>,
}

/// Checked settings of a new game.
struct Setup {
    variant: Variant,
    option: String,
    start_fen: String,
    color: String,
    tc: TimeControl,
}

/// A request to act in a game.
#[derive(Clone, Debug)]
pub enum Command {
    /// Play a move, typed in any accepted notation. `ply`, when given, must
    /// equal the number of moves made so far (guards against stale boards).
    Move {
        /// The move text.
        text: String,
        /// Expected number of moves so far.
        ply: Option<u32>,
    },
    /// Resign.
    Resign,
    /// Offer a draw (or accept a standing offer of the opponent).
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline the opponent's draw offer.
    DrawDecline,
    /// Start a board's-honour count (Makruk).
    CountStart,
    /// Stop the board's-honour count (Makruk).
    CountStop,
    /// Call the game off before both sides moved: no result.
    Abort,
    /// The server calls a game off for a player who did not make a first
    /// move in time (tournament games, which players cannot abort).
    AbortAbsent,
    /// Claim the win (or draw) because the opponent's time ran out.
    ClaimTimeout,
}

/// Entry in the game list of a user.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Id.
    pub id: String,
    /// Variant name.
    pub variant: String,
    /// Rule option.
    pub rules: String,
    /// Stage.
    pub status: String,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// Challenger's name.
    pub creator: String,
    /// Colour asked by the challenger.
    pub creator_color: String,
    /// Time control kind.
    pub tc_kind: String,
    /// Initial time, ms.
    pub tc_initial_ms: i64,
    /// Increment, ms.
    pub tc_increment_ms: i64,
    /// Moves made.
    pub ply: i64,
    /// Result.
    pub result: Option<String>,
    /// Reason of the result.
    pub reason: Option<String>,
    /// Whether it is the asking user's move.
    pub your_move: bool,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// The tournament the game belongs to, if any: id.
    pub tournament_id: Option<String>,
    /// The tournament's name.
    pub tournament_name: Option<String>,
}

type Slot = Arc<tokio::sync::Mutex<Option<Game>>>;

/// The game service.
pub struct Games {
    db: Db,
    hub: Arc<Hub>,
    cache: Mutex<HashMap<String, Slot>>,
    timers: Arc<Timers>,
    enable_test_variant: bool,
    /// This process's id in cross-process notifications.
    pub instance: String,
    /// SQLite has one writer: transactions queue here instead of spinning on SQLITE_BUSY.
    write_lock: Arc<tokio::sync::Mutex<()>>,
    /// The group-commit queue (SQLite).
    writer_queue: tokio::sync::mpsc::Sender<(WriteJob, Reply)>,
    /// The computer opponent and its pending moves.
    engine: engine_play::EngineSlot,
    /// This service, for tasks it starts after a change (conditional moves).
    this: std::sync::Weak<Games>,
    /// How long an arena game waits for its first moves, ms (see
    /// [`crate::Config::arena_first_move_ms`]).
    pub(crate) arena_first_move_ms: std::sync::atomic::AtomicU64,
}

type Reply = tokio::sync::oneshot::Sender<ApiResult<()>>;

/// One game's write: an optional action row and the game row's new fields.
struct WriteJob {
    game_id: String,
    action: Option<Action>,
    update: UpdateRow,
}

struct UpdateRow {
    status: &'static str,
    white_ms: i64,
    black_ms: i64,
    turn_since: i64,
    ply: i32,
    fen: String,
    result: Option<String>,
    reason: Option<String>,
    draw_offer: Option<&'static str>,
    updated_at: i64,
    /// The version the game must still have.
    version: i64,
}

async fn write_job(tx: &mut sqlx::Transaction<'_, sqlx::Any>, job: &WriteJob) -> ApiResult<()> {
    if let Some(a) = &job.action {
        sqlx::query(
            "INSERT INTO game_actions (game_id, seq, kind, notation, san, fen, white_ms, black_ms, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&job.game_id)
        .bind(a.seq as i32)
        .bind(&a.kind)
        .bind(&a.uci)
        .bind(&a.san)
        .bind(&a.fen)
        .bind(a.white_ms)
        .bind(a.black_ms)
        .bind(a.at)
        .execute(&mut **tx)
        .await?;
    }
    let u = &job.update;
    let done = sqlx::query(
        "UPDATE games SET status = $1, white_ms = $2, black_ms = $3, turn_since = $4, version = version + 1, \
         ply = $5, fen = $6, result = $7, reason = $8, draw_offer = $9, updated_at = $10 WHERE id = $11 AND version = $12",
    )
    .bind(u.status)
    .bind(u.white_ms)
    .bind(u.black_ms)
    .bind(u.turn_since)
    .bind(u.ply)
    .bind(&u.fen)
    .bind(&u.result)
    .bind(&u.reason)
    .bind(u.draw_offer)
    .bind(u.updated_at)
    .bind(&job.game_id)
    .bind(u.version)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(stale());
    }
    Ok(())
}

/// `text` as an SQL string literal (SQLite and PostgreSQL: quotes doubled,
/// no other escapes).
fn sql_text(out: &mut String, text: &str) {
    out.push('\'');
    for c in text.chars() {
        if c == '\'' {
            out.push('\'');
        }
        out.push(c);
    }
    out.push('\'');
}

fn sql_opt_text(out: &mut String, text: Option<&str>) {
    match text {
        Some(t) => sql_text(out, t),
        None => out.push_str("NULL"),
    }
}

/// The writes of a batch as one SQL text, with the number of rows it
/// changes when every game still has its expected version: one multi-row
/// `INSERT` of the actions and one guarded `UPDATE` per game. The SQLite
/// connection runs it in one round trip to its worker thread, where
/// statements with bound values would take two per game.
fn batch_sql(jobs: &[(WriteJob, Reply)]) -> (String, u64) {
    use std::fmt::Write;
    let mut sql = String::with_capacity(512);
    let mut rows = 0;
    for (i, (job, a)) in jobs
        .iter()
        .filter_map(|(j, _)| j.action.as_ref().map(|a| (j, a)))
        .enumerate()
    {
        sql.push_str(if i == 0 {
            "INSERT INTO game_actions (game_id, seq, kind, notation, san, fen, white_ms, black_ms, at) VALUES ("
        } else {
            ", ("
        });
        sql_text(&mut sql, &job.game_id);
        let _ = write!(sql, ", {}, ", a.seq);
        for text in [&a.kind, &a.uci, &a.san, &a.fen] {
            sql_text(&mut sql, text);
            sql.push_str(", ");
        }
        let _ = write!(sql, "{}, {}, {})", a.white_ms, a.black_ms, a.at);
        rows += 1;
    }
    if rows > 0 {
        sql.push_str(";\n");
    }
    for (job, _) in jobs {
        let u = &job.update;
        sql.push_str("UPDATE games SET status = ");
        sql_text(&mut sql, u.status);
        let _ = write!(
            sql,
            ", white_ms = {}, black_ms = {}, turn_since = {}, version = version + 1, ply = {}, fen = ",
            u.white_ms, u.black_ms, u.turn_since, u.ply
        );
        sql_text(&mut sql, &u.fen);
        sql.push_str(", result = ");
        sql_opt_text(&mut sql, u.result.as_deref());
        sql.push_str(", reason = ");
        sql_opt_text(&mut sql, u.reason.as_deref());
        sql.push_str(", draw_offer = ");
        sql_opt_text(&mut sql, u.draw_offer);
        let _ = write!(sql, ", updated_at = {} WHERE id = ", u.updated_at);
        sql_text(&mut sql, &job.game_id);
        let _ = writeln!(sql, " AND version = {};", u.version);
        rows += 1;
    }
    (sql, rows)
}

/// Commits the writes of `jobs` in one transaction on `conn`; fails (writing
/// nothing) if any write fails or finds its game changed. Two round trips
/// to the SQLite worker: `BEGIN` with the writes, then `COMMIT` (or
/// `ROLLBACK`). The second value is false when the connection is unusable.
async fn write_batch(
    conn: &mut sqlx::AnyConnection,
    jobs: &[(WriteJob, Reply)],
) -> (ApiResult<()>, bool) {
    let (sql, rows) = batch_sql(jobs);
    // The rows changed are counted by SQLite's total_changes() around the
    // writes (a per-statement count would also pick up BEGIN's stale one).
    let sql = format!("BEGIN IMMEDIATE;\nSELECT total_changes();\n{sql}SELECT total_changes();");
    let outcome = match sqlx::Executor::fetch_all(&mut *conn, sqlx::raw_sql(&sql)).await {
        Ok(counts) if counts.len() == 2 => {
            let before: i64 = counts[0].try_get(0).unwrap_or(-1);
            let after: i64 = counts[1].try_get(0).unwrap_or(-1);
            if before >= 0 && after - before == rows as i64 {
                Ok(())
            } else {
                Err(stale())
            }
        }
        Ok(_) => Err(ApiError::internal("the batch's change count is missing")),
        Err(e) => Err(ApiError::from(e)),
    };
    let end = if outcome.is_ok() {
        "COMMIT"
    } else {
        "ROLLBACK"
    };
    match sqlx::Executor::execute(&mut *conn, sqlx::raw_sql(end)).await {
        Ok(_) => (outcome, true),
        // A failed BEGIN leaves nothing to roll back.
        Err(_) if outcome.is_err() => (outcome, true),
        Err(e) => {
            let _ = sqlx::Executor::execute(&mut *conn, sqlx::raw_sql("ROLLBACK")).await;
            (Err(ApiError::from(e)), false)
        }
    }
}

/// The SQLite group-commit writer: takes every write waiting in the queue,
/// commits them in one transaction, then answers each. If the batch fails,
/// each write is retried alone so that one bad write fails only itself.
/// It keeps one connection of the pool for itself: its page cache stays
/// warm (no rereading pages other connections changed).
async fn writer_task(
    pool: sqlx::AnyPool,
    lock: Arc<tokio::sync::Mutex<()>>,
    mut queue: tokio::sync::mpsc::Receiver<(WriteJob, Reply)>,
) {
    let mut conn: Option<sqlx::pool::PoolConnection<sqlx::Any>> = None;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < 256 {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let _guard = lock.lock().await;
        let c = match &mut conn {
            Some(c) => c,
            None => match pool.acquire().await {
                Ok(c) => conn.insert(c),
                Err(e) => {
                    let e = ApiError::from(e);
                    for (_, reply) in batch {
                        let _ = reply.send(Err(e.clone()));
                    }
                    continue;
                }
            },
        };
        let (result, healthy) = write_batch(c, &batch).await;
        match result {
            Ok(()) => {
                for (_, reply) in batch {
                    let _ = reply.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                let (_, reply) = batch.pop().expect("one job");
                let _ = reply.send(Err(e));
            }
            Err(_) if healthy => {
                for job in batch {
                    let (result, ok) = write_batch(c, std::slice::from_ref(&job)).await;
                    let _ = job.1.send(result);
                    if !ok {
                        break; // the rest get "writer stopped" answers when dropped
                    }
                }
            }
            Err(e) => {
                for (_, reply) in batch {
                    let _ = reply.send(Err(e.clone()));
                }
            }
        }
        if !healthy {
            conn = None;
        }
    }
}

const SELECT_GAME: &str = "SELECT g.id, g.variant, g.rules, g.status, g.creator_id, cu.username, g.creator_color, g.opponent_id, \
    g.white_id, wu.username, g.black_id, bu.username, g.tc_kind, g.tc_initial_ms, g.tc_increment_ms, g.tc_max_ms, \
    g.white_ms, g.black_ms, g.turn_since, g.version, g.result, g.reason, g.draw_offer, g.created_at, \
    cu.is_guest, wu.is_guest, bu.is_guest \
    FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
    LEFT JOIN users bu ON bu.id = g.black_id WHERE g.id = $1";

impl Games {
    /// A service over `db`, broadcasting through `hub`.
    pub fn new(db: Db, hub: Arc<Hub>, enable_test_variant: bool) -> Arc<Games> {
        let write_lock = Arc::new(tokio::sync::Mutex::new(()));
        let (writer_queue, queue) = tokio::sync::mpsc::channel(4096);
        if db.backend == Backend::Sqlite {
            tokio::spawn(writer_task(db.pool.clone(), write_lock.clone(), queue));
        }
        Arc::new_cyclic(|this| Games {
            db,
            hub,
            cache: Mutex::new(HashMap::new()),
            timers: Arc::new(Timers::default()),
            enable_test_variant,
            instance: random_id(12),
            write_lock,
            writer_queue,
            engine: engine_play::EngineSlot::default(),
            this: this.clone(),
            arena_first_move_ms: std::sync::atomic::AtomicU64::new(60_000),
        })
    }

    /// Starts the clock task and schedules the deadlines of ongoing games.
    pub async fn start(self: &Arc<Self>) -> ApiResult<()> {
        self.engine.set_service(self);
        tokio::spawn(timer_task(Arc::downgrade(self), self.timers.clone()));
        let rows = sqlx::query("SELECT id, tc_kind, turn_since, white_ms, black_ms, ply FROM games WHERE status = 'ongoing' AND tc_kind <> 'none'")
            .fetch_all(&self.db.pool)
            .await?;
        for row in rows {
            let id: String = row.get(0);
            let tc = TimeControl {
                kind: TcKind::parse(&row.get::<String, _>(1)).unwrap_or(TcKind::None),
                initial_ms: 0,
                increment_ms: 0,
                max_ms: 0,
            };
            let ply: i32 = row.get(5);
            if tc.runs_at(ply as u32) {
                let since: i64 = row.get(2);
                let left: i64 = if ply % 2 == 0 { row.get(3) } else { row.get(4) };
                self.timers.set(&id, Some(since + left));
            }
        }
        Ok(())
    }

    fn slot(&self, id: &str) -> Slot {
        let mut cache = self.cache.lock().expect("cache lock");
        cache.entry(id.to_string()).or_default().clone()
    }

    /// Forgets the cached copy of a game (another process changed it).
    pub fn invalidate(&self, id: &str) {
        self.cache.lock().expect("cache lock").remove(id);
    }

    async fn load(&self, id: &str) -> ApiResult<Game> {
        let row = sqlx::query(SELECT_GAME)
            .bind(id)
            .fetch_optional(&self.db.pool)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let user = |idx_id: usize, idx_name: usize, idx_guest: usize| -> Option<User> {
            let id: Option<String> = row.get(idx_id);
            id.map(|id| User {
                id,
                username: row.get(idx_name),
                guest: row.get::<Option<i32>, _>(idx_guest).unwrap_or(0) != 0,
            })
        };
        let variant_name: String = row.get(1);
        let variant = Variant::parse(&variant_name)
            .ok_or_else(|| ApiError::internal(format!("bad variant {variant_name}")))?;
        let rule_option: String = row.get(2);
        let mut rules = new_game(variant, &rule_option).map_err(ApiError::internal)?;
        let start_fen = rules.fen();
        let actions_rows = sqlx::query(
            "SELECT seq, kind, notation, san, fen, white_ms, black_ms, at FROM game_actions WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.db.pool)
        .await?;
        let mut actions = Vec::with_capacity(actions_rows.len());
        for r in actions_rows {
            let a = Action {
                seq: r.get::<i32, _>(0) as u32,
                kind: r.get(1),
                uci: r.get(2),
                san: r.get(3),
                fen: r.get(4),
                white_ms: r.get(5),
                black_ms: r.get(6),
                at: r.get(7),
            };
            let replayed = match a.kind.as_str() {
                "move" => rules.play(&a.uci),
                "count_start" => rules.start_count(a.side()),
                "count_stop" => rules.stop_count(a.side()),
                other => Err(format!("unknown action {other}")),
            };
            replayed.map_err(|e| {
                ApiError::internal(format!("replaying game {id} action {}: {e}", a.seq))
            })?;
            actions.push(a);
        }
        let draw_offer: Option<String> = row.get(22);
        Ok(Game {
            id: row.get(0),
            variant,
            rule_option,
            status: Status::parse(&row.get::<String, _>(3)),
            creator: user(4, 5, 24).expect("creator"),
            creator_color: row.get(6),
            opponent_id: row.get(7),
            white: user(8, 9, 25),
            black: user(10, 11, 26),
            tc: TimeControl {
                kind: TcKind::parse(&row.get::<String, _>(12)).unwrap_or(TcKind::None),
                initial_ms: row.get(13),
                increment_ms: row.get(14),
                max_ms: row.get(15),
            },
            white_ms: row.get(16),
            black_ms: row.get(17),
            turn_since: row.get(18),
            version: row.get(19),
            result: row.get(20),
            reason: row.get(21),
            draw_offer: draw_offer.as_deref().and_then(Side::parse),
            created_at: row.get(23),
            start_fen,
            rules,
            actions,
        })
    }

    /// Runs `f` on the game with its lock held, loading it if needed.
    async fn with_game<T>(
        &self,
        id: &str,
        f: impl AsyncFnOnce(&mut Game) -> ApiResult<T>,
    ) -> ApiResult<T> {
        let slot = self.slot(id);
        let mut guard = slot.lock().await;
        if guard.is_none() {
            match self.load(id).await {
                Ok(g) => *guard = Some(g),
                Err(e) => {
                    drop(guard);
                    self.invalidate(id);
                    return Err(e);
                }
            }
        }
        let game = guard.as_mut().expect("loaded");
        let result = f(game).await;
        if result.is_err() && matches!(&result, Err(e) if e.code == "stale") {
            *guard = None;
        }
        result
    }

    /// The view of a game.
    pub async fn view(&self, id: &str, full: bool) -> ApiResult<GameView> {
        self.with_game(id, async |g| Ok(g.view(full))).await
    }

    /// The PGN/PDN of a game.
    /// The game's record, with these comments `(ply, text)` in it.
    pub async fn pgn(&self, id: &str, comments: &[(u32, String)]) -> ApiResult<(Variant, String)> {
        self.with_game(id, async |g| Ok((g.variant, g.pgn(comments))))
            .await
    }

    /// Checks the game settings a client asked for: variant, rule option,
    /// colour and time control.
    fn setup(
        &self,
        variant: &str,
        rules: Option<String>,
        color: Option<String>,
        tc: Option<TimeControlRequest>,
    ) -> ApiResult<Setup> {
        let variant = Variant::parse(variant)
            .filter(|v| *v != Variant::Test || self.enable_test_variant)
            .ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_variant",
                    format!("unknown variant {variant:?}: use makruk, cambodian or makhos"),
                )
            })?;
        let option = rules.unwrap_or_else(|| "default".into());
        let start_fen = new_game(variant, &option)
            .map_err(|e| ApiError::bad_request("invalid_rules", e))?
            .fen();
        let color = color.unwrap_or_else(|| "random".into());
        if !["white", "black", "random"].contains(&color.as_str()) {
            return Err(ApiError::bad_request(
                "invalid_color",
                "color must be white, black or random",
            ));
        }
        let tc = tc.unwrap_or_default().resolve()?;
        Ok(Setup {
            variant,
            option,
            start_fen,
            color,
            tc,
        })
    }

    /// Stores a new game (an open challenge, or a started game when both
    /// players are given) and returns its id.
    async fn insert_game(
        &self,
        setup: &Setup,
        creator: &User,
        opponent_id: Option<&str>,
        players: Option<(&str, &str)>,
    ) -> ApiResult<String> {
        let id = random_id(10);
        let now = now_ms();
        let status = if players.is_some() { "ongoing" } else { "open" };
        let tc = setup.tc;
        sqlx::query(
            "INSERT INTO games (id, variant, rules, status, creator_id, creator_color, opponent_id, white_id, black_id, \
             tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, white_ms, black_ms, turn_since, version, ply, fen, \
             result, reason, draw_offer, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 1, 0, $17, NULL, NULL, NULL, $18, $19)",
        )
        .bind(&id)
        .bind(setup.variant.name())
        .bind(&setup.option)
        .bind(status)
        .bind(&creator.id)
        .bind(&setup.color)
        .bind(opponent_id)
        .bind(players.map(|p| p.0))
        .bind(players.map(|p| p.1))
        .bind(tc.kind.name())
        .bind(tc.initial_ms)
        .bind(tc.increment_ms)
        .bind(tc.max_ms)
        .bind(tc.initial_ms)
        .bind(tc.initial_ms)
        .bind(now)
        .bind(&setup.start_fen)
        .bind(now)
        .bind(now)
        .execute(&self.db.pool)
        .await?;
        Ok(id)
    }

    /// Creates a challenge; returns the game's view.
    pub async fn create_challenge(
        &self,
        user: &User,
        req: ChallengeRequest,
    ) -> ApiResult<GameView> {
        let setup = self.setup(&req.variant, req.rules, req.color, req.time_control)?;
        if user.guest {
            return Err(ApiError::forbidden(
                "account_required",
                "guests play the engine; register or log in to challenge players",
            ));
        }
        let opponent_id = match &req.opponent {
            None => None,
            Some(name) => {
                let row =
                    sqlx::query("SELECT id FROM users WHERE username_key = $1 AND is_guest = 0")
                        .bind(name.to_lowercase())
                        .fetch_optional(&self.db.pool)
                        .await?
                        .ok_or_else(|| {
                            ApiError::bad_request("unknown_user", format!("no user named {name:?}"))
                        })?;
                let id: String = row.get(0);
                if crate::opponent::engine_level(&id).is_some() {
                    return Err(ApiError::bad_request(
                        "invalid_opponent",
                        "to play the computer, use Play the computer (POST /api/engine-games)",
                    ));
                }
                if id == user.id {
                    return Err(ApiError::bad_request(
                        "invalid_opponent",
                        "you cannot challenge yourself",
                    ));
                }
                Some(id)
            }
        };
        let id = self
            .insert_game(&setup, user, opponent_id.as_deref(), None)
            .await?;
        self.notify_others(&id).await;
        self.hub.lobby_changed();
        self.view(&id, true).await
    }

    /// Accepts a challenge: the game starts.
    pub async fn accept(&self, user: &User, id: &str) -> ApiResult<GameView> {
        let view = self
            .with_game(id, async |g| {
                if g.status != Status::Open {
                    return Err(ApiError::conflict("not_open", "this challenge is no longer open"));
                }
                if g.creator.id == user.id {
                    return Err(ApiError::conflict("own_challenge", "you cannot accept your own challenge"));
                }
                if user.guest {
                    return Err(ApiError::forbidden("account_required", "register or log in to play other players"));
                }
                if g.opponent_id.as_ref().is_some_and(|o| *o != user.id) {
                    return Err(ApiError::forbidden("not_invited", "this challenge is for another player"));
                }
                let creator_white = match g.creator_color.as_str() {
                    "white" => true,
                    "black" => false,
                    _ => rand::random::<bool>(),
                };
                let (white, black) =
                    if creator_white { (g.creator.clone(), user.clone()) } else { (user.clone(), g.creator.clone()) };
                let now = now_ms();
                let _writer = self.writer().await;
                let mut tx = self.db.pool.begin().await?;
                let done = sqlx::query(
                    "UPDATE games SET status = 'ongoing', white_id = $1, black_id = $2, turn_since = $3, updated_at = $3, \
                     version = version + 1 WHERE id = $4 AND version = $5 AND status = 'open'",
                )
                .bind(&white.id)
                .bind(&black.id)
                .bind(now)
                .bind(&g.id)
                .bind(g.version)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() != 1 {
                    return Err(stale());
                }
                self.notify_in(&mut tx, &g.id).await?;
                tx.commit().await?;
                g.status = Status::Ongoing;
                g.white = Some(white);
                g.black = Some(black);
                g.turn_since = now;
                g.version += 1;
                Ok(g.view(true))
            })
            .await?;
        self.after_change(id, None).await;
        self.hub.lobby_changed();
        Ok(view)
    }

    /// Withdraws an open challenge (its creator only).
    pub async fn cancel(&self, user: &User, id: &str) -> ApiResult<()> {
        self.with_game(id, async |g| {
            if g.creator.id != user.id {
                return Err(ApiError::forbidden("not_yours", "only the challenger can withdraw a challenge"));
            }
            if g.status != Status::Open {
                return Err(ApiError::conflict("not_open", "this challenge is no longer open"));
            }
            let done = sqlx::query("UPDATE games SET status = 'cancelled', version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3")
                .bind(now_ms())
                .bind(&g.id)
                .bind(g.version)
                .execute(&self.db.pool)
                .await?;
            if done.rows_affected() != 1 {
                return Err(stale());
            }
            g.status = Status::Cancelled;
            g.version += 1;
            Ok(())
        })
        .await?;
        self.notify_others(id).await;
        self.after_change(id, None).await;
        self.hub.lobby_changed();
        Ok(())
    }

    /// Carries out a player's command. Returns the game's view after it is committed.
    pub async fn act(&self, user: &User, id: &str, cmd: Command) -> ApiResult<GameView> {
        self.act_with(user, id, cmd, true)
            .await
            .map(|v| v.expect("full view"))
    }

    /// Like [`Games::act`]; returns the full view only when `full` (the
    /// WebSocket path answers with a bare ack and needs none).
    pub async fn act_with(
        &self,
        user: &User,
        id: &str,
        cmd: Command,
        full: bool,
    ) -> ApiResult<Option<GameView>> {
        let mut new_action = None;
        // Tournament games cannot be aborted by their players.
        let tournament_game = matches!(cmd, Command::Abort)
            && sqlx::query("SELECT 1 FROM tournament_games WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&self.db.pool)
                .await?
                .is_some();
        let view = self
            .with_game(id, async |g| {
                let side = g.side_of(&user.id).ok_or_else(|| {
                    ApiError::forbidden("not_a_player", "only the two players can act in this game; others may watch")
                })?;
                if g.status != Status::Ongoing {
                    return Err(ApiError::conflict("game_over", format!("the game is {}", g.status.name())));
                }
                let now = now_ms();
                if matches!(cmd, Command::ClaimTimeout) {
                    if g.rules.turn() == side || g.deadline().is_none_or(|d| now < d) {
                        return Err(ApiError::conflict("nothing_to_claim", "nothing to claim: your opponent's time has not run out"));
                    }
                    self.flag(g, now).await?;
                    return Ok((full.then(|| g.view(true)), g.view(false), g.deadline(), true));
                }
                // A player whose time ran out cannot act any more: end the game first.
                if g.deadline().is_some_and(|d| now >= d) {
                    self.flag(g, now).await?;
                    return Err(ApiError::conflict("time_over", "time is up: the game is over"));
                }
                let mut next = Next::from(g);
                match cmd {
                    Command::Move { text, ply } => {
                        if side != g.rules.turn() {
                            return Err(ApiError::conflict("not_your_turn", "it is not your turn"));
                        }
                        if let Some(ply) = ply
                            && ply != g.ply()
                        {
                            return Err(ApiError::conflict(
                                "wrong_ply",
                                format!("the move was made on an old board: the game is at ply {}, not {ply}", g.ply()),
                            ));
                        }
                        if text.len() > 64 {
                            return Err(ApiError::bad_request("invalid_move", "move text too long"));
                        }
                        let mv = g.rules.parse(&text).map_err(ApiError::illegal_move)?;
                        let mut rules = g.rules.box_clone();
                        rules.play(&mv.uci).map_err(ApiError::illegal_move)?;
                        if g.tc.runs_at(g.ply()) {
                            let left = g.stored_ms(side) - (now - g.turn_since);
                            next.set_ms(side, g.tc.after_move(left));
                        }
                        next.turn_since = now;
                        if next.draw_offer == Some(side.other()) {
                            next.draw_offer = None; // moving declines the opponent's offer
                        }
                        match rules.outcome() {
                            Outcome::Ongoing => {}
                            Outcome::Win(winner, reason) => next.finish(win(winner), reason),
                            Outcome::Draw(reason) => next.finish("1/2-1/2", reason),
                        }
                        let action = Action {
                            seq: g.actions.len() as u32 + 1,
                            kind: "move".into(),
                            uci: mv.uci.clone(),
                            san: mv.san.clone(),
                            fen: rules.fen(),
                            white_ms: next.white_ms,
                            black_ms: next.black_ms,
                            at: now,
                        };
                        next.ply = g.ply() + 1;
                        self.commit(g, &next, Some(&action)).await?;
                        g.rules = rules;
                        next.apply(g);
                        g.actions.push(action.clone());
                        new_action = Some(action);
                    }
                    Command::Abort | Command::AbortAbsent => {
                        if tournament_game {
                            return Err(ApiError::conflict(
                                "tournament_game",
                                "a tournament game cannot be aborted: offer a draw or resign",
                            ));
                        }
                        if g.ply() >= 2 {
                            return Err(ApiError::conflict("too_late_to_abort", "both sides have moved: resign or offer a draw instead"));
                        }
                        next.freeze(g, now);
                        next.status = Status::Aborted;
                        next.reason = Some("aborted".into());
                        next.draw_offer = None;
                        self.commit(g, &next, None).await?;
                        next.apply(g);
                    }
                    Command::ClaimTimeout => return Err(ApiError::internal("a claim reached the move path")),
                    Command::Resign => {
                        next.freeze(g, now);
                        next.finish(win(side.other()), "resign");
                        self.commit(g, &next, None).await?;
                        next.apply(g);
                    }
                    Command::DrawOffer | Command::DrawAccept if g.draw_offer == Some(side.other()) => {
                        next.freeze(g, now);
                        next.finish("1/2-1/2", "agreement");
                        self.commit(g, &next, None).await?;
                        next.apply(g);
                    }
                    Command::DrawAccept => {
                        return Err(ApiError::conflict("no_draw_offer", "your opponent has not offered a draw"));
                    }
                    Command::DrawOffer => {
                        if g.draw_offer == Some(side) {
                            return Err(ApiError::conflict("already_offered", "you have already offered a draw"));
                        }
                        next.draw_offer = Some(side);
                        self.commit(g, &next, None).await?;
                        next.apply(g);
                    }
                    Command::DrawDecline => {
                        if g.draw_offer != Some(side.other()) {
                            return Err(ApiError::conflict("no_draw_offer", "your opponent has not offered a draw"));
                        }
                        next.draw_offer = None;
                        self.commit(g, &next, None).await?;
                        next.apply(g);
                    }
                    Command::CountStart | Command::CountStop => {
                        let start = matches!(cmd, Command::CountStart);
                        let allowed = if start { g.rules.can_start_count(side) } else { g.rules.can_stop_count(side) };
                        if !allowed {
                            return Err(ApiError::conflict(
                                "count_not_allowed",
                                if start { "you may not start a board's-honour count now" } else { "you may not stop the count now" },
                            ));
                        }
                        let mut rules = g.rules.box_clone();
                        if start { rules.start_count(side) } else { rules.stop_count(side) }
                            .map_err(|e| ApiError::conflict("count_not_allowed", e))?;
                        let action = Action {
                            seq: g.actions.len() as u32 + 1,
                            kind: if start { "count_start" } else { "count_stop" }.into(),
                            uci: side.name().into(),
                            san: format!("{} {} counting", side.name(), if start { "starts" } else { "stops" }),
                            fen: rules.fen(),
                            white_ms: g.time_left(Side::White, now),
                            black_ms: g.time_left(Side::Black, now),
                            at: now,
                        };
                        self.commit(g, &next, Some(&action)).await?;
                        g.rules = rules;
                        next.apply(g);
                        g.actions.push(action.clone());
                        new_action = Some(action);
                    }
                }
                // The update for watchers is made under the same lock, right after the commit.
                Ok((full.then(|| g.view(true)), g.view(false), g.deadline(), g.status != Status::Ongoing))
            })
            .await;
        match view {
            Ok((view, light, deadline, over)) => {
                self.publish(id, light, deadline, over, new_action);
                Ok(view)
            }
            Err(e) => {
                if e.code == "time_over" {
                    self.after_change(id, None).await;
                }
                Err(e)
            }
        }
    }

    /// Writes `next` (and `action`) in one transaction, guarded by the game's
    /// version. On SQLite the write joins the group-commit queue: one writer
    /// commits the pending writes of many games in one transaction.
    async fn commit(&self, g: &Game, next: &Next, action: Option<&Action>) -> ApiResult<()> {
        let job = WriteJob {
            game_id: g.id.clone(),
            action: action.cloned(),
            update: UpdateRow {
                status: next.status.name(),
                white_ms: next.white_ms,
                black_ms: next.black_ms,
                turn_since: next.turn_since,
                ply: next.ply as i32,
                fen: action
                    .map(|a| a.fen.clone())
                    .unwrap_or_else(|| g.rules.fen()),
                result: next.result.clone(),
                reason: next.reason.clone(),
                draw_offer: next.draw_offer.map(|s| s.name()),
                updated_at: now_ms(),
                version: g.version,
            },
        };
        if self.db.backend == Backend::Sqlite {
            let (reply, answer) = tokio::sync::oneshot::channel();
            self.writer_queue
                .send((job, reply))
                .await
                .map_err(|_| ApiError::internal("the database writer stopped"))?;
            return answer
                .await
                .map_err(|_| ApiError::internal("the database writer stopped"))?;
        }
        let mut tx = self.db.pool.begin().await?;
        write_job(&mut tx, &job).await?;
        self.notify_in(&mut tx, &g.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The SQLite writer lock (no lock on PostgreSQL).
    async fn writer(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        if self.db.backend == Backend::Sqlite {
            Some(self.write_lock.lock().await)
        } else {
            None
        }
    }

    async fn notify_in(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
    ) -> ApiResult<()> {
        if self.db.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify('thaiboard_games', $1)")
                .bind(format!("{} {id}", self.instance))
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Tells other server processes (PostgreSQL) that game `id` changed
    /// outside a game transaction (a new or withdrawn challenge), so their
    /// lobby watchers see it. Best effort: a lost note only delays a lobby.
    async fn notify_others(&self, id: &str) {
        if self.db.backend == Backend::Postgres {
            let _ = sqlx::query("SELECT pg_notify('thaiboard_games', $1)")
                .bind(format!("{} {id}", self.instance))
                .execute(&self.db.pool)
                .await;
        }
    }

    /// Ends the game on time for the side to move (caller checked the deadline).
    async fn flag(&self, g: &mut Game, now: i64) -> ApiResult<()> {
        let loser = g.rules.turn();
        let mut next = Next::from(g);
        next.set_ms(loser, 0);
        next.turn_since = now;
        if g.rules.can_win(loser.other()) {
            next.finish(win(loser.other()), "timeout");
        } else {
            next.finish("1/2-1/2", "timeout_vs_insufficient_material");
        }
        self.commit(g, &next, None).await?;
        next.apply(g);
        Ok(())
    }

    /// Called by the timer when a game's deadline passed.
    pub async fn check_timeout(&self, id: &str) -> ApiResult<()> {
        let flagged = self
            .with_game(id, async |g| {
                let now = now_ms();
                match g.deadline() {
                    Some(d) if now >= d => {
                        self.flag(g, now).await?;
                        Ok(true)
                    }
                    _ => Ok(false),
                }
            })
            .await?;
        if flagged {
            self.after_change(id, None).await;
        } else {
            self.reschedule(id).await;
        }
        Ok(())
    }

    async fn reschedule(&self, id: &str) {
        if let Ok(deadline) = self.with_game(id, async |g| Ok(g.deadline())).await {
            self.timers.set(id, deadline);
        }
    }

    /// After a committed change: reschedule the clock and tell the watchers.
    pub async fn after_change(&self, id: &str, action: Option<Action>) {
        let Ok((view, deadline, over)) = self
            .with_game(id, async |g| {
                Ok((
                    g.view(false),
                    g.deadline(),
                    g.status != Status::Ongoing && g.status != Status::Open,
                ))
            })
            .await
        else {
            return;
        };
        self.publish(id, view, deadline, over, action);
    }

    fn publish(
        &self,
        id: &str,
        view: GameView,
        deadline: Option<i64>,
        over: bool,
        action: Option<Action>,
    ) {
        self.timers.set(id, deadline);
        self.engine_check(&view);
        self.conditional_check(&view, &action);
        self.tournament_check(&view);
        self.hub.publish_text(id, || {
            let update = Update {
                kind: "update",
                game: &view,
                action: action.as_ref(),
            };
            serde_json::to_string(&update).unwrap_or_default()
        });
        if over && !self.hub.has_watchers(id) {
            self.invalidate(id);
        }
    }

    /// In correspondence games, plays a conditional reply of the player now
    /// to move, or cancels lines that no longer apply (in the background).
    fn conditional_check(&self, view: &GameView, action: &Option<Action>) {
        if view.time_control.kind != crate::clock::TcKind::Correspondence {
            return;
        }
        let Some(me) = self.this.upgrade() else {
            return;
        };
        let (pool, view, action) = (self.db.pool.clone(), view.clone(), action.clone());
        tokio::spawn(async move {
            let id = view.id.clone();
            if let Err(e) = crate::conditional::after_change(me, pool, view, action).await {
                eprintln!(
                    "thaiboard-server: conditional moves of game {id}: {}",
                    e.message
                );
            }
        });
    }

    /// When a game ends, lets its tournament (if any) go on: the next swiss
    /// round, new arena pairings, or the tournament's end (in the background).
    fn tournament_check(&self, view: &GameView) {
        if !matches!(view.status, Status::Finished | Status::Aborted) {
            return;
        }
        let Some(me) = self.this.upgrade() else {
            return;
        };
        let id = view.id.clone();
        tokio::spawn(async move {
            if let Err(e) = crate::tournament::game_over(&me, &id).await {
                eprintln!(
                    "thaiboard-server: tournament after game {id}: {}",
                    e.message
                );
            }
        });
    }

    /// The database (for the tournament service).
    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Starts a game between two given players (a tournament pairing):
    /// stored as an ordinary game, its clock scheduled. Returns its id.
    pub(crate) async fn start_game(
        &self,
        variant: Variant,
        rules: &str,
        tc: TimeControl,
        white: &User,
        black: &User,
    ) -> ApiResult<String> {
        let start_fen = new_game(variant, rules)
            .map_err(|e| ApiError::bad_request("invalid_rules", e))?
            .fen();
        let setup = Setup {
            variant,
            option: rules.to_string(),
            start_fen,
            color: "white".into(),
            tc,
        };
        let id = self
            .insert_game(&setup, white, None, Some((&white.id, &black.id)))
            .await?;
        self.notify_others(&id).await;
        self.after_change(&id, None).await;
        Ok(id)
    }

    /// After a change made by another server process: tell the watchers here
    /// with a full snapshot, and follow the clock.
    pub async fn after_remote_change(&self, id: &str) {
        let Ok((view, deadline)) = self
            .with_game(id, async |g| Ok((g.view(true), g.deadline())))
            .await
        else {
            return;
        };
        self.timers.set(id, deadline);
        self.hub
            .publish(id, &serde_json::json!({ "type": "snapshot", "game": view }));
        self.hub.lobby_changed();
    }

    /// Open challenges visible to `user`, newest first.
    pub async fn lobby(&self, user: Option<&User>) -> ApiResult<Vec<GameSummary>> {
        let me = user.map(|u| u.id.clone()).unwrap_or_default();
        self.summaries(
            "g.status = 'open' AND (g.opponent_id IS NULL OR g.opponent_id = $1 OR g.creator_id = $1) ORDER BY g.created_at DESC LIMIT 200",
            &me,
        )
        .await
    }

    /// The games of `user`: ongoing ones with "your move" first, then open challenges, then finished ones.
    pub async fn my_games(&self, user: &User) -> ApiResult<Vec<GameSummary>> {
        let mut list = self
            .summaries(
                "(g.white_id = $1 OR g.black_id = $1 OR (g.creator_id = $1 AND g.status = 'open')) ORDER BY g.updated_at DESC LIMIT 500",
                &user.id,
            )
            .await?;
        let rank = |s: &GameSummary| match (s.status.as_str(), s.your_move) {
            ("ongoing", true) => 0,
            ("ongoing", false) => 1,
            ("open", _) => 2,
            _ => 3,
        };
        list.sort_by_key(|s| (rank(s), -s.updated_at));
        Ok(list)
    }

    async fn summaries(&self, filter: &str, me: &str) -> ApiResult<Vec<GameSummary>> {
        let sql = format!(
            "SELECT g.id, g.variant, g.rules, g.status, wu.username, bu.username, cu.username, g.creator_color, g.tc_kind, \
             g.tc_initial_ms, g.tc_increment_ms, g.ply, g.result, g.reason, g.white_id, g.black_id, g.updated_at, \
             t.id, t.name \
             FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
             LEFT JOIN users bu ON bu.id = g.black_id \
             LEFT JOIN tournament_games tg ON tg.game_id = g.id LEFT JOIN tournaments t ON t.id = tg.tournament_id \
             WHERE {filter}"
        );
        let rows = sqlx::query(&sql).bind(me).fetch_all(&self.db.pool).await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let status: String = r.get(3);
                let ply: i32 = r.get(11);
                let white_id: Option<String> = r.get(14);
                let black_id: Option<String> = r.get(15);
                let to_move = if ply % 2 == 0 { white_id } else { black_id };
                GameSummary {
                    id: r.get(0),
                    variant: r.get(1),
                    rules: r.get(2),
                    your_move: status == "ongoing" && to_move.as_deref() == Some(me),
                    status,
                    white: r.get(4),
                    black: r.get(5),
                    creator: r.get(6),
                    creator_color: r.get(7),
                    tc_kind: r.get(8),
                    tc_initial_ms: r.get(9),
                    tc_increment_ms: r.get(10),
                    ply: ply as i64,
                    result: r.get(12),
                    reason: r.get(13),
                    updated_at: r.get(16),
                    tournament_id: r.get(17),
                    tournament_name: r.get(18),
                }
            })
            .collect())
    }
}

/// The message watchers get after a change, encoded straight from the view.
#[derive(Serialize)]
struct Update<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    game: &'a GameView,
    action: Option<&'a Action>,
}

fn stale() -> ApiError {
    ApiError::conflict(
        "stale",
        "the game changed at the same time (another server or request); reload and try again",
    )
}

fn win(side: Side) -> &'static str {
    match side {
        Side::White => "1-0",
        Side::Black => "0-1",
    }
}

/// The game's fields after a change, before it is committed.
struct Next {
    status: Status,
    white_ms: i64,
    black_ms: i64,
    turn_since: i64,
    ply: u32,
    result: Option<String>,
    reason: Option<String>,
    draw_offer: Option<Side>,
}

impl Next {
    fn from(g: &Game) -> Next {
        Next {
            status: g.status,
            white_ms: g.white_ms,
            black_ms: g.black_ms,
            turn_since: g.turn_since,
            ply: g.ply(),
            result: g.result.clone(),
            reason: g.reason.clone(),
            draw_offer: g.draw_offer,
        }
    }
    fn set_ms(&mut self, side: Side, ms: i64) {
        match side {
            Side::White => self.white_ms = ms,
            Side::Black => self.black_ms = ms,
        }
    }
    fn finish(&mut self, result: &str, reason: &str) {
        // Freeze the clocks as they stand.
        self.status = Status::Finished;
        self.result = Some(result.into());
        self.reason = Some(reason.into());
        self.draw_offer = None;
    }
    /// Stops the clock of the side to move at `now` (the game ends without a move).
    fn freeze(&mut self, g: &Game, now: i64) {
        let side = g.rules.turn();
        self.set_ms(side, g.time_left(side, now).max(0));
        self.turn_since = now;
    }
    fn apply(self, g: &mut Game) {
        g.status = self.status;
        g.white_ms = self.white_ms;
        g.black_ms = self.black_ms;
        g.turn_since = self.turn_since;
        g.result = self.result;
        g.reason = self.reason;
        g.draw_offer = self.draw_offer;
        g.version += 1;
    }
}

/// Deadlines of running clocks, served by one task.
#[derive(Default)]
struct Timers {
    inner: Mutex<TimerState>,
    notify: Notify,
}

#[derive(Default)]
struct TimerState {
    queue: BTreeSet<(i64, String)>,
    by_game: HashMap<String, i64>,
}

impl Timers {
    fn set(&self, id: &str, deadline: Option<i64>) {
        let mut st = self.inner.lock().expect("timer lock");
        if let Some(old) = st.by_game.remove(id) {
            st.queue.remove(&(old, id.to_string()));
        }
        if let Some(d) = deadline {
            st.by_game.insert(id.to_string(), d);
            st.queue.insert((d, id.to_string()));
        }
        drop(st);
        self.notify.notify_one();
    }

    fn due(&self, now: i64) -> (Vec<String>, Option<i64>) {
        let mut st = self.inner.lock().expect("timer lock");
        let mut due = Vec::new();
        while let Some((d, id)) = st.queue.first().cloned() {
            if d > now {
                break;
            }
            st.queue.pop_first();
            st.by_game.remove(&id);
            due.push(id);
        }
        let next = st.queue.first().map(|(d, _)| *d);
        (due, next)
    }
}

async fn timer_task(games: Weak<Games>, timers: Arc<Timers>) {
    loop {
        let notified = timers.notify.notified();
        let (due, next) = timers.due(now_ms());
        if !due.is_empty() {
            let Some(g) = games.upgrade() else { return };
            for id in due {
                let g = g.clone();
                tokio::spawn(async move {
                    if let Err(e) = g.check_timeout(&id).await {
                        eprintln!("thaiboard-server: clock check of game {id}: {e}");
                    }
                });
            }
        } else if games.strong_count() == 0 {
            return;
        }
        let wait = next
            .map(|d| (d - now_ms()).clamp(1, 10_000) as u64)
            .unwrap_or(10_000);
        tokio::select! {
            _ = notified => {}
            _ = tokio::time::sleep(std::time::Duration::from_millis(wait)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(game: &str, seq: u32, version: i64, san: &str) -> (WriteJob, Reply) {
        let action = Action {
            seq,
            kind: "move".into(),
            uci: format!("m{seq}"),
            san: san.into(),
            fen: format!("fen after {seq}, it's"),
            white_ms: 1000,
            black_ms: 2000,
            at: 5,
        };
        let update = UpdateRow {
            status: "ongoing",
            white_ms: 1000,
            black_ms: 2000,
            turn_since: 5,
            ply: seq as i32,
            fen: action.fen.clone(),
            result: None,
            reason: Some("o'clock".into()),
            draw_offer: None,
            updated_at: 6,
            version,
        };
        let job = WriteJob {
            game_id: game.into(),
            action: Some(action),
            update,
        };
        (job, tokio::sync::oneshot::channel().0)
    }

    async fn database() -> Db {
        let dir = std::env::temp_dir().join(format!("thaiboard-batch-{}", random_id(8)));
        std::fs::create_dir_all(&dir).unwrap();
        let db = crate::db::open(&format!("sqlite://{}", dir.join("t.db").display()))
            .await
            .unwrap();
        sqlx::query("INSERT INTO users (id, username, username_key, password_hash, is_guest, created_at) VALUES ('u', 'u', 'u', NULL, 0, 0)")
            .execute(&db.pool)
            .await
            .unwrap();
        for id in ["g1", "g2", "g3"] {
            sqlx::query(
                "INSERT INTO games (id, variant, rules, status, creator_id, creator_color, opponent_id, white_id, black_id, \
                 tc_kind, tc_initial_ms, tc_increment_ms, tc_max_ms, white_ms, black_ms, turn_since, version, ply, fen, \
                 result, reason, draw_offer, created_at, updated_at) \
                 VALUES ($1, 'makruk', 'default', 'ongoing', 'u', 'white', NULL, 'u', 'u', 'none', 0, 0, 0, 0, 0, 0, 1, 0, 'start', NULL, NULL, NULL, 0, 0)",
            )
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        }
        db
    }

    async fn version_and_fen(db: &Db, id: &str) -> (i64, String, Option<String>, i64) {
        let row = sqlx::query("SELECT version, fen, reason, (SELECT COUNT(*) FROM game_actions WHERE game_id = $1) FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        (row.get(0), row.get(1), row.get(2), row.get(3))
    }

    #[tokio::test]
    async fn a_batch_commits_every_write_with_quotes_intact() {
        let db = database().await;
        let jobs = vec![job("g1", 1, 1, "e'4"), job("g2", 1, 1, "Me2#")];
        let mut conn = db.pool.acquire().await.unwrap();
        let (result, healthy) = write_batch(&mut conn, &jobs).await;
        result.unwrap();
        assert!(healthy);
        assert_eq!(
            version_and_fen(&db, "g1").await,
            (2, "fen after 1, it's".into(), Some("o'clock".into()), 1)
        );
        assert_eq!(version_and_fen(&db, "g2").await.0, 2);
        let san: String = sqlx::query("SELECT san FROM game_actions WHERE game_id = 'g1'")
            .fetch_one(&db.pool)
            .await
            .unwrap()
            .get(0);
        assert_eq!(san, "e'4");
    }

    #[tokio::test]
    async fn a_stale_write_fails_the_batch_and_writes_nothing() {
        let db = database().await;
        // g3 is at version 1, not 7: the whole batch must roll back.
        let jobs = vec![job("g1", 1, 1, "a"), job("g3", 1, 7, "b")];
        let mut conn = db.pool.acquire().await.unwrap();
        let (result, healthy) = write_batch(&mut conn, &jobs).await;
        assert_eq!(result.unwrap_err().code, "stale");
        assert!(healthy);
        drop(conn);
        assert_eq!(
            version_and_fen(&db, "g1").await,
            (1, "start".into(), None, 0)
        );
        assert_eq!(version_and_fen(&db, "g3").await.3, 0);
    }

    #[tokio::test]
    async fn the_writer_answers_each_write_of_a_failed_batch_alone() {
        let db = database().await;
        let lock = Arc::new(tokio::sync::Mutex::new(()));
        let (queue, rx) = tokio::sync::mpsc::channel(16);
        let mut answers = Vec::new();
        // Queued before the writer starts, so they form one batch.
        for (game, version) in [("g1", 1), ("g2", 9), ("g3", 1)] {
            let (j, _) = job(game, 1, version, "x");
            let (reply, answer) = tokio::sync::oneshot::channel();
            queue.send((j, reply)).await.unwrap();
            answers.push(answer);
        }
        drop(queue);
        writer_task(db.pool.clone(), lock, rx).await;
        let results: Vec<_> = futures_util::future::join_all(answers).await;
        assert!(results[0].as_ref().unwrap().is_ok());
        assert_eq!(
            results[1].as_ref().unwrap().as_ref().unwrap_err().code,
            "stale"
        );
        assert!(results[2].as_ref().unwrap().is_ok());
        assert_eq!(version_and_fen(&db, "g1").await.0, 2);
        assert_eq!(version_and_fen(&db, "g2").await.0, 1);
        assert_eq!(version_and_fen(&db, "g3").await.3, 1);
    }
}
