//! Pairing rules, without I/O: round-robin (Berger tables), swiss
//! (Dutch-style) and arena (live, continuous).
//!
//! Players are indices `0..n` into the tournament's entrant list, in seed
//! order (index 0 is the top seed).

use std::collections::HashSet;

/// One board of a round: White, and Black (`None`: White has the bye).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The player with White (or the player with the bye).
    pub white: usize,
    /// The player with Black; `None` for a bye.
    pub black: Option<usize>,
}

impl Pair {
    /// A game between two players.
    pub fn game(white: usize, black: usize) -> Pair {
        Pair {
            white,
            black: Some(black),
        }
    }
    /// A bye for `player`.
    pub fn bye(player: usize) -> Pair {
        Pair {
            white: player,
            black: None,
        }
    }
}

/// Every round of a round-robin of `n` players (Berger tables): each pair of
/// players meets once per cycle; with `double`, a second cycle repeats the
/// first with colours reversed. An odd field gives one bye per round.
pub fn round_robin(n: usize, double: bool) -> Vec<Vec<Pair>> {
    if n < 2 {
        return Vec::new();
    }
    // An odd field gets a phantom player `m - 1`: meeting it is the bye.
    let m = if n % 2 == 0 { n } else { n + 1 };
    let phantom = (m != n).then_some(m - 1);
    let rot = m - 1;
    let mut rounds: Vec<Vec<Pair>> = Vec::new();
    for r in 0..rot {
        let mut round = Vec::new();
        // The fixed player m-1 meets the player at the head of the circle,
        // with colours alternating from round to round.
        let head = r % rot;
        let fixed = m - 1;
        let (w, b) = if r % 2 == 0 {
            (head, fixed)
        } else {
            (fixed, head)
        };
        round.push((w, b));
        for i in 1..m / 2 {
            let a = (r + i) % rot;
            let c = (r + rot - i) % rot;
            // Alternating by board keeps each player's colours alternating
            // as the circle turns.
            round.push(if i % 2 == 1 { (c, a) } else { (a, c) });
        }
        rounds.push(
            round
                .into_iter()
                .map(|(w, b)| match phantom {
                    Some(p) if w == p => Pair::bye(b),
                    Some(p) if b == p => Pair::bye(w),
                    _ => Pair::game(w, b),
                })
                .collect(),
        );
    }
    if double {
        let second: Vec<Vec<Pair>> = rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|p| match p.black {
                        Some(b) => Pair::game(b, p.white),
                        None => *p,
                    })
                    .collect()
            })
            .collect();
        rounds.extend(second);
    }
    rounds
}

/// A colour a player had in a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// What the swiss pairing needs to know about a player so far.
#[derive(Clone, Debug, Default)]
pub struct SwissPlayer {
    /// Points in half points (a win 2, a draw 1, a bye 2).
    pub half_points: u32,
    /// Opponents met (indices).
    pub opponents: HashSet<usize>,
    /// Colours of the games played, in order (byes left out).
    pub colours: Vec<Colour>,
    /// Whether the player has had a bye.
    pub had_bye: bool,
}

impl SwissPlayer {
    fn colour_diff(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }
    /// The colour this player must have next (after two of the same in a
    /// row, or two more of one colour than the other), if any.
    fn must_have(&self) -> Option<Colour> {
        let n = self.colours.len();
        if n >= 2 && self.colours[n - 1] == self.colours[n - 2] {
            return Some(opposite(self.colours[n - 1]));
        }
        match self.colour_diff() {
            d if d >= 2 => Some(Colour::Black),
            d if d <= -2 => Some(Colour::White),
            _ => None,
        }
    }
    /// The preferred colour and its strength (3 absolute, 2 strong, 1 mild, 0 none).
    fn preference(&self) -> (Option<Colour>, u8) {
        if let Some(c) = self.must_have() {
            return (Some(c), 3);
        }
        match self.colour_diff() {
            1 => (Some(Colour::Black), 2),
            -1 => (Some(Colour::White), 2),
            _ => match self.colours.last() {
                Some(c) => (Some(opposite(*c)), 1),
                None => (None, 0),
            },
        }
    }
}

fn opposite(c: Colour) -> Colour {
    match c {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
    }
}

