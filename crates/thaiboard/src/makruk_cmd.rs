//! The Makruk and Ouk Chatrang side of the commands.

use crate::error::CliError;
use crate::output::{PerftClock, perft_report, write_out};
use crate::{FormatArgs, GameArgs};
use makruk::{Notation, NotationError, Position, Variant};

/// The start position of the command: `--fen` or the variant's start.
fn start_position(game: &GameArgs, variant: Variant) -> Result<Position, CliError> {
    match &game.fen {
        None => Ok(Position::new(variant)),
        Some(fen) => Position::from_fen(variant, fen)
            .map_err(|e| CliError::input(format!("invalid FEN '{fen}': {e}"))),
    }
}

/// `thaiboard perft`: per-root-move counts, then the total.
pub fn perft(game: &GameArgs, variant: Variant, depth: u32, bench: bool) -> Result<(), CliError> {
    let pos = start_position(game, variant)?;
    let clock = PerftClock::start();
    let (rows, total) = engine::uci::perft::makruk_divide(&pos, depth);
    write_out(&perft_report(&rows, total, bench.then_some(&clock)))
}

/// `thaiboard moves`: `UCI MOVE FEN_AFTER` per legal move, the move in
/// `--notation` (SAN by default).
pub fn moves(game: &GameArgs, variant: Variant, format: &FormatArgs) -> Result<(), CliError> {
    let pos = start_position(game, variant)?;
    let notation = format.notation.map_or(Notation::San, Notation::from);
    let mut text = String::new();
    for &m in pos.legal_moves().iter() {
        let after = pos.played(m).fen_with_marks(format.promoted_marks);
        text.push_str(&format!(
            "{} {} {}\n",
            m,
            pos.write_move(m, notation),
            after
        ));
    }
    write_out(&text)
}

/// `thaiboard fen`: play moves (UCI, or the `--notation` chosen, or any
/// notation without it), print FEN and state.
pub fn fen(
    game: &GameArgs,
    variant: Variant,
    moves: &str,
    format: &FormatArgs,
) -> Result<(), CliError> {
    let mut pos = start_position(game, variant)?;
    for (i, text) in split_moves(moves).iter().enumerate() {
        let m = pos
            .parse_uci(text)
            .or_else(|uci_err| {
                read_move(&pos, text, format.notation.map(Notation::from)).map_err(|e| {
                    // Without a chosen notation, UCI's complaint is as good as any.
                    if format.notation.is_some() {
                        e.to_string()
                    } else {
                        uci_err.to_string()
                    }
                })
            })
            .map_err(|e| CliError::input(format!("move {} ('{text}'): {e}", i + 1)))?;
        pos.play_unchecked(m);
    }
    let fen = pos.fen_with_marks(format.promoted_marks);
    write_out(&format!("{fen}\n{}\n", pos.state()))
}

/// A move in the chosen notation (SAN in any letters for `san` and
/// `schemingmind`), or in any notation.
fn read_move(
    pos: &Position,
    text: &str,
    notation: Option<Notation>,
) -> Result<makruk::Move, NotationError> {
    match notation {
        Some(n) if n.is_thai() => pos.parse_thai(text).map_err(NotationError::Thai),
        Some(_) => pos.parse_san(text).map_err(NotationError::San),
        None => pos.parse_move(text),
    }
}

/// The moves of `--moves`: separated by commas if there are any, else by
/// spaces, where a Thai piece letter standing alone belongs to the square
/// after it (the long Thai form writes `บ จ๓-จ๔`).
fn split_moves(text: &str) -> Vec<String> {
    if text.contains(',') {
        return text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
    }
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<&str> = None;
    for word in text.split_whitespace() {
        match pending.take() {
            Some(piece) => out.push(format!("{piece} {word}")),
            None if is_thai_piece(word) => pending = Some(word),
            None => out.push(word.to_string()),
        }
    }
    out.extend(pending.map(String::from));
    out
}

/// Whether a word is a Thai piece letter alone.
fn is_thai_piece(word: &str) -> bool {
    ["ข", "ม็", "ง", "ค", "ม", "ร", "บ"].contains(&word)
}

#[cfg(test)]
mod tests {
    use super::split_moves;

    #[test]
    fn long_thai_moves_keep_their_piece_letter() {
        assert_eq!(
            split_moves("บ จ๓-จ๔ ม็ ง๘-จ๗ e3e4"),
            ["บ จ๓-จ๔", "ม็ ง๘-จ๗", "e3e4"]
        );
        assert_eq!(split_moves("บ จ๓-จ๔, ค ฉ๘-ฉ๗"), ["บ จ๓-จ๔", "ค ฉ๘-ฉ๗"]);
        assert_eq!(split_moves("e3e4 d6d5"), ["e3e4", "d6d5"]);
    }
}
