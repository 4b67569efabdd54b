//! The record layer's move texts on a position of either game: reading
//! every convention records use, and writing in the chosen letters or
//! squares. Positions and moves themselves are `games`' [`AnyPosition`] and
//! [`AnyMove`].

use crate::error::ErrorKind;
use crate::makhos_moves::{self, SquareStyle};
use crate::makruk_moves;
use games::{AnyMove, AnyPosition, Color};
use makruk::Letters;

/// A move read from text, with the marks that came with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    /// The legal move.
    pub mv: AnyMove,
    /// A SchemingMind draw offer (`Nd8=`).
    pub draw_offer: bool,
}

/// The move number as written before the side to move's move: `12.` for
/// White, `12...` for Black.
pub fn move_number_text(pos: &AnyPosition) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmove()),
        Color::Black => format!("{}...", pos.fullmove()),
    }
}

/// Reads a move text in any convention records use for the game: Makruk
/// SAN (Fairy-Stockfish, SchemingMind with its `=` draw offer, PlayOK),
/// Mak-hot PDN numbers or algebraic squares.
pub fn parse_move(pos: &AnyPosition, text: &str) -> Result<ParsedMove, ErrorKind> {
    match pos {
        AnyPosition::Makruk(p) => makruk_moves::parse(p, text).map(|(m, draw_offer)| ParsedMove {
            mv: AnyMove::Makruk(m),
            draw_offer,
        }),
        AnyPosition::Makhos {
            position, rules, ..
        } => makhos_moves::parse(position, *rules, text).map(|m| ParsedMove {
            mv: AnyMove::Makhos(m),
            draw_offer: false,
        }),
    }
}

/// The text of a legal move: SAN in `letters` (Makruk, with `=` for a draw
/// offer), or `style` (Mak-hot).
pub fn move_text(
    pos: &AnyPosition,
    mv: &AnyMove,
    letters: Letters,
    style: SquareStyle,
    draw_offer: bool,
) -> String {
    match (pos, mv) {
        (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => {
            makruk_moves::write(p, *m, letters, draw_offer)
        }
        (AnyPosition::Makhos { .. }, AnyMove::Makhos(m)) => makhos_moves::write(m, style),
        (_, mv) => mv.to_engine(),
    }
}
