//! `thaiboard puzzles`: play games to mine (`games`), mine them for puzzles
//! (`mine`), and re-check puzzle sets (`check`). The rules of a puzzle live
//! in the `thaiboard-puzzles` crate; this module reads and writes the files
//! and keeps the runs resumable.

use crate::error::CliError;
use clap::{Args, Subcommand};
use engine::{MakhosGame, MakrukGame, Tablebase};
use games::{AnyPosition, GameKind};
use puzzles::selfplay::{SelfPlay, play_game};
use puzzles::{Judge, Tables, make_puzzle};
use records::puzzle::{PUZZLE_HEADER, Puzzle, puzzle_line, read_puzzles};
use records::{Reader, WriteOptions, game_to_string};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use thaiboard_tablebase::engine_tables::{MakhosProbe, MakrukProbe};
use thaiboard_tablebase::makhos::MakhosTables;
use thaiboard_tablebase::makruk::MakrukTables;

/// The confirm depth by default: the miner's lines and `puzzles check` use it.
pub const CONFIRM_DEPTH: u32 = 8;
/// The scan depth by default (every position of every game).
pub const SCAN_DEPTH: u32 = 4;

/// The `puzzles` subcommands.
#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Play engine self-play games to mine (random openings, some noise),
    /// appended to a PGN/PDN file; a second run continues up to --games.
    Games(GamesArgs),
    /// Mine games for puzzles, appended to a puzzle set; a second run skips
    /// the games already done (kept in FILE.progress next to --out).
    Mine(MineArgs),
    /// Re-check puzzle sets (`.tsv` or `.tsv.gz`): every line reads and
    /// replays, every solver move is the only winning one at the confirm
    /// depth, every line ends decided. Exit code 1 on any bad line.
    Check(CheckArgs),
}

/// The game mined.
#[derive(Args, Debug, Clone)]
pub struct KindArgs {
    /// makruk, cambodian (Ouk Chatrang) or makhos (Mak-hot).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(GameKind::VARIANT_NAMES))]
    variant: String,
    /// Mak-hot rule option (`default` or `no-reverse`).
    #[arg(long)]
    rules: Option<String>,
}

/// Options of `puzzles games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    #[command(flatten)]
    kind: KindArgs,
    /// How many games the file should hold at the end.
    #[arg(long)]
    games: usize,
    /// The PGN/PDN file the games are appended to.
    #[arg(long)]
    out: PathBuf,
    /// The engine's search depth per move.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Game `i` is played with seed `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Options of `puzzles mine`.
#[derive(Args, Debug)]
pub struct MineArgs {
    #[command(flatten)]
    kind: KindArgs,
    /// The game records (PGN/PDN); games of other kinds are skipped.
    #[arg(long, num_args = 1.., required = true)]
    games: Vec<PathBuf>,
    /// The puzzle set the puzzles are appended to (created with its header).
    #[arg(long)]
    out: PathBuf,
    /// The scan depth: every position is searched at it (MultiPV 2) first.
    #[arg(long, default_value_t = SCAN_DEPTH)]
    depth: u32,
    /// The confirm depth: the line is built and every step judged at it.
    #[arg(long, default_value_t = CONFIRM_DEPTH)]
    confirm_depth: u32,
    /// Games mined at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A directory of endgame tables (`thaiboard tb gen`): they judge the
    /// positions they hold.
    #[arg(long)]
    tables: Option<PathBuf>,
}

/// Options of `puzzles check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Puzzle sets (`.gz` files are read through gzip).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The depth of the fresh search judging every solver move.
    #[arg(long, default_value_t = CONFIRM_DEPTH)]
    confirm_depth: u32,
    /// Only read and replay (no search).
    #[arg(long)]
    no_search: bool,
    /// Lines checked at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A directory of endgame tables that judge the positions they hold.
    #[arg(long)]
    tables: Option<PathBuf>,
}

/// Runs a `puzzles` subcommand.
pub fn run(cmd: PuzzlesCommand) -> Result<(), CliError> {
    match cmd {
        PuzzlesCommand::Games(a) => games(&a),
        PuzzlesCommand::Mine(a) => mine(&a),
        PuzzlesCommand::Check(a) => check(&a),
    }
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError {
        message: format!("{}: {e}", path.display()),
        code: 1,
    }
}

