//! Challenges on the game service: open one, accept it into a game, cancel or
//! decline it, and rematches. Each goes through the same save-then-publish path as
//! a move ([`Games::start_game`], [`Games::after_change`]).

use super::*;
use crate::account::store::registered_by_name;

impl Games {
    /// `setup` rated or casual as the request asks: rated needs a clock.
    fn with_rated(mut setup: Setup, rated: Option<bool>) -> ApiResult<Setup> {
        match rated {
            Some(true) if setup.pool().is_none() => Err(ApiError::bad_request(
                "invalid_rated",
                "games without a clock are casual: give a time control to play rated",
            )),
            Some(true) if setup.start.is_some() => Err(ApiError::bad_request(
                "invalid_rated",
                "games from a set-up position are casual",
            )),
            Some(rated) => {
                setup.rated = rated;
                Ok(setup)
            }
            None => Ok(setup),
        }
    }

    /// Stores a new game (started at once when `players`, White and Black,
    /// are given) and returns its id.
    pub(crate) async fn insert_game(
        &self,
        setup: &Setup,
        creator: &User,
        opponent_id: Option<&str>,
        players: Option<[&User; 2]>,
    ) -> ApiResult<String> {
        let id = random_id(10);
        self.insert_game_as(&id, setup, creator, opponent_id, players)
            .await?;
        Ok(id)
    }

    /// [`Games::insert_game`] under a given id.
    async fn insert_game_as(
        &self,
        id: &str,
        setup: &Setup,
        creator: &User,
        opponent_id: Option<&str>,
        players: Option<[&User; 2]>,
    ) -> ApiResult<()> {
        let ratings = match players {
            Some(p) => store::starting_ratings(&self.db, setup.pool(), p).await?,
            None => [None, None],
        };
        let new = NewGame {
            kind: setup.kind,
            color: &setup.color,
            tc: setup.tc,
            creator,
            opponent_id,
            players: players.map(|[w, b]| (w.id.as_str(), b.id.as_str())),
            rated: setup.rated,
            pool: setup.pool(),
            ratings,
            start: setup.start.as_deref(),
        };
        store::insert(&self.db, id, &new, self.time.now_ms()).await
    }

    /// Starts game `id` between `white` and `black`, paired by a pool: a
    /// rated game of `kind` at `tc`, announced as a challenge's acceptance is.
    pub(crate) async fn start_paired_game(
        &self,
        id: &str,
        kind: GameKind,
        tc: TimeControl,
        white: &User,
        black: &User,
    ) -> ApiResult<()> {
        let setup = Setup {
            kind,
            color: Color::White.name().into(),
            tc,
            rated: Pool::of(kind, &tc).is_some(),
            start: None,
        };
        self.insert_game_as(id, &setup, white, None, Some([white, black]))
            .await?;
        store::notify(&self.db, &self.instance, id).await;
        self.after_change(id, None).await;
        Ok(())
    }

