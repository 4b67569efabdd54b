//! The fixed bench: positions of both games searched to a fixed depth with a
//! fresh table, so the node count is reproducible.

use crate::{Game, Limits, MakhosGame, MakrukGame, SearchOptions, Tt, search};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The default bench depths: (Makruk, Mak-hot).
pub const DEFAULT_DEPTHS: (u32, u32) = (10, 14);

/// Makruk bench positions (FEN).
pub const MAKRUK_FENS: [&str; 6] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "r1sm1s1r/4k3/p1pnpnpp/1p1p4/4P3/PPPP1PPP/4K3/RNSM1SNR w - - 0 8",
    "r2k1s1r/3m4/1psnpnpp/p1pp4/4PP2/PPPPS1PP/3N1N2/R2KMS1R w - - 4 10",
    "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1",
    "4k3/8/8/8/8/8/3R4/3K1R2 w - - 0 1",
    "3k4/8/2n5/8/1p1P4/1P2N3/4K3/8 w - - 0 40",
];

/// Mak-hot bench positions (position text).
pub const MAKHOS_POSITIONS: [&str; 4] = [
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7",
    "W:Wa1,c1,e1,b2,f2,c3,e3:Ba7,c7,g7,b8,f8,d6,e5",
    "B:Wa1,c1,g1,d2,h2,e3:Bb8,h8,c7,e7,b6,f6",
    "W:WKc3,e1,g1:BKf6,b6,d8",
];

/// Totals of a bench run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchTotals {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
}

impl BenchTotals {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// The line of one bench run: `NAME: depth D nodes N time T ms nps S`.
pub fn line(name: &str, depth: u32, t: BenchTotals) -> String {
    format!(
        "{name}: depth {depth} nodes {} time {} ms nps {}",
        t.nodes,
        t.time_ms,
        t.nps()
    )
}

/// The bench of both games (`thaiboard bench`, UCI `bench [DEPTH]`): each
/// game at `depth`, or at its [`DEFAULT_DEPTHS`] without one (clamped to 1..=30),
/// said line by line as it runs, then the totals.
pub fn report(depth: Option<u32>, say: &mut dyn FnMut(&str)) {
    let dk = depth.unwrap_or(DEFAULT_DEPTHS.0).clamp(1, 30);
    let dh = depth.unwrap_or(DEFAULT_DEPTHS.1).clamp(1, 30);
    let a = bench_makruk(dk);
    say(&line("makruk", dk, a));
    let b = bench_makhos(dh);
    say(&line("makhos", dh, b));
    let total = BenchTotals {
        nodes: a.nodes + b.nodes,
        time_ms: a.time_ms + b.time_ms,
    };
    say("===========================");
    say(&format!("Total time (ms) : {}", total.time_ms));
    say(&format!("Nodes searched  : {}", total.nodes));
    say(&format!("Nodes/second    : {}", total.nps()));
}

/// Searches each game to `depth` with a fresh table and `threads` threads
/// and adds up the nodes (reproducible with one thread only).
fn bench_games<G: Game>(games: impl Iterator<Item = G>, depth: u32, threads: usize) -> BenchTotals {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for game in games {
        let mut tt = Tt::new(16);
        let r = search(
            &game,
            &[],
            &mut tt,
            &limits,
            &SearchOptions {
                threads,
                ..SearchOptions::default()
            },
            &stop,
            |_| {},
        );
        nodes += r.nodes;
    }
    BenchTotals {
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
    }
}

/// Runs the Makruk bench to `depth` (one thread).
pub fn bench_makruk(depth: u32) -> BenchTotals {
    bench_makruk_threads(depth, 1)
}

/// Runs the Mak-hot bench to `depth` (one thread).
pub fn bench_makhos(depth: u32) -> BenchTotals {
    bench_makhos_threads(depth, 1)
}

/// The Makruk bench positions.
fn makruk_games() -> impl Iterator<Item = MakrukGame> {
    MAKRUK_FENS.iter().map(|fen| {
        let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).expect("bench FEN");
        MakrukGame::new(pos)
    })
}

/// The Mak-hot bench positions (default rules).
fn makhos_games() -> impl Iterator<Item = MakhosGame> {
    MAKHOS_POSITIONS.iter().map(|text| {
        let pos: makhos::Position = text.parse().expect("bench position");
        MakhosGame::new(pos, makhos::Rules::Default, 0)
    })
}

/// Runs the Makruk bench to `depth` with `threads` search threads.
pub fn bench_makruk_threads(depth: u32, threads: usize) -> BenchTotals {
    bench_games(makruk_games(), depth, threads)
}

/// Runs the Makruk bench to `depth` (one thread) with the positions scored
/// by `net` (the kernels in use: [`crate::eval::nnue::simd::kernel`]).
pub fn bench_makruk_network(depth: u32, net: &'static crate::eval::nnue::Network) -> BenchTotals {
    bench_games(makruk_games().map(|g| g.with_network(net)), depth, 1)
}

/// Runs the Mak-hot bench to `depth` (one thread) with the positions
/// scored by the Mak-hot network `net`.
pub fn bench_makhos_network(depth: u32, net: &'static crate::eval::nnue::Network) -> BenchTotals {
    bench_games(makhos_games().map(|g| g.with_network(net)), depth, 1)
}

/// Runs the Mak-hot bench to `depth` with `threads` search threads.
pub fn bench_makhos_threads(depth: u32, threads: usize) -> BenchTotals {
    bench_games(makhos_games(), depth, threads)
}
