//! Replaying a game's main line under the rules: the final state, and where
//! the rules would have ended a game that the record plays on.
//!
//! A record is never refused because an automatic count (Makruk) or a draw
//! rule (Mak-hot) ended the game earlier: people count aloud and may not
//! have declared it, and the record's result stands. The replay says where
//! the automatic rules would have stopped the game.

use crate::board::Board;
use crate::tree::{Game, GameResult};

/// The rule state at the end of the main line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FinalState {
    /// A Makruk state (`checkmate`, `counting_draw`, ...).
    Makruk(makruk::State),
    /// A Mak-hot state (`win_white`, `draw_no_progress`, ...).
    Makhos(makhos::GameState),
}

impl FinalState {
    /// The state's name (`ongoing`, `checkmate`, `draw_no_progress`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FinalState::Makruk(s) => s.name(),
            FinalState::Makhos(s) => s.name(),
        }
    }

    /// Whether the rules have ended the game.
    pub fn is_over(self) -> bool {
        match self {
            FinalState::Makruk(s) => s.is_over(),
            FinalState::Makhos(s) => s.is_over(),
        }
    }
}

/// Where the rules would have ended a game that the record plays on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEnd {
    /// The ply after which the game was over (1 for White's first move).
    pub ply: usize,
    /// The number of that ply's move as movetext writes it (`57.`, `57...`).
    pub move_number: String,
    /// The state the rules reached (`counting_draw`, `draw_no_progress`, ...).
    pub state: FinalState,
    /// The count when it ran out (Makruk): `(count, limit)` in plies.
    pub count: Option<(u32, u32)>,
}

impl std::fmt::Display for RuleEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the rules end the game after ply {} (move {}): {}",
            self.ply,
            self.move_number,
            self.state.name()
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
    pub end: Board,
    /// The rule state there.
    pub state: FinalState,
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
        match self.state {
            FinalState::Makruk(s) => {
                let turn_white = self.end.white_to_move();
                match s {
                    makruk::State::Ongoing => None,
                    makruk::State::Checkmate if turn_white => Some(GameResult::BlackWins),
                    makruk::State::Checkmate => Some(GameResult::WhiteWins),
                    _ => Some(GameResult::Draw),
                }
            }
            FinalState::Makhos(s) => match s {
                makhos::GameState::Ongoing => None,
                makhos::GameState::Win {
                    winner: makhos::Color::White,
                    ..
                } => Some(GameResult::WhiteWins),
                makhos::GameState::Win { .. } => Some(GameResult::BlackWins),
                makhos::GameState::Draw(_) => Some(GameResult::Draw),
            },
        }
    }
}

/// Replays the main line of `game`.
pub fn replay(game: &Game) -> Replay {
    let nodes = &game.moves.nodes;
    let mut board = game.start.clone();
    let mut rule_end = None;
    let mut illegal_ply = None;
    let mut plies = 0;
    let mut makhos_game = match &game.start {
        Board::Makhos {
            position, rules, ..
        } => Some(makhos::Game::from_position(*position, *rules)),
        Board::Makruk(_) => None,
    };
    for (i, node) in nodes.iter().enumerate() {
        let number = board.move_number_text();
        if !board.is_legal(&node.mv) {
            illegal_ply = Some(i + 1);
            break;
        }
        board.play_unchecked(&node.mv);
        plies = i + 1;
        let state = match (&mut makhos_game, &node.mv) {
            (Some(g), crate::tree::Move::Makhos(m)) => {
                let _ = g.play_past_end(m);
                FinalState::Makhos(g.state())
            }
            _ => match &board {
                Board::Makruk(p) => FinalState::Makruk(p.state()),
                Board::Makhos { .. } => FinalState::Makhos(makhos::GameState::Ongoing),
            },
        };
        if rule_end.is_none() && state.is_over() && i + 1 < nodes.len() {
            let count = match &board {
                Board::Makruk(p) => p.counting().map(|c| (c.ply, c.limit)),
                Board::Makhos { .. } => None,
            };
            rule_end = Some(RuleEnd {
                ply: i + 1,
                move_number: number,
                state,
                count: count.filter(|_| state == FinalState::Makruk(makruk::State::CountingDraw)),
            });
        }
    }
    let state = match (&makhos_game, &board) {
        (Some(g), _) => FinalState::Makhos(g.state()),
        (None, Board::Makruk(p)) => FinalState::Makruk(p.state()),
        (None, Board::Makhos { .. }) => FinalState::Makhos(makhos::GameState::Ongoing),
    };
    Replay {
        plies,
        end: board,
        state,
        rule_end,
        illegal_ply,
    }
}
