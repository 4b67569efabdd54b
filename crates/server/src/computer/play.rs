//! Games against the computer: creating them, and playing the engine's
//! moves through the same path as a human's ([`Games::act`]).
//!
//! [`EnginePlay`] subscribes to the game service's events: after every
//! change, when the game is ongoing and an engine account is to move, one
//! task (never two for the same game) asks the [`Opponent`] for a move and
//! plays it. At startup [`EnginePlay::resume`] does the same for every
//! stored game, so the engine's move survives a restart.

use crate::account::auth::User;
use crate::computer::opponent::{MAX_LEVEL, MIN_LEVEL, Opponent, engine_level, engine_user_id};
use crate::game::clock::TimeControlRequest;
use crate::game::model::{Command, Status};
use crate::game::service::{Games, Setup};
use crate::game::store;
use crate::game::view::GameView;
use crate::infra::error::{ApiError, ApiResult};
use games::AnyGame;
use serde::Deserialize;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// The computer's side of the games against it: its opponent (the
/// engine), and the games it is thinking on.
pub struct EnginePlay {
    games: Weak<Games>,
    opponent: OnceLock<Arc<dyn Opponent>>,
    pending: Mutex<HashSet<String>>,
}

/// The engine's turn in a game, as read under the game's lock.
struct Turn {
    rules: AnyGame,
    level: u8,
    player: User,
    ply: u32,
    budget_ms: u64,
    wants_count: bool,
    draw_offered: bool,
}

/// Most ongoing games against the computer one player may have.
pub const MAX_ENGINE_GAMES: i64 = 10;

/// A game against the computer as a client asks for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineGameRequest {
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[serde(default)]
    pub rules: Option<String>,
    /// The human's colour: `white`, `black` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// The engine's level, 1 (weakest) to 8 (strongest).
    pub level: i64,
    /// Time control (default: none).
    #[serde(default)]
    pub time_control: Option<TimeControlRequest>,
    /// Start from this position (FEN; Mak-hot: position text) instead of
    /// the standard start, checked by the rules crates.
    #[serde(default)]
    pub fen: Option<String>,
}

impl Games {
    /// Starts a game of `user` against the engine; returns its view.
    /// Guests may play the engine.
    pub async fn create_engine_game(
        &self,
        user: &User,
        req: EngineGameRequest,
    ) -> ApiResult<GameView> {
        // Games against the computer are casual.
        let setup = Setup {
            rated: false,
            ..self
                .setup(&req.variant, req.rules, req.color, req.time_control)?
                .starting_at(req.fen.as_deref())?
        };
        let level = u8::try_from(req.level)
            .ok()
            .filter(|l| (MIN_LEVEL..=MAX_LEVEL).contains(l))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_level",
                    format!(
                        "level must be {MIN_LEVEL} to {MAX_LEVEL}, not {}",
                        req.level
                    ),
                )
            })?;
        let ongoing = store::ongoing_engine_games(self.db(), &user.id).await?;
        if ongoing >= MAX_ENGINE_GAMES {
            return Err(ApiError::conflict(
                "too_many_engine_games",
                format!(
                    "at most {MAX_ENGINE_GAMES} games against the computer at a time: finish or resign one first"
                ),
            ));
        }
        let engine = engine_user_id(level);
        let human_white = match setup.color.as_str() {
            "white" => true,
            "black" => false,
            _ => rand::random::<bool>(),
        };
        let computer = User {
            username: crate::computer::opponent::engine_username(level),
            id: engine.clone(),
            guest: false,
        };
        let players = if human_white {
            [user, &computer]
        } else {
            [&computer, user]
        };
        let id = self
            .insert_game(&setup, user, Some(&engine), Some(players))
            .await?;
        // Publishing the start sets the clock and, if the engine has White, its first move.
        self.after_change(&id, None).await;
        self.view(&id, true).await
    }
}

impl EnginePlay {
    /// Subscribes the computer to `games`' events: after every change, it
    /// looks for its turn. Without an opponent ([`EnginePlay::set_opponent`])
    /// its moves wait.
    pub fn start(games: &Arc<Games>) -> Arc<EnginePlay> {
        let play = Arc::new(EnginePlay {
            games: Arc::downgrade(games),
            opponent: OnceLock::new(),
            pending: Mutex::new(HashSet::new()),
        });
        let weak = Arc::downgrade(&play);
        games.subscribe(Box::new(move |event| {
            if let Some(play) = weak.upgrade()
                && !event.remote
            {
                play.check(&event.game);
            }
        }));
        play
    }

