//! `cargo run --release -p thaiboard-engine --example bench [depth]`: the
//! bench of both games without building the whole CLI.

use engine::bench::{DEFAULT_DEPTHS, bench_makhos, bench_makruk};

fn main() {
    let depth: Option<u32> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let (dk, dh) = (
        depth.unwrap_or(DEFAULT_DEPTHS.0),
        depth.unwrap_or(DEFAULT_DEPTHS.1),
    );
    let a = bench_makruk(dk);
    println!(
        "makruk: depth {dk} nodes {} time {} ms nps {}",
        a.nodes,
        a.time_ms,
        a.nps()
    );
    let b = bench_makhos(dh);
    println!(
        "makhos: depth {dh} nodes {} time {} ms nps {}",
        b.nodes,
        b.time_ms,
        b.nps()
    );
}
