//! Training data by self-play: games at a fixed node count from random
//! openings (the game loop is the tuner's, `tune::selfplay::play_out`),
//! each quiet position written with its search score and the game's result. Shards are numbered; a run continues after the last
//! complete shard, and shard `n`'s games depend only on the seed and `n`,
//! so an interrupted run resumed gives the data an uninterrupted one would.

use crate::data::{Record, Sample, shard_path, shards, write_shard};
use crate::makhos_data::MakhosRecord;
use engine::eval::nnue::{Layout, Network};
use engine::{Game, MakhosGame, MakrukGame, Tt};
use makruk::Variant;
use std::path::Path;
use tune::selfplay::{PlayConfig, Rng, play_out, random_opening, random_opening_from};

/// How the games are played and stored.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies opening each game.
    pub random_plies: u32,
    /// Plies after which a game still going is dropped (no result to label
    /// its positions with).
    pub max_plies: u32,
    /// Finished games per shard.
    pub games_per_shard: u32,
    /// Shards the folder should hold when the run ends.
    pub shards: u64,
    /// The seed of the openings.
    pub seed: u64,
    /// The network both sides play with, of the game played (`None`: the
    /// classical evaluation).
    pub network: Option<&'static Network>,
}

/// What a shard holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardStats {
    /// The shard's number.
    pub shard: u64,
    /// Games played to their end.
    pub games: u32,
    /// Games dropped at the ply limit.
    pub dropped: u32,
    /// Positions written.
    pub positions: usize,
    /// White wins, draws, Black wins.
    pub results: [u32; 3],
}

/// Plays the Makruk games of every missing shard up to `cfg.shards` into
/// `dir` (created if needed), calling `on_shard` after each shard is
/// written.
pub fn generate(
    dir: &Path,
    cfg: &GenConfig,
    on_shard: impl FnMut(&ShardStats),
) -> Result<(), String> {
    generate_variant(dir, cfg, Variant::Makruk, on_shard)
}

/// [`generate`] for the games of `variant`: Makruk's, or Ouk Chatrang's
/// (its first moves and counting rules; the records are the same, since the
/// network sees the pieces alone).
pub fn generate_variant(
    dir: &Path,
    cfg: &GenConfig,
    variant: Variant,
    on_shard: impl FnMut(&ShardStats),
) -> Result<(), String> {
    check_network(cfg, Layout::Makruk)?;
    let one_game = |rng: &mut Rng, tts: &mut [Tt; 2], positions: &mut Vec<_>| {
        let start = MakrukGame::new(makruk::Position::new(variant));
        let (start, keys) = random_opening_from(start, cfg.random_plies, rng)?;
        // The network changes the game's type, so each arm has its own play.
        Some(match cfg.network {
            Some(net) => play(start.with_network(net), keys, cfg, tts, positions, |g| {
                g.pos.clone()
            }),
            None => play(start, keys, cfg, tts, positions, |g| g.pos.clone()),
        })
    };
    generate_with(dir, cfg, one_game, Record::new, on_shard)
}

/// Plays the Mak-hot games (default rules) of every missing shard up to
/// `cfg.shards` into `dir`, as [`generate`] does Makruk's.
pub fn generate_makhos(
    dir: &Path,
    cfg: &GenConfig,
    on_shard: impl FnMut(&ShardStats),
) -> Result<(), String> {
    check_network(cfg, Layout::Makhos)?;
    let one_game = |rng: &mut Rng, tts: &mut [Tt; 2], positions: &mut Vec<_>| {
        let (mut start, keys) = random_opening::<MakhosGame>(cfg.random_plies, rng)?;
        if let Some(net) = cfg.network {
            start = start.with_network(net);
        }
        Some(play(start, keys, cfg, tts, positions, |g| g.pos))
    };
    generate_with(dir, cfg, one_game, MakhosRecord::new, on_shard)
}

/// Refuses a network of another game.
fn check_network(cfg: &GenConfig, layout: Layout) -> Result<(), String> {
    match cfg.network {
        Some(net) => net.check_layout(layout).map_err(|e| e.to_string()),
        None => Ok(()),
    }
}

/// The shard loop of [`generate`] and [`generate_makhos`]: `one_game`
/// plays a game from a random opening of its own, its quiet positions
/// with their scores to the vector it is given (`None`: the opening ended
/// the game; `Some(None)`: the game reached the ply limit; else White's
/// result), and `record` makes a record of one of them.
fn generate_with<P, R: Sample>(
    dir: &Path,
    cfg: &GenConfig,
    mut one_game: impl FnMut(&mut Rng, &mut [Tt; 2], &mut Vec<(P, i32)>) -> Option<Option<u8>>,
    record: impl Fn(&P, i32, u8, u32) -> R,
    mut on_shard: impl FnMut(&ShardStats),
) -> Result<(), String> {
    if cfg.nodes == 0 || cfg.games_per_shard == 0 || cfg.max_plies == 0 {
        return Err("nodes, games per shard and the ply limit must be positive".into());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let next = shards(dir)?.last().map_or(0, |(n, _)| n + 1);
    let mut tts = [Tt::new(4), Tt::new(4)];
    for n in next..cfg.shards {
        let mut rng = Rng::new(cfg.seed ^ n.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let mut records = Vec::new();
        let mut stats = ShardStats {
            shard: n,
            ..ShardStats::default()
        };
        while stats.games < cfg.games_per_shard {
            let mut positions = Vec::new();
            let Some(result) = one_game(&mut rng, &mut tts, &mut positions) else {
                continue;
            };
            let Some(result) = result else {
                stats.dropped += 1;
                if stats.dropped > 100 + 10 * cfg.games_per_shard {
                    return Err(format!(
                        "shard {n}: {} games in a row reached the ply limit",
                        stats.dropped
                    ));
                }
                continue;
            };
            stats.results[usize::from(2 - result)] += 1;
            for (pos, score) in positions {
                records.push(record(&pos, score, result, stats.games));
            }
            stats.games += 1;
        }
        stats.positions = records.len();
        write_shard(&shard_path(dir, n), &records)?;
        on_shard(&stats);
    }
    Ok(())
}

/// Plays one game from `start` (earlier keys `keys`) to its end with
/// [`play_out`], both sides searching the game as it is; quiet positions
/// and their scores go to `positions`. Returns the result for White (0
/// lost, 1 draw, 2 won), or `None` when the game reaches the ply limit.
fn play<G: Game, P>(
    start: G,
    keys: Vec<u64>,
    cfg: &GenConfig,
    tts: &mut [Tt; 2],
    positions: &mut Vec<(P, i32)>,
    snap: impl Fn(&G) -> P,
) -> Option<u8> {
    let play = PlayConfig {
        nodes: cfg.nodes,
        random_plies: cfg.random_plies,
        max_plies: cfg.max_plies,
    };
    play_out(
        start,
        keys,
        &play,
        tts,
        |_, _| None,
        |g, score| positions.push((snap(g), score)),
    )
}
