//! A position of either game, with what the record layers need of it:
//! reading and writing move texts, playing moves, FEN and move numbers.

use crate::error::ErrorKind;
use crate::makhos_moves::{self, SquareStyle};
use crate::makruk_moves;
use crate::tree::{GameKind, Move};
use makruk::Letters;

/// A position of Makruk (or Ouk Chatrang) or of Mak-hot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// A Makruk or Ouk Chatrang position (its variant inside).
    Makruk(makruk::Position),
    /// A Mak-hot position, the rules it is played under and the move number.
    Makhos {
        /// The position.
        position: makhos::Position,
        /// The rule set.
        rules: makhos::Rules,
        /// The move number (1 at the start, incremented after Black moves).
        fullmove: u32,
    },
}

/// A move read from text, with the marks that came with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    /// The legal move.
    pub mv: Move,
    /// A SchemingMind draw offer (`Nd8=`).
    pub draw_offer: bool,
}

impl Board {
    /// The standard start of a game.
    pub fn start(kind: GameKind) -> Board {
        match kind {
            GameKind::Makruk(v) => Board::Makruk(makruk::Position::new(v)),
            GameKind::Makhos(rules) => Board::Makhos {
                position: makhos::Position::start(),
                rules,
                fullmove: 1,
            },
        }
    }

    /// A position from FEN (Makruk) or position text (Mak-hot, `W:W...:B...`,
    /// algebraic squares or PDN numbers); the error says why not.
    pub fn from_fen(kind: GameKind, fen: &str) -> Result<Board, String> {
        match kind {
            GameKind::Makruk(v) => makruk::Position::from_fen(v, fen.trim())
                .map(Board::Makruk)
                .map_err(|e| e.to_string()),
            GameKind::Makhos(rules) => fen
                .trim()
                .parse::<makhos::Position>()
                .map(|position| Board::Makhos {
                    position,
                    rules,
                    fullmove: 1,
                })
                .map_err(|e| e.to_string()),
        }
    }

    /// Which game, and its variant or rules.
    pub fn kind(&self) -> GameKind {
        match self {
            Board::Makruk(p) => GameKind::Makruk(p.variant()),
            Board::Makhos { rules, .. } => GameKind::Makhos(*rules),
        }
    }

    /// FEN (Makruk) or position text (Mak-hot).
    pub fn fen(&self) -> String {
        match self {
            Board::Makruk(p) => p.fen(),
            Board::Makhos { position, .. } => position.to_string(),
        }
    }

    /// Whether this is the standard start of its game.
    pub fn is_standard_start(&self) -> bool {
        match self {
            Board::Makruk(p) => p.fen() == p.variant().start_fen(),
            Board::Makhos {
                position, fullmove, ..
            } => *position == makhos::Position::start() && *fullmove == 1,
        }
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        match self {
            Board::Makruk(p) => p.turn() == makruk::Color::White,
            Board::Makhos { position, .. } => position.turn() == makhos::Color::White,
        }
    }

    /// The current move number.
    pub fn fullmove(&self) -> u32 {
        match self {
            Board::Makruk(p) => p.fullmoves(),
            Board::Makhos { fullmove, .. } => *fullmove,
        }
    }

    /// The move number as written before the side to move's move: `12.`
    /// for White, `12...` for Black.
    pub fn move_number_text(&self) -> String {
        if self.white_to_move() {
            format!("{}.", self.fullmove())
        } else {
            format!("{}...", self.fullmove())
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        match self {
            Board::Makruk(p) => p.legal_moves().iter().map(|&m| Move::Makruk(m)).collect(),
            Board::Makhos {
                position, rules, ..
            } => position
                .legal_moves(*rules)
                .into_iter()
                .map(Move::Makhos)
                .collect(),
        }
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: &Move) -> bool {
        match (self, mv) {
            (Board::Makruk(p), Move::Makruk(m)) => p.legal_moves().iter().any(|l| l == m),
            (
                Board::Makhos {
                    position, rules, ..
                },
                Move::Makhos(m),
            ) => position.find_legal(*rules, m).is_some(),
            _ => false,
        }
    }

    /// Reads a move text in any accepted notation of the game.
    pub fn parse_move(&self, text: &str) -> Result<ParsedMove, ErrorKind> {
        match self {
            Board::Makruk(p) => makruk_moves::parse(p, text).map(|(m, draw_offer)| ParsedMove {
                mv: Move::Makruk(m),
                draw_offer,
            }),
            Board::Makhos {
                position, rules, ..
            } => makhos_moves::parse(position, *rules, text).map(|m| ParsedMove {
                mv: Move::Makhos(m),
                draw_offer: false,
            }),
        }
    }

    /// The text of a legal move: SAN in `letters` (Makruk, with `=` for a
    /// draw offer), or `style` (Mak-hot).
    pub fn move_text(
        &self,
        mv: &Move,
        letters: Letters,
        style: SquareStyle,
        draw_offer: bool,
    ) -> String {
        match (self, mv) {
            (Board::Makruk(p), Move::Makruk(m)) => makruk_moves::write(p, *m, letters, draw_offer),
            (Board::Makhos { .. }, Move::Makhos(m)) => makhos_moves::write(m, style),
            (_, Move::Makruk(m)) => m.to_uci(),
            (_, Move::Makhos(m)) => m.to_algebraic(),
        }
    }

    /// Plays `mv` if it is legal here and returns whether it was.
    pub fn play(&mut self, mv: &Move) -> bool {
        let legal = self.is_legal(mv);
        if legal {
            self.play_unchecked(mv);
        }
        legal
    }

    /// Plays a move known to be legal (from [`Board::legal_moves`] or
    /// [`Board::parse_move`]); a move of the other game is ignored.
    pub(crate) fn play_unchecked(&mut self, mv: &Move) {
        match (self, mv) {
            (Board::Makruk(p), Move::Makruk(m)) => p.play(*m),
            (
                Board::Makhos {
                    position, fullmove, ..
                },
                Move::Makhos(m),
            ) => {
                if position.turn() == makhos::Color::Black {
                    *fullmove = fullmove.saturating_add(1);
                }
                *position = position.play(m);
            }
            _ => {}
        }
    }
}