fn kind_of(k: &KindArgs) -> Result<GameKind, CliError> {
    crate::game_kind(&k.variant, k.rules.as_deref())
}

/// Cuts a file back to its last complete record: the end of its last line
/// ending in `terminator` (a run killed while writing leaves a torn tail).
fn cut_torn_tail(path: &Path, terminator: &[u8]) -> Result<(), CliError> {
    let Ok(mut file) = OpenOptions::new().read(true).write(true).open(path) else {
        return Ok(());
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| io_err(path, e))?;
    if bytes.is_empty() || bytes.ends_with(terminator) {
        return Ok(());
    }
    let keep = bytes
        .windows(terminator.len())
        .rposition(|w| w == terminator)
        .map_or(0, |i| i + terminator.len());
    eprintln!(
        "{}: dropping {} bytes of an interrupted write",
        path.display(),
        bytes.len() - keep
    );
    file.set_len(keep as u64).map_err(|e| io_err(path, e))?;
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| io_err(path, e))?;
    Ok(())
}

/// `puzzles games`.
fn games(a: &GamesArgs) -> Result<(), CliError> {
    let kind = kind_of(&a.kind)?;
    cut_torn_tail(&a.out, b"\n\n")?;
    let done = match File::open(&a.out) {
        Ok(f) => Reader::new(BufReader::new(f)).filter(Result::is_ok).count(),
        Err(_) => 0,
    };
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| io_err(&a.out, e))?;
    let cfg = SelfPlay {
        depth: a.depth,
        ..SelfPlay::default()
    };
    let started = Instant::now();
    let mut plies = 0;
    for i in done..a.games {
        let game = play_game(kind, a.seed + i as u64, &cfg);
        plies += game.moves.nodes.len();
        let mut text = game_to_string(&game, &WriteOptions::default());
        text.push('\n');
        out.write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| io_err(&a.out, e))?;
        let n = i + 1 - done;
        if n % 10 == 0 || i + 1 == a.games {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "games: {} of {} ({:.2} games/s, {:.0} plies/s)",
                i + 1,
                a.games,
                n as f64 / secs,
                plies as f64 / secs
            );
        }
    }
    Ok(())
}

/// Tables of one game opened from a directory.
struct OpenTables {
    makruk: Option<MakrukProbe>,
    makhos: Option<MakhosProbe>,
}

impl OpenTables {
    fn open(dir: Option<&Path>, kind: Option<GameKind>) -> Result<OpenTables, CliError> {
        let mut t = OpenTables {
            makruk: None,
            makhos: None,
        };
        let (Some(dir), Some(kind)) = (dir, kind) else {
            return Ok(t);
        };
        let err = |e: thaiboard_tablebase::TableError| CliError::input(format!("--tables: {e}"));
        match kind {
            GameKind::Makruk(v) => {
                t.makruk = MakrukProbe::new(Arc::new(MakrukTables::open(dir, v).map_err(err)?));
            }
            GameKind::Makhos(r) => {
                t.makhos = MakhosProbe::new(Arc::new(MakhosTables::open(dir, r).map_err(err)?));
            }
        }
        Ok(t)
    }

    fn tables(&self) -> Tables<'_> {
        Tables {
            makruk: self
                .makruk
                .as_ref()
                .map(|p| p as &dyn Tablebase<MakrukGame>),
            makhos: self
                .makhos
                .as_ref()
                .map(|p| p as &dyn Tablebase<MakhosGame>),
        }
    }
}

/// The mining run's shared state: the set written to, ids in it, games done.
struct MineState {
    out: File,
    progress: File,
    ids: HashSet<String>,
    done: HashSet<String>,
    games: usize,
    positions: usize,
    found: usize,
}

