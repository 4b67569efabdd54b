//! `thaiboard-loadtest`: plays many simultaneous games against a running
//! server over its real HTTP/WebSocket API and prints move round-trip times.
//!
//! ```text
//! thaiboard-loadtest [--url http://127.0.0.1:8080] [--games 100] [--plies 20]
//!                    [--think-ms 1000] [--variant makruk] [--games-per-pair 20] [--minutes 30]
//! ```
//! Start the server with `--rate-limit 0` (all load comes from one IP).

fn main() {
    let mut o = thaiboard_server::loadtest::Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| fail(&format!("{arg} needs a value")));
        let num = |v: &str| {
            v.parse::<f64>()
                .unwrap_or_else(|_| fail(&format!("{arg}: not a number: {v}")))
        };
        match arg.as_str() {
            "--url" => o.base = value.trim_end_matches('/').to_string(),
            "--games" => o.games = num(&value) as usize,
            "--plies" => o.plies = num(&value) as usize,
            "--think-ms" => o.think_ms = num(&value) as u64,
            "--variant" => o.variant = value,
            "--games-per-pair" => o.games_per_pair = num(&value).max(1.0) as usize,
            "--minutes" => o.minutes = num(&value),
            _ => fail(&format!("unknown option {arg}")),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    match runtime.block_on(thaiboard_server::loadtest::run(o)) {
        Ok(report) => print!("{report}"),
        Err(e) => fail(&e),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("thaiboard-loadtest: {message}");
    std::process::exit(2)
}
