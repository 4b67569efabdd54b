//! `cargo run --release -p thaiboard-engine --example bench [depth] [threads]`:
//! the bench of both games without building the whole CLI (depth `-` for
//! the default depths).

use engine::bench::{DEFAULT_DEPTHS, bench_makhos_threads, bench_makruk_threads};

fn main() {
    let depth: Option<u32> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let (dk, dh) = (
        depth.unwrap_or(DEFAULT_DEPTHS.0),
        depth.unwrap_or(DEFAULT_DEPTHS.1),
    );
    let a = bench_makruk_threads(dk, threads);
    println!(
        "makruk: depth {dk} threads {threads} nodes {} time {} ms nps {}",
        a.nodes,
        a.time_ms,
        a.nps()
    );
    let b = bench_makhos_threads(dh, threads);
    println!(
        "makhos: depth {dh} threads {threads} nodes {} time {} ms nps {}",
        b.nodes,
        b.time_ms,
        b.nps()
    );
}
