//! The engine as an [`Opponent`]: searches with the engine crate on Tokio's
//! blocking thread pool, at most a configured number at a time, so that the
//! server's request threads stay free however many engine games run.

use super::opponent::{MAX_LEVEL, MIN_LEVEL, Opponent};
use super::search::{Ask, history_of, search_position};
use crate::analysis::tablebase::Tablebases;
use engine::{Limits, SearchOptions, Tt};
use games::{AnyGame, AnyPosition, Color};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// How the engine plays at one level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// The engine's `Skill Level` (0-20); `None` for full strength.
    pub skill: Option<u32>,
    /// Depth limit in plies.
    pub depth: u32,
    /// Node limit.
    pub nodes: u64,
    /// Longest think per move, ms (less when the clock is short).
    pub think_ms: u64,
}

/// The settings of `level`, clamped to 1..=8: from a nearly random
/// one-ply player at 1 to a full-strength search of up to 1.5 s at 8.
pub fn level_settings(level: u8) -> LevelSettings {
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
    let (skill, depth, nodes, think_ms) = match level {
        1 => (Some(0), 1, 2_000, 100),
        2 => (Some(3), 2, 10_000, 150),
        3 => (Some(6), 3, 40_000, 200),
        4 => (Some(9), 4, 150_000, 300),
        5 => (Some(12), 6, 500_000, 500),
        6 => (Some(16), 8, 2_000_000, 800),
        7 => (None, 12, 5_000_000, 1_000),
        _ => (None, 64, 50_000_000, 1_500),
    };
    LevelSettings {
        skill,
        depth,
        nodes,
        think_ms,
    }
}

/// Transposition table size of each search, MB.
const TT_MB: usize = 8;

