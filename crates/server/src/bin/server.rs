//! `thaiboard-server`: the game server alone, for deployments and for tests
//! that kill and restart a real process. It takes the options of
//! `thaiboard serve` (the same code parses them: [`thaiboard_server::cli`]).

/// mimalloc: the move path allocates many small buffers; it spends less
/// time in the allocator than the system malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;
use thaiboard_server::cli::ServeArgs;

/// The command line: the options of `thaiboard serve`.
#[derive(Parser)]
#[command(
    name = "thaiboard-server",
    version,
    about = "The thaiboard game server"
)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
}

unsafe extern "C" {
    /// mimalloc's own: gives the calling thread's free memory back to the
    /// system (`force`: now, and abandoned pages too).
    fn mi_collect(force: bool);
}

/// What a worker thread runs to give its free memory back.
fn release_memory() {
    // SAFETY: mi_collect takes no pointers; any thread may call it at any time.
    unsafe { mi_collect(true) }
}

fn main() {
    thaiboard_server::set_memory_release(release_memory);
    if let Err(e) = Cli::parse().serve.run() {
        eprintln!("thaiboard-server: {e}");
        std::process::exit(2);
    }
}
