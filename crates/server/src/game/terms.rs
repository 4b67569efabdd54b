//! A game's terms: its players' leave (the pauses of a correspondence
//! clock) and whether it is public. A change of terms is not a change of the
//! game: the clock and the watchers follow it, but no [`super::GameEvent`]
//! is published (nobody moved), and other server processes reload the game
//! on a "terms" notification ([`store::notify_terms`]).

use super::model::Game;
use super::service::Games;
use super::store;
use super::view::{GameView, Update};
use crate::account::auth::User;
use crate::game::clock::TcKind;
use crate::infra::error::{ApiError, ApiResult};
use crate::leave;
use games::Color;

impl Games {
    /// Reads the players' leave into a correspondence game (its pauses).
    pub(super) async fn load_leave(&self, g: &mut Game) -> ApiResult<()> {
        if g.tc.kind != TcKind::Correspondence {
            return Ok(());
        }
        let mut periods = [Vec::new(), Vec::new()];
        for (i, side) in Color::BOTH.into_iter().enumerate() {
            if let Some(user) = g.player(side) {
                periods[i] = leave::store::periods(&self.db, &user.id).await?;
                // Its days are shown in the player's own time zone.
                g.leave_zones[i] = leave::zone_in(&self.db, &user.id).await?.0;
            }
        }
        g.set_leave(&periods[0], &periods[1]);
        Ok(())
    }

    /// A player's leave changed: each of their ongoing correspondence games
    /// takes the new pauses, its deadline moves, other server processes
    /// reload it, and its watchers see the new clocks.
    pub async fn leave_changed(&self, user_id: &str) -> ApiResult<()> {
        for id in leave::store::correspondence_games(&self.db, user_id).await? {
            self.with_game(&id, async |g| self.load_leave(g).await)
                .await?;
            store::notify_terms(&self.db, &self.instance, &id).await;
            self.terms_changed(&id).await;
        }
        Ok(())
    }

    /// A player marks game `id` public (or takes the mark back). The game is
    /// public while both players' marks stand; only correspondence games
    /// between two players are marked, and a tournament's public games stay so.
    pub async fn mark_public(&self, user: &User, id: &str, public: bool) -> ApiResult<GameView> {
        self.with_game(id, async |g| {
            let side = g.side_of(&user.id).ok_or_else(|| {
                ApiError::forbidden("not_a_player", "only the game's players mark it public")
            })?;
            if g.tc.kind != TcKind::Correspondence {
                return Err(ApiError::bad_request(
                    "not_correspondence",
                    "only correspondence games are marked public or private",
                ));
            }
            if g.tournament_public && !public {
                return Err(ApiError::conflict(
                    "tournament_public",
                    "this tournament's games are public: they cannot be made private",
                ));
            }
            store::set_public_mark(&self.db, &g.id, side, public).await?;
            g.public_marks[usize::from(side == Color::Black)] = public;
            Ok(())
        })
        .await?;
        store::notify_terms(&self.db, &self.instance, id).await;
        self.terms_changed(id).await;
        self.view(id, true).await
    }

    /// The terms of game `id` changed, not the game (a player's leave, a
    /// public mark): its clock follows and its watchers see the new view,
    /// but no [`GameEvent`] is published (nobody moved: no "your move" is
    /// told again).
    pub async fn terms_changed(&self, id: &str) {
        let Ok((view, deadline)) = self
            .with_game(id, async |g| {
                Ok((g.view(false, self.time.now_ms()), g.deadline()))
            })
            .await
        else {
            return;
        };
        self.timers.set(id, deadline);
        self.hub.publish_text(id, || {
            let update = Update {
                kind: "update",
                game: &view,
                action: None,
            };
            serde_json::to_string(&update).unwrap_or_default()
        });
    }
}
