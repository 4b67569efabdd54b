//! The engine as an [`Opponent`]: searches with the engine crate on Tokio's
//! blocking thread pool, at most a configured number at a time, so that the
//! server's request threads stay free however many engine games run.

use crate::computer::opponent::{MAX_LEVEL, MIN_LEVEL, Opponent};
use engine::{
    Game, Limits, MakhosGame, MakrukGame, SearchOptions, Tt, search, with_makruk_played_by_default,
};
use games::{AnyGame, Color};
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
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl EngineOpponent {
    /// An opponent running at most `concurrent` searches at a time (at least one).
    pub fn new(concurrent: usize) -> EngineOpponent {
        EngineOpponent {
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
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

/// Searches `root` with the limits of `settings` and `budget_ms`.
fn run<G: Game>(
    root: &G,
    history: &[u64],
    settings: LevelSettings,
    budget_ms: u64,
) -> Option<(String, i32)> {
    let mut tt = Tt::new(TT_MB);
    let limits = Limits {
        movetime: Some(settings.think_ms.min(budget_ms).max(10)),
        depth: Some(settings.depth),
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let opts = SearchOptions {
        skill: settings.skill,
        seed: rand::random::<u64>() | 1,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let result = search(root, history, &mut tt, &limits, &opts, &stop, |_| {});
    result.best.map(|m| (G::move_text(m), result.score))
}

/// Chooses a move for the side to move in `position` (blocking).
pub fn choose_blocking(position: &AnyGame, level: u8, budget_ms: u64) -> Option<String> {
    search_blocking(position, level, budget_ms).map(|(mv, _)| mv)
}

/// How far behind (centipawns, by its own search) the computer must stand
/// to accept a draw offer.
pub const ACCEPT_DRAW_BELOW: i32 = -300;

/// Whether the side to move in `position` accepts a draw offer: when a
/// full-strength search of about a quarter second finds it clearly losing.
pub fn accepts_draw_blocking(position: &AnyGame) -> bool {
    search_blocking(position, MAX_LEVEL, 250).is_some_and(|(_, score)| score <= ACCEPT_DRAW_BELOW)
}

/// The engine's move and its score (side to move's view) in `position`;
/// `None` without a legal move.
fn search_blocking(position: &AnyGame, level: u8, budget_ms: u64) -> Option<(String, i32)> {
    let settings = level_settings(level);
    match position {
        AnyGame::Makruk(game) => {
            let history = MakrukGame::history_keys(game.start(), game.moves());
            with_makruk_played_by_default!(game.position().clone(), |g| run(
                g, &history, settings, budget_ms
            ))
        }
        AnyGame::Makhos(game) => {
            let mut history = game.hashes().to_vec();
            if history.last() == Some(&game.hash()) {
                history.pop();
            }
            let root = MakhosGame::played_by_default(
                *game.position(),
                game.rules(),
                game.no_progress_plies(),
            );
            run(&root, &history, settings, budget_ms)
        }
    }
}

/// Whether the side to move in `position` should declare a board's-honour
/// count: when it may, and has fewer pieces than its opponent (the count is
/// the weaker side's way to a draw).
pub fn should_count(position: &AnyGame) -> bool {
    let side = position.turn();
    let AnyGame::Makruk(game) = position else {
        return false;
    };
    let pieces = |s: Color| game.position().by_color(s.into()).count();
    position.can_start_count(side) && pieces(side) < pieces(side.other())
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
            tokio::task::spawn_blocking(move || {
                let now = running.fetch_add(1, Ordering::Relaxed) + 1;
                peak.fetch_max(now, Ordering::Relaxed);
                let mv = choose_blocking(&position, level, budget_ms);
                running.fetch_sub(1, Ordering::Relaxed);
                mv
            })
            .await
            .ok()
            .flatten()
        })
    }
    fn wants_count(&self, position: &AnyGame) -> bool {
        should_count(position)
    }

    fn accepts_draw(&self, position: AnyGame) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        Box::pin(async move {
            let Ok(_permit) = self.permits.clone().acquire_owned().await else {
                return false;
            };
            tokio::task::spawn_blocking(move || accepts_draw_blocking(&position))
                .await
                .unwrap_or(false)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameKind;

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
                let mv = choose_blocking(&game, 1 + (ply % 3) as u8, 50)
                    .unwrap_or_else(|| panic!("{kind}: no move at ply {ply}"));
                game.play_engine(&mv)
                    .unwrap_or_else(|e| panic!("{kind}: engine move {mv} illegal: {e}"));
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_beyond_the_bound_wait_their_turn() {
        let opponent = EngineOpponent::new(2);
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
            assert!(!should_count(&game) || !game.fen().contains(['p', 'P']));
            game.play_engine(mv).unwrap();
        }
        // No bia left; Black (six pieces against two) may count but has no reason to.
        assert_eq!(game.turn(), Color::Black);
        assert!(game.can_start_count(Color::Black));
        assert!(!should_count(&game));
        // White, the weaker side, counts once it is to move.
        game.play_engine(tokens[at + 1]).unwrap();
        assert!(should_count(&game));
        game.start_count(Color::White).unwrap();
        assert!(!should_count(&game), "one count at a time");
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
        let (mv, score) = search_blocking(&game, MAX_LEVEL, 300).expect("a move");
        assert_eq!((mv.as_str(), score), ("c6b8", 0), "back to the start");
        // The same position without its past: no draw in sight.
        let (_, alone) = search_blocking(&position(&game.fen()), MAX_LEVEL, 300).expect("a move");
        assert!(alone < -300, "{alone}");
    }

    #[test]
    fn only_the_losing_side_accepts_a_draw() {
        let tokens: Vec<&str> = include_str!("../../tests/data/makruk_board_count.txt")
            .split_whitespace()
            .collect();
        let at = tokens.iter().position(|t| *t == "count:black").unwrap();
        let mut game = AnyGame::new_declared(GameKind::MAKRUK);
        assert!(!accepts_draw_blocking(&game), "not at the start");
        for mv in &tokens[..at] {
            game.play_engine(mv).unwrap();
        }
        // Black has six pieces against two.
        assert!(!accepts_draw_blocking(&game));
        game.play_engine(tokens[at + 1]).unwrap();
        assert!(accepts_draw_blocking(&game));
    }
}
