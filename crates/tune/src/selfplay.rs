//! Fast self-play: labelled positions for the tuner, and matches between
//! two sets of weights at a fixed node count; [`play_out`], the game loop
//! the network's training data (`nnue::selfplay`) plays too.

use super::params::Tunable;
use engine::eval::{MakhosWeights, MakrukWeights};
use engine::{Game, Limits, MATE, MAX_PLY, MakhosGame, MakrukGame, SearchOptions, Tt, search};
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// A game the self-play driver can play: a [`Game`] whose evaluation
/// weights can be swapped and whose positions can be written as text.
pub trait SelfPlay: Game {
    /// The evaluation weights of this game.
    type Weights: Tunable;
    /// The same position evaluated with other weights.
    fn reweighted(&self, w: &'static Self::Weights) -> Self;
    /// The position as dataset text (FEN or Mak-hot position text).
    fn position_text(&self) -> String;
    /// The starting position.
    fn start() -> Self;
}

impl SelfPlay for MakrukGame {
    type Weights = MakrukWeights;
    fn reweighted(&self, w: &'static MakrukWeights) -> MakrukGame {
        MakrukGame::with_weights(self.pos.clone(), w)
    }
    fn position_text(&self) -> String {
        self.pos.fen()
    }
    fn start() -> MakrukGame {
        MakrukGame::new(makruk::Position::new(makruk::Variant::Makruk))
    }
}

impl SelfPlay for MakhosGame {
    type Weights = MakhosWeights;
    fn reweighted(&self, w: &'static MakhosWeights) -> MakhosGame {
        MakhosGame::with_weights(self.pos, self.rules, self.no_progress, w)
    }
    fn position_text(&self) -> String {
        self.pos.to_string()
    }
    fn start() -> MakhosGame {
        MakhosGame::new(makhos::Position::start(), makhos::Rules::Default, 0)
    }
}

/// How self-play games are played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game (the opening).
    pub random_plies: u32,
    /// Plies after which an unfinished game is scored a draw.
    pub max_plies: u32,
}

/// A small xorshift generator (reproducible games from a seed).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random opening of `plies` plies; `None` when the game ends in it.
pub fn random_opening<G: SelfPlay>(plies: u32, rng: &mut Rng) -> Option<(G, Vec<u64>)> {
    random_opening_from(G::start(), plies, rng)
}

/// A random opening of `plies` plies from `start` (another variant's start
/// position, say); `None` when the game ends in it.
pub fn random_opening_from<G: Game>(start: G, plies: u32, rng: &mut Rng) -> Option<(G, Vec<u64>)> {
    let mut g = start;
    let mut keys = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&mut moves);
        if moves.is_empty() || g.rule_draw() {
            return None;
        }
        keys.push(g.key());
        g = g.play(moves[rng.below(moves.len())]);
    }
    moves.clear();
    g.legal_moves(&mut moves);
    (!moves.is_empty()).then_some((g, keys))
}

