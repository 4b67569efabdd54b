//! The tuner without building the whole CLI (same code as `thaiboard tune`):
//!
//! ```text
//! cargo run --release -p thaiboard-tune --example tune -- gen GAME GAMES NODES RANDOM_PLIES SEED OUT
//! cargo run --release -p thaiboard-tune --example tune -- run GAME DATA OUT_WEIGHTS [PASSES [FROZEN,...]]
//! cargo run --release -p thaiboard-tune --example tune -- match GAME CANDIDATE PAIRS NODES SEED
//! ```
//! GAME is `makruk` or `makhos`.

use games::GameKind;
use std::path::Path;
use tune::driver::{gen_file, match_files, run_file};
use tune::selfplay::PlayConfig;

fn arg<T: std::str::FromStr>(args: &[String], i: usize) -> Result<T, String> {
    args.get(i)
        .ok_or_else(|| format!("argument {i} missing"))?
        .parse()
        .map_err(|_| format!("argument {i} `{}` is malformed", args[i]))
}

fn main_inner() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let log = |s: String| eprintln!("{s}");
    let game: GameKind = arg(&args, 1)?;
    match args.first().map(String::as_str) {
        Some("gen") => {
            let cfg = PlayConfig {
                nodes: arg(&args, 3)?,
                random_plies: arg(&args, 4)?,
                max_plies: 400,
            };
            let s = gen_file(
                game,
                arg(&args, 2)?,
                &cfg,
                arg(&args, 5)?,
                Path::new(&args[6]),
                log,
            )?;
            println!("{s:?}");
        }
        Some("run") => {
            let passes = arg(&args, 4).unwrap_or(100);
            let frozen: Vec<String> = args
                .get(5)
                .map(|f| f.split(',').map(String::from).collect())
                .unwrap_or_default();
            let src = run_file(
                game,
                Path::new(&args[2]),
                None,
                &frozen,
                8,
                passes,
                Some(Path::new(&args[3])),
                log,
            )?;
            print!("{src}");
        }
        Some("match") => {
            let cfg = PlayConfig {
                nodes: arg(&args, 4)?,
                random_plies: 6,
                max_plies: 400,
            };
            let m = match_files(
                game,
                Path::new(&args[2]),
                None,
                arg(&args, 3)?,
                &cfg,
                arg(&args, 5)?,
                log,
            )?;
            println!("{m:?} score {:.1}%", m.percent());
        }
        _ => return Err("usage: tune gen|run|match GAME ...".into()),
    }
    Ok(())
}

fn main() {
    if let Err(e) = main_inner() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
