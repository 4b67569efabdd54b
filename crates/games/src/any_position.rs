//! [`AnyPosition`] and [`AnyMove`]: a position and a move of either game.

use crate::{Color, GameError, GameKind};
use std::fmt;

/// A move of either game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Makruk or Ouk Chatrang move.
    Makruk(makruk::Move),
    /// A Mak-hot move (with every landing square).
    Makhos(makhos::Move),
}

impl AnyMove {
    /// The engine form, the move's identity in every protocol: UCI (`e3e4`,
    /// `c6c7m`) or Mak-hot's landing squares run together (`c3e5c7`).
    pub fn to_engine(&self) -> String {
        match self {
            AnyMove::Makruk(m) => m.to_uci(),
            AnyMove::Makhos(m) => m.to_engine(),
        }
    }

    /// The squares the piece passes through: its start, every landing
    /// square, its end (`["c3", "e5", "c7"]`).
    pub fn path(&self) -> Vec<String> {
        match self {
            AnyMove::Makruk(m) => vec![m.from().to_string(), m.to().to_string()],
            AnyMove::Makhos(m) => std::iter::once(m.from())
                .chain(m.path())
                .map(|s| s.to_string())
                .collect(),
        }
    }
}

impl fmt::Display for AnyMove {
    /// The engine form ([`AnyMove::to_engine`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_engine())
    }
}

/// A position of either game, with what is needed to go on from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A Makruk or Ouk Chatrang position (its variant and count inside).
    Makruk(makruk::Position),
    /// A Mak-hot position, the rules it is played under and the move number
    /// (Mak-hot position texts carry none).
    Makhos {
        /// The position.
        position: makhos::Position,
        /// The rule option.
        rules: makhos::Rules,
        /// The move number (1 at the start, incremented after Black moves).
        fullmove: u32,
    },
}

impl AnyPosition {
    /// The start of a game of `kind`.
    pub fn start(kind: GameKind) -> AnyPosition {
        match kind {
            GameKind::Makruk(v) => AnyPosition::Makruk(makruk::Position::new(v)),
            GameKind::Makhos(rules) => AnyPosition::Makhos {
                position: makhos::Position::start(),
                rules,
                fullmove: 1,
            },
        }
    }