/// Plays one game from `start` (earlier position keys in `keys`), White
/// with `players[0]`'s weights and Black with `players[1]`'s, each with its
/// own table. Quiet positions (no check, no capture pending, a quiet best
/// move, no mate in sight) are appended to `record`. Returns White's score
/// (1, 0.5, 0). A found mate ends the game (adjudicated); a rule draw or a
/// third repetition (where the game has that rule: Mak-hot) draws it, and
/// so does reaching `max_plies` (see [`play_game_to_end`]).
pub fn play_game<G: SelfPlay>(
    start: &G,
    keys: Vec<u64>,
    players: [&'static G::Weights; 2],
    tts: &mut [Tt; 2],
    cfg: &PlayConfig,
    record: Option<&mut Vec<String>>,
) -> f64 {
    play_game_to_end(start, keys, players, tts, cfg, record).unwrap_or(0.5)
}

/// [`play_game`], but `None` when the game is still going after
/// `max_plies` (it has no result to label positions with).
pub fn play_game_to_end<G: SelfPlay>(
    start: &G,
    keys: Vec<u64>,
    players: [&'static G::Weights; 2],
    tts: &mut [Tt; 2],
    cfg: &PlayConfig,
    mut record: Option<&mut Vec<String>>,
) -> Option<f64> {
    let result = play_out(
        start.clone(),
        keys,
        cfg,
        tts,
        |g, side| Some(g.reweighted(players[side])),
        |g, _| {
            if let Some(rec) = record.as_deref_mut() {
                rec.push(g.position_text());
            }
        },
    )?;
    Some(f64::from(result) / 2.0)
}

/// The self-play game loop of the tuner and of the network's training data
/// (`nnue::selfplay`): plays one game from `start` (earlier position keys in
/// `keys`) at `cfg.nodes` a move, each side searching with its own table of
/// `tts` (0 White, 1 Black, both cleared first) the position `player` makes
/// of the game's for that side (`None`: the game's own). Each quiet position
/// (not in check, a quiet best move, no mate found) goes to `on_quiet` with
/// its search score. A found mate ends the game (adjudicated); so do a rule
/// draw and a third occurrence of a position within the game's repetition
/// window (a draw: Makruk has no repetition rule, but a game that returns to
/// where it was makes no progress, and the search scores a repetition as a
/// draw too). Returns White's result (0 lost, 1 draw, 2 won), or `None` when
/// the game is still going after `cfg.max_plies` or the search finds no move.
pub fn play_out<G: Game>(
    start: G,
    mut keys: Vec<u64>,
    cfg: &PlayConfig,
    tts: &mut [Tt; 2],
    player: impl Fn(&G, usize) -> Option<G>,
    mut on_quiet: impl FnMut(&G, i32),
) -> Option<u8> {
    let mate_bound = MATE - MAX_PLY as i32;
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    for tt in tts.iter_mut() {
        tt.clear();
    }
    let mut g = start;
    let mut moves = Vec::new();
    for _ in 0..cfg.max_plies {
        let white = g.white_to_move();
        let mover_won = |won: bool| if won == white { 2 } else { 0 };
        moves.clear();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            return Some(if g.no_moves_loses() {
                mover_won(false)
            } else {
                1
            });
        }
        let key = g.key();
        let window = g.repetition_window() as usize;
        let repeats = keys
            .iter()
            .rev()
            .take(window)
            .filter(|&&k| k == key)
            .count();
        if g.rule_draw() || repeats >= 2 {
            return Some(1);
        }
        let side = usize::from(!white);
        let own = player(&g, side);
        let r = search(
            own.as_ref().unwrap_or(&g),
            &keys,
            &mut tts[side],
            &limits,
            &SearchOptions::default(),
            &stop,
            |_| {},
        );
        let best = r.best?;
        if r.score.abs() >= mate_bound {
            return Some(mover_won(r.score > 0));
        }
        if g.quiet() && !g.is_tactical(best) {
            on_quiet(&g, r.score);
        }
        keys.push(key);
        g = g.play(best);
    }
    None
}

/// Totals of a dataset generation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// White wins, draws, Black wins.
    pub results: [u64; 3],
    /// Games still going after `max_plies`: no result, no positions
    /// written (not counted in `games`).
    pub unfinished: u64,
}

/// Plays `games` finished self-play games with the default weights from
/// random openings and writes every recorded quiet position as `RESULT
/// POSITION` lines (see [`super::data::load`]). Games that reach
/// `max_plies` unfinished are played again from new openings (a long
/// unconverted game labelled a draw would teach that material does not
/// count). `on_game` is called after each game.
pub fn generate<G: SelfPlay>(
    weights: &'static G::Weights,
    games: u64,
    cfg: &PlayConfig,
    seed: u64,
    out: &mut impl Write,
    mut on_game: impl FnMut(&GenStats),
) -> std::io::Result<GenStats> {
    let mut rng = Rng::new(seed);
    let mut tts = [Tt::new(2), Tt::new(2)];
    let mut stats = GenStats::default();
    while stats.games < games {
        let Some((start, keys)) = random_opening::<G>(cfg.random_plies, &mut rng) else {
            continue;
        };
        let mut rec = Vec::new();
        let Some(result) = play_game_to_end(
            &start,
            keys,
            [weights, weights],
            &mut tts,
            cfg,
            Some(&mut rec),
        ) else {
            stats.unfinished += 1;
            // Never loop for ever when no game can finish.
            if stats.unfinished > 100 + 10 * games {
                break;
            }
            continue;
        };
        let label = match result {
            r if r > 0.75 => 0,
            r if r < 0.25 => 2,
            _ => 1,
        };
        let text = ["1", "0.5", "0"][label];
        for p in &rec {
            writeln!(out, "{text} {p}")?;
        }
        stats.games += 1;
        stats.positions += rec.len() as u64;
        stats.results[label] += 1;
        on_game(&stats);
    }
    Ok(stats)
}

/// The score of a match from the first player's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// Games won, drawn, lost by the first player.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl MatchStats {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// The first player's score in per cent.
    pub fn percent(&self) -> f64 {
        100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }
}

