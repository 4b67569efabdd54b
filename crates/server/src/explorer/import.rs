//! Records into the engine database (`thaiboard explorer import`), and the
//! index's size and speed measured over generated games
//! (`thaiboard explorer bench`).

use super::model::{IMPORTED_SPEED, Source, Winner, indexed_moves, position_key};
use super::store::{self, GameEntry};
use crate::infra::db::{Backend, Db};
use games::{AnyGame, AnyPosition, GameKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use records::{GameResult, Reader};
use sha2::{Digest, Sha256};
use std::io::BufRead;
use std::time::{Duration, Instant};

/// Games written in one transaction by an import.
const IMPORT_BATCH: usize = 200;

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games read whole.
    pub read: usize,
    /// Of those, added to the index.
    pub added: usize,
    /// Already in it (an import run again adds nothing).
    pub already: usize,
    /// Left out: no decided result, or not from the standard start.
    pub skipped: usize,
    /// Games that could not be read, with where and why.
    pub errors: Vec<String>,
}

/// The id of an imported record: `pgn:` and the digest of its game, tags
/// that tell games apart, and main line, so that importing a file twice
/// adds its games once.
pub fn record_id(game: &records::Game) -> String {
    let mut digest = Sha256::new();
    digest.update(game.kind().to_string());
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        digest.update([0]);
        digest.update(game.tags.get(tag).unwrap_or(""));
    }
    for mv in game.mainline() {
        digest.update([0]);
        digest.update(mv.to_engine());
    }
    let hex: String = digest.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("pgn:{hex}")
}

/// The average of the `WhiteElo` and `BlackElo` tags, if both are numbers.
fn average_elo(game: &records::Game) -> Option<i32> {
    let elo = |tag: &str| game.tags.get(tag)?.trim().parse::<i32>().ok();
    Some((elo("WhiteElo")? + elo("BlackElo")?) / 2)
}

