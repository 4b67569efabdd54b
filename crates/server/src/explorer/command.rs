//! `thaiboard explorer`: import records into the engine database, and
//! measure the index.

use super::import;
use crate::cli::{DatabaseArgs, block_on};
use clap::Subcommand;
use games::GameKind;
use std::path::PathBuf;

/// The `thaiboard explorer` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum ExplorerCommand {
    /// Add PGN/PDN files' games to the explorer's engine database (`db=engine`).
    /// Games already imported are not added again, so an interrupted import
    /// can simply be run again.
    Import {
        #[command(flatten)]
        /// The server's database (the server may be running).
        db: DatabaseArgs,
        /// The record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Fill a database's engine explorer with random games, then time reads
    /// of positions from them: index speed, query p50/p99 and size. Use a
    /// scratch database: the games stay in it.
    Bench {
        #[command(flatten)]
        /// The scratch database.
        db: DatabaseArgs,
        /// The game (makruk, cambodian, makhos).
        #[arg(long, default_value = "makruk")]
        variant: String,
        /// Games to generate (each up to 50 moves).
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        /// Positions to read.
        #[arg(long, default_value_t = 10_000)]
        queries: usize,
        /// Seed of the random games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

impl ExplorerCommand {
    /// Runs the subcommand; prints what it did.
    pub fn run(&self) -> Result<(), String> {
        match self {
            ExplorerCommand::Import { db, files } => block_on(async {
                let url = db.url();
                let pool = crate::infra::db::open(&url)
                    .await
                    .map_err(|e| format!("{url}: {e}"))?;
                let now = crate::infra::util::now_ms();
                let mut failed = false;
                for file in files {
                    let name = file.display().to_string();
                    let src = std::fs::File::open(file).map_err(|e| format!("{name}: {e}"))?;
                    let report = import::import(&pool, &name, std::io::BufReader::new(src), now)
                        .await
                        .map_err(|e| format!("{name}: {e}"))?;
                    for e in &report.errors {
                        eprintln!("{e}");
                    }
                    failed |= !report.errors.is_empty();
                    println!(
                        "{name}: {} games read, {} added, {} already in, {} skipped (undecided or not from the start), {} unreadable",
                        report.read,
                        report.added,
                        report.already,
                        report.skipped,
                        report.errors.len()
                    );
                }
                if failed {
                    Err(
                        "some games could not be read (see above); the others were imported"
                            .to_string(),
                    )
                } else {
                    Ok(())
                }
            })?,
            ExplorerCommand::Bench {
                db,
                variant,
                games,
                queries,
                seed,
            } => block_on(async {
                let kind =
                    GameKind::from_names(variant, None).map_err(|e| format!("--variant: {e}"))?;
                if *games == 0 || *queries == 0 {
                    return Err("--games and --queries must be at least 1".to_string());
                }
                let url = db.url();
                let pool = crate::infra::db::open(&url)
                    .await
                    .map_err(|e| format!("{url}: {e}"))?;
                let file = url
                    .strip_prefix("sqlite://")
                    .map(|f| PathBuf::from(f.split('?').next().unwrap_or(f)));
                let r = import::bench(&pool, kind, *games, *queries, *seed, file.as_deref())
                    .await
                    .map_err(|e| format!("{url}: {e}"))?;
                println!(
                    "{} games, {} positions indexed in {:.1} s ({:.0} positions/s); index rows {}",
                    r.games,
                    r.positions,
                    r.index_time.as_secs_f64(),
                    r.positions as f64 / r.index_time.as_secs_f64().max(1e-9),
                    r.rows
                );
                println!(
                    "{} queries: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                    r.queries,
                    r.p50.as_secs_f64() * 1e3,
                    r.p99.as_secs_f64() * 1e3,
                    r.max.as_secs_f64() * 1e3
                );
                match r.bytes {
                    Some(b) => println!(
                        "size: {:.1} MB ({:.0} bytes per position)",
                        b as f64 / 1e6,
                        b as f64 / r.positions.max(1) as f64
                    ),
                    None => println!("size: unknown"),
                }
                Ok(())
            })?,
        }
    }
}
