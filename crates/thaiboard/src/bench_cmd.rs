//! `thaiboard bench`: the engine's fixed search set of both games
//! ([`engine::bench::report`], also the UCI `bench` command), and with a
//! network its game's set scored by it with each kernel, as ratios of the
//! classical run in the same process.

use crate::error::CliError;
use crate::output::say;
use engine::bench::{
    BenchTotals, DEFAULT_DEPTHS as BENCH_DEPTHS, bench_makhos, bench_makhos_network, bench_makruk,
    bench_makruk_network, line, report,
};
use engine::eval::nnue::simd::{self, Kernel};
use engine::eval::nnue::{Layout, Network};

fn print_bench(name: &str, depth: u32, t: BenchTotals) {
    say(&line(name, depth, t));
}

/// `thaiboard bench [--depth N] [--eval-file F]`: the fixed search set of
/// both games; with a network, its game's set (Makruk or Mak-hot) again
/// scored by it, with each kernel, and the speeds as ratios of the
/// classical one measured in the same run.
pub fn bench(depth: Option<u32>, eval_file: Option<&std::path::Path>) -> Result<(), CliError> {
    let Some(path) = eval_file else {
        report(depth, &mut |l| say(l));
        return Ok(());
    };
    let net = Network::load(path).map_err(|e| CliError::input(format!("--eval-file: {e}")))?;
    let net: &'static Network = Box::leak(Box::new(net));
    let game = net.layout.name();
    // The game's default depth, its classical bench and its network bench.
    type Bench = fn(u32) -> BenchTotals;
    type NetBench = fn(u32, &'static Network) -> BenchTotals;
    let (default_depth, classical, with_net): (u32, Bench, NetBench) = match net.layout {
        Layout::Makruk => (BENCH_DEPTHS.0, bench_makruk, bench_makruk_network),
        Layout::Makhos => (BENCH_DEPTHS.1, bench_makhos, bench_makhos_network),
    };
    let d = depth.unwrap_or(default_depth).clamp(1, 30);
    let classical = classical(d);
    print_bench(&format!("{game} classical"), d, classical);
    let mut runs = Vec::new();
    for kernel in [Kernel::Avx2, Kernel::Scalar] {
        let used = simd::use_kernel(kernel);
        if runs.iter().any(|(k, _)| *k == used) {
            continue;
        }
        let t = with_net(d, net);
        print_bench(&format!("{game} nnue ({used:?})"), d, t);
        runs.push((used, t));
    }
    simd::use_kernel(Kernel::Avx2);
    for (kernel, t) in &runs {
        say(&format!(
            "nnue ({kernel:?}) / classical nodes per second: {:.2}",
            t.nps() as f64 / classical.nps().max(1) as f64
        ));
    }
    Ok(())
}
