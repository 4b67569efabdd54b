//! Replaying a game's main line under the rules: the final state, and where
//! the rules would have ended a game that the record plays on.
//!
//! A record is never refused because an automatic count (Makruk) or a draw
//! rule (Mak-hot) ended the game earlier: people count aloud and may not
//! have declared it, and the record's result stands. The replay says where
//! the automatic rules would have stopped the game.

use crate::notation::move_number_text;
use crate::tree::{Game, GameResult};
use games::{AnyMove, AnyPosition, Color, EndReason, Outcome};

/// The name of a rule state: `ongoing`, or the reason the rules ended the
/// game (`checkmate`, `counting_draw`, `no_progress`, ...).
pub fn state_name(state: Option<Outcome>) -> &'static str {
    state.map_or("ongoing", |o| o.reason.name())
}

/// Where the rules would have ended a game that the record plays on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEnd {
    /// The ply after which the game was over (1 for White's first move).
    pub ply: usize,
    /// The number of that ply's move as movetext writes it (`57.`, `57...`).
    pub move_number: String,
    /// How the rules ended it (`counting_draw`, `no_progress`, ...).
    pub state: Outcome,
    /// The count when it ran out (Makruk): `(count, limit)` in plies.
    pub count: Option<(u32, u32)>,
}

impl std::fmt::Display for RuleEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the rules end the game after ply {} (move {}): {}",
            self.ply, self.move_number, self.state.reason
        )?;
        if let Some((count, limit)) = self.count {
            write!(f, " (count {count} of {limit} plies)")?;
        }
        Ok(())
    }
}

/// What replaying a main line shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Plies played.
    pub plies: usize,
    /// The position after the last move.
    pub end: AnyPosition,
    /// How the rules end the game there, if they do.
    pub state: Option<Outcome>,
    /// Where the rules ended the game before the record did, if they did.
    pub rule_end: Option<RuleEnd>,
    /// The first ply (from 1) that was not a legal move, if any (only for
    /// trees built by hand: the reader checks every move).
    pub illegal_ply: Option<usize>,
}

impl Replay {
    /// The result the final position decides (mate, stalemate, counts, a
    /// blocked side, draw rules), if it decides one.
    pub fn decided_result(&self) -> Option<GameResult> {
        self.state.map(|o| match o.winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        })
    }

    /// The final rule state's name ([`state_name`]).
    pub fn state_name(&self) -> &'static str {
        state_name(self.state)
    }
}

/// How the rules end the game at `pos`, if they do (Makruk: the position
/// alone decides).
fn makruk_state(pos: &makruk::Position) -> Option<Outcome> {
    makruk::Outcome::from_state(pos.state(), pos.turn()).map(Outcome::from)
}

/// Replays the main line of `game`.
pub fn replay(game: &Game) -> Replay {
    let nodes = &game.moves.nodes;
    let mut board = game.start.clone();
    let mut rule_end = None;
    let mut illegal_ply = None;
    let mut plies = 0;
    // Mak-hot's draw rules need the history: a game that plays past them.
    let mut makhos_game = match &game.start {
        AnyPosition::Makhos {
            position, rules, ..
        } => Some(makhos::Game::from_position(*position, *rules)),
        AnyPosition::Makruk(_) => None,
    };
    let state_of = |board: &AnyPosition, makhos_game: &Option<makhos::Game>| match board {
        AnyPosition::Makruk(p) => makruk_state(p),
        AnyPosition::Makhos { .. } => makhos_game
            .as_ref()
            .and_then(|g| g.outcome())
            .map(Outcome::from),
    };
    for (i, node) in nodes.iter().enumerate() {
        let number = move_number_text(&board);
        if !board.is_legal(&node.mv) {
            illegal_ply = Some(i + 1);
            break;
        }
        board.play_unchecked(&node.mv);
        plies = i + 1;
        if let (Some(g), AnyMove::Makhos(m)) = (&mut makhos_game, &node.mv) {
            let _ = g.play_past_end(m);
        }
        let state = state_of(&board, &makhos_game);
        if let Some(state) = state.filter(|_| rule_end.is_none() && i + 1 < nodes.len()) {
            let count = match &board {
                AnyPosition::Makruk(p) if state.reason == EndReason::CountingDraw => {
                    p.counting().map(|c| (c.ply, c.limit))
                }
                _ => None,
            };
            rule_end = Some(RuleEnd {
                ply: i + 1,
                move_number: number,
                state,
                count,
            });
        }
    }
    let state = state_of(&board, &makhos_game);
    Replay {
        plies,
        end: board,
        state,
        rule_end,
        illegal_ply,
    }
}
