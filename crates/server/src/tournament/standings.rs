//! Standings and tie-breaks, without I/O.
//!
//! Round-robin and swiss: a win 1 point, a draw ½, a swiss bye 1 (a
//! round-robin bye 0: everybody has one), a game called off (aborted) 0 for
//! both. Tie-breaks, in order:
//! - round-robin: Sonneborn-Berger, direct encounter, number of wins;
//! - swiss: Buchholz, median Buchholz, Sonneborn-Berger, direct encounter,
//!   number of wins.
//!
//! Sonneborn-Berger: the final points of every opponent beaten plus half
//! those of every opponent drawn. Buchholz: the sum of the opponents' final
//! points (a bye adds nothing); median Buchholz leaves out the highest and
//! the lowest of them (with three games or more). Direct encounter: the
//! points scored in the games among the players level on points.
//!
//! Arena: a win 2, a draw 1, a loss 0; after two wins in a row a player is
//! "on fire" and scores double until a game is not won. Ties are split by
//! performance rating, as lichess splits them: the opponents' average
//! rating (as each game started) plus 500 × (wins − losses) / games, over
//! the games whose opponent had a rating; then by the percentage of game
//! points (win 1, draw ½) scored. A player who went berserk (half the
//! clock, no increment) and won after making at least
//! [`BERSERK_MIN_MOVES`] moves scores one point more.

use serde::Serialize;
use std::cmp::Ordering;

/// The state of one board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWin,
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
    /// Not finished.
    Pending,
    /// Called off without a result: nobody scores.
    NoResult,
}

impl Outcome {
    /// From a game's status and result text (`1-0`, `0-1`, `1/2-1/2`).
    pub fn from_game(status: &str, result: Option<&str>) -> Outcome {
        match (status, result) {
            ("finished", Some("1-0")) => Outcome::WhiteWin,
            ("finished", Some("0-1")) => Outcome::BlackWin,
            ("finished", Some(_)) => Outcome::Draw,
            ("aborted" | "cancelled", _) => Outcome::NoResult,
            _ => Outcome::Pending,
        }
    }
    /// Whether the board is settled.
    pub fn is_over(self) -> bool {
        self != Outcome::Pending
    }
    /// Half points of White and Black.
    fn half_points(self) -> (u32, u32) {
        match self {
            Outcome::WhiteWin => (2, 0),
            Outcome::BlackWin => (0, 2),
            Outcome::Draw => (1, 1),
            Outcome::Pending | Outcome::NoResult => (0, 0),
        }
    }
}

/// One board of a round-robin or swiss round.
#[derive(Copy, Clone, Debug)]
pub struct Board {
    /// White (or the player with the bye).
    pub white: usize,
    /// Black; `None` for a bye.
    pub black: Option<usize>,
    /// How it stands.
    pub outcome: Outcome,
}

/// The pairing system, which decides the bye's value and the tie-breaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum System {
    /// Round-robin.
    RoundRobin,
    /// Swiss.
    Swiss,
}

/// One line of the standings.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Row {
    /// The player (entrant index).
    pub player: usize,
    /// Place, from 1; players level on every criterion share a place.
    pub rank: usize,
    /// Points.
    pub points: f64,
    /// Games finished with a result.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Sonneborn-Berger.
    pub sonneborn_berger: f64,
    /// Buchholz (swiss).
    pub buchholz: f64,
    /// Median Buchholz (swiss).
    pub median_buchholz: f64,
    /// Points among the players level on points.
    pub direct_encounter: f64,
}

