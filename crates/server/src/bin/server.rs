//! `thaiboard-server`: the game server alone (the same as `thaiboard serve`),
//! for deployments and for tests that kill and restart a real process.
//!
//! Options: `--bind ADDR` (default 127.0.0.1:8080), `--database URL`
//! (default $DATABASE_URL, else SQLite in --data-dir), `--data-dir DIR`,
//! `--rate-limit N` (requests/s per IP, 0 = off), `--engine-searches N`
//! (engine searches at once, 0 = computer paused), `--secure-cookies`,
//! `--enable-test-variant`.

/// mimalloc: the move path allocates many small buffers; it spends less
/// time in the allocator than the system malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use thaiboard_server::Config;

fn main() {
    let mut config = Config {
        database_url: std::env::var("DATABASE_URL").ok().filter(|s| !s.is_empty()),
        ..Config::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("thaiboard-server: {name} needs a value");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--bind" => {
                config.bind = value("--bind")
                    .parse()
                    .unwrap_or_else(|e| fail(&format!("--bind: {e}")))
            }
            "--database" => config.database_url = Some(value("--database")),
            "--data-dir" => config.data_dir = value("--data-dir").into(),
            "--rate-limit" => {
                config.rate_per_sec = value("--rate-limit")
                    .parse()
                    .unwrap_or_else(|e| fail(&format!("--rate-limit: {e}")));
                config.rate_burst = (config.rate_per_sec * 3.0).max(10.0);
            }
            "--engine-searches" => {
                config.engine_searches = value("--engine-searches")
                    .parse()
                    .unwrap_or_else(|e| fail(&format!("--engine-searches: {e}")))
            }
            "--secure-cookies" => config.secure_cookies = true,
            "--enable-test-variant" => config.enable_test_variant = true,
            other => fail(&format!("unknown option {other}")),
        }
    }
    let result = thaiboard_server::serve_blocking(config, |addr| {
        println!("thaiboard server: open http://{addr}/ in a browser");
    });
    if let Err(e) = result {
        fail(&format!("server failed: {e}"));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("thaiboard-server: {message}");
    std::process::exit(2)
}