/// Plays `pairs` pairs of games between weights `a` and `b`: each pair
/// starts from one random opening, `a` playing White then Black.
pub fn play_match<G: SelfPlay>(
    a: &'static G::Weights,
    b: &'static G::Weights,
    pairs: u64,
    cfg: &PlayConfig,
    seed: u64,
    mut on_game: impl FnMut(&MatchStats),
) -> MatchStats {
    let mut rng = Rng::new(seed);
    let mut tts = [Tt::new(2), Tt::new(2)];
    let mut stats = MatchStats::default();
    let mut played = 0;
    while played < pairs {
        let Some((start, keys)) = random_opening::<G>(cfg.random_plies, &mut rng) else {
            continue;
        };
        for a_white in [true, false] {
            let players = if a_white { [a, b] } else { [b, a] };
            let white = play_game(&start, keys.clone(), players, &mut tts, cfg, None);
            let score = if a_white { white } else { 1.0 - white };
            match score {
                s if s > 0.75 => stats.wins += 1,
                s if s < 0.25 => stats.losses += 1,
                _ => stats.draws += 1,
            }
            on_game(&stats);
        }
        played += 1;
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::load;

    /// Openings from Ouk Chatrang's start use its first moves: one ply of
    /// White reaches the king's leap (d1-b2 or d1-f2), which Makruk's start
    /// never does in one ply.
    #[test]
    fn openings_from_another_start_play_its_rules() {
        let king_leapt = |variant| {
            (0..300).any(|seed| {
                let start = MakrukGame::new(makruk::Position::new(variant));
                let (g, keys) = random_opening_from(start, 1, &mut Rng::new(seed)).unwrap();
                assert_eq!(keys.len(), 1);
                let king = g.pos.king_of(makruk::Color::White).to_string();
                king == "b2" || king == "f2"
            })
        };
        assert!(king_leapt(makruk::Variant::Cambodian));
        assert!(!king_leapt(makruk::Variant::Makruk));
    }

    fn cfg() -> PlayConfig {
        PlayConfig {
            nodes: 300,
            random_plies: 4,
            max_plies: 40,
        }
    }

    #[test]
    fn generated_positions_load_as_a_dataset() {
        let mut out = Vec::new();
        let cfg = PlayConfig {
            max_plies: 300,
            ..cfg()
        };
        let stats =
            generate::<MakhosGame>(&MakhosWeights::DEFAULT, 2, &cfg, 7, &mut out, |_| {}).unwrap();
        assert_eq!(stats.games, 2);
        assert_eq!(stats.results.iter().sum::<u64>(), 2);
        assert_eq!(stats.unfinished, 0);
        assert!(stats.positions > 10, "{stats:?}");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count() as u64, stats.positions);
        let d = load::<MakhosWeights>(text.as_bytes()).unwrap();
        assert!(d.positions.iter().all(|p| !p.has_capture()));
    }

    #[test]
    fn makruk_records_are_quiet_and_unfinished_games_are_left_out() {
        let mut rng = Rng::new(3);
        let (start, keys) = random_opening::<MakrukGame>(4, &mut rng).unwrap();
        let mut rec = Vec::new();
        let mut tts = [Tt::new(1), Tt::new(1)];
        let w = &MakrukWeights::DEFAULT;
        // 24 plies from the opening: no result yet, but quiet positions.
        let opening = PlayConfig {
            max_plies: 24,
            ..cfg()
        };
        let r = play_game_to_end(&start, keys, [w, w], &mut tts, &opening, Some(&mut rec));
        assert_eq!(r, None);
        assert!(rec.len() > 10);
        let text: String = rec.iter().map(|p| format!("0.5 {p}\n")).collect();
        let d = load::<MakrukWeights>(text.as_bytes()).unwrap();
        assert!(d.positions.iter().all(|p| !p.is_check()));
        // No Makruk game ends within 6 plies: nothing is written, and the
        // generator gives up instead of looping for ever.
        let mut out = Vec::new();
        let short = PlayConfig {
            max_plies: 6,
            nodes: 50,
            ..cfg()
        };
        let stats = generate::<MakrukGame>(w, 1, &short, 7, &mut out, |_| {}).unwrap();
        assert_eq!((stats.games, stats.positions), (0, 0));
        assert!(stats.unfinished > 100);
        assert!(out.is_empty());
    }

    #[test]
    fn a_player_blind_to_material_loses_the_match() {
        let mut blind = MakrukWeights::DEFAULT;
        for role in [0, 1, 2, 3, 4, 6] {
            blind.terms.mg[engine::eval::makruk::terms::MATERIAL + role] = 10;
            blind.terms.eg[engine::eval::makruk::terms::MATERIAL + role] = 10;
        }
        let blind: &'static MakrukWeights = Box::leak(Box::new(blind));
        let stats = play_match::<MakrukGame>(
            &MakrukWeights::DEFAULT,
            blind,
            2,
            &PlayConfig {
                nodes: 400,
                random_plies: 2,
                max_plies: 300,
            },
            1,
            |_| {},
        );
        assert_eq!(stats.games(), 4);
        assert!(stats.percent() >= 75.0, "{stats:?}");
    }
}
