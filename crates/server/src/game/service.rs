//! The game service: loads a game, applies a command through the model,
//! saves the change, then publishes it (to the game's watchers, its clock
//! and the subscribers of [`GameEvent`]s). The database is the truth: a
//! change is committed in one transaction, guarded by the game's `version`
//! so that two server processes cannot both change the same state, before
//! it is acknowledged or broadcast.

use super::events::{EventBus, GameEvent, Subscriber};
use super::lists::{self, ListFilter};
use super::model::{self, Action, Change, Command, Game, Status};
use super::rematch::{self, RematchAction, RematchStep};
use super::store::{self, NewGame, WriteJob};
use super::timers::{Deadlines, Timers, timer_task};
use super::view::{GameSummary, GameView, Update};
use super::writer::Writer;
use crate::account::auth::User;
use crate::game::clock::{TimeControl, TimeControlRequest};
use crate::infra::db::{Backend, Db};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::hub::Hub;
use crate::infra::time::TimeSource;
use crate::infra::util::random_id;
use crate::ratings::Pool;
use axum::http::StatusCode;
use games::{Color, GameKind};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

mod challenges;

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
    /// Whether the game counts for ratings (default: yes when it has a clock).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Start from this position (FEN; Mak-hot: position text) instead of
    /// the standard start: checked by the rules crates, and casual.
    #[serde(default)]
    pub fen: Option<String>,
}

/// Checked settings of a new game.
pub(crate) struct Setup {
    pub(crate) kind: GameKind,
    pub(crate) color: String,
    pub(crate) tc: TimeControl,
    /// Whether it counts for ratings.
    pub(crate) rated: bool,
    /// Its set-up start position (FEN), `None` for the standard start.
    pub(crate) start: Option<String>,
}

impl Setup {
    /// The setup starting from `fen` (see [`super::start::start_of`]): a
    /// game from a set-up position is casual, as on lichess.
    pub(crate) fn starting_at(mut self, fen: Option<&str>) -> ApiResult<Setup> {
        if let Some(pos) = super::start::start_of(self.kind, fen)? {
            // Stored with promoted bias marked (`M~`): two mets of a side
            // read back as legal only when one is a promoted bia.
            self.start = Some(pos.fen_with_marks(true));
            self.rated = false;
        }
        Ok(self)
    }

    /// The rating pool of such a game (one with a clock).
    pub(crate) fn pool(&self) -> Option<Pool> {
        Pool::of(self.kind, &self.tc)
    }
}

/// The game named by a request's `variant` and `rules`.
pub fn kind_of(variant: &str, rules: Option<&str>) -> ApiResult<GameKind> {
    GameKind::from_names(variant, rules).map_err(|e| match e {
        games::GameKindError::UnknownVariant(_) => ApiError::bad_request(
            "invalid_variant",
            format!("unknown variant {variant:?}: use makruk, cambodian or makhos"),
        ),
        e => ApiError::bad_request("invalid_rules", e.to_string()),
    })
}

type Slot = Arc<tokio::sync::Mutex<Option<Game>>>;

/// Most open challenges (waiting for an opponent) one player may have.
pub const MAX_OPEN_CHALLENGES: i64 = 20;

/// The game service.
pub struct Games {
    pub(super) db: Db,
    pub(super) hub: Arc<Hub>,
    cache: Mutex<HashMap<String, Slot>>,
    pub(super) timers: Arc<Timers>,
    events: EventBus,
    /// This process's id in cross-process notifications.
    pub instance: String,
    /// SQLite has one writer: transactions queue here instead of spinning on SQLITE_BUSY.
    write_lock: Arc<tokio::sync::Mutex<()>>,
    /// The group-commit writer (SQLite only).
    writer: Option<Writer>,
    /// The time games go by (see [`TimeSource`]).
    pub time: TimeSource,
    /// How long an arena game waits for its first moves, ms (see
    /// [`crate::Config::arena_first_move_ms`]).
    pub(crate) arena_first_move_ms: std::sync::atomic::AtomicU64,
}