/// `puzzles mine`.
fn mine(a: &MineArgs) -> Result<(), CliError> {
    let kind = kind_of(&a.kind)?;
    let tables = OpenTables::open(a.tables.as_deref(), Some(kind))?;
    // The set: cut a torn last line, read its ids (no duplicates on a rerun).
    cut_torn_tail(&a.out, b"\n")?;
    let mut ids = HashSet::new();
    if let Ok(f) = File::open(&a.out) {
        for p in read_puzzles(BufReader::new(f)) {
            let p = p.map_err(|e| io_err(&a.out, e))?;
            ids.insert(p.id);
        }
    }
    let fresh = std::fs::metadata(&a.out).map_or(true, |m| m.len() == 0);
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| io_err(&a.out, e))?;
    if fresh {
        writeln!(out, "{PUZZLE_HEADER}").map_err(|e| io_err(&a.out, e))?;
    }
    // Progress: one line per game done, `FILE-NAME#NUMBER`.
    let progress_path = PathBuf::from(format!("{}.progress", a.out.display()));
    cut_torn_tail(&progress_path, b"\n")?;
    let done: HashSet<String> = std::fs::read_to_string(&progress_path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let progress = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&progress_path)
        .map_err(|e| io_err(&progress_path, e))?;
    let state = Mutex::new(MineState {
        out,
        progress,
        ids,
        done,
        games: 0,
        positions: 0,
        found: 0,
    });
    let started = Instant::now();
    let scan = Judge {
        depth: a.depth,
        tables: tables.tables(),
    };
    let confirm = Judge {
        depth: a.confirm_depth,
        tables: tables.tables(),
    };
    for path in &a.games {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let file = File::open(path).map_err(|e| io_err(path, e))?;
        let reader = Mutex::new(Reader::new(BufReader::new(file)).enumerate());
        let failure: Mutex<Option<CliError>> = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..a.threads.max(1) {
                s.spawn(|| {
                    loop {
                        let Some((i, game)) = reader.lock().unwrap().next() else {
                            return;
                        };
                        let key = format!("{name}#{}", i + 1);
                        let game = match game {
                            Ok(g) if g.kind() == kind => g,
                            Ok(_) => continue,
                            Err(e) => {
                                eprintln!("{}: {e} (game skipped)", path.display());
                                continue;
                            }
                        };
                        if state.lock().unwrap().done.contains(&key) {
                            continue;
                        }
                        let (puzzles, positions) = mine_game(&game, &key, &scan, &confirm);
                        if let Err(e) = record(&state, &a.out, &key, &puzzles, positions, started) {
                            *failure.lock().unwrap() = Some(e);
                            return;
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap() {
            return Err(e);
        }
    }
    let st = state.into_inner().unwrap();
    report_speed(st.games, st.positions, st.found, started, true);
    Ok(())
}

/// Appends a game's puzzles (new ids only) and marks the game done.
fn record(
    state: &Mutex<MineState>,
    out_path: &Path,
    key: &str,
    puzzles: &[Puzzle],
    positions: usize,
    started: Instant,
) -> Result<(), CliError> {
    let mut st = state.lock().unwrap();
    let mut text = String::new();
    for p in puzzles {
        if st.ids.insert(p.id.clone()) {
            text.push_str(&puzzle_line(p));
            text.push('\n');
            st.found += 1;
        }
    }
    st.out
        .write_all(text.as_bytes())
        .and_then(|_| st.out.flush())
        .map_err(|e| io_err(out_path, e))?;
    writeln!(st.progress, "{key}")
        .and_then(|_| st.progress.flush())
        .map_err(|e| io_err(out_path, e))?;
    st.done.insert(key.to_string());
    st.games += 1;
    st.positions += positions;
    if st.games % 10 == 0 {
        report_speed(st.games, st.positions, st.found, started, false);
    }
    Ok(())
}

fn report_speed(games: usize, positions: usize, found: usize, started: Instant, last: bool) {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "{}mined {games} games, {positions} positions, {found} puzzles ({:.0} per 1,000 games; {:.3} games/s, {:.1} positions/s)",
        if last { "done: " } else { "" },
        found as f64 * 1000.0 / games.max(1) as f64,
        games as f64 / secs,
        positions as f64 / secs
    );
}

/// The puzzles of one game: every position after the first two plies, scanned
/// at the scan depth; a unique win there is solved at the confirm depth. The
/// positions a found solution passes through are not mined again.
fn mine_game(
    game: &records::Game,
    key: &str,
    scan: &Judge<'_>,
    confirm: &Judge<'_>,
) -> (Vec<Puzzle>, usize) {
    let mut found = Vec::new();
    let mut pos = game.start.clone();
    // From the standard start the first two plies are the opening; a set-up
    // position is mined from its first ply.
    let mut skip_until = if game.start.is_standard_start() { 2 } else { 0 };
    let mut positions = 0;
    for (ply, mv) in std::iter::once(None)
        .chain(game.mainline().map(Some))
        .enumerate()
    {
        if let Some(mv) = mv
            && pos.play(&mv).is_err()
        {
            break;
        }
        if ply < skip_until {
            continue;
        }
        // The puzzle starts from the position text alone, as `check` reads it.
        let Ok(start) = AnyPosition::from_fen(pos.kind(), &pos.fen()) else {
            continue;
        };
        positions += 1;
        if !matches!(scan.verdict(&start), puzzles::Verdict::Unique { .. }) {
            continue;
        }
        // A record may run past a count that nobody declared: a line must
        // also replay as a game (not over at its start, not drawn on the
        // way), as the server judges a round.
        if let Some(line) = confirm.solve(&start) {
            let puzzle = make_puzzle(&start, &line, &format!("{key}:{ply}"));
            if puzzle.replay().is_ok() {
                skip_until = ply + line.moves.len() + 1;
                found.push(puzzle);
            }
        }
    }
    (found, positions)
}

/// Opens a set, through gzip when its name ends in `.gz`.
fn open_set(path: &Path) -> Result<Box<dyn BufRead>, CliError> {
    crate::record_files::open(path)
        .map(|(reader, _)| reader)
        .map_err(|e| io_err(path, e))
}

/// `puzzles check`.
fn check(a: &CheckArgs) -> Result<(), CliError> {
    let mut bad_total = 0;
    let mut ids: HashSet<String> = HashSet::new();
    for path in &a.files {
        let mut text = String::new();
        open_set(path)?
            .read_to_string(&mut text)
            .map_err(|e| io_err(path, e))?;
        let mut items: Vec<(usize, Puzzle)> = Vec::new();
        let mut bad: Vec<(usize, String)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            // The header (first line only), blank and `#` lines are skipped by the reader.
            let item = if n == 1 {
                read_puzzles(line.as_bytes()).next()
            } else {
                read_puzzles(format!("\n{line}").as_bytes()).next()
            };
            match item {
                None => {}
                Some(Ok(p)) => {
                    if ids.insert(p.id.clone()) {
                        items.push((n, p));
                    } else {
                        bad.push((n, format!("id {} appears twice", p.id)));
                    }
                }
                Some(Err(e)) => bad.push((n, e.message)),
            }
        }
        let kind = items.first().map(|(_, p)| p.kind);
        let tables = if a.no_search {
            OpenTables::open(None, None)?
        } else {
            OpenTables::open(a.tables.as_deref(), kind)?
        };
        let judge = Judge {
            depth: a.confirm_depth,
            tables: tables.tables(),
        };
        let with_tables = a.tables.is_some();
        let results: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..a.threads.max(1) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((n, p)) = items.get(i) else { return };
                        let tables_kind = if with_tables { kind } else { Some(p.kind) };
                        if let Err(e) = check_one(p, &judge, a.no_search, tables_kind) {
                            results.lock().unwrap().push((*n, format!("{}: {e}", p.id)));
                        }
                    }
                });
            }
        });
        let failed = results.into_inner().unwrap();
        let good = items.len() - failed.len();
        bad.extend(failed);
        bad.sort();
        for (n, message) in &bad {
            println!("{}:{n}: {message}", path.display());
        }
        println!(
            "{}: {} lines of puzzles, {good} good, {} bad",
            path.display(),
            good + bad.len(),
            bad.len()
        );
        bad_total += bad.len();
    }
    if bad_total > 0 {
        return Err(CliError {
            message: format!("{bad_total} bad puzzle lines"),
            code: 1,
        });
    }
    Ok(())
}

/// Checks one puzzle: replay, then (unless `no_search`) the judge's verdicts.
fn check_one(
    p: &Puzzle,
    judge: &Judge<'_>,
    no_search: bool,
    tables_kind: Option<GameKind>,
) -> Result<(), String> {
    let positions = p.replay()?;
    if no_search {
        return Ok(());
    }
    if Some(p.kind) != tables_kind {
        return Err(format!(
            "a {} puzzle in a set checked with another game's tables",
            p.kind
        ));
    }
    judge.check(&positions[0], &p.solution)
}