    /// A position from a FEN (Makruk) or a position text (Mak-hot, `W:W...:B...`
    /// in algebraic squares or PDN numbers); the error says what is wrong.
    pub fn from_fen(kind: GameKind, text: &str) -> Result<AnyPosition, GameError> {
        let text = text.trim();
        match kind {
            GameKind::Makruk(v) => makruk::Position::from_fen(v, text)
                .map(AnyPosition::Makruk)
                .map_err(|e| GameError::Position(e.to_string())),
            GameKind::Makhos(rules) => text
                .parse::<makhos::Position>()
                .map(|position| AnyPosition::Makhos {
                    position,
                    rules,
                    fullmove: 1,
                })
                .map_err(|e| GameError::Position(e.to_string())),
        }
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Makruk(p) => GameKind::Makruk(p.variant()),
            AnyPosition::Makhos { rules, .. } => GameKind::Makhos(*rules),
        }
    }

    /// The FEN (Makruk) or position text (Mak-hot).
    pub fn fen(&self) -> String {
        self.fen_with_marks(false)
    }

    /// The FEN, with promoted bias written `M~`/`m~` when `promoted_marks`
    /// is set (Fairy-Stockfish's and pychess's form); Mak-hot's position
    /// text has no such marks.
    pub fn fen_with_marks(&self, promoted_marks: bool) -> String {
        match self {
            AnyPosition::Makruk(p) => p.fen_with_marks(promoted_marks),
            AnyPosition::Makhos { position, .. } => position.to_string(),
        }
    }

    /// Whether this is the standard start of its game.
    pub fn is_standard_start(&self) -> bool {
        match self {
            AnyPosition::Makruk(p) => p.fen() == p.variant().start_fen(),
            AnyPosition::Makhos {
                position, fullmove, ..
            } => *position == makhos::Position::start() && *fullmove == 1,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Makruk(p) => p.turn().into(),
            AnyPosition::Makhos { position, .. } => position.turn().into(),
        }
    }

    /// The current move number.
    pub fn fullmove(&self) -> u32 {
        match self {
            AnyPosition::Makruk(p) => p.fullmoves(),
            AnyPosition::Makhos { fullmove, .. } => *fullmove,
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Makruk(p) => p
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Makruk(m))
                .collect(),
            AnyPosition::Makhos {
                position, rules, ..
            } => position
                .legal_moves(*rules)
                .into_iter()
                .map(AnyMove::Makhos)
                .collect(),
        }
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: &AnyMove) -> bool {
        match (self, mv) {
            (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => p.is_legal(*m),
            (
                AnyPosition::Makhos {
                    position, rules, ..
                },
                AnyMove::Makhos(m),
            ) => position.find_legal(*rules, m).is_some(),
            _ => false,
        }
    }

    /// Reads a move in the engine form (UCI for Makruk; for Mak-hot any
    /// accepted notation, `c3e5c7` among them).
    pub fn parse_engine(&self, text: &str) -> Result<AnyMove, GameError> {
        let text = text.trim();
        match self {
            AnyPosition::Makruk(p) => p
                .parse_uci(text)
                .map(AnyMove::Makruk)
                .map_err(|e| GameError::Move(e.to_string())),
            AnyPosition::Makhos {
                position, rules, ..
            } => position
                .parse_move(*rules, text)
                .map(AnyMove::Makhos)
                .map_err(|e| GameError::Move(e.to_string())),
        }
    }

    /// Reads a move typed by a person in any notation the game accepts: UCI,
    /// SAN (every convention) or Thai notation for Makruk; PDN numbers,
    /// algebraic or Thai squares or the engine form for Mak-hot. The error explains the notation the
    /// text looks closest to.
    pub fn parse_text(&self, text: &str) -> Result<AnyMove, GameError> {
        let text = text.trim();
        if makruk::has_thai(text) {
            return self.parse_thai(text);
        }
        let AnyPosition::Makruk(p) = self else {
            return self.parse_engine(text);
        };
        match p.parse_uci(text) {
            Ok(m) => Ok(AnyMove::Makruk(m)),
            Err(uci_err) => match p.parse_san(text) {
                Ok(m) => Ok(AnyMove::Makruk(m)),
                Err(san_err) => {
                    let b = text.as_bytes();
                    let looks_uci = b.len() >= 4 && b[1].is_ascii_digit() && b[3].is_ascii_digit();
                    let why = if let Some(square) = capital_square(text) {
                        format!(
                            "{text:?}: squares are written with a small letter ({}, not {square})",
                            square.to_ascii_lowercase()
                        )
                    } else if looks_uci {
                        uci_err.to_string()
                    } else {
                        san_err.to_string()
                    };
                    Err(GameError::Move(format!("{why}; {MAKRUK_MOVE_FORMS}")))
                }
            },
        }
    }

    /// The move as players read it: Makruk SAN (`Me2`), Mak-hot algebraic
    /// squares with every landing (`c3xe5xc7`).
    pub fn display_move(&self, mv: &AnyMove) -> String {
        match (self, mv) {
            (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => p.san(*m),
            (_, AnyMove::Makhos(m)) => m.to_algebraic(),
            (_, AnyMove::Makruk(m)) => m.to_uci(),
        }
    }

    /// Plays `mv` if it is legal here; otherwise nothing changes and the
    /// error names the move.
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), GameError> {
        if !self.is_legal(mv) {
            return Err(GameError::Move(format!(
                "'{mv}' is not a legal move in this position"
            )));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (from [`AnyPosition::legal_moves`] or
    /// the readers), without checking it; a move of the other game is ignored.
    pub fn play_unchecked(&mut self, mv: &AnyMove) {
        match (self, mv) {
            (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => p.play_unchecked(*m),
            (
                AnyPosition::Makhos {
                    position, fullmove, ..
                },
                AnyMove::Makhos(m),
            ) => {
                if position.turn() == makhos::Color::Black {
                    *fullmove = fullmove.saturating_add(1);
                }
                position.play_unchecked(m);
            }
            _ => {}
        }
    }
}

/// What a Makruk move may look like, said after a text that is none.
pub const MAKRUK_MOVE_FORMS: &str = "write a move as SAN (e4, Nf3, Sxd5) or as coordinates (e3e4)";

/// The first square written with a capital file letter (`E4` in `E4` or
/// `NE4`), if the text has one.
fn capital_square(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(1)).find_map(|i| {
        let capital = (b'A'..=b'H').contains(&b[i]);
        let rank = (b'1'..=b'8').contains(&b[i + 1]);
        capital.then_some(())?;
        rank.then(|| &text[i..i + 2])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_is_no_move_says_what_was_expected() {
        let pos = AnyPosition::start(GameKind::from_names("makruk", None).unwrap());
        let e = pos.parse_text("E4").unwrap_err().to_string();
        assert!(
            e.starts_with("\"E4\": squares are written with a small letter (e4, not E4)"),
            "{e}"
        );
        assert!(e.ends_with(MAKRUK_MOVE_FORMS), "{e}");
        let e = pos.parse_text("hello").unwrap_err().to_string();
        assert!(e.ends_with(MAKRUK_MOVE_FORMS), "{e}");
        assert!(pos.parse_text("e4").is_ok() && pos.parse_text("e3e4").is_ok());
    }

    #[test]
    fn every_game_starts_with_its_own_position_and_legal_moves() {
        for kind in GameKind::ALL {
            let pos = AnyPosition::start(kind);
            assert_eq!(pos.kind(), kind);
            assert_eq!(pos.fen(), kind.start_fen());
            assert!(pos.is_standard_start());
            assert_eq!(pos.turn(), Color::White);
            let moves = pos.legal_moves();
            assert!(!moves.is_empty());
            assert!(moves.iter().all(|m| pos.is_legal(m)));
        }
    }

    #[test]
    fn illegal_and_foreign_moves_are_refused_and_change_nothing() {
        let mut pos = AnyPosition::start(GameKind::MAKRUK);
        let makhos_move = AnyPosition::start(GameKind::MAKHOS).legal_moves()[0];
        let e = pos.play(&makhos_move).unwrap_err();
        assert!(e.to_string().contains("not a legal move"), "{e}");
        assert_eq!(pos, AnyPosition::start(GameKind::MAKRUK));
        let e = pos.parse_text("E4").unwrap_err();
        assert!(!e.to_string().is_empty());
    }

    #[test]
    fn moves_are_read_in_every_notation_and_played() {
        let mut pos = AnyPosition::start(GameKind::MAKRUK);
        let m = pos.parse_text("e4").unwrap();
        assert_eq!(m.to_engine(), "e3e4");
        assert_eq!(pos.parse_text("e3e4").unwrap(), m);
        pos.play(&m).unwrap();
        assert_eq!(pos.turn(), Color::Black);

        let mut pos = AnyPosition::start(GameKind::MAKHOS);
        let m = pos.parse_text("b2-c3").unwrap();
        assert_eq!(m.path(), ["b2", "c3"]);
        pos.play(&m).unwrap();
        assert_eq!(pos.turn(), Color::Black);
        assert_eq!(pos.fullmove(), 1);
    }

    #[test]
    fn a_bad_position_text_says_what_is_wrong() {
        let e = AnyPosition::from_fen(GameKind::MAKRUK, "hello world").unwrap_err();
        assert!(e.to_string().len() > 10, "{e}");
        assert!(AnyPosition::from_fen(GameKind::MAKHOS, "W:Wz9:B").is_err());
    }
}