/// The engine crate behind the [`Opponent`] seam.
pub struct EngineOpponent {
    permits: Arc<Semaphore>,
    threads: usize,
    tables: Option<Arc<Tablebases>>,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl EngineOpponent {
    /// An opponent running at most `concurrent` searches at a time (at
    /// least one), whose full-strength searches run `threads` threads each
    /// and probe `tables` if given.
    pub fn new(
        concurrent: usize,
        threads: usize,
        tables: Option<Arc<Tablebases>>,
    ) -> EngineOpponent {
        EngineOpponent {
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
            threads: threads.max(1),
            tables,
            running: Arc::default(),
            peak: Arc::default(),
        }
    }

    /// The most searches that have run at the same time so far.
    #[cfg(test)]
    pub fn peak_searches(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }
}

/// Chooses a move for the side to move in `position` (blocking). Levels
/// that play at full strength (no `Skill Level`) play the tables' own move
/// wherever `tables` cover the position ([`Tablebases::judge`]: the fastest
/// win the count allows, a move that holds a draw, the longest resistance),
/// never a search move, and elsewhere probe them inside the search, with
/// `threads` search threads; weaker levels play their endgames by their own
/// one-thread search (their depth and node limits, not the time, bound them).
pub fn choose_blocking(
    position: &AnyGame,
    level: u8,
    budget_ms: u64,
    threads: usize,
    tables: Option<&Tablebases>,
) -> Option<String> {
    let settings = level_settings(level);
    if let Some(tables) = tables.filter(|_| settings.skill.is_none())
        && let Ok(verdict) = tables.judge(position)
    {
        return verdict.best;
    }
    let limits = Limits {
        movetime: Some(settings.think_ms.min(budget_ms).max(10)),
        depth: Some(settings.depth),
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let full_strength = settings.skill.is_none();
    let tables = tables.filter(|_| full_strength);
    let threads = if full_strength { threads } else { 1 };
    search_blocking(position, &limits, settings.skill, threads, tables).map(|(mv, _)| mv)
}

/// How far behind (centipawns, by its own search) the computer must stand
/// to accept a draw offer.
pub const ACCEPT_DRAW_BELOW: i32 = -300;

/// Nodes of the search that decides a draw offer: a fixed amount of work
/// (about a quarter second at full speed), so that the answer does not
/// depend on how busy the machine is.
pub const ACCEPT_DRAW_NODES: u64 = 300_000;

/// Whether the side to move in `position` accepts a draw offer: when a
/// full-strength one-thread search of [`ACCEPT_DRAW_NODES`] finds it
/// clearly losing (one thread: the same work gives the same answer).
pub fn accepts_draw_blocking(position: &AnyGame, tables: Option<&Tablebases>) -> bool {
    let limits = Limits {
        nodes: Some(ACCEPT_DRAW_NODES),
        ..Limits::default()
    };
    search_blocking(position, &limits, None, 1, tables)
        .is_some_and(|(_, score)| score <= ACCEPT_DRAW_BELOW)
}

/// The engine's move and its score (side to move's view) in `position`,
/// seeing the game's history, searched by `threads` threads; `None` without
/// a legal move.
fn search_blocking(
    position: &AnyGame,
    limits: &Limits,
    skill: Option<u32>,
    threads: usize,
    tables: Option<&Tablebases>,
) -> Option<(String, i32)> {
    let (history, no_progress) = history_of(position);
    let opts = SearchOptions {
        skill,
        seed: rand::random::<u64>() | 1,
        threads,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let ask = Ask {
        history: &history,
        no_progress,
        tables,
        limits,
        opts: &opts,
        stop: &stop,
    };
    let root: AnyPosition = position.position();
    let found = search_position(&root, &ask, &mut Tt::new(TT_MB), &mut |_| {});
    found.best.map(|mv| (mv, found.score))
}

/// Whether the side to move in `position` should declare a board's-honour
/// count: when it may, and has fewer pieces than its opponent (the count is
/// the weaker side's way to a draw) or, where `tables` cover the position,
/// when the tables do not see it winning (the count can only shorten its
/// opponent's time).
pub fn should_count(position: &AnyGame, tables: Option<&Tablebases>) -> bool {
    let side = position.turn();
    let AnyGame::Makruk(game) = position else {
        return false;
    };
    if !position.can_start_count(side) {
        return false;
    }
    if let Some(verdict) = tables.and_then(|t| t.judge(position).ok()) {
        return verdict.category != "win";
    }
    let pieces = |s: Color| game.position().by_color(s.into()).count();
    pieces(side) < pieces(side.other())
}

impl Opponent for EngineOpponent {
    fn choose(
        &self,
        position: AnyGame,
        level: u8,
        budget_ms: u64,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + '_>> {
        Box::pin(async move {
            let _permit = self.permits.clone().acquire_owned().await.ok()?;
            let (running, peak) = (self.running.clone(), self.peak.clone());
            let (tables, threads) = (self.tables.clone(), self.threads);
            tokio::task::spawn_blocking(move || {
                let now = running.fetch_add(1, Ordering::Relaxed) + 1;
                peak.fetch_max(now, Ordering::Relaxed);
                let mv = choose_blocking(&position, level, budget_ms, threads, tables.as_deref());
                running.fetch_sub(1, Ordering::Relaxed);
                mv
            })
            .await
            .ok()
            .flatten()
        })
    }
    fn wants_count(&self, position: &AnyGame, level: u8) -> bool {
        let full_strength = level_settings(level).skill.is_none();
        should_count(position, self.tables.as_deref().filter(|_| full_strength))
    }

    fn accepts_draw(&self, position: AnyGame) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        Box::pin(async move {
            let Ok(_permit) = self.permits.clone().acquire_owned().await else {
                return false;
            };
            let tables = self.tables.clone();
            tokio::task::spawn_blocking(move || accepts_draw_blocking(&position, tables.as_deref()))
                .await
                .unwrap_or(false)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameKind;

    /// A full-strength search of 300 ms, without tables.
    fn full_strength(game: &AnyGame) -> Option<(String, i32)> {
        let settings = level_settings(MAX_LEVEL);
        let limits = Limits {
            movetime: Some(300),
            depth: Some(settings.depth),
            nodes: Some(settings.nodes),
            ..Limits::default()
        };
        search_blocking(game, &limits, None, 1, None)
    }

    /// Three white men against a black king (Mak-hot, default rules): only
    /// h2-g3 wins (the tables' verdict, 35 plies on). A 4-ply search without
    /// the tables plays another move and sees no win; the same search
    /// probing them plays h2-g3 as a proven win, and so does the
    /// full-strength opponent.
    #[test]
    fn the_tables_find_the_only_winning_move() {
        let dir =
            std::env::temp_dir().join(format!("thaiboard-computer-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        thaiboard_tablebase::makhos::generate(&dir, makhos::Rules::Default, 4, false, |_| {})
            .unwrap();
        let tables = Tablebases::open(&dir).unwrap();
        let game = AnyGame::from_position(
            games::AnyPosition::from_fen(GameKind::MAKHOS, "W:Wb2,h2,a5:BKa7").unwrap(),
        );
        let four_plies = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let (without, plain) = search_blocking(&game, &four_plies, None, 1, None).unwrap();
        let (with, score) = search_blocking(&game, &four_plies, None, 1, Some(&tables)).unwrap();
        assert_ne!(
            without, "h2g3",
            "the search alone finds it: the test proves nothing"
        );
        assert!(plain < 1_000, "no win in sight without the tables: {plain}");
        assert_eq!(with, "h2g3");
        assert!(score > 10_000, "a table win, not {score}");
        let chosen = choose_blocking(&game, MAX_LEVEL, 1_000, 1, Some(&tables));
        assert_eq!(chosen.as_deref(), Some("h2g3"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The lazy-SMP helper threads (`search helper N`) alive in this
    /// process (Linux lists a process's threads under /proc).
    fn helpers() -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|name| name.starts_with("search helper"))
            .count()
    }

    /// The most lazy-SMP helper threads alive in this process at once while
    /// `run` runs on a thread of its own. No other unit test searches with
    /// more than one thread, but the helpers of an earlier search may still
    /// be winding down (a search returns once their work is done, not once
    /// the system has removed their threads): it waits for them first.
    fn most_helpers_during(run: impl FnOnce() + Send + 'static) -> usize {
        let waited = std::time::Instant::now();
        while helpers() > 0 {
            assert!(
                waited.elapsed() < std::time::Duration::from_secs(10),
                "helper threads of an earlier search are still alive"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let search = std::thread::spawn(run);
        let mut most = 0;
        while !search.is_finished() {
            most = most.max(helpers());
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        search.join().unwrap();
        most
    }

    /// `serve --engine-threads`: a full-strength level searches with the
    /// threads given; a weaker level, limited by depth and nodes, with one.
    #[test]
    fn full_strength_levels_search_with_the_operators_threads() {
        let game = || AnyGame::new_declared(GameKind::MAKRUK);
        let strong = most_helpers_during(move || {
            assert!(choose_blocking(&game(), MAX_LEVEL, 400, 3, None).is_some());
        });
        assert_eq!(strong, 2, "level {MAX_LEVEL} with 3 threads");
        let weak = most_helpers_during(move || {
            assert!(choose_blocking(&game(), 4, 400, 3, None).is_some());
        });
        assert_eq!(weak, 0, "level 4 searches on one thread");
    }

    #[test]
    fn levels_grow_stronger_and_clamp() {
        for l in MIN_LEVEL..MAX_LEVEL {
            let (a, b) = (level_settings(l), level_settings(l + 1));
            assert!(a.depth <= b.depth && a.nodes <= b.nodes && a.think_ms <= b.think_ms);
        }
        assert_eq!(level_settings(0), level_settings(1));
        assert_eq!(level_settings(200), level_settings(8));
        assert_eq!(level_settings(8).skill, None);
    }

    #[test]
    fn engine_moves_are_legal_in_every_variant() {
        for kind in GameKind::ALL {
            let mut game = AnyGame::new_declared(kind);
            for ply in 0..6 {
                let mv = choose_blocking(&game, 1 + (ply % 3) as u8, 50, 1, None)
                    .unwrap_or_else(|| panic!("{kind}: no move at ply {ply}"));
                game.play_engine(&mv)
                    .unwrap_or_else(|e| panic!("{kind}: engine move {mv} illegal: {e}"));
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_beyond_the_bound_wait_their_turn() {
        let opponent = EngineOpponent::new(2, 1, None);
        let searches = (0..6).map(|_| {
            let game = AnyGame::new_declared(GameKind::MAKRUK);
            opponent.choose(game, 8, 100)
        });
        let moves = futures_util::future::join_all(searches).await;
        assert!(moves.iter().all(Option::is_some), "{moves:?}");
        assert!(
            (1..=2).contains(&opponent.peak_searches()),
            "peak {}",
            opponent.peak_searches()
        );
    }

    #[test]
    fn the_weaker_side_declares_a_count_when_it_may() {
        let tokens: Vec<&str> = include_str!("../../tests/data/makruk_board_count.txt")
            .split_whitespace()
            .collect();
        let at = tokens.iter().position(|t| *t == "count:black").unwrap();
        let mut game = AnyGame::new_declared(GameKind::MAKRUK);
        for mv in &tokens[..at] {
            assert!(!should_count(&game, None) || !game.fen().contains(['p', 'P']));
            game.play_engine(mv).unwrap();
        }
        // No bia left; Black (six pieces against two) may count but has no reason to.
        assert_eq!(game.turn(), Color::Black);
        assert!(game.can_start_count(Color::Black));
        assert!(!should_count(&game, None));
        // White, the weaker side, counts once it is to move.
        game.play_engine(tokens[at + 1]).unwrap();
        assert!(should_count(&game, None));
        game.start_count(Color::White).unwrap();
        assert!(!should_count(&game, None), "one count at a time");
    }

    #[test]
    fn a_losing_side_sees_the_repetition_the_game_offers() {
        // Two rooks down, bias locked: Black's only hope is repeating a
        // position, which the search scores as a draw (the game's history
        // has it four plies back).
        let start = "1n2k3/8/8/p7/P7/8/8/R3K1NR w - - 0 1";
        let position = |fen: &str| {
            AnyGame::from_position(
                games::AnyPosition::from_fen(GameKind::MAKRUK, fen).expect("a valid FEN"),
            )
        };
        let mut game = position(start);
        for mv in ["g1f3", "b8c6", "f3g1"] {
            game.play_engine(mv).unwrap();
        }
        let (mv, score) = full_strength(&game).expect("a move");
        assert_eq!((mv.as_str(), score), ("c6b8", 0), "back to the start");
        // The same position without its past: no draw in sight.
        let (_, alone) = full_strength(&position(&game.fen())).expect("a move");
        assert!(alone < -300, "{alone}");
    }

    #[test]
    fn only_the_losing_side_accepts_a_draw() {
        let tokens: Vec<&str> = include_str!("../../tests/data/makruk_board_count.txt")
            .split_whitespace()
            .collect();
        let at = tokens.iter().position(|t| *t == "count:black").unwrap();
        let mut game = AnyGame::new_declared(GameKind::MAKRUK);
        assert!(!accepts_draw_blocking(&game, None), "not at the start");
        for mv in &tokens[..at] {
            game.play_engine(mv).unwrap();
        }
        // Black has six pieces against two.
        assert!(!accepts_draw_blocking(&game, None));
        game.play_engine(tokens[at + 1]).unwrap();
        assert!(accepts_draw_blocking(&game, None));
    }
}