impl Deadlines for Games {
    async fn deadline_passed(self: Arc<Self>, id: String) {
        if let Err(e) = self.check_timeout(&id).await {
            eprintln!("thaiboard-server: clock check of game {id}: {e}");
        }
    }
}

impl Games {
    /// A service over `db`, broadcasting through `hub`.
    pub fn new(db: Db, hub: Arc<Hub>, time: TimeSource) -> Arc<Games> {
        let write_lock = Arc::new(tokio::sync::Mutex::new(()));
        let writer =
            (db.backend == Backend::Sqlite).then(|| Writer::start(&db, write_lock.clone()));
        Arc::new(Games {
            db,
            hub,
            cache: Mutex::new(HashMap::new()),
            timers: Arc::new(Timers::default()),
            events: EventBus::default(),
            instance: random_id(12),
            write_lock,
            writer,
            time,
            arena_first_move_ms: std::sync::atomic::AtomicU64::new(60_000),
        })
    }

    /// Starts the clock task and schedules the deadlines of ongoing games.
    pub async fn start(self: &Arc<Self>) -> ApiResult<()> {
        tokio::spawn(timer_task(
            Arc::downgrade(self),
            self.timers.clone(),
            self.time.clone(),
        ));
        for (id, deadline) in store::running_clocks(&self.db).await? {
            self.timers.set(&id, Some(deadline));
        }
        Ok(())
    }

    /// Calls `subscriber` with every later [`GameEvent`].
    pub fn subscribe(&self, subscriber: Subscriber) {
        self.events.subscribe(subscriber);
    }

    /// The database (for the services built on games: tournaments,
    /// conditional moves).
    pub fn db(&self) -> &Db {
        &self.db
    }

    fn slot(&self, id: &str) -> Slot {
        let mut cache = self.cache.lock().expect("cache lock");
        cache.entry(id.to_string()).or_default().clone()
    }

    /// Forgets the cached copy of a game (another process changed it).
    pub fn invalidate(&self, id: &str) {
        self.cache.lock().expect("cache lock").remove(id);
    }

    /// Runs `f` on the game with its lock held, loading it if needed.
    pub(crate) async fn with_game<T>(
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
        if matches!(&result, Err(e) if e.code == "stale") {
            *guard = None;
        }
        result
    }

    /// Loads game `id` from the store with its players' leave.
    async fn load(&self, id: &str) -> ApiResult<Game> {
        let mut g = store::load(&self.db, id).await?;
        self.load_leave(&mut g).await?;
        Ok(g)
    }

    /// When the side to move in game `id` runs out of time, if its clock runs.
    pub async fn deadline(&self, id: &str) -> ApiResult<Option<i64>> {
        self.with_game(id, async |g| Ok(g.deadline())).await
    }

    /// The view of a game.
    pub async fn view(&self, id: &str, full: bool) -> ApiResult<GameView> {
        self.with_game(id, async |g| Ok(g.view(full, self.time.now_ms())))
            .await
    }

    /// The view of a game for a request of user `user_id`, who may play in
    /// it: like [`Games::view`], but a copy of an open challenge that does
    /// not name the user is first checked against the stored game, since
    /// another server process may have seen it accepted.
    pub async fn view_for(&self, id: &str, full: bool, user_id: &str) -> ApiResult<GameView> {
        let view = self.view(id, full).await?;
        let named = [&view.white, &view.black]
            .into_iter()
            .flatten()
            .any(|p| p.id == user_id);
        if named || view.status != Status::Open || !self.dropped_old_copy(id).await {
            return Ok(view);
        }
        self.view(id, full).await
    }

    /// The game's record (PGN, PDN for Mak-hot) with these comments
    /// `(ply, text)` in it, and which game it is.
    pub async fn pgn(
        &self,
        id: &str,
        comments: &[(u32, String)],
        site: &str,
    ) -> ApiResult<(GameKind, String)> {
        self.with_game(id, async |g| Ok((g.kind, g.pgn(comments, site))))
            .await
    }

