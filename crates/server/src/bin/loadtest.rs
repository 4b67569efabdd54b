//! `thaiboard-loadtest`: plays many simultaneous games over the server's real
//! HTTP/WebSocket API and prints move round-trip times, moves per second and
//! CPU use. The same tool as `thaiboard loadtest`, without the rest of the CLI.
//!
//! ```text
//! thaiboard-loadtest [--url http://127.0.0.1:8080] [--server-pid PID] [--database URL]
//!                    [--server-threads N] [--games 100] [--plies 20] [--think-ms 1000]
//!                    [--variant makruk] [--games-per-pair 20] [--minutes 30]
//! ```
//! Without `--url` it starts a server in this process on a loopback port
//! (a temporary SQLite database unless `--database` is given). A separate
//! server must run with `--rate-limit 0` (all load comes from one IP);
//! `--server-pid` reports its CPU use.

/// mimalloc: the move path allocates many small buffers; it spends less
/// time in the allocator than the system malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use thaiboard_server::loadtest::{LocalServer, Options, ServerCpu, run_blocking};

fn main() {
    let mut o = Options::default();
    let mut url = None;
    let mut local = LocalServer::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| fail(&format!("{arg} needs a value")));
        let num = |v: &str| -> f64 {
            match v.parse::<f64>() {
                Ok(n) if n.is_finite() && n >= 0.0 => n,
                _ => fail(&format!("{arg}: not a number >= 0: {v}")),
            }
        };
        match arg.as_str() {
            "--url" => url = Some(value.trim_end_matches('/').to_string()),
            "--server-pid" => o.server_cpu = ServerCpu::Process(num(&value) as u32),
            "--database" => local.database_url = Some(value),
            "--server-threads" => local.worker_threads = Some(num(&value) as usize),
            "--games" => o.games = num(&value) as usize,
            "--plies" => o.plies = num(&value) as usize,
            "--think-ms" => o.think_ms = num(&value) as u64,
            "--variant" => o.variant = value,
            "--games-per-pair" => o.games_per_pair = num(&value).max(1.0) as usize,
            "--minutes" => o.minutes = num(&value),
            _ => fail(&format!("unknown option {arg}")),
        }
    }
    let local = match url {
        Some(url) => {
            o.base = url;
            None
        }
        None => Some(local),
    };
    match run_blocking(o, local) {
        Ok(report) => print!("{report}"),
        Err(e) => fail(&e),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("thaiboard-loadtest: {message}");
    std::process::exit(2)
}
