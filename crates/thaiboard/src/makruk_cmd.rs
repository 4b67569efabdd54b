//! The Makruk and Ouk Chatrang side of the commands.

use crate::error::CliError;
use crate::{GameArgs, Variant as CliVariant};
use makruk::{Position, Variant, perft_divide};
use std::io::Write;
use std::time::Instant;

fn variant(game: &GameArgs) -> Variant {
    match game.variant {
        CliVariant::Cambodian => Variant::Cambodian,
        _ => Variant::Makruk,
    }
}

/// The start position of the command: `--fen` or the variant's start.
fn start_position(game: &GameArgs) -> Result<Position, CliError> {
    if let Some(rules) = &game.rules {
        return Err(CliError::input(format!(
            "--rules {rules}: Makruk has no rule options (use --variant cambodian for Ouk Chatrang)"
        )));
    }
    let variant = variant(game);
    match &game.fen {
        None => Ok(Position::new(variant)),
        Some(fen) => Position::from_fen(variant, fen)
            .map_err(|e| CliError::input(format!("invalid FEN '{fen}': {e}"))),
    }
}

fn write_out(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError {
            message: format!("cannot write output: {e}"),
            code: 1,
        }),
    }
}

/// `thaiboard perft`: per-root-move counts, then the total.
pub fn perft(game: &GameArgs, depth: u32, bench: bool) -> Result<(), CliError> {
    let pos = start_position(game)?;
    let started = Instant::now();
    let divide = perft_divide(&pos, depth);
    let elapsed = started.elapsed();
    let mut text = String::new();
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    for (m, n) in &divide {
        text.push_str(&format!("{m}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {total}\n"));
    if bench {
        let secs = elapsed.as_secs_f64();
        let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
        text.push_str(&format!(
            "Time: {:.3} s\nNodes/second: {:.0} ({:.1} M)\n",
            secs,
            nps,
            nps / 1e6
        ));
    }
    write_out(&text)
}

/// `thaiboard moves`: `UCI SAN FEN_AFTER` per legal move.
pub fn moves(game: &GameArgs) -> Result<(), CliError> {
    let pos = start_position(game)?;
    let mut text = String::new();
    for &m in pos.legal_moves().iter() {
        text.push_str(&format!("{} {} {}\n", m, pos.san(m), pos.played(m).fen()));
    }
    write_out(&text)
}

/// `thaiboard fen`: play UCI moves (SAN also accepted), print FEN and state.
pub fn fen(game: &GameArgs, moves: &str) -> Result<(), CliError> {
    let mut pos = start_position(game)?;
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = pos
            .parse_uci(text)
            .or_else(|uci_err| pos.parse_san(text).map_err(|_| uci_err))
            .map_err(|e| CliError::input(format!("move {} ('{text}'): {e}", i + 1)))?;
        pos.play(m);
    }
    write_out(&format!("{}\n{}\n", pos.fen(), pos.state()))
}