/// How strict a swiss pairing search is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Strict {
    /// No rematch, and nobody denied a colour they must have.
    Colours,
    /// No rematch.
    NoRematch,
    /// Anything (a field too small to avoid rematches).
    Any,
}

impl Strict {
    /// Most search steps before the search gives up at this strictness.
    fn limit(self) -> usize {
        match self {
            Strict::Colours => 20_000,
            _ => 200_000,
        }
    }
}

/// Whether `a` and `b` must both have the same colour next.
fn colour_clash(players: &[SwissPlayer], a: usize, b: usize) -> bool {
    let (x, y) = (players[a].must_have(), players[b].must_have());
    x.is_some() && x == y
}

/// Pairs the next swiss round (`round` from 1). Players are ranked by
/// points, then seed; within a score group the top half meets the bottom
/// half, players float down when their group cannot be paired, rematches
/// are avoided whenever a rematch-free pairing exists (an exhaustive search
/// for any field of a practical size), and colours follow each player's
/// history: nobody gets a third colour in a row or a colour difference of
/// three when a pairing without a rematch avoids it (players float instead),
/// and wishes for alternation are met where the pairing allows. An odd
/// field gives the bye (a full point) to the lowest-ranked player without
/// one.
pub fn swiss(players: &[SwissPlayer], round: u32) -> Vec<Pair> {
    let n = players.len();
    if n < 2 {
        return (0..n).map(Pair::bye).collect();
    }
    // Ranked: points descending, then seed.
    let mut ranked: Vec<usize> = (0..n).collect();
    ranked.sort_by_key(|&i| (std::cmp::Reverse(players[i].half_points), i));
    let mut out = Vec::new();
    let mut rest = ranked.clone();
    if n % 2 == 1 {
        // Candidates for the bye: the lowest-ranked first, those without a bye before.
        let mut cands: Vec<usize> = ranked.iter().rev().copied().collect();
        cands.sort_by_key(|&i| players[i].had_bye);
        let chosen = cands
            .iter()
            .copied()
            .find(|&b| {
                let others: Vec<usize> = ranked.iter().copied().filter(|&x| x != b).collect();
                pair_ranked(players, &others, Strict::NoRematch).is_some()
            })
            .unwrap_or(cands[0]);
        rest.retain(|&x| x != chosen);
        out.push(Pair::bye(chosen));
    }
    let pairs = pair_ranked(players, &rest, Strict::Colours)
        .or_else(|| pair_ranked(players, &rest, Strict::NoRematch))
        .or_else(|| pair_ranked(players, &rest, Strict::Any))
        .unwrap_or_default();
    let mut games: Vec<Pair> = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| colours(players, a, b, round, board))
        .collect();
    games.append(&mut out);
    games
}

/// Pairs the ranked players (an even number): the first complete pairing
/// found trying each player's candidates in Dutch order; `None` if no
/// pairing meets `strict` or the search gives up.
fn pair_ranked(
    players: &[SwissPlayer],
    ranked: &[usize],
    strict: Strict,
) -> Option<Vec<(usize, usize)>> {
    let mut steps = 0;
    let mut out = Vec::new();
    search(players, ranked.to_vec(), strict, &mut steps, &mut out).then_some(out)
}

fn search(
    players: &[SwissPlayer],
    rest: Vec<usize>,
    strict: Strict,
    steps: &mut usize,
    out: &mut Vec<(usize, usize)>,
) -> bool {
    if rest.is_empty() {
        return true;
    }
    *steps += 1;
    if *steps > strict.limit() {
        return false;
    }
    let top = rest[0];
    for opp in candidates(players, &rest) {
        if strict != Strict::Any && players[top].opponents.contains(&opp) {
            continue;
        }
        if strict == Strict::Colours && colour_clash(players, top, opp) {
            continue;
        }
        let next: Vec<usize> = rest[1..].iter().copied().filter(|&x| x != opp).collect();
        out.push((top, opp));
        if search(players, next, strict, steps, out) {
            return true;
        }
        out.pop();
        if *steps > strict.limit() {
            return false;
        }
    }
    false
}