/// Imports every game of a PGN/PDN source into the engine database.
/// `name` names the source in error messages.
pub async fn import(
    db: &Db,
    name: &str,
    src: impl BufRead,
    now_ms: i64,
) -> Result<ImportReport, sqlx::Error> {
    let mut report = ImportReport::default();
    let mut batch = Vec::with_capacity(IMPORT_BATCH);
    for item in Reader::new(src) {
        let game = match item {
            Ok(game) => game,
            Err(e) => {
                report.errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        report.read += 1;
        let winner = match game.result {
            GameResult::WhiteWins => Winner::White,
            GameResult::BlackWins => Winner::Black,
            GameResult::Draw => Winner::Draw,
            _ => {
                report.skipped += 1;
                continue;
            }
        };
        if !game.start.is_standard_start() {
            report.skipped += 1;
            continue;
        }
        let entry = GameEntry {
            id: record_id(&game),
            source: Source::Engine,
            speed: IMPORTED_SPEED,
            average_rating: average_elo(&game),
            winner,
            listed: false,
            moves: indexed_moves(&game.start, game.mainline()),
        };
        batch.push(entry);
        if batch.len() == IMPORT_BATCH {
            let added = store::add_games(db, &batch, now_ms).await?;
            report.added += added;
            report.already += batch.len() - added;
            batch.clear();
        }
    }
    let added = store::add_games(db, &batch, now_ms).await?;
    report.added += added;
    report.already += batch.len() - added;
    Ok(report)
}

/// The index measured: how fast it was filled and read, and its size.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Games generated and indexed.
    pub games: usize,
    /// Positions indexed (moves of the games that went in).
    pub positions: usize,
    /// Rows of the index after it.
    pub rows: i64,
    /// Time to index them.
    pub index_time: Duration,
    /// Queries run.
    pub queries: usize,
    /// Median query time.
    pub p50: Duration,
    /// 99th percentile query time.
    pub p99: Duration,
    /// Slowest query.
    pub max: Duration,
    /// Bytes of the database (SQLite: the file; PostgreSQL: the explorer's tables and indexes).
    pub bytes: Option<u64>,
}

/// Fills the engine database with `games` random games of `kind` (each
/// [`super::model::MAX_PLY`] moves long unless it ends before, seeded by
/// `seed`), then times `queries` explorer reads of positions from them
/// (a third from the first ten moves, where most games pass).
pub async fn bench(
    db: &Db,
    kind: GameKind,
    games: usize,
    queries: usize,
    seed: u64,
    sqlite_file: Option<&std::path::Path>,
) -> Result<BenchReport, sqlx::Error> {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = AnyPosition::start(kind);
    let mut sample: Vec<(i64, bool)> = Vec::new();
    let mut positions = 0;
    let mut batch = Vec::with_capacity(IMPORT_BATCH);
    let began = Instant::now();
    for n in 0..games {
        let mut game = AnyGame::new(kind);
        for _ in 0..super::model::MAX_PLY {
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            if game.play(&mv).is_err() {
                break;
            }
        }
        let moves = indexed_moves(&start, game.moves());
        positions += moves.len();
        for (ply, m) in moves.iter().enumerate() {
            if rng.random_range(0..games.max(1) * 50 / queries.max(1)) == 0 {
                sample.push((m.position, ply < 10));
            }
        }
        let winner = [Winner::White, Winner::Draw, Winner::Black][rng.random_range(0..3)];
        let entry = GameEntry {
            id: format!("bench:{seed}:{n}"),
            source: Source::Engine,
            speed: IMPORTED_SPEED,
            average_rating: Some(rng.random_range(800..2600)),
            winner,
            listed: false,
            moves,
        };
        batch.push(entry);
        if batch.len() == IMPORT_BATCH || n + 1 == games {
            store::add_games(db, &batch, 0).await?;
            batch.clear();
        }
    }
    let index_time = began.elapsed();
    if db.backend == Backend::Sqlite {
        // Everything into the database file, so that its size is the index's.
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&db.pool)
            .await?;
    }
    // A third of the reads at the busy early positions.
    let (early, late): (Vec<_>, Vec<_>) = sample.into_iter().partition(|(_, e)| *e);
    let mut keys: Vec<i64> = early.iter().take(queries / 3).map(|(k, _)| *k).collect();
    keys.extend(late.iter().take(queries - keys.len()).map(|(k, _)| *k));
    keys.push(position_key(&start));
    let mut times = Vec::with_capacity(keys.len());
    for key in &keys {
        let t = Instant::now();
        store::moves(db, Source::Engine, *key, &[], &[]).await?;
        times.push(t.elapsed());
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let (rows, _) = store::size(db).await?;
    let bytes = match db.backend {
        Backend::Sqlite => sqlite_file
            .and_then(|f| std::fs::metadata(f).ok())
            .map(|m| m.len()),
        Backend::Postgres => {
            use sqlx::Row;
            let row = sqlx::query(
                "SELECT CAST(pg_total_relation_size('explorer_moves') + pg_total_relation_size('explorer_indexed') AS BIGINT)",
            )
            .fetch_one(&db.pool)
            .await?;
            Some(row.try_get::<i64, _>(0)? as u64)
        }
    };
    Ok(BenchReport {
        games,
        positions,
        rows,
        index_time,
        queries: times.len(),
        p50: at(0.5),
        p99: at(0.99),
        max: *times.last().expect("one query at least"),
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_keeps_its_id_and_other_games_get_others() {
        let text = "[Variant \"makruk\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nd2 1-0\n\n\
                    [Variant \"makruk\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nd2 0-1\n";
        let games: Vec<records::Game> = records::read_all(text)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(record_id(&games[0]), record_id(&games[0].clone()));
        assert_ne!(record_id(&games[0]), record_id(&games[1]));
        assert!(record_id(&games[0]).starts_with("pgn:"));
    }

    /// A scratch SQLite database.
    async fn scratch() -> (Db, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "thaiboard-explorer-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let db = crate::infra::db::open(&format!("sqlite://{}", dir.join("t.db").display()))
            .await
            .unwrap();
        (db, dir)
    }

    #[tokio::test]
    async fn an_import_adds_each_game_once_and_names_broken_ones() {
        let (db, dir) = scratch().await;
        let pgn = "[Variant \"makruk\"]\n[WhiteElo \"2000\"]\n[BlackElo \"1800\"]\n\n1. e4 e5 2. Nd2 1-0\n\n\
                   [Variant \"makruk\"]\n\n1. e4 Nd7 0-1\n\n\
                   [Variant \"makruk\"]\n\n1. e4 e5 2. Ke5 1-0\n\n\
                   [Variant \"makruk\"]\n\n1. c4 *\n";
        let first = import(&db, "games.pgn", pgn.as_bytes(), 0).await.unwrap();
        assert_eq!(
            (first.read, first.added, first.already, first.skipped),
            (3, 2, 0, 1),
            "{first:?}"
        );
        assert_eq!(first.errors.len(), 1, "{first:?}");
        assert!(
            first.errors[0].starts_with("games.pgn: game 3, line"),
            "{:?}",
            first.errors
        );
        let again = import(&db, "games.pgn", pgn.as_bytes(), 0).await.unwrap();
        assert_eq!((again.added, again.already), (0, 2), "{again:?}");
        let start = AnyPosition::start(GameKind::MAKRUK);
        let rows = store::moves(&db, Source::Engine, position_key(&start), &[], &[])
            .await
            .unwrap();
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(
            (rows[0].uci.as_str(), rows[0].white, rows[0].black),
            ("e3e4", 1, 1)
        );
        // The rated game's average (1900) and the unrated one's 0.
        assert_eq!(rows[0].rating_sum, 1900);
        let site = store::moves(&db, Source::Site, position_key(&start), &[], &[])
            .await
            .unwrap();
        assert!(site.is_empty());
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn the_bench_indexes_and_reads_its_games() {
        let (db, dir) = scratch().await;
        let r = bench(&db, GameKind::MAKHOS, 20, 50, 7, Some(&dir.join("t.db")))
            .await
            .unwrap();
        assert_eq!(r.games, 20);
        assert!(r.positions > 20 * 10, "{r:?}");
        assert!(r.rows > 0 && r.rows <= r.positions as i64, "{r:?}");
        assert!(r.p50 <= r.p99 && r.p99 <= r.max);
        assert!(r.bytes.unwrap() > 0);
        std::fs::remove_dir_all(dir).ok();
    }
}
