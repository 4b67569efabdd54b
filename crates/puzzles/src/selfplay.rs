//! Self-play games to mine: the engine at a small fixed depth against
//! itself, from a few random opening moves, with some noise so that the
//! mistakes puzzles are made of happen. The same seed gives the same game.

use engine::{Game, MakhosGame, MakrukGame};
use games::{AnyGame, AnyMove, AnyPosition, GameKind};
use records::{GameResult, Node};

/// How the games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// The search depth of every engine move.
    pub depth: u32,
    /// The opening: 2 up to this many random plies (both sides).
    pub random_plies: u32,
    /// Per mille of engine moves that take another of the best three lines
    /// within 150 of the best instead of the best.
    pub noise_permille: u32,
    /// Per mille of engine moves that are a random legal move (a blunder).
    pub blunder_permille: u32,
    /// A game stops unfinished after this many plies.
    pub max_plies: u32,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            depth: 4,
            random_plies: 8,
            noise_permille: 150,
            blunder_permille: 120,
            max_plies: 240,
        }
    }
}

/// A small xorshift generator (reproducible, no dependency).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The best lines (up to `multipv`) of the engine at `depth`: move texts and scores.
fn lines<G: Game>(g: &G, depth: u32, multipv: usize) -> Vec<(String, i32)> {
    crate::judge::search_lines(g, depth, multipv, None).0
}

/// Plays one game of `kind` with `seed`.
pub fn play_game(kind: GameKind, seed: u64, cfg: &SelfPlay) -> records::Game {
    let mut rng = Rng::new(seed);
    let mut game = AnyGame::new(kind);
    let mut record = records::Game::new(AnyPosition::start(kind));
    let opening = 2 + rng.below(u64::from(cfg.random_plies.max(2) - 1)) as u32;
    for ply in 0..cfg.max_plies {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let random = ply < opening || rng.below(1000) < u64::from(cfg.blunder_permille);
        let mv: AnyMove = if random {
            legal[rng.below(legal.len() as u64) as usize]
        } else {
            let noisy = rng.below(1000) < u64::from(cfg.noise_permille);
            let multipv = if noisy { 3 } else { 1 };
            let found = match &game {
                AnyGame::Makruk(g) => {
                    lines(&MakrukGame::new(g.position().clone()), cfg.depth, multipv)
                }
                AnyGame::Makhos(g) => lines(
                    &MakhosGame::new(*g.position(), g.rules(), g.no_progress_plies()),
                    cfg.depth,
                    multipv,
                ),
            };
            let Some((best, best_score)) = found.first().cloned() else {
                break;
            };
            let pick = if noisy {
                let close: Vec<&(String, i32)> = found
                    .iter()
                    .skip(1)
                    .filter(|l| l.1 >= best_score - 150)
                    .collect();
                if close.is_empty() {
                    best
                } else {
                    close[rng.below(close.len() as u64) as usize].0.clone()
                }
            } else {
                best
            };
            match game.position().parse_engine(&pick) {
                Ok(m) => m,
                Err(_) => break,
            }
        };
        if game.play(&mv).is_err() {
            break;
        }
        record.moves.nodes.push(Node::new(mv));
    }
    let result = match game.outcome().map(|o| o.winner) {
        Some(Some(games::Color::White)) => GameResult::WhiteWins,
        Some(Some(games::Color::Black)) => GameResult::BlackWins,
        Some(None) => GameResult::Draw,
        None => GameResult::Unknown,
    };
    record.set_result(result);
    record
        .tags
        .set("Event", &format!("thaiboard puzzles games, seed {seed}"));
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_legal_game_and_seeds_differ() {
        let cfg = SelfPlay {
            depth: 2,
            max_plies: 40,
            ..SelfPlay::default()
        };
        for kind in [GameKind::MAKRUK, GameKind::MAKHOS] {
            let a = play_game(kind, 7, &cfg);
            assert_eq!(a, play_game(kind, 7, &cfg));
            assert_ne!(a.moves, play_game(kind, 8, &cfg).moves);
            assert!(a.moves.nodes.len() >= 10, "{kind}: {}", a.moves.nodes.len());
            // The record reads back with every move legal.
            let text = records::game_to_string(&a, &records::WriteOptions::default());
            assert_eq!(records::read_one(&text).unwrap().moves, a.moves);
        }
    }
}
