//! The Mak-hot side of the commands.

use crate::GameArgs;
use crate::error::CliError;
use crate::output::{PerftClock, perft_report, write_out};
use makhos::{Game, Position, Rules};

/// The start position the options name.
fn start_position(game: &GameArgs) -> Result<Position, CliError> {
    let pos = match &game.fen {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("--fen '{text}': {e}")))?,
        None => Position::start(),
    };
    Ok(pos)
}

/// `thaiboard perft --variant makhos`: `MOVE: COUNT` per root move (engine notation,
/// sorted), a blank line, `Nodes searched: N`, and with `--bench` the time and speed.
pub fn perft(game: &GameArgs, rules: Rules, depth: u32, bench: bool) -> Result<(), CliError> {
    let pos = start_position(game)?;
    if depth > 64 {
        return Err(CliError::input(format!(
            "depth {depth} is too deep (at most 64)"
        )));
    }
    let clock = PerftClock::start();
    let (rows, total) = engine::uci::perft::makhos_divide(&pos, rules, depth);
    write_out(&perft_report(&rows, total, bench.then_some(&clock)))
}

/// `thaiboard moves --variant makhos`: each legal move (`c3-d4`, `c3xe5xc7`, sorted) and
/// the position text after it.
pub fn moves(game: &GameArgs, rules: Rules) -> Result<(), CliError> {
    let pos = start_position(game)?;
    let mut rows: Vec<String> = pos
        .legal_moves(rules)
        .iter()
        .map(|m| format!("{} {}", m.to_algebraic(), pos.played(m)))
        .collect();
    rows.sort();
    let mut text = String::new();
    for r in rows {
        text.push_str(&r);
        text.push('\n');
    }
    write_out(&text)
}

/// `thaiboard fen --variant makhos --moves "..."`: plays the moves (any accepted notation)
/// and prints the position text and the game state.
pub fn fen(game: &GameArgs, rules: Rules, moves: &str) -> Result<(), CliError> {
    let pos = start_position(game)?;
    let mut g = Game::from_position(pos, rules);
    for (i, text) in moves.split_whitespace().enumerate() {
        g.play_text(text)
            .map_err(|e| CliError::input(format!("move {} ('{text}'): {e}", i + 1)))?;
    }
    write_out(&format!("{}\n{}\n", g.position(), g.state_name()))
}
