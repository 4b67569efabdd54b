//! The Makruk and Ouk Chatrang side of the commands.

use crate::error::CliError;
use crate::output::{PerftClock, perft_report, write_out};
use crate::{FormatArgs, GameArgs};
use makruk::{Position, Variant, perft_divide};

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
    let rows: Vec<(String, u64)> = perft_divide(&pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_uci(), n))
        .collect();
    let total = if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    };
    write_out(&perft_report(&rows, total, bench.then_some(&clock)))
}

/// `thaiboard moves`: `UCI SAN FEN_AFTER` per legal move.
pub fn moves(game: &GameArgs, variant: Variant, format: &FormatArgs) -> Result<(), CliError> {
    let pos = start_position(game, variant)?;
    let mut text = String::new();
    for &m in pos.legal_moves().iter() {
        let after = pos.played(m).fen_with_marks(format.promoted_marks);
        text.push_str(&format!("{} {} {}\n", m, pos.san(m), after));
    }
    write_out(&text)
}

/// `thaiboard fen`: play UCI moves (SAN also accepted), print FEN and state.
pub fn fen(
    game: &GameArgs,
    variant: Variant,
    moves: &str,
    format: &FormatArgs,
) -> Result<(), CliError> {
    let mut pos = start_position(game, variant)?;
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = pos
            .parse_uci(text)
            .or_else(|uci_err| pos.parse_san(text).map_err(|_| uci_err))
            .map_err(|e| CliError::input(format!("move {} ('{text}'): {e}", i + 1)))?;
        pos.play_unchecked(m);
    }
    let fen = pos.fen_with_marks(format.promoted_marks);
    write_out(&format!("{fen}\n{}\n", pos.state()))
}
