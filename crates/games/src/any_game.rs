//! [`AnyGame`]: a game of either kind in progress, ended by the rules crates
//! (mate, counts, Mak-hot's draw rules) or by the players and the clock
//! (resignation, agreement, time), always through the rules crate's `Game`.

use crate::{AnyMove, AnyPosition, Color, EndReason, GameKind, Outcome};
use serde::Serialize;
use std::fmt;

/// Why a game action was refused. The texts come from the rules crates and
/// say what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The text is not a move, or the move is not legal here.
    Move(String),
    /// The position text could not be read.
    Position(String),
    /// The game is already over.
    GameOver(Outcome),
    /// A counting request was refused (Makruk), or the game has no counting.
    Counting(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Move(e) | GameError::Position(e) | GameError::Counting(e) => f.write_str(e),
            GameError::GameOver(o) => write!(f, "the game is over ({o})"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<makruk::GameError> for GameError {
    fn from(e: makruk::GameError) -> GameError {
        match e {
            makruk::GameError::GameOver(o) => GameError::GameOver(o.into()),
            makruk::GameError::Counting(c) => GameError::Counting(c.to_string()),
            other => GameError::Move(other.to_string()),
        }
    }
}

impl From<makhos::GameError> for GameError {
    fn from(e: makhos::GameError) -> GameError {
        match e {
            makhos::GameError::GameOver(o) => GameError::GameOver(o.into()),
            other => GameError::Move(other.to_string()),
        }
    }
}

/// A running Makruk count as players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CountView {
    /// The side that counts (unknown for a board's-honour count nobody declared).
    pub side: Option<Color>,
    /// `board` (board's honour) or `pieces` (pieces' honour).
    #[cfg_attr(feature = "ts", ts(type = "'board' | 'pieces'"))]
    pub kind: &'static str,
    /// Plies counted so far.
    pub ply: u32,
    /// The limit in plies: the game is drawn past it.
    pub limit: u32,
    /// The count as the counting side says it aloud ([`crate::spoken_count`]):
    /// the number of its next move when it is to move, else of its last.
    pub spoken: u32,
    /// The last number it may say (64 for board's honour in Makruk).
    pub spoken_limit: u32,
}

/// A game of either kind: its start, moves, position and, once over, its
/// outcome.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Makruk or Ouk Chatrang.
    Makruk(Box<makruk::Game>),
    /// Mak-hot, with the history its draw rules need.
    Makhos(makhos::Game),
}

impl AnyGame {
    /// A game of `kind` from its start, counted automatically as
    /// Fairy-Stockfish counts (engines, matches, analysis).
    pub fn new(kind: GameKind) -> AnyGame {
        AnyGame::from_position(AnyPosition::start(kind))
    }

    /// A game of `kind` from its start for people: Makruk board's-honour
    /// counts are declared by the players (RULES.md section 1).
    pub fn new_declared(kind: GameKind) -> AnyGame {
        match kind {
            GameKind::Makruk(v) => AnyGame::Makruk(Box::new(makruk::Game::new_declared(v))),
            GameKind::Makhos(rules) => AnyGame::Makhos(makhos::Game::new(rules)),
        }
    }

    /// A game from a given position.
    pub fn from_position(start: AnyPosition) -> AnyGame {
        match start {
            AnyPosition::Makruk(p) => AnyGame::Makruk(Box::new(makruk::Game::from_position(p))),
            AnyPosition::Makhos {
                position, rules, ..
            } => AnyGame::Makhos(makhos::Game::from_position(position, rules)),
        }
    }

    /// A game for people from a given position (a set-up start): as
    /// [`AnyGame::new_declared`], Makruk board's-honour counts are declared
    /// by the players, unless the position carries a running board's-honour
    /// count (FEN fields 4 and 5): that count goes on as Fairy-Stockfish
    /// counts it.
    pub fn from_position_declared(start: AnyPosition) -> AnyGame {
        match start {
            AnyPosition::Makruk(mut p) => {
                let board_count = p
                    .counting()
                    .is_some_and(|c| c.kind == makruk::CountKind::BoardsHonour);
                if !board_count {
                    p.set_counting_mode(makruk::CountingMode::Declared);
                }
                AnyGame::Makruk(Box::new(makruk::Game::from_position(p)))
            }
            other => AnyGame::from_position(other),
        }
    }

