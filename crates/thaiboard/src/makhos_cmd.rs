//! The Mak-hot side of the commands.

use crate::GameArgs;
use crate::error::CliError;
use crate::output::{PerftClock, perft_report, write_out};
use makhos::{Game, Position, Rules};

/// The rule set and start position the options name.
fn setup(game: &GameArgs) -> Result<(Rules, Position), CliError> {
    let rules = match &game.rules {
        Some(text) => text
            .parse::<Rules>()
            .map_err(|e| CliError::input(e.to_string()))?,
        None => Rules::Default,
    };
    let pos = match &game.fen {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("--fen '{text}': {e}")))?,
        None => Position::start(),
    };
    Ok((rules, pos))
}

/// `thaiboard perft --variant makhos`: `MOVE: COUNT` per root move (engine notation,
/// sorted), a blank line, `Nodes searched: N`, and with `--bench` the time and speed.
pub fn perft(game: &GameArgs, depth: u32, bench: bool) -> Result<(), CliError> {
    let (rules, pos) = setup(game)?;
    if depth > 64 {
        return Err(CliError::input(format!(
            "depth {depth} is too deep (at most 64)"
        )));
    }
    let clock = PerftClock::start();
    let mut rows: Vec<(String, u64)> = makhos::perft_divide(&pos, rules, depth)
        .into_iter()
        .map(|(m, n)| (m.to_engine(), n))
        .collect();
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    };
    rows.sort();
    write_out(&perft_report(&rows, total, bench.then_some(&clock)))
}

/// `thaiboard moves --variant makhos`: each legal move (`c3-d4`, `c3xe5xc7`, sorted) and
/// the position text after it.
pub fn moves(game: &GameArgs) -> Result<(), CliError> {
    let (rules, pos) = setup(game)?;
    let mut rows: Vec<String> = pos
        .legal_moves(rules)
        .iter()
        .map(|m| format!("{} {}", m.to_algebraic(), pos.play(m)))
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
pub fn fen(game: &GameArgs, moves: &str) -> Result<(), CliError> {
    let (rules, pos) = setup(game)?;
    let mut g = Game::from_position(pos, rules);
    for (i, text) in moves.split_whitespace().enumerate() {
        g.play_text(text)
            .map_err(|e| CliError::input(format!("move {} ('{text}'): {e}", i + 1)))?;
    }
    write_out(&format!("{}\n{}\n", g.position(), g.state().name()))
}
