//! Berserk in arena games, as lichess has it: before their first move a
//! player may give up half of their clock (half the initial time) and the
//! increment of their moves, for one arena point more on a win (counted by
//! [`crate::tournament::standings`]). The step is pure, as [`super::model`]'s.

use super::model::{Action, ActionKind, Change, Fields, Game};
use crate::game::clock::TcKind;
use crate::infra::error::{ApiError, ApiResult};
use games::Color;

/// Goes berserk, as lichess's arenas do: `side`'s clock loses half the
/// initial time and its moves get no increment. Only in arena games with a
/// live clock, before that side's first move, once.
pub(super) fn apply(g: &Game, side: Color, now: i64) -> ApiResult<Change> {
    if !g.tournament_arena || g.tc.kind != TcKind::Live {
        return Err(ApiError::conflict(
            "not_arena",
            "berserk is only for arena tournament games with a live clock",
        ));
    }
    if g.berserked(side) {
        return Err(ApiError::conflict(
            "already_berserk",
            "you have already gone berserk in this game",
        ));
    }
    // White makes the first move, Black the second.
    let moved = match side {
        Color::White => g.ply() >= 1,
        Color::Black => g.ply() >= 2,
    };
    if moved {
        return Err(ApiError::conflict(
            "too_late_to_berserk",
            "berserk is only possible before your first move",
        ));
    }
    let mut fields = Fields::of(g);
    let left = g.time_left(side, now) - g.tc.initial_ms / 2;
    fields.set_ms(side, left.max(1));
    let action = Action {
        seq: g.actions.len() as u32 + 1,
        kind: ActionKind::Berserk,
        uci: side.name().into(),
        san: format!("{} goes berserk", side.name()),
        thai: None,
        fen: g.rules.fen(),
        white_ms: fields.white_ms,
        black_ms: fields.black_ms,
        at: now,
    };
    Ok(Change {
        fields,
        rules: None,
        action: Some(action),
    })
}