    /// The FEN of a game after `ply` moves (now without it), promoted bias
    /// marked on request; `None` when the game has fewer moves.
    pub async fn fen(
        &self,
        id: &str,
        ply: Option<u32>,
        promoted_marks: bool,
    ) -> ApiResult<Option<String>> {
        self.with_game(id, async |g| Ok(g.fen_at(ply, promoted_marks)))
            .await
    }

    /// Checks the game settings a client asked for: game, rule option,
    /// colour and time control.
    pub(crate) fn setup(
        &self,
        variant: &str,
        rules: Option<String>,
        color: Option<String>,
        tc: Option<TimeControlRequest>,
    ) -> ApiResult<Setup> {
        let kind = kind_of(variant, rules.as_deref())?;
        let color = color.unwrap_or_else(|| "random".into());
        if !["white", "black", "random"].contains(&color.as_str()) {
            return Err(ApiError::bad_request(
                "invalid_color",
                "color must be white, black or random",
            ));
        }
        let tc = tc.unwrap_or_default().resolve()?;
        Ok(Setup {
            kind,
            color,
            tc,
            rated: Pool::of(kind, &tc).is_some(),
            start: None,
        })
    }

    /// Carries out a player's command. Returns the game's view after it is committed.
    pub async fn act(&self, user: &User, id: &str, cmd: Command) -> ApiResult<GameView> {
        self.act_with(user, id, cmd, true)
            .await?
            .ok_or_else(|| ApiError::internal("no view after a command"))
    }

    /// Like [`Games::act`]; returns the full view only when `full` (the
    /// WebSocket path answers with a bare ack and needs none).
    ///
    /// This process's copy of the game decides a command, and another
    /// server process may have changed the game since (before its notice
    /// arrives). So a command refused on the copy's state (409: not your
    /// turn, wrong ply, game over...; or not a player, when the copy is of
    /// the challenge before its acceptance) whose copy turns out older than
    /// the stored game, or whose write found the copy stale (and wrote
    /// nothing), is carried out once more on the game as stored, which
    /// decides it.
    pub async fn act_with(
        &self,
        user: &User,
        id: &str,
        cmd: Command,
        full: bool,
    ) -> ApiResult<Option<GameView>> {
        let abort = matches!(cmd, Command::Abort);
        let done = match self.act_once(user, id, cmd.clone(), full).await {
            Err(e) if e.code == "stale" => self.act_once(user, id, cmd, full).await,
            Err(e) if refused_on_the_copy(&e) && self.dropped_old_copy(id).await => {
                self.act_once(user, id, cmd, full).await
            }
            done => done,
        };
        match done {
            // A second abort (a double click, a retry) by a player of the
            // aborted game: done already, so answered as done.
            Err(e) if abort && e.code == "game_over" => match self.view(id, full).await {
                Ok(view)
                    if view.status == Status::Aborted
                        && [&view.white, &view.black]
                            .into_iter()
                            .flatten()
                            .any(|p| p.id == user.id) =>
                {
                    Ok(full.then_some(view))
                }
                _ => Err(e),
            },
            done => done,
        }
    }

    /// Drops this process's copy of game `id` if the stored game is newer
    /// (another process changed it); true if it did.
    async fn dropped_old_copy(&self, id: &str) -> bool {
        let slot = self.slot(id);
        let mut guard = slot.lock().await;
        let Some(cached) = guard.as_ref().map(|g| g.version) else {
            return false;
        };
        match store::version(&self.db, id).await {
            Ok(Some(stored)) if stored != cached => {
                *guard = None;
                true
            }
            _ => false,
        }
    }