    /// Sets the computer opponent (once; later calls are ignored). Without
    /// one, games against the computer can be created but the engine's
    /// moves wait until a server with an opponent runs.
    pub fn set_opponent(&self, opponent: Arc<dyn Opponent>) {
        let _ = self.opponent.set(opponent);
    }

    /// Schedules the engine's move if `view` is an ongoing game with an
    /// engine account to move and none is being searched yet.
    fn check(self: &Arc<Self>, view: &GameView) {
        if view.status != Status::Ongoing {
            return;
        }
        if view
            .player(view.turn)
            .is_none_or(|p| engine_level(&p.id).is_none())
        {
            return;
        }
        let Some(opponent) = self.opponent.get().cloned() else {
            return;
        };
        if !self
            .pending
            .lock()
            .expect("engine lock")
            .insert(view.id.clone())
        {
            return;
        }
        let (id, play) = (view.id.clone(), self.clone());
        tokio::spawn(async move {
            play.turn(&id, opponent).await;
        });
    }

    /// What the engine needs to know to play in game `id`, if it is to move there.
    async fn turn_state(
        &self,
        games: &Games,
        id: &str,
        opponent: &dyn Opponent,
    ) -> ApiResult<Option<Turn>> {
        games
            .with_game(id, async |g| {
                if g.status != Status::Ongoing {
                    return Ok(None);
                }
                let side = g.turn();
                let Some((player, level)) = g
                    .player(side)
                    .and_then(|p| engine_level(&p.id).map(|l| (p.clone(), l)))
                else {
                    return Ok(None);
                };
                Ok(Some(Turn {
                    level,
                    player,
                    ply: g.ply(),
                    // Keep most of the clock: about a twentieth of what is left per move.
                    budget_ms: g.deadline().map_or(u64::MAX, |d| {
                        ((d - games.time.now_ms()) / 20).max(20) as u64
                    }),
                    wants_count: opponent.wants_count(&g.rules, level),
                    draw_offered: g.draw_offer == Some(side.other()),
                    rules: g.rules.clone(),
                }))
            })
            .await
    }

    /// Plays the engine's turn in game `id`: declares a board's-honour count
    /// first when the opponent wants one, accepts a standing draw offer when
    /// it does (moving declines it), else searches and plays its move.
    async fn turn(&self, id: &str, opponent: Arc<dyn Opponent>) {
        let Some(games) = self.games.upgrade() else {
            return;
        };
        let mut counted = false;
        let action = loop {
            match self.turn_state(&games, id, &*opponent).await {
                Ok(Some(t)) if t.wants_count && !counted => {
                    counted = true;
                    act(&games, id, &t.player, Command::CountStart).await;
                }
                Ok(Some(t)) if t.draw_offered && opponent.accepts_draw(t.rules.clone()).await => {
                    break Some((t.player, Command::DrawAccept));
                }
                Ok(Some(t)) => {
                    let mv = opponent.choose(t.rules, t.level, t.budget_ms).await;
                    break mv.map(|text| {
                        let ply = Some(t.ply);
                        (t.player, Command::Move { text, ply })
                    });
                }
                Ok(None) => break None,
                Err(e) => {
                    eprintln!("thaiboard-server: engine move in game {id}: {e}");
                    break None;
                }
            }
        };
        self.pending.lock().expect("engine lock").remove(id);
        if let Some((player, cmd)) = action {
            act(&games, id, &player, cmd).await;
        }
    }

    /// Schedules the engine's move in every ongoing game where it is to move
    /// (at startup: the moves the last server process did not play).
    /// Returns how many games against the engine are ongoing.
    pub async fn resume(self: &Arc<Self>) -> ApiResult<usize> {
        let Some(games) = self.games.upgrade() else {
            return Ok(0);
        };
        let ids = store::ongoing_engine_game_ids(games.db()).await?;
        for id in &ids {
            if let Ok(view) = games.view(id, false).await {
                self.check(&view);
            }
        }
        Ok(ids.len())
    }
}

/// Carries out a command of the engine's account, as a player's.
async fn act(games: &Games, id: &str, player: &User, cmd: Command) {
    if let Err(e) = games.act(player, id, cmd).await {
        // The game may have ended meanwhile (resignation, time, abort).
        if !matches!(e.code, "game_over" | "stale" | "wrong_ply" | "time_over") {
            eprintln!("thaiboard-server: engine action in game {id} refused: {e}");
        }
    }
}