/// The standings of `n` players after `boards`, best first.
pub fn standings(n: usize, boards: &[Board], system: System) -> Vec<Row> {
    let bye_half = if system == System::Swiss { 2 } else { 0 };
    let mut half = vec![0u32; n];
    let mut rows: Vec<Row> = (0..n)
        .map(|player| Row {
            player,
            rank: 0,
            points: 0.0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            sonneborn_berger: 0.0,
            buchholz: 0.0,
            median_buchholz: 0.0,
            direct_encounter: 0.0,
        })
        .collect();
    for b in boards.iter().filter(|b| b.white < n) {
        match b.black {
            None => {
                half[b.white] += bye_half;
                rows[b.white].byes += 1;
            }
            Some(bl) if bl < n => {
                let (hw, hb) = b.outcome.half_points();
                half[b.white] += hw;
                half[bl] += hb;
                for (p, h) in [(b.white, hw), (bl, hb)] {
                    if matches!(b.outcome, Outcome::Pending | Outcome::NoResult) {
                        continue;
                    }
                    rows[p].games += 1;
                    match h {
                        2 => rows[p].wins += 1,
                        1 => rows[p].draws += 1,
                        _ => rows[p].losses += 1,
                    }
                }
            }
            Some(_) => {}
        }
    }
    let pts = |p: usize| f64::from(half[p]) / 2.0;
    // Opponent scores of played (settled) games, per player.
    let mut opp_scores: Vec<Vec<f64>> = vec![Vec::new(); n];
    for b in boards.iter().filter(|b| b.outcome.is_over()) {
        let (w, Some(bl)) = (b.white, b.black) else {
            continue;
        };
        if w >= n || bl >= n || b.outcome == Outcome::NoResult {
            continue;
        }
        let (hw, hb) = b.outcome.half_points();
        rows[w].sonneborn_berger += pts(bl) * f64::from(hw) / 2.0;
        rows[bl].sonneborn_berger += pts(w) * f64::from(hb) / 2.0;
        opp_scores[w].push(pts(bl));
        opp_scores[bl].push(pts(w));
        if half[w] == half[bl] {
            rows[w].direct_encounter += f64::from(hw) / 2.0;
            rows[bl].direct_encounter += f64::from(hb) / 2.0;
        }
    }
    for (p, row) in rows.iter_mut().enumerate() {
        row.points = pts(p);
        let mut s = opp_scores[p].clone();
        row.buchholz = s.iter().sum();
        s.sort_by(f64::total_cmp);
        row.median_buchholz = if s.len() >= 3 {
            s[1..s.len() - 1].iter().sum()
        } else {
            row.buchholz
        };
    }
    let key = |r: &Row| -> Vec<f64> {
        match system {
            System::RoundRobin => vec![
                r.points,
                r.sonneborn_berger,
                r.direct_encounter,
                f64::from(r.wins),
            ],
            System::Swiss => vec![
                r.points,
                r.buchholz,
                r.median_buchholz,
                r.sonneborn_berger,
                r.direct_encounter,
                f64::from(r.wins),
            ],
        }
    };
    rank_by(
        &mut rows,
        |a, b| compare_desc(&key(a), &key(b)),
        |r| r.player,
    );
    rows
}

fn compare_desc(a: &[f64], b: &[f64]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match y.total_cmp(x) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
}

/// Sorts by `cmp` (ties by seed) and sets shared ranks.
fn rank_by<T: RankRow>(
    rows: &mut [T],
    cmp: impl Fn(&T, &T) -> Ordering,
    seed: impl Fn(&T) -> usize,
) {
    rows.sort_by(|a, b| cmp(a, b).then(seed(a).cmp(&seed(b))));
    for i in 0..rows.len() {
        let rank = if i > 0 && cmp(&rows[i - 1], &rows[i]) == Ordering::Equal {
            rows[i - 1].rank()
        } else {
            i + 1
        };
        rows[i].set_rank(rank);
    }
}

trait RankRow {
    fn rank(&self) -> usize;
    fn set_rank(&mut self, rank: usize);
}

impl RankRow for Row {
    fn rank(&self) -> usize {
        self.rank
    }
    fn set_rank(&mut self, rank: usize) {
        self.rank = rank;
    }
}

impl RankRow for ArenaRow {
    fn rank(&self) -> usize {
        self.rank
    }
    fn set_rank(&mut self, rank: usize) {
        self.rank = rank;
    }
}

/// A finished arena game, in the order the games ended.
#[derive(Copy, Clone, Debug)]
pub struct ArenaGame {
    /// White.
    pub white: usize,
    /// Black.
    pub black: usize,
    /// The result (pending games are left out of the scores).
    pub outcome: Outcome,
    /// White's and Black's ratings as the game started, if rated players.
    pub ratings: [Option<i32>; 2],
    /// Whether White and Black went berserk.
    pub berserk: [bool; 2],
    /// The game's length in plies.
    pub plies: i64,
}