    /// One attempt of [`Games::act_with`].
    async fn act_once(
        &self,
        user: &User,
        id: &str,
        cmd: Command,
        full: bool,
    ) -> ApiResult<Option<GameView>> {
        let done = self
            .with_game(id, async |g| {
                let side = model::check_may_act(g, &user.id)?;
                let now = self.time.now_ms();
                let timed_out = g.deadline().is_some_and(|d| now >= d);
                let change = match cmd {
                    Command::ClaimTimeout if g.turn() == side || !timed_out => {
                        return Err(ApiError::conflict(
                            "nothing_to_claim",
                            "nothing to claim: your opponent's time has not run out",
                        ));
                    }
                    Command::ClaimTimeout => model::flag(g, now)?,
                    // A player whose time ran out cannot act any more: end the game first.
                    _ if timed_out => {
                        let flagged = model::flag(g, now)?;
                        self.save(g, flagged, now).await?;
                        return Ok(Err(()));
                    }
                    Command::TakebackOffer | Command::TakebackAccept | Command::TakebackDecline => {
                        super::takeback::apply(g, side, &cmd, now)?
                    }
                    Command::Berserk => super::berserk::apply(g, side, now)?,
                    _ => model::apply(g, side, &cmd, now)?,
                };
                let action = change.action.clone();
                self.save(g, change, now).await?;
                // The update for watchers is made under the same lock, right
                // after the commit; the full view adds only the actions.
                let light = g.view(false, self.time.now_ms());
                let full = full.then(|| GameView {
                    actions: Some(g.actions.clone()),
                    ..light.clone()
                });
                Ok(Ok((full, light, g.deadline(), action)))
            })
            .await?;
        match done {
            Ok((view, light, deadline, action)) => {
                self.publish(light, deadline, action);
                Ok(view)
            }
            Err(()) => {
                self.after_change(id, None).await;
                Err(ApiError::conflict(
                    "time_over",
                    "time is up: the game is over",
                ))
            }
        }
    }

    /// Saves `change` (one transaction, guarded by the game's version), then
    /// applies it to the cached game. On SQLite the write joins the
    /// group-commit queue: one writer commits the pending writes of many
    /// games in one transaction.
    async fn save(&self, g: &mut Game, change: Change, now: i64) -> ApiResult<()> {
        let job = WriteJob::of(g, &change, now);
        let diffs = match &self.writer {
            Some(writer) => writer.write(job).await?,
            None => {
                let mut tx = self.db.pool.begin().await?;
                let diffs = store::write(&mut tx, &job).await?;
                store::notify_in(&self.db, &mut tx, &self.instance, &g.id).await?;
                tx.commit().await?;
                diffs
            }
        };
        g.apply_change(change);
        if diffs.is_some() {
            g.rating_diffs = diffs;
        }
        Ok(())
    }

    /// The SQLite writer lock (no lock on PostgreSQL).
    async fn sqlite_write_lock(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        if self.db.backend == Backend::Sqlite {
            Some(self.write_lock.lock().await)
        } else {
            None
        }
    }

    /// Called by the clock when a game's deadline passed: ends it on time
    /// if it really is over.
    pub async fn check_timeout(&self, id: &str) -> ApiResult<()> {
        let flagged = self
            .with_game(id, async |g| {
                let now = self.time.now_ms();
                match g.deadline() {
                    Some(d) if now >= d => {
                        let change = model::flag(g, now)?;
                        self.save(g, change, now).await?;
                        Ok(true)
                    }
                    _ => Ok(false),
                }
            })
            .await;
        let flagged = match flagged {
            // Another server process on the same database flagged it first:
            // the game as stored now goes to this process's watchers.
            Err(e) if e.code == "stale" => true,
            other => other?,
        };
        if flagged {
            self.after_change(id, None).await;
        } else if let Ok(deadline) = self.with_game(id, async |g| Ok(g.deadline())).await {
            self.timers.set(id, deadline);
        }
        Ok(())
    }

    /// After a committed change: reschedule the clock and tell the watchers
    /// and subscribers.
    pub async fn after_change(&self, id: &str, action: Option<Action>) {
        if let Ok((view, deadline)) = self
            .with_game(id, async |g| {
                Ok((g.view(false, self.time.now_ms()), g.deadline()))
            })
            .await
        {
            self.publish(view, deadline, action);
        }
    }