/// The opponents to try for the top remaining player, best first: its
/// score group in Dutch order (the player half a group below it first, then
/// downwards, then upwards), then lower groups (a float down) nearest first;
/// within a tier, pairs where both must have the same colour come last, and
/// before them pairs where both would like the same colour.
fn candidates(players: &[SwissPlayer], rest: &[usize]) -> Vec<usize> {
    let top = rest[0];
    let score = players[top].half_points;
    let group: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| players[i].half_points == score)
        .collect();
    let ideal = group.len() / 2;
    let mut order: Vec<(u32, usize, usize)> = Vec::new(); // (score gap, dutch rank, player)
    for (pos, &p) in group.iter().enumerate().skip(1) {
        let rank = if pos >= ideal {
            pos - ideal
        } else {
            group.len() + (ideal - pos)
        };
        order.push((0, rank, p));
    }
    for (pos, &p) in rest.iter().enumerate() {
        if players[p].half_points != score {
            order.push((score.abs_diff(players[p].half_points), pos, p));
        }
    }
    // Both must have the same colour: one of them cannot.
    let clash = |p: usize| colour_clash(players, top, p);
    // Both would like the same colour: one of them will not get it (the
    // Dutch system transposes the bottom half to avoid that).
    let unwished = |p: usize| {
        let (a, b) = (players[top].preference().0, players[p].preference().0);
        a.is_some() && a == b
    };
    order.sort_by_key(|&(gap, rank, p)| (gap, clash(p), unwished(p), rank));
    order.into_iter().map(|(_, _, p)| p).collect()
}

/// Gives colours to a pair: the stronger colour preference wins; at equal
/// strength the higher-ranked player (`a`) gets its wish; without wishes the
/// higher-ranked player has White on the first board of odd rounds, and
/// colours alternate down the boards.
fn colours(players: &[SwissPlayer], a: usize, b: usize, round: u32, board: usize) -> Pair {
    let (pa, sa) = players[a].preference();
    let (pb, sb) = players[b].preference();
    let a_white = match (pa, pb) {
        (Some(x), Some(y)) if x != y => x == Colour::White,
        (Some(x), Some(_)) => {
            if sa >= sb {
                x == Colour::White
            } else {
                x != Colour::White
            }
        }
        (Some(x), None) => x == Colour::White,
        (None, Some(y)) => y != Colour::White,
        (None, None) => (board % 2 == 0) == (round % 2 == 1),
    };
    if a_white {
        Pair::game(a, b)
    } else {
        Pair::game(b, a)
    }
}

/// A player waiting for a game in an arena.
#[derive(Clone, Debug)]
pub struct ArenaWaiting {
    /// The player.
    pub player: usize,
    /// Arena points so far.
    pub score: u32,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<usize>,
    /// White minus Black games so far.
    pub colour_diff: i32,
}