    /// The position the game started from.
    pub fn start_position(&self) -> AnyPosition {
        match self {
            AnyGame::Makruk(g) => AnyPosition::Makruk(g.start().clone()),
            AnyGame::Makhos(g) => AnyPosition::Makhos {
                position: *g.start(),
                rules: g.rules(),
                fullmove: 1,
            },
        }
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Makruk(g) => GameKind::Makruk(g.position().variant()),
            AnyGame::Makhos(g) => GameKind::Makhos(g.rules()),
        }
    }

    /// The current position.
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Makruk(g) => AnyPosition::Makruk(g.position().clone()),
            AnyGame::Makhos(g) => AnyPosition::Makhos {
                position: *g.position(),
                rules: g.rules(),
                fullmove: 1
                    + (g.moves().len() as u32
                        + u32::from(g.start().turn() == makhos::Color::Black))
                        / 2,
            },
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        match self {
            AnyGame::Makruk(g) => g.position().turn().into(),
            AnyGame::Makhos(g) => g.position().turn().into(),
        }
    }

    /// The current position's FEN (Makruk) or position text (Mak-hot).
    pub fn fen(&self) -> String {
        self.fen_with_marks(false)
    }

    /// The current position's FEN with promoted bias marked `M~`/`m~` when
    /// `promoted_marks` is set (see [`AnyPosition::fen_with_marks`]).
    pub fn fen_with_marks(&self, promoted_marks: bool) -> String {
        match self {
            AnyGame::Makruk(g) => g.position().fen_with_marks(promoted_marks),
            AnyGame::Makhos(g) => g.position().to_string(),
        }
    }

    /// The moves played so far.
    pub fn moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Makruk(g) => g.moves().iter().map(|&m| AnyMove::Makruk(m)).collect(),
            AnyGame::Makhos(g) => g.moves().iter().map(|&m| AnyMove::Makhos(m)).collect(),
        }
    }

    /// How many moves (plies) were played.
    pub fn ply(&self) -> u32 {
        match self {
            AnyGame::Makruk(g) => g.moves().len() as u32,
            AnyGame::Makhos(g) => g.moves().len() as u32,
        }
    }

    /// The legal moves (none once the game is over).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.position().legal_moves()
    }

    /// Reads a move typed in any notation the game accepts
    /// ([`AnyPosition::parse_text`]).
    pub fn parse_text(&self, text: &str) -> Result<AnyMove, GameError> {
        self.position().parse_text(text)
    }

    /// The move as players read it ([`AnyPosition::display_move`]).
    pub fn display_move(&self, mv: &AnyMove) -> String {
        self.position().display_move(mv)
    }

    /// Plays a move, refusing illegal ones, moves of the other game and moves
    /// after the end.
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), GameError> {
        match (self, mv) {
            (AnyGame::Makruk(g), AnyMove::Makruk(m)) => Ok(g.play(*m)?),
            (AnyGame::Makhos(g), AnyMove::Makhos(m)) => g.play(m).map(|_| ()).map_err(Into::into),
            (_, mv) => Err(GameError::Move(format!(
                "'{mv}' is a move of the other game"
            ))),
        }
    }

    /// Plays a move given in the engine form ([`AnyMove::to_engine`]).
    pub fn play_engine(&mut self, text: &str) -> Result<AnyMove, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let mv = self.position().parse_engine(text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            AnyGame::Makruk(g) => g.outcome().map(Into::into),
            AnyGame::Makhos(g) => g.outcome().map(|o| {
                let mut outcome = Outcome::from(o);
                // No legal move because no piece is left: the win by
                // capturing every piece, told apart from a blocked side.
                let pos = g.position();
                if o.reason == makhos::EndReason::NoMoves && pos.pieces(pos.turn()).is_empty() {
                    outcome.reason = EndReason::AllCaptured;
                }
                outcome
            }),
        }
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.resign(side.into())?),
            AnyGame::Makhos(g) => Ok(g.resign(side.into())?),
        }
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.agree_draw()?),
            AnyGame::Makhos(g) => Ok(g.agree_draw()?),
        }
    }

    /// `side` ran out of time: a loss, or a draw when the rules say the
    /// opponent could never have won (a bare khun in Makruk).
    pub fn time_out(&mut self, side: Color) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.time_out(side.into())?),
            AnyGame::Makhos(g) => Ok(g.time_out(side.into())?),
        }
    }

    /// Ends the game with an outcome decided outside the rules of play (one
    /// read back from storage, say).
    pub fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.end(makruk::Outcome {
                winner: outcome.winner.map(Into::into),
                reason: makruk_reason(outcome)?,
            })?),
            AnyGame::Makhos(g) => Ok(g.end(makhos::Outcome {
                winner: outcome.winner.map(Into::into),
                reason: makhos_reason(outcome)?,
            })?),
        }
    }

    /// The running Makruk count, if any.
    pub fn count(&self) -> Option<CountView> {
        let AnyGame::Makruk(g) = self else {
            return None;
        };
        let turn = g.position().turn();
        g.position().counting().map(|c| {
            let spoken = crate::spoken_count(c.ply, c.limit, c.counter.map(|s| s == turn));
            CountView {
                side: c.counter.map(Color::from),
                kind: match c.kind {
                    makruk::CountKind::BoardsHonour => "board",
                    makruk::CountKind::PiecesHonour => "pieces",
                },
                ply: c.ply,
                limit: c.limit,
                spoken: spoken.count,
                spoken_limit: spoken.limit,
            }
        })
    }

    /// Whether `side` may declare a board's-honour count now (Makruk).
    pub fn can_start_count(&self, side: Color) -> bool {
        match self {
            AnyGame::Makruk(g) => {
                g.outcome().is_none() && g.position().may_start_board_count(side.into())
            }
            AnyGame::Makhos(_) => false,
        }
    }

    /// Whether `side` may stop the board's-honour count it declared (Makruk).
    pub fn can_stop_count(&self, side: Color) -> bool {
        match self {
            AnyGame::Makruk(g) => {
                g.outcome().is_none()
                    && g.position().counting().is_some_and(|c| {
                        c.kind == makruk::CountKind::BoardsHonour && c.counter == Some(side.into())
                    })
            }
            AnyGame::Makhos(_) => false,
        }
    }

    /// `side` declares a board's-honour count (Makruk).
    pub fn start_count(&mut self, side: Color) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.start_board_count(side.into())?),
            AnyGame::Makhos(_) => Err(GameError::Counting("Mak-hot has no counting".into())),
        }
    }

    /// `side` stops the board's-honour count it declared (Makruk).
    pub fn stop_count(&mut self, side: Color) -> Result<(), GameError> {
        match self {
            AnyGame::Makruk(g) => Ok(g.stop_board_count(side.into())?),
            AnyGame::Makhos(_) => Err(GameError::Counting("Mak-hot has no counting".into())),
        }
    }
}