    /// Publishes a saved change: the clock, the event subscribers, the
    /// game's watchers. A game over with nobody watching leaves the cache.
    fn publish(&self, view: GameView, deadline: Option<i64>, action: Option<Action>) {
        let id = view.id.clone();
        self.timers.set(&id, deadline);
        let event = GameEvent {
            game: Arc::new(view),
            action,
            remote: false,
        };
        self.events.publish(&event);
        self.hub.publish_text(&id, || {
            let update = Update {
                kind: "update",
                game: &event.game,
                action: event.action.as_ref(),
            };
            serde_json::to_string(&update).unwrap_or_default()
        });
        let over = event.game.status.is_over();
        if over && !self.hub.has_watchers(&id) {
            self.invalidate(&id);
        }
    }

    /// Starts a game of tournament `tournament_id` between two given
    /// players: stored as an ordinary game, its clock scheduled. Returns its
    /// id; the tournament records the pairing.
    pub async fn start_game(
        &self,
        kind: GameKind,
        tc: TimeControl,
        white: &User,
        black: &User,
        tournament_id: &str,
    ) -> ApiResult<String> {
        let setup = Setup {
            kind,
            color: Color::White.name().into(),
            tc,
            rated: Pool::of(kind, &tc).is_some(),
            start: None,
        };
        let id = self
            .insert_game(&setup, white, None, Some([white, black]))
            .await?;
        // Known as a tournament game from the start, before the tournament's
        // own row lands (its players may not abort it).
        let terms = store::tournament_terms(&self.db, tournament_id).await?;
        self.with_game(&id, async |g| {
            g.tournament_id = Some(tournament_id.to_string());
            g.tournament_public = terms.public;
            g.tournament_arena = terms.arena;
            g.leave_rule = (terms.leave, terms.started_at.unwrap_or(g.created_at));
            self.load_leave(g).await
        })
        .await?;
        store::notify(&self.db, &self.instance, &id).await;
        self.after_change(&id, None).await;
        Ok(id)
    }

    /// After a change made by another server process: tell the watchers here
    /// with a full snapshot, follow the clock, and publish a remote event.
    pub async fn after_remote_change(&self, id: &str) {
        let Ok((view, light, deadline)) = self
            .with_game(id, async |g| {
                Ok((
                    g.view(true, self.time.now_ms()),
                    g.view(false, self.time.now_ms()),
                    g.deadline(),
                ))
            })
            .await
        else {
            return;
        };
        self.timers.set(id, deadline);
        self.hub
            .publish(id, &serde_json::json!({ "type": "snapshot", "game": view }));
        self.hub.lobby_changed();
        self.events.publish(&GameEvent {
            game: Arc::new(light),
            action: None,
            remote: true,
        });
    }

    /// Open challenges visible to `user`, newest first.
    pub async fn lobby(&self, user: Option<&User>) -> ApiResult<Vec<GameSummary>> {
        let me = user.map(|u| u.id.as_str()).unwrap_or_default();
        lists::summaries(&self.db, ListFilter::Lobby, me).await
    }

    /// Ongoing games between people, most recently moved first (for spectators).
    pub async fn now_playing(&self) -> ApiResult<Vec<GameSummary>> {
        lists::summaries(&self.db, ListFilter::NowPlaying, "").await
    }

    /// The games of `user`: ongoing ones with "your move" first, then open
    /// challenges, then finished ones.
    pub async fn my_games(&self, user: &User) -> ApiResult<Vec<GameSummary>> {
        let mut list = lists::summaries(&self.db, ListFilter::PlayedBy, &user.id).await?;
        let rank = |s: &GameSummary| match (s.status.as_str(), s.your_move) {
            ("ongoing", true) => 0,
            ("ongoing", false) => 1,
            ("open", _) => 2,
            _ => 3,
        };
        list.sort_by_key(|s| (rank(s), -s.updated_at));
        Ok(list)
    }
}

/// Whether error `e` refused a command for the state of this process's copy
/// of a game, which another process may have changed since: a conflict with
/// the game's state, or "not a player" (a copy of the challenge from before
/// its acceptance has no opponent yet).
fn refused_on_the_copy(e: &ApiError) -> bool {
    e.status == StatusCode::CONFLICT || e.code == "not_a_player"
}
