//! `cargo run --release -p makhos --example perft -- DEPTH [POSITION] [RULES]`: perft with
//! timing, without the command-line tool's dependencies.

use makhos::{Position, Rules, perft};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(8);
    let pos: Position = match args.get(2) {
        Some(t) => t.parse().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Position::start(),
    };
    let rules: Rules = args.get(3).and_then(|r| r.parse().ok()).unwrap_or_default();
    let t = Instant::now();
    let n = perft(&pos, rules, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n} in {s:.3} s, {:.0} nodes/second",
        n as f64 / s
    );
}