    /// Creates a challenge; returns the game's view.
    pub async fn create_challenge(
        &self,
        user: &User,
        req: ChallengeRequest,
    ) -> ApiResult<GameView> {
        let setup = Self::with_rated(
            self.setup(&req.variant, req.rules, req.color, req.time_control)?
                .starting_at(req.fen.as_deref())?,
            req.rated,
        )?;
        if user.guest {
            return Err(ApiError::forbidden(
                "account_required",
                "guests play the engine; register or log in to challenge players",
            ));
        }
        if store::open_challenges(&self.db, &user.id).await? >= MAX_OPEN_CHALLENGES {
            return Err(ApiError::conflict(
                "too_many_challenges",
                format!(
                    "at most {MAX_OPEN_CHALLENGES} open challenges at a time: cancel one or wait for an answer"
                ),
            ));
        }
        let opponent_id = match &req.opponent {
            None => None,
            Some(name) => {
                let found = registered_by_name(&self.db, name).await?.ok_or_else(|| {
                    ApiError::bad_request("unknown_user", format!("no user named {name:?}"))
                })?;
                let id = found.open().map(|p| p.id).ok_or_else(|| {
                    ApiError::bad_request(
                        "account_closed",
                        format!("{name} has closed their account"),
                    )
                })?;
                if crate::computer::opponent::engine_level(&id).is_some() {
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
        store::notify(&self.db, &self.instance, &id).await;
        // Announced on the bus too: the Bot API's event stream tells the invited player.
        self.after_change(&id, None).await;
        self.hub.lobby_changed();
        self.view(&id, true).await
    }

    /// Accepts a challenge: the game starts.
    pub async fn accept(&self, user: &User, id: &str) -> ApiResult<GameView> {
        let view = self
            .with_game(id, async |g| {
                if g.status != Status::Open {
                    return Err(ApiError::conflict(
                        "not_open",
                        "this challenge is no longer open",
                    ));
                }
                if g.creator.id == user.id {
                    return Err(ApiError::conflict(
                        "own_challenge",
                        "you cannot accept your own challenge",
                    ));
                }
                if user.guest {
                    return Err(ApiError::forbidden(
                        "account_required",
                        "register or log in to play other players",
                    ));
                }
                if g.opponent_id.as_ref().is_some_and(|o| *o != user.id) {
                    return Err(ApiError::forbidden(
                        "not_invited",
                        "this challenge is for another player",
                    ));
                }
                let creator_white = match g.creator_color.as_str() {
                    "white" => true,
                    "black" => false,
                    _ => rand::random::<bool>(),
                };
                let (white, black) = if creator_white {
                    (g.creator.clone(), user.clone())
                } else {
                    (user.clone(), g.creator.clone())
                };
                let now = self.time.now_ms();
                let ratings = store::starting_ratings(&self.db, g.pool, [&white, &black]).await?;
                // A bot plays people in casual games only.
                let rated = g.rated
                    && !store::is_bot(&self.db, &white.id).await?
                    && !store::is_bot(&self.db, &black.id).await?;
                let _writer = self.sqlite_write_lock().await;
                let mut tx = self.db.pool.begin().await?;
                store::accept(&mut tx, g, [&white.id, &black.id], ratings, rated, now).await?;
                store::notify_in(&self.db, &mut tx, &self.instance, &g.id).await?;
                tx.commit().await?;
                g.status = Status::Ongoing;
                g.white = Some(white);
                g.black = Some(black);
                g.turn_since = now;
                self.load_leave(g).await?;
                g.ratings = ratings;
                g.rated = rated;
                g.version += 1;
                Ok(g.view(true, self.time.now_ms()))
            })
            .await?;
        self.after_change(id, None).await;
        self.hub.lobby_changed();
        Ok(view)
    }

    /// Withdraws an open challenge (its creator only).
    pub async fn cancel(&self, user: &User, id: &str) -> ApiResult<()> {
        self.close_challenge(id, |g| {
            if g.creator.id != user.id {
                return Err(ApiError::forbidden(
                    "not_yours",
                    "only the challenger can withdraw a challenge",
                ));
            }
            Ok(())
        })
        .await
    }

    /// Declines a challenge made to `user` (its invited player only).
    pub async fn decline(&self, user: &User, id: &str) -> ApiResult<()> {
        self.close_challenge(id, |g| {
            if g.opponent_id.as_deref() != Some(user.id.as_str()) {
                return Err(ApiError::forbidden(
                    "not_invited",
                    "only the invited player can decline a challenge",
                ));
            }
            Ok(())
        })
        .await
    }

    /// Ends an open challenge that `may` allows: it is cancelled, and the
    /// change is published.
    async fn close_challenge(
        &self,
        id: &str,
        may: impl FnOnce(&Game) -> ApiResult<()>,
    ) -> ApiResult<()> {
        self.with_game(id, async |g| {
            may(g)?;
            if g.status != Status::Open {
                return Err(ApiError::conflict(
                    "not_open",
                    "this challenge is no longer open",
                ));
            }
            store::cancel(&self.db, g, self.time.now_ms()).await?;
            g.status = Status::Cancelled;
            g.version += 1;
            Ok(())
        })
        .await?;
        store::notify(&self.db, &self.instance, id).await;
        self.after_change(id, None).await;
        self.hub.lobby_changed();
        Ok(())
    }

    /// A player's rematch action after game `id`: an offer stands, is
    /// withdrawn, or (both wanting it) the new game starts with the colours
    /// swapped and the same settings. Returns the old game's view, whose
    /// `rematch` names the new game once it started.
    pub async fn rematch(
        &self,
        user: &User,
        id: &str,
        action: RematchAction,
    ) -> ApiResult<GameView> {
        let view = self
            .with_game(id, async |g| {
                let step = rematch::rematch_step(g, &user.id, action)?;
                let now = self.time.now_ms();
                let (offer, new_id) = match step {
                    RematchStep::Offer(offer) => (offer, None),
                    RematchStep::Start => {
                        let (Some(white), Some(black)) = (g.white.clone(), g.black.clone()) else {
                            return Err(ApiError::internal("a finished game without players"));
                        };
                        let setup = Setup {
                            kind: g.kind,
                            color: Color::White.name().into(),
                            tc: g.tc,
                            rated: g.rated,
                            start: g.set_up_start(),
                        };
                        let new_id = self
                            .insert_game(&setup, &black, None, Some([&black, &white]))
                            .await?;
                        (None, Some(new_id))
                    }
                };
                store::set_rematch(&self.db, g, offer, new_id.as_deref(), now).await?;
                g.rematch_offer = offer;
                g.rematch_id = new_id;
                g.version += 1;
                Ok(g.view(true, self.time.now_ms()))
            })
            .await?;
        if let Some(new_id) = &view.rematch {
            store::notify(&self.db, &self.instance, new_id).await;
            self.after_change(new_id, None).await;
        }
        store::notify(&self.db, &self.instance, id).await;
        self.after_change(id, None).await;
        Ok(view)
    }
}
