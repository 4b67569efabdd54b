//! The Mak-hot side of the commands.

use crate::GameArgs;
use crate::error::CliError;
use makhos::{Game, Position, Rules};
use std::io::Write;
use std::time::Instant;

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

fn write_out(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| CliError {
            message: format!("cannot write output: {e}"),
            code: 1,
        })
}

/// CPU time used by this thread so far, in seconds (Linux `/proc`; `None` elsewhere).
fn cpu_time() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
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
    let cpu_before = cpu_time();
    let started = Instant::now();
    let mut rows: Vec<(String, u64)> = makhos::perft_divide(&pos, rules, depth)
        .into_iter()
        .map(|(m, n)| (m.to_engine(), n))
        .collect();
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    };
    let elapsed = started.elapsed();
    rows.sort();
    let mut text = String::new();
    for (m, n) in &rows {
        text.push_str(&format!("{m}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {total}\n"));
    if bench {
        let secs = elapsed.as_secs_f64();
        let nps = if secs > 0.0 {
            (total as f64 / secs) as u64
        } else {
            0
        };
        text.push_str(&format!("Time: {secs:.3} s, {nps} nodes/second"));
        if let (Some(a), Some(b)) = (cpu_before, cpu_time()) {
            // CPU time of this thread: the speed on one core even when the machine is busy.
            let cpu = b - a;
            if cpu > 0.0 {
                let cps = (total as f64 / cpu) as u64;
                text.push_str(&format!(" (CPU {cpu:.3} s, {cps} nodes per CPU second)"));
            }
        }
        text.push('\n');
    }
    write_out(&text)
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
