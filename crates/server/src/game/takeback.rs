//! Takebacks in casual games, as lichess has them: a player proposes taking
//! back their last move, the opponent agrees or refuses (the computer always
//! agrees); a move ends the proposal.
//!
//! Agreed, it takes back the proposer's last move, and the opponent's reply
//! too when there is one (so the proposer is to move again). It is recorded
//! as an action of its own (`takeback`, with the number of moves) after the
//! moves it undoes, which stay in the log: the game is what
//! [`effective`] leaves of the log, replayed from the start.

use super::model::{Action, ActionKind, Change, Command, Fields, Game};
use crate::infra::error::{ApiError, ApiResult};
use games::{AnyGame, Color};

/// The actions that make the game: the log with the moves each takeback
/// undoes removed (and the notes that followed them); the takeback actions
/// stay, as notes of what happened.
pub fn effective(actions: &[Action]) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::with_capacity(actions.len());
    for a in actions {
        if a.kind == ActionKind::Takeback {
            let mut left: u32 = a.uci.parse().unwrap_or(0);
            while left > 0 {
                match out.pop() {
                    Some(undone) if undone.kind == ActionKind::Move => left -= 1,
                    Some(_) => {}
                    None => break,
                }
            }
        }
        out.push(a.clone());
    }
    out
}

/// Replays the game's log onto `start` (its takebacks taken into account).
pub fn replay(mut start: AnyGame, actions: &[Action]) -> Result<AnyGame, (u32, games::GameError)> {
    for a in effective(actions) {
        a.replay(&mut start).map_err(|e| (a.seq, e))?;
    }
    Ok(start)
}

/// Moves `side` has made in the game as it stands.
fn moves_by(g: &Game, side: Color) -> u32 {
    let ply = g.ply();
    match side {
        Color::White => ply.div_ceil(2),
        Color::Black => ply / 2,
    }
}

/// Whether the player of `side`'s opponent is the computer (it always agrees).
fn against_computer(g: &Game, side: Color) -> bool {
    g.player(side.other())
        .is_some_and(|u| crate::computer::opponent::engine_level(&u.id).is_some())
}

/// A takeback command of `side` at `now`.
pub fn apply(g: &Game, side: Color, cmd: &Command, now: i64) -> ApiResult<Change> {
    let proposed_by_opponent = g.takeback_offer == Some(side.other());
    match cmd {
        Command::TakebackOffer | Command::TakebackAccept if proposed_by_opponent => {
            take_back(g, side.other(), now)
        }
        Command::TakebackAccept | Command::TakebackDecline if !proposed_by_opponent => {
            Err(ApiError::conflict(
                "no_takeback_offer",
                "your opponent has not proposed a takeback",
            ))
        }
        Command::TakebackDecline => {
            let mut fields = Fields::of(g);
            fields.takeback_offer = None;
            Ok(Change {
                fields,
                rules: None,
                action: None,
            })
        }
        _ => propose(g, side, now),
    }
}

fn propose(g: &Game, side: Color, now: i64) -> ApiResult<Change> {
    if g.rated || g.tournament_id.is_some() {
        return Err(ApiError::conflict(
            "rated_game",
            "takebacks are for casual games: this one is rated",
        ));
    }
    if moves_by(g, side) == 0 {
        return Err(ApiError::conflict(
            "nothing_to_take_back",
            "you have made no move to take back",
        ));
    }
    if g.takeback_offer == Some(side) {
        return Err(ApiError::conflict(
            "takeback_offered",
            "you have proposed a takeback already: wait for the answer",
        ));
    }
    if against_computer(g, side) {
        return take_back(g, side, now);
    }
    let mut fields = Fields::of(g);
    fields.takeback_offer = Some(side);
    Ok(Change {
        fields,
        rules: None,
        action: None,
    })
}

/// Takes back `proposer`'s last move (and the reply to it, if any).
fn take_back(g: &Game, proposer: Color, now: i64) -> ApiResult<Change> {
    let n: u32 = if g.turn() == proposer { 2 } else { 1 };
    if g.ply() < n {
        return Err(ApiError::conflict(
            "nothing_to_take_back",
            "there is no move to take back",
        ));
    }
    let mut fields = Fields::of(g);
    // The clock of the side to move stops where it is; the proposer's runs from now.
    fields.freeze(g, now);
    fields.takeback_offer = None;
    fields.draw_offer = None;
    let mut action = Action {
        seq: g.actions.len() as u32 + 1,
        kind: ActionKind::Takeback,
        uci: n.to_string(),
        san: format!("{n}"),
        fen: String::new(),
        white_ms: fields.white_ms,
        black_ms: fields.black_ms,
        at: now,
        thai: None,
    };
    let mut log = g.actions.clone();
    log.push(action.clone());
    let rules = replay(AnyGame::new_declared(g.kind), &log)
        .map_err(|(seq, e)| ApiError::internal(format!("replaying action {seq}: {e}")))?;
    action.fen = rules.fen();
    Ok(Change {
        fields,
        rules: Some(rules),
        action: Some(action),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(seq: u32, kind: ActionKind, uci: &str) -> Action {
        Action {
            seq,
            kind,
            uci: uci.into(),
            san: uci.into(),
            fen: String::new(),
            white_ms: 0,
            black_ms: 0,
            at: 0,
            thai: None,
        }
    }

    #[test]
    fn takebacks_remove_the_moves_they_undo() {
        use ActionKind::*;
        let log = [
            act(1, Move, "e3e4"),
            act(2, Move, "d6d5"),
            act(3, Move, "e4d5"),
            act(4, Takeback, "1"),
            act(5, Move, "a3a4"),
            act(6, Move, "a6a5"),
            act(7, Takeback, "2"),
        ];
        let kept: Vec<(u32, ActionKind)> =
            effective(&log).iter().map(|a| (a.seq, a.kind)).collect();
        assert_eq!(kept, [(1, Move), (2, Move), (4, Takeback), (7, Takeback)]);
        let kind = games::GameKind::from_names("makruk", None).unwrap();
        let rules = replay(AnyGame::new_declared(kind), &log).unwrap();
        assert_eq!(rules.ply(), 2);
        assert_eq!(rules.turn(), Color::White);
    }
}
