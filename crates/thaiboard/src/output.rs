//! Command output shared by both games: writing to stdout, and the perft
//! report in Stockfish's format with optional speed figures.

use crate::error::CliError;
use std::io::Write;
use std::time::Instant;

/// Writes one line to stdout.
pub fn say(line: &str) {
    println!("{line}");
}

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error.
pub fn write_out(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError {
            message: format!("cannot write output: {e}"),
            code: 1,
        }),
    }
}

/// CPU time used by this thread so far, in seconds (Linux `/proc`; `None`
/// elsewhere). On a busy machine it gives the speed of one core, which
/// wall-clock time does not.
fn cpu_time() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Wall-clock and CPU time since a perft started.
pub struct PerftClock {
    started: Instant,
    cpu_started: Option<f64>,
}

impl PerftClock {
    /// Starts both clocks.
    pub fn start() -> PerftClock {
        PerftClock {
            cpu_started: cpu_time(),
            started: Instant::now(),
        }
    }

    /// The speed line for `nodes` counted since the start:
    /// `Time: 1.234 s, N nodes/second (CPU 1.200 s, N nodes per CPU second)`.
    pub fn speed_line(&self, nodes: u64) -> String {
        let secs = self.started.elapsed().as_secs_f64();
        let per_sec = |s: f64| {
            if s > 0.0 {
                (nodes as f64 / s) as u64
            } else {
                0
            }
        };
        let mut line = format!("Time: {secs:.3} s, {} nodes/second", per_sec(secs));
        if let (Some(a), Some(b)) = (self.cpu_started, cpu_time()) {
            let cpu = b - a;
            if cpu > 0.0 {
                line.push_str(&format!(
                    " (CPU {cpu:.3} s, {} nodes per CPU second)",
                    per_sec(cpu)
                ));
            }
        }
        line
    }
}

/// The perft report: `MOVE: COUNT` per root move, a blank line, `Nodes
/// searched: N`, and the speed line when `clock` is given.
pub fn perft_report(rows: &[(String, u64)], total: u64, clock: Option<&PerftClock>) -> String {
    let mut text = engine::uci::perft::report(rows, total);
    if let Some(clock) = clock {
        text.push_str(&clock.speed_line(total));
        text.push('\n');
    }
    text
}