/// Pairs waiting arena players: by score, each with the nearest-scored
/// waiting player it did not just play (two players whose last games were
/// against each other meet again only when nobody else waits); an odd
/// player out waits for the next game to end. The player with fewer White
/// games gets White.
pub fn arena(waiting: &[ArenaWaiting]) -> Vec<Pair> {
    let mut pool: Vec<&ArenaWaiting> = waiting.iter().collect();
    pool.sort_by_key(|w| (std::cmp::Reverse(w.score), w.player));
    let mut out = Vec::new();
    while pool.len() >= 2 {
        let a = pool.remove(0);
        let pick = pool
            .iter()
            .position(|b| !(a.last_opponent == Some(b.player) && b.last_opponent == Some(a.player)))
            .unwrap_or(0);
        let b = pool.remove(pick);
        let a_white = match a.colour_diff.cmp(&b.colour_diff) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => a.player < b.player,
        };
        out.push(if a_white {
            Pair::game(a.player, b.player)
        } else {
            Pair::game(b.player, a.player)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Each player appears at most once in the round.
    fn once_each(round: &[Pair]) -> bool {
        let mut seen = HashSet::new();
        round
            .iter()
            .all(|p| seen.insert(p.white) && p.black.is_none_or(|b| seen.insert(b)))
    }

    #[test]
    fn round_robin_of_four_is_three_rounds_of_two_games() {
        let rr = round_robin(4, false);
        assert_eq!(rr.len(), 3);
        for round in &rr {
            assert_eq!(round.len(), 2);
            assert!(round.iter().all(|p| p.black.is_some()));
            assert!(once_each(round));
        }
    }

    #[test]
    fn round_robin_colours_balance() {
        for n in [4, 6, 8, 10, 12] {
            let rr = round_robin(n, false);
            let mut whites = vec![0i32; n];
            let mut seq: Vec<Vec<bool>> = vec![Vec::new(); n];
            for round in &rr {
                for p in round {
                    let b = p.black.unwrap();
                    whites[p.white] += 1;
                    seq[p.white].push(true);
                    seq[b].push(false);
                }
            }
            for (i, w) in whites.iter().enumerate() {
                let games = (n - 1) as i32;
                assert!(
                    (2 * w - games).abs() <= 1,
                    "n={n}: player {i} has {w} Whites of {games}"
                );
            }
            // Berger tables: never three of a colour in a row, except for the
            // fixed player and two others (at most one double per cycle).
            let triples = seq
                .iter()
                .filter(|s| s.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]))
                .count();
            assert_eq!(triples, 0, "n={n}: {seq:?}");
        }
    }

    #[test]
    fn odd_round_robin_gives_each_player_one_bye() {
        let rr = round_robin(5, false);
        assert_eq!(rr.len(), 5);
        let mut byes = vec![0; 5];
        for round in &rr {
            assert_eq!(round.iter().filter(|p| p.black.is_none()).count(), 1);
            for p in round.iter().filter(|p| p.black.is_none()) {
                byes[p.white] += 1;
            }
        }
        assert_eq!(byes, vec![1; 5]);
    }

    #[test]
    fn double_round_robin_reverses_colours() {
        let rr = round_robin(4, true);
        assert_eq!(rr.len(), 6);
        for r in 0..3 {
            for (a, b) in rr[r].iter().zip(&rr[r + 3]) {
                assert_eq!(Some(a.white), b.black);
                assert_eq!(a.black, Some(b.white));
            }
        }
    }

    /// Plays `results` (true: the first-listed wins) through a swiss.
    /// Records `round` in `players`: a bye scores a point; each board's
    /// result comes from `result` (0 White wins, 1 Black wins, else a draw).
    fn record_with(players: &mut [SwissPlayer], round: &[Pair], mut result: impl FnMut() -> u8) {
        for p in round {
            let w = p.white;
            let Some(b) = p.black else {
                players[w].half_points += 2;
                players[w].had_bye = true;
                continue;
            };
            players[w].opponents.insert(b);
            players[b].opponents.insert(w);
            players[w].colours.push(Colour::White);
            players[b].colours.push(Colour::Black);
            match result() {
                0 => players[w].half_points += 2,
                1 => players[b].half_points += 2,
                _ => {
                    players[w].half_points += 1;
                    players[b].half_points += 1;
                }
            }
        }
    }

    /// Records `round`: White wins every board, or every board is drawn.
    fn record(players: &mut [SwissPlayer], round: &[Pair], white_wins: bool) {
        record_with(players, round, || if white_wins { 0 } else { 2 });
    }

    #[test]
    fn first_swiss_round_is_top_half_against_bottom_half() {
        let players = vec![SwissPlayer::default(); 8];
        let round = swiss(&players, 1);
        let mut pairs: Vec<(usize, usize)> = round
            .iter()
            .map(|p| {
                let b = p.black.unwrap();
                (p.white.min(b), p.white.max(b))
            })
            .collect();
        pairs.sort();
        assert_eq!(pairs, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        // Colours alternate down the boards from the top seed's White.
        let whites: HashSet<usize> = round.iter().map(|p| p.white).collect();
        assert!(whites.contains(&0));
    }

    #[test]
    fn swiss_transposes_the_bottom_half_for_colours() {
        let mut players = vec![SwissPlayer::default(); 8];
        let r1 = swiss(&players, 1);
        // Boards 0-4, 5-1, 2-6, 7-3: colours alternate down the boards.
        let whites: Vec<usize> = r1.iter().map(|p| p.white).collect();
        assert_eq!(whites, vec![0, 5, 2, 7]);
        // 0 and 2 win with White, 1 and 3 with Black.
        for p in &r1 {
            let (w, b) = (p.white, p.black.unwrap());
            players[w].opponents.insert(b);
            players[b].opponents.insert(w);
            players[w].colours.push(Colour::White);
            players[b].colours.push(Colour::Black);
            let winner = w.min(b);
            players[winner].half_points += 2;
        }
        let r2 = swiss(&players, 2);
        let top: Vec<(usize, usize)> = r2
            .iter()
            .map(|p| (p.white, p.black.unwrap()))
            .filter(|(w, b)| *w < 4 && *b < 4)
            .collect();
        // Not 0-2 and 1-3 (both of each pair want the same colour) but 3-0 and 1-2.
        assert_eq!(top, vec![(3, 0), (1, 2)], "{r2:?}");
    }

    #[test]
    fn swiss_pairs_within_score_groups_and_floats_down() {
        let mut players = vec![SwissPlayer::default(); 6];
        let r1 = swiss(&players, 1);
        record(&mut players, &r1, true);
        // Three winners (2 points) and three losers: one winner floats down.
        let r2 = swiss(&players, 2);
        let same_score = r2
            .iter()
            .filter(|p| players[p.white].half_points == players[p.black.unwrap()].half_points)
            .count();
        assert_eq!(same_score, 2, "{r2:?}");
        for p in &r2 {
            assert!(!players[p.white].opponents.contains(&p.black.unwrap()));
        }
    }

    #[test]
    fn swiss_bye_goes_to_the_lowest_without_one() {
        let mut players = vec![SwissPlayer::default(); 5];
        let r1 = swiss(&players, 1);
        let bye1 = r1.iter().find(|p| p.black.is_none()).unwrap().white;
        assert_eq!(bye1, 4, "the lowest seed has the first bye");
        record(&mut players, &r1, true);
        let r2 = swiss(&players, 2);
        let bye2 = r2.iter().find(|p| p.black.is_none()).unwrap().white;
        assert_ne!(bye2, bye1);
        assert_eq!(
            players[bye2].half_points,
            players
                .iter()
                .filter(|p| !p.had_bye)
                .map(|p| p.half_points)
                .min()
                .unwrap()
        );
    }

    #[test]
    fn swiss_colours_alternate() {
        let mut players = vec![SwissPlayer::default(); 8];
        for r in 1..=5 {
            let round = swiss(&players, r);
            record(&mut players, &round, r % 2 == 0);
        }
        for (i, p) in players.iter().enumerate() {
            assert!(p.colour_diff().abs() <= 1, "player {i}: {:?}", p.colours);
            assert!(
                !p.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                "player {i}: {:?}",
                p.colours
            );
        }
    }

    #[test]
    fn arena_pairs_by_score_and_avoids_the_last_opponent() {
        let w = |player, score, last| ArenaWaiting {
            player,
            score,
            last_opponent: last,
            colour_diff: 0,
        };
        let pairs = arena(&[
            w(0, 10, Some(1)),
            w(1, 9, Some(0)),
            w(2, 2, None),
            w(3, 0, None),
        ]);
        let set: Vec<(usize, usize)> = pairs
            .iter()
            .map(|p| {
                let b = p.black.unwrap();
                (p.white.min(b), p.white.max(b))
            })
            .collect();
        assert_eq!(set, vec![(0, 2), (1, 3)]);
        // A player whose last opponent has played someone else since may meet it.
        let pairs = arena(&[w(0, 4, Some(2)), w(1, 0, Some(0)), w(2, 0, Some(0))]);
        assert_eq!(pairs.len(), 1);
        let b = pairs[0].black.unwrap();
        assert_eq!((pairs[0].white.min(b), pairs[0].white.max(b)), (0, 1));
        // Two players who just met are paired again when nobody else waits.
        assert_eq!(arena(&[w(0, 2, Some(1)), w(1, 0, Some(0))]).len(), 1);
        // An odd one out waits.
        assert_eq!(
            arena(&[w(0, 2, None), w(1, 0, None), w(2, 0, None)]).len(),
            1
        );
    }

    #[test]
    fn long_swisses_keep_colours_in_bounds_without_rematches() {
        for n in [7usize, 10, 33, 64] {
            let mut players = vec![SwissPlayer::default(); n];
            let mut rng = 12345u64;
            // Up to 9 rounds; small fields fewer (rematches become unavoidable).
            for r in 1..=(n as u32 / 2).min(9) {
                for p in swiss(&players, r) {
                    let Some(b) = p.black else {
                        players[p.white].half_points += 2;
                        players[p.white].had_bye = true;
                        continue;
                    };
                    let w = p.white;
                    assert!(
                        !players[w].opponents.contains(&b),
                        "n={n} round {r}: rematch"
                    );
                    players[w].opponents.insert(b);
                    players[b].opponents.insert(w);
                    players[w].colours.push(Colour::White);
                    players[b].colours.push(Colour::Black);
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    match (rng >> 33) % 3 {
                        0 => players[w].half_points += 2,
                        1 => players[b].half_points += 2,
                        _ => {
                            players[w].half_points += 1;
                            players[b].half_points += 1;
                        }
                    }
                }
            }
            for (i, p) in players.iter().enumerate() {
                assert!(
                    p.colour_diff().abs() <= 2,
                    "n={n} player {i}: {:?}",
                    p.colours
                );
                assert!(
                    !p.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "n={n} player {i}: {:?}",
                    p.colours
                );
            }
        }
    }

    /// Whether the players can be paired without a rematch (brute force).
    fn rematch_free_exists(players: &[SwissPlayer], rest: &[usize]) -> bool {
        if rest.is_empty() {
            return true;
        }
        let a = rest[0];
        rest[1..].iter().any(|&b| {
            !players[a].opponents.contains(&b) && {
                let next: Vec<usize> = rest[1..].iter().copied().filter(|&x| x != b).collect();
                rematch_free_exists(players, &next)
            }
        })
    }

    proptest! {
        #[test]
        fn round_robin_pairs_meet_exactly_once(n in 2usize..16, double in any::<bool>()) {
            let rr = round_robin(n, double);
            let cycles = if double { 2 } else { 1 };
            let per_cycle = if n % 2 == 0 { n - 1 } else { n };
            prop_assert_eq!(rr.len(), per_cycle * cycles);
            let mut met: HashMap<(usize, usize), usize> = HashMap::new();
            for round in &rr {
                prop_assert!(once_each(round));
                for p in round {
                    if let Some(b) = p.black {
                        prop_assert!(p.white < n && b < n && p.white != b);
                        *met.entry((p.white.min(b), p.white.max(b))).or_default() += 1;
                    }
                }
            }
            prop_assert_eq!(met.len(), n * (n - 1) / 2);
            prop_assert!(met.values().all(|&c| c == cycles));
        }

        #[test]
        fn swiss_rounds_are_valid_and_rematch_free_when_possible(
            n in 2usize..11,
            rounds in 1u32..7,
            results in proptest::collection::vec(0u8..3, 80),
        ) {
            let mut players = vec![SwissPlayer::default(); n];
            let mut k = 0;
            for r in 1..=rounds {
                let round = swiss(&players, r);
                prop_assert!(once_each(&round));
                let seated: usize = round.iter().map(|p| 1 + p.black.is_some() as usize).sum();
                prop_assert_eq!(seated, n, "everyone is paired or has the bye");
                prop_assert!(round.iter().filter(|p| p.black.is_none()).count() == n % 2);
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by_key(|&i| (std::cmp::Reverse(players[i].half_points), i));
                let byed: Vec<usize> = round.iter().filter(|p| p.black.is_none()).map(|p| p.white).collect();
                let rest: Vec<usize> = order.iter().copied().filter(|i| !byed.contains(i)).collect();
                if rematch_free_exists(&players, &rest) {
                    for p in &round {
                        if let Some(b) = p.black {
                            prop_assert!(!players[p.white].opponents.contains(&b), "rematch {} {}", p.white, b);
                        }
                    }
                }
                let before: u32 = players.iter().map(|p| p.half_points).sum();
                record_with(&mut players, &round, || {
                    k += 1;
                    results[(k - 1) % results.len()]
                });
                let after: u32 = players.iter().map(|p| p.half_points).sum();
                prop_assert_eq!(after - before, 2 * round.len() as u32, "each board gives out one point");
            }
        }

        #[test]
        fn arena_pairs_each_waiting_player_at_most_once(
            scores in proptest::collection::vec(0u32..20, 0..12),
        ) {
            let waiting: Vec<ArenaWaiting> = scores.iter().enumerate().map(|(i, &s)| ArenaWaiting {
                player: i, score: s, last_opponent: (i > 0).then(|| i - 1), colour_diff: 0,
            }).collect();
            let pairs = arena(&waiting);
            prop_assert!(once_each(&pairs));
            prop_assert_eq!(pairs.len(), scores.len() / 2);
        }
    }
}