fn makruk_reason(o: Outcome) -> Result<makruk::EndReason, GameError> {
    use crate::EndReason as R;
    Ok(match o.reason {
        R::Checkmate => makruk::EndReason::Checkmate,
        R::Stalemate => makruk::EndReason::Stalemate,
        R::CountingDraw => makruk::EndReason::CountingDraw,
        R::InsufficientMaterial => makruk::EndReason::InsufficientMaterial,
        R::Agreement => makruk::EndReason::Agreement,
        R::Resignation => makruk::EndReason::Resignation,
        R::Timeout => makruk::EndReason::Timeout,
        R::TimeoutDraw => makruk::EndReason::TimeoutDraw,
        other => {
            return Err(GameError::Move(format!(
                "{other} does not end a Makruk game"
            )));
        }
    })
}

fn makhos_reason(o: Outcome) -> Result<makhos::EndReason, GameError> {
    use crate::EndReason as R;
    Ok(match o.reason {
        // The rules crate ends both the same way: the loser cannot move.
        R::NoMoves | R::AllCaptured => makhos::EndReason::NoMoves,
        R::Kings => makhos::EndReason::Kings,
        R::Repetition => makhos::EndReason::Repetition,
        R::NoProgress => makhos::EndReason::NoProgress,
        R::Agreement => makhos::EndReason::Agreement,
        R::Resignation => makhos::EndReason::Resignation,
        R::Timeout => makhos::EndReason::Timeout,
        other => {
            return Err(GameError::Move(format!(
                "{other} does not end a Mak-hot game"
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_end_games_through_the_rules_crates() {
        for kind in GameKind::ALL {
            let mut g = AnyGame::new_declared(kind);
            let first = g.legal_moves()[0];
            g.play(&first).unwrap();
            g.resign(Color::White).unwrap();
            assert_eq!(
                g.outcome(),
                Some(Outcome::win(Color::Black, EndReason::Resignation))
            );
            assert!(g.legal_moves().is_empty());
            assert!(matches!(g.play(&first), Err(GameError::GameOver(_))));
            assert!(matches!(g.agree_draw(), Err(GameError::GameOver(_))));
        }
    }

    #[test]
    fn a_game_from_a_set_up_position_keeps_its_start_and_its_counts() {
        // Board's honour running in the FEN: it goes on.
        let fen = "4k3/8/8/8/8/8/3RR3/4K3 b - 128 20 30";
        let pos = AnyPosition::from_fen(GameKind::MAKRUK, fen).unwrap();
        let g = AnyGame::from_position_declared(pos);
        assert_eq!(g.start_position().fen(), fen);
        assert_eq!(g.fen(), fen);
        // Without a count the players declare it.
        let fen = "4k3/8/8/8/3p4/8/RR6/4K3 w - - 0 30";
        let mut g =
            AnyGame::from_position_declared(AnyPosition::from_fen(GameKind::MAKRUK, fen).unwrap());
        assert_eq!(g.start_position().fen(), fen);
        let mv = g.legal_moves()[0];
        g.play(&mv).unwrap();
        assert_eq!(g.start_position().fen(), fen);
        assert_ne!(g.fen(), fen);
        // Mak-hot keeps its rule option and its side to move.
        let kind = GameKind::Makhos(makhos::Rules::NoReverse);
        let g =
            AnyGame::from_position_declared(AnyPosition::from_fen(kind, "B:Wb2,h2:BKa7").unwrap());
        assert_eq!(g.kind(), kind);
        assert_eq!(g.turn(), Color::Black);
        assert_eq!(g.start_position().fen(), g.fen());
    }

    #[test]
    fn a_flag_fall_against_a_bare_khun_is_a_draw() {
        let pos =
            AnyPosition::from_fen(GameKind::MAKRUK, "8/8/4k3/8/8/8/3R4/4K3 w - - 0 1").unwrap();
        let mut g = AnyGame::from_position(pos.clone());
        g.time_out(Color::White).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::TimeoutDraw)));
        let mut g = AnyGame::from_position(pos);
        g.time_out(Color::Black).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Color::White, EndReason::Timeout))
        );
    }

    #[test]
    fn capturing_the_last_piece_wins_by_all_captured_and_a_blocked_side_has_no_moves() {
        let pos = AnyPosition::from_fen(GameKind::MAKHOS, "W:Wc3:Bd4").unwrap();
        let mut g = AnyGame::from_position(pos);
        g.play_engine("c3e5").unwrap();
        let won = Some(Outcome::win(Color::White, EndReason::AllCaptured));
        assert_eq!(g.outcome(), won);
        assert_eq!(
            EndReason::parse("all_captured"),
            Some(EndReason::AllCaptured)
        );
        // Stored and read back, it ends a replayed game the same way.
        let mut replayed =
            AnyGame::from_position(AnyPosition::from_fen(GameKind::MAKHOS, "W:Wc3:Bd4").unwrap());
        replayed.play_engine("c3e5").unwrap();
        replayed
            .end(Outcome::from_stored("1-0", "all_captured").unwrap())
            .ok();
        assert_eq!(replayed.outcome(), won);
        // A side with pieces but no move loses by "no moves".
        let blocked = AnyPosition::from_fen(GameKind::MAKHOS, "B:Wb2,c1:Ba3").unwrap();
        assert_eq!(
            AnyGame::from_position(blocked).outcome(),
            Some(Outcome::win(Color::White, EndReason::NoMoves))
        );
    }

    #[test]
    fn a_stored_outcome_ends_a_replayed_game_and_a_foreign_one_is_refused() {
        let mut g = AnyGame::new(GameKind::MAKHOS);
        assert!(g.end(Outcome::draw(EndReason::CountingDraw)).is_err());
        g.end(Outcome::draw(EndReason::Agreement)).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Agreement)));
    }

    #[test]
    fn engine_moves_are_played_and_move_numbers_follow() {
        let mut g = AnyGame::new(GameKind::MAKHOS);
        for m in ["b2c3", "a7b6", "c3d4"] {
            g.play_engine(m).unwrap();
        }
        assert_eq!(g.ply(), 3);
        assert_eq!(g.position().fullmove(), 2);
        assert!(g.play_engine("a1a1").is_err());
        assert_eq!(g.ply(), 3);
    }

    #[test]
    fn only_makruk_declares_counts() {
        let g = AnyGame::new_declared(GameKind::MAKHOS);
        assert!(!g.can_start_count(Color::White));
        assert!(g.clone().start_count(Color::White).is_err());
        assert_eq!(g.count(), None);
    }
}
