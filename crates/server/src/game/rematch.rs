//! Rematches after a game (lila's rematcher): the pure step that decides
//! what a player's rematch action does to the finished game's offer.

use super::model::{Game, Status};
use crate::infra::error::{ApiError, ApiResult};
use games::Color;

/// What a player does about a rematch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RematchAction {
    /// Offer one (or accept the opponent's standing offer).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it (or withdraw one's own).
    Decline,
}

impl RematchAction {
    /// Reads `offer`, `accept` or `decline`.
    pub fn parse(text: &str) -> ApiResult<RematchAction> {
        match text {
            "offer" => Ok(RematchAction::Offer),
            "accept" => Ok(RematchAction::Accept),
            "decline" => Ok(RematchAction::Decline),
            _ => Err(ApiError::bad_request(
                "invalid_action",
                "rematch action must be offer, accept or decline",
            )),
        }
    }
}

/// What a rematch action leads to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RematchStep {
    /// The offer of this side stands now (`None`: no offer any more).
    Offer(Option<Color>),
    /// Both want it: start the new game, colours swapped.
    Start,
}

/// Decides a rematch action of `user_id` after game `g` (over, between two
/// people, no rematch yet).
pub fn rematch_step(g: &Game, user_id: &str, action: RematchAction) -> ApiResult<RematchStep> {
    let side = g.side_of(user_id).ok_or_else(|| {
        ApiError::forbidden("not_a_player", "only the two players can ask for a rematch")
    })?;
    if !matches!(g.status, Status::Finished | Status::Aborted) {
        return Err(ApiError::conflict(
            "not_over",
            "a rematch is offered once the game is over",
        ));
    }
    if g.rematch_id.is_some() {
        return Err(ApiError::conflict(
            "rematch_started",
            "the rematch has already started",
        ));
    }
    if g.tournament_id.is_some() {
        return Err(ApiError::conflict(
            "tournament_game",
            "the tournament pairs its players: no rematch",
        ));
    }
    let computer = [Color::White, Color::Black].into_iter().any(|c| {
        g.player(c)
            .is_some_and(|u| crate::computer::opponent::engine_level(&u.id).is_some())
    });
    if computer {
        return Err(ApiError::conflict(
            "computer_game",
            "to play the computer again, start a new game against it",
        ));
    }
    let theirs = g.rematch_offer == Some(side.other());
    match action {
        RematchAction::Offer | RematchAction::Accept if theirs => Ok(RematchStep::Start),
        RematchAction::Accept => Err(ApiError::conflict(
            "no_rematch_offer",
            "your opponent has not offered a rematch",
        )),
        RematchAction::Offer if g.rematch_offer == Some(side) => Err(ApiError::conflict(
            "already_offered",
            "you have already offered a rematch",
        )),
        RematchAction::Offer => Ok(RematchStep::Offer(Some(side))),
        RematchAction::Decline if g.rematch_offer.is_none() => Err(ApiError::conflict(
            "no_rematch_offer",
            "there is no rematch offer",
        )),
        RematchAction::Decline => Ok(RematchStep::Offer(None)),
    }
}