/// The moves a berserk player must have made for a win to earn the extra
/// point (lichess's "at least 7 moves"): a quick win by a blunder of the
/// opponent does not pay for the halved clock.
pub const BERSERK_MIN_MOVES: i64 = 7;

/// Points a win adds to (and a loss takes from) a performance rating.
pub const PERFORMANCE_WIN_POINTS: i64 = 500;

/// One line of arena standings.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ArenaRow {
    /// The player (entrant index).
    pub player: usize,
    /// Place, from 1.
    pub rank: usize,
    /// Arena points.
    pub score: u32,
    /// Games with a result.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Wins in a row at the end of the player's games so far.
    pub streak: u32,
    /// Whether the next win scores double (two wins in a row just before).
    pub on_fire: bool,
    /// Each game's arena points, in order (for the scoresheet).
    pub sheet: Vec<u32>,
    /// Games the player went berserk in.
    pub berserks: u32,
    /// Extra points berserk wins earned.
    pub berserk_points: u32,
    /// Game points as a percentage of games (win 1, draw ½).
    pub performance: f64,
    /// The performance rating (see the module documentation), once a game
    /// against a rated opponent ended.
    pub performance_rating: Option<i32>,
}

/// Arena points of `n` players after `games` (in the order they ended).
pub fn arena_standings(n: usize, games: &[ArenaGame]) -> Vec<ArenaRow> {
    let mut rows: Vec<ArenaRow> = (0..n)
        .map(|player| ArenaRow {
            player,
            rank: 0,
            score: 0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            streak: 0,
            on_fire: false,
            sheet: Vec::new(),
            berserks: 0,
            berserk_points: 0,
            performance: 0.0,
            performance_rating: None,
        })
        .collect();
    // Per player: the opponents' ratings summed, and wins − losses, over
    // games whose opponent had a rating.
    let mut rated = vec![(0i64, 0i64, 0i64); n];
    for g in games {
        if g.white >= n || g.black >= n {
            continue;
        }
        let (hw, hb) = match g.outcome {
            Outcome::Pending | Outcome::NoResult => continue,
            o => o.half_points(),
        };
        let moves = [(g.plies + 1) / 2, g.plies / 2];
        for (side, (p, h, opp_rating)) in [(g.white, hw, g.ratings[1]), (g.black, hb, g.ratings[0])]
            .into_iter()
            .enumerate()
        {
            if let Some(opp) = opp_rating {
                let acc = &mut rated[p];
                acc.0 += i64::from(opp);
                acc.1 += match h {
                    2 => 1,
                    0 => -1,
                    _ => 0,
                };
                acc.2 += 1;
            }
            let r = &mut rows[p];
            let mult = if r.streak >= 2 { 2 } else { 1 };
            let mut pts = match h {
                2 => 2 * mult,
                1 => mult,
                _ => 0,
            };
            if g.berserk[side] {
                r.berserks += 1;
                // A berserk win that lasted: one point more.
                if h == 2 && moves[side] >= BERSERK_MIN_MOVES {
                    pts += 1;
                    r.berserk_points += 1;
                }
            }
            r.score += pts;
            r.sheet.push(pts);
            r.games += 1;
            match h {
                2 => {
                    r.wins += 1;
                    r.streak += 1;
                }
                1 => {
                    r.draws += 1;
                    r.streak = 0;
                }
                _ => {
                    r.losses += 1;
                    r.streak = 0;
                }
            }
            r.on_fire = r.streak >= 2;
        }
    }
    for (r, (sum, balance, games)) in rows.iter_mut().zip(&rated) {
        if *games > 0 {
            r.performance_rating = Some(((sum + PERFORMANCE_WIN_POINTS * balance) / games) as i32);
        }
        r.performance = if r.games == 0 {
            0.0
        } else {
            (f64::from(2 * r.wins + r.draws) * 50.0 / f64::from(r.games) * 10.0).round() / 10.0
        };
    }
    rank_by(
        &mut rows,
        |a, b| {
            b.score
                .cmp(&a.score)
                .then(b.performance_rating.cmp(&a.performance_rating))
                .then(b.performance.total_cmp(&a.performance))
        },
        |r| r.player,
    );
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn game(white: usize, black: usize, outcome: Outcome) -> Board {
        Board {
            white,
            black: Some(black),
            outcome,
        }
    }

    #[test]
    fn round_robin_sonneborn_berger_breaks_a_tie() {
        use Outcome::*;
        // 0 beats 1, 1 beats 2, 2 beats 0 (a cycle), everyone beats 3, except
        // 0 who only draws with 3.
        let boards = [
            game(0, 1, WhiteWin),
            game(1, 2, WhiteWin),
            game(2, 0, WhiteWin),
            game(0, 3, Draw),
            game(1, 3, WhiteWin),
            game(3, 2, BlackWin),
        ];
        let rows = standings(4, &boards, System::RoundRobin);
        let order: Vec<usize> = rows.iter().map(|r| r.player).collect();
        // Points: 1 and 2 have 2, 0 has 1.5, 3 has 0.5.
        assert_eq!(rows[0].points, 2.0);
        assert_eq!(rows[1].points, 2.0);
        // SB(1) = beat 2 (2.0) + beat 3 (0.5) = 2.5; SB(2) = beat 0 (1.5) + beat 3 (0.5) = 2.0.
        assert_eq!(rows[0].sonneborn_berger, 2.5);
        assert_eq!(rows[1].sonneborn_berger, 2.0);
        assert_eq!(order, vec![1, 2, 0, 3]);
        assert_eq!(rows[0].direct_encounter, 1.0, "1 beat 2, level on points");
        assert_eq!(rows[2].sonneborn_berger, 2.0 + 0.25); // beat 1 (2) + drew 3 (0.5) / 2
        assert_eq!(
            rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert_eq!((rows[3].wins, rows[3].draws, rows[3].losses), (0, 1, 2));
    }

    #[test]
    fn direct_encounter_splits_players_level_on_points_and_sonneborn_berger() {
        use Outcome::*;
        let boards = [
            game(1, 0, WhiteWin),
            game(0, 2, WhiteWin),
            game(0, 3, Draw),
            game(1, 2, Draw),
            game(3, 1, WhiteWin),
            game(3, 2, WhiteWin),
        ];
        let rows = standings(4, &boards, System::RoundRobin);
        let order: Vec<usize> = rows.iter().map(|r| r.player).collect();
        assert_eq!(order, vec![3, 1, 0, 2]);
        assert_eq!((rows[1].points, rows[2].points), (1.5, 1.5));
        assert_eq!(
            (rows[1].sonneborn_berger, rows[2].sonneborn_berger),
            (1.75, 1.75)
        );
        assert_eq!(
            (rows[1].direct_encounter, rows[2].direct_encounter),
            (1.0, 0.0)
        );
        assert_eq!(
            rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
    }

    #[test]
    fn swiss_buchholz_and_bye() {
        use Outcome::*;
        let boards = [
            game(0, 1, WhiteWin),
            game(2, 3, Draw),
            Board {
                white: 4,
                black: None,
                outcome: Pending,
            },
            game(0, 2, WhiteWin),
            game(4, 1, Draw),
            Board {
                white: 3,
                black: None,
                outcome: Pending,
            },
        ];
        let rows = standings(5, &boards, System::Swiss);
        let get = |p: usize| rows.iter().find(|r| r.player == p).unwrap();
        assert_eq!(get(0).points, 2.0);
        assert_eq!(get(4).points, 1.5, "a swiss bye is a full point");
        assert_eq!(get(3).points, 1.5);
        assert_eq!(get(0).buchholz, get(1).points + get(2).points);
        assert_eq!(get(4).buchholz, get(1).points, "the bye adds nothing");
        assert_eq!(get(4).byes, 1);
        assert_eq!(rows[0].player, 0);
        // 3 and 4 are level on 1.5: Buchholz 3 (opponent 2: 0.5) vs 4 (opponent 1: 0.5), then
        // median = Buchholz (two games or fewer), SB: 3 drew 2 (0.25) vs 4 drew 1 (0.25);
        // they did not meet: wins 0 each: shared place.
        assert_eq!(get(3).rank, get(4).rank);
    }

    #[test]
    fn median_buchholz_drops_the_extremes() {
        use Outcome::*;
        let boards = [
            game(0, 1, WhiteWin),
            game(0, 2, WhiteWin),
            game(0, 3, WhiteWin),
            game(1, 2, WhiteWin),
            game(1, 3, WhiteWin),
            game(2, 3, WhiteWin),
        ];
        let rows = standings(4, &boards, System::Swiss);
        let top = &rows[0];
        assert_eq!(top.player, 0);
        assert_eq!(top.buchholz, 2.0 + 1.0 + 0.0);
        assert_eq!(top.median_buchholz, 1.0);
    }

    #[test]
    fn round_robin_bye_is_worth_nothing_and_pending_games_count_nothing() {
        let boards = [
            Board {
                white: 2,
                black: None,
                outcome: Outcome::Pending,
            },
            game(0, 1, Outcome::Pending),
        ];
        let rows = standings(3, &boards, System::RoundRobin);
        assert!(rows.iter().all(|r| r.points == 0.0 && r.games == 0));
        assert!(rows.iter().all(|r| r.rank == 1));
    }

    #[test]
    fn arena_streaks_score_double() {
        use Outcome::*;
        let g = |white, black, outcome| ArenaGame {
            white,
            black,
            outcome,
            ratings: [None, None],
            berserk: [false, false],
            plies: 40,
        };
        // Player 0: win, win, win (4), draw (2), win (2), loss.
        let games = [
            g(0, 1, WhiteWin),
            g(2, 0, BlackWin),
            g(0, 1, WhiteWin),
            g(2, 0, Draw),
            g(0, 1, WhiteWin),
            g(1, 0, WhiteWin),
        ];
        let rows = arena_standings(3, &games);
        let zero = rows.iter().find(|r| r.player == 0).unwrap();
        assert_eq!(zero.sheet, vec![2, 2, 4, 2, 2, 0]);
        assert_eq!(zero.score, 12);
        assert_eq!((zero.wins, zero.draws, zero.losses), (4, 1, 1));
        assert_eq!(zero.performance, 75.0);
        assert!(!zero.on_fire);
        let one = rows.iter().find(|r| r.player == 1).unwrap();
        assert_eq!(one.sheet, vec![0, 0, 0, 2]);
        assert_eq!(rows[0].player, 0);
        assert_eq!(rows[0].rank, 1);
    }

    #[test]
    fn a_berserk_win_that_lasted_scores_one_more() {
        use Outcome::*;
        let g = |outcome, berserk, plies| ArenaGame {
            white: 0,
            black: 1,
            outcome,
            ratings: [None, None],
            berserk,
            plies,
        };
        let games = [
            g(WhiteWin, [true, false], 13), // White's 7th move: counts
            g(BlackWin, [true, true], 13),  // Black made 6 moves: no extra
            g(Draw, [true, false], 40),     // berserk draw: nothing more
            g(BlackWin, [false, true], 14), // Black's 7th move: counts
        ];
        let rows = arena_standings(2, &games);
        let row = |p: usize| rows.iter().find(|r| r.player == p).unwrap();
        assert_eq!(row(0).sheet, vec![3, 0, 1, 0]);
        assert_eq!((row(0).berserks, row(0).berserk_points), (3, 1));
        assert_eq!(row(1).sheet, vec![0, 2, 1, 3]);
        assert_eq!((row(1).berserks, row(1).berserk_points), (2, 1));
    }

    #[test]
    fn arena_ties_go_to_the_better_performance() {
        use Outcome::*;
        let g = |white, black, outcome| ArenaGame {
            white,
            black,
            outcome,
            ratings: [None, None],
            berserk: [false, false],
            plies: 40,
        };
        // Both 0 and 2 end with 2 points: 0 in one game, 2 in two draws.
        let games = [g(0, 1, WhiteWin), g(2, 3, Draw), g(2, 1, Draw)];
        let rows = arena_standings(4, &games);
        assert_eq!((rows[0].player, rows[0].score), (0, 2));
        assert_eq!((rows[1].player, rows[1].score), (2, 2));
        assert_eq!(rows[1].rank, 2);
    }

    #[test]
    fn arena_ties_go_first_to_the_better_performance_rating() {
        use Outcome::*;
        let g = |white, black, outcome, ratings| ArenaGame {
            white,
            black,
            outcome,
            ratings,
            berserk: [false, false],
            plies: 40,
        };
        // 0 and 2 each beat one opponent: 0 beat a 1900, 2 beat a 1500.
        let games = [
            g(2, 3, WhiteWin, [Some(1600), Some(1500)]),
            g(0, 1, WhiteWin, [Some(1600), Some(1900)]),
        ];
        let rows = arena_standings(4, &games);
        let perf = |p: usize| {
            rows.iter()
                .find(|r| r.player == p)
                .unwrap()
                .performance_rating
        };
        assert_eq!(perf(0), Some(1900 + PERFORMANCE_WIN_POINTS as i32));
        assert_eq!(perf(2), Some(1500 + PERFORMANCE_WIN_POINTS as i32));
        assert_eq!(perf(1), Some(1600 - PERFORMANCE_WIN_POINTS as i32));
        assert_eq!((rows[0].player, rows[1].player), (0, 2));
        // Without ratings the percentage decides, as before.
        assert_eq!(
            arena_standings(2, &[g(0, 1, Draw, [None, None])])[0].performance_rating,
            None
        );
    }

    fn outcome_of(k: u8) -> Outcome {
        match k % 4 {
            0 => Outcome::WhiteWin,
            1 => Outcome::BlackWin,
            2 => Outcome::Draw,
            _ => Outcome::Pending,
        }
    }

    proptest! {
        #[test]
        fn points_sum_to_the_results(
            n in 2usize..9,
            results in proptest::collection::vec(0u8..4, 0..40),
        ) {
            let rr = crate::tournament::pairing::round_robin(n, true);
            let boards: Vec<Board> = rr.iter().flatten().zip(results.iter().cycle())
                .map(|(p, &k)| Board { white: p.white, black: p.black, outcome: outcome_of(k) })
                .collect();
            for system in [System::RoundRobin, System::Swiss] {
                let rows = standings(n, &boards, system);
                let total: f64 = rows.iter().map(|r| r.points).sum();
                let decided = boards.iter().filter(|b| b.black.is_some() && b.outcome.is_over()).count();
                let byes = boards.iter().filter(|b| b.black.is_none()).count();
                let bye_value = if system == System::Swiss { 1.0 } else { 0.0 };
                prop_assert_eq!(total, decided as f64 + bye_value * byes as f64);
                for r in &rows {
                    prop_assert_eq!(r.games, r.wins + r.draws + r.losses);
                    prop_assert!(r.sonneborn_berger <= r.buchholz + 1e-9);
                }
                // Ranks never decrease down the table, and the points do not increase.
                for w in rows.windows(2) {
                    prop_assert!(w[0].rank <= w[1].rank);
                    prop_assert!(w[0].points >= w[1].points);
                }
            }
            let games: Vec<ArenaGame> = boards.iter().filter_map(|b| b.black.map(|bl| ArenaGame { white: b.white, black: bl, outcome: b.outcome, ratings: [None, None], berserk: [false, false], plies: 40 })).collect();
            let rows = arena_standings(n, &games);
            let decided = games.iter().filter(|g| g.outcome.is_over()).count() as u32;
            prop_assert_eq!(rows.iter().map(|r| r.games).sum::<u32>(), 2 * decided);
            for r in &rows {
                prop_assert_eq!(r.sheet.iter().sum::<u32>(), r.score);
                // Without streaks a player would have 2 per win and 1 per draw; streaks only add.
                prop_assert!(r.score >= 2 * r.wins + r.draws);
                prop_assert!(r.score <= 4 * r.wins + 2 * r.draws);
            }
        }
    }
}
