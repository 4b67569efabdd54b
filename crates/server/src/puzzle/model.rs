//! Puzzles, the pure part: what a puzzle is once stored, the answers of the
//! API in lichess's puzzle shape, the judge of a round's moves, the rating
//! of a round, and the daily choice. No I/O.

use crate::ratings::{Rating, ShownRating, duel};
use games::{AnyGame, AnyPosition, Color, GameKind};
use serde::Serialize;

/// Longest theme name accepted in a query.
pub const MAX_THEME: usize = 32;

/// Most moves a round may report (a solution is never longer than a line of
/// the set allows; this only bounds the work).
pub const MAX_ROUND_MOVES: usize = 64;

/// Longest text of one move in a round (a Mak-hot capture of every piece
/// names 13 squares: 26 characters).
pub const MAX_MOVE_TEXT: usize = 40;

/// A puzzle as stored: its set line and its rating now.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    /// Its id.
    pub id: String,
    /// The game and rule option.
    pub kind: GameKind,
    /// The position before the solver's first move.
    pub fen: String,
    /// The solver's moves and the replies between them, in engine form.
    pub solution: Vec<String>,
    /// Theme names.
    pub themes: Vec<String>,
    /// Where it came from; empty when unknown.
    pub source: String,
    /// Its Glicko-2 rating.
    pub rating: Rating,
    /// How many rated rounds were played on it.
    pub plays: i64,
}

/// The `game` part of an answer: the game the puzzle is from, as far as we
/// know it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameInfo {
    /// The variant (`makruk`, `cambodian`, `makhos`).
    pub variant: &'static str,
    /// The rule option (`default`, `no-reverse`).
    pub rules: &'static str,
    /// The game's name as shown (lichess's `perf.name`).
    pub name: &'static str,
    /// Where the position came from (a game's address, a match), or null.
    pub source: Option<String>,
}

/// The `puzzle` part of an answer, lichess's fields plus the start position.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PuzzleInfo {
    /// Its id.
    pub id: String,
    /// The position before the solver's first move.
    pub fen: String,
    /// The side that solves (`white` or `black`).
    pub color: &'static str,
    /// The solver's moves and the replies, in engine form (UCI; Mak-hot `c3e5g7`).
    pub solution: Vec<String>,
    /// Theme names.
    pub themes: Vec<String>,
    /// Its rating, rounded.
    pub rating: i32,
    /// Rated rounds played on it.
    pub plays: i64,
    /// The plies played before `fen` (from its move number; 0 when the
    /// position carries none and White is to move).
    pub initial_ply: u32,
}

/// An answer of `GET /api/puzzle/...`: the game, the puzzle and, for a
/// signed-in player, their puzzle rating in this game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PuzzleAnswer {
    /// The game.
    pub game: GameInfo,
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// The player's puzzle rating; null for guests and visitors.
    pub user: Option<ShownRating>,
}

impl StoredPuzzle {
    /// The answer for this puzzle, with the player's rating if any.
    pub fn answer(&self, user: Option<Rating>) -> PuzzleAnswer {
        let position = AnyPosition::from_fen(self.kind, &self.fen).ok();
        let turn = position.as_ref().map_or(Color::White, AnyPosition::turn);
        let black = u32::from(turn == Color::Black);
        let initial_ply = position
            .as_ref()
            .map_or(black, |p| p.fullmove().saturating_sub(1) * 2 + black);
        PuzzleAnswer {
            game: GameInfo {
                variant: self.kind.variant_name(),
                rules: self.kind.rules_name(),
                name: self.kind.display_name(),
                source: (!self.source.is_empty()).then(|| self.source.clone()),
            },
            puzzle: PuzzleInfo {
                id: self.id.clone(),
                fen: self.fen.clone(),
                color: if turn == Color::White {
                    "white"
                } else {
                    "black"
                },
                solution: self.solution.clone(),
                themes: self.themes.clone(),
                rating: self.rating.shown(),
                plays: self.plays,
                initial_ply,
            },
            user: user.map(ShownRating::from),
        }
    }
}

/// Judges the moves a solver reports, played from the puzzle's position:
/// `Ok(true)` when they solve it, `Ok(false)` when the last of them is the
/// solver's wrong move, or what is wrong with them (an illegal move, a
/// reply that is not the puzzle's, moves after a wrong one, too few moves).
///
/// A solver's move is right when it is the solution's, or, as lichess
/// accepts another mate on the last move, when it is the last solver move
/// and wins the game outright.
pub fn judge(puzzle: &StoredPuzzle, moves: &[String]) -> Result<bool, String> {
    if moves.is_empty() {
        return Err("moves: no move; send the moves played, or win".into());
    }
    if moves.len() > MAX_ROUND_MOVES {
        return Err(format!("moves: more than {MAX_ROUND_MOVES}"));
    }
    if let Some(i) = moves.iter().position(|m| m.len() > MAX_MOVE_TEXT) {
        return Err(format!(
            "move {}: longer than {MAX_MOVE_TEXT} characters",
            i + 1
        ));
    }
    let position = AnyPosition::from_fen(puzzle.kind, &puzzle.fen)
        .map_err(|e| format!("the puzzle's position does not read: {e}"))?;
    let solver = position.turn();
    let mut game = AnyGame::from_position(position);
    for (i, text) in moves.iter().enumerate() {
        let n = i + 1;
        let Some(expected) = puzzle.solution.get(i) else {
            return Err(format!(
                "moves: {} sent, the solution has {}",
                moves.len(),
                puzzle.solution.len()
            ));
        };
        game.play_engine(text)
            .map_err(|e| format!("move {n} ({text}) is not legal: {e}"))?;
        if i % 2 == 1 {
            if text != expected {
                return Err(format!(
                    "move {n} ({text}) is not the puzzle's reply ({expected})"
                ));
            }
            continue;
        }
        let last_solver_move = i + 1 == puzzle.solution.len();
        let wins = game.outcome().is_some_and(|o| o.winner == Some(solver));
        let right = text == expected || (last_solver_move && wins);
        if !right {
            return if n == moves.len() {
                Ok(false)
            } else {
                Err(format!("moves after the wrong move {n} ({text})"))
            };
        }
    }
    if moves.len() < puzzle.solution.len() {
        return Err(format!(
            "moves: {} of the solution's {} and no wrong one: the puzzle is not finished",
            moves.len(),
            puzzle.solution.len()
        ));
    }
    Ok(true)
}

/// The new ratings of the player and the puzzle after a round: the player
/// beat the puzzle (`win`) or lost to it, one Glicko-2 period each, as
/// lichess rates puzzles.
pub fn rate_round(player: Rating, puzzle: Rating, win: bool) -> (Rating, Rating) {
    duel(player, puzzle, win)
}

/// A theme of a query: `None` for none; letters and digits only.
pub fn clean_theme(theme: Option<&str>) -> Result<Option<String>, String> {
    match theme.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) if t.len() <= MAX_THEME && t.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Ok(Some(t.to_string()))
        }
        Some(t) => Err(format!(
            "theme {t:?}: expected 1 to {MAX_THEME} ASCII letters and digits"
        )),
    }
}

/// The UTC day of `now_ms`, `2026-11-28`: the daily puzzle's key.
pub fn day_of(now_ms: i64) -> String {
    jiff::Timestamp::from_millisecond(now_ms)
        .map(|t| t.to_string()[..10].to_string())
        .unwrap_or_else(|_| "1970-01-01".into())
}

/// Which of `n` candidates is the daily puzzle of `kind` on `day`: a hash
/// of both, so that it does not follow the ids' order.
pub fn daily_index(day: &str, kind: GameKind, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let digest = crate::infra::util::sha256_hex(&format!("{day}/{kind}"));
    let top = u64::from_str_radix(&digest[..15], 16).unwrap_or(0);
    (top % n as u64) as usize
}

/// The ids of up to `want` puzzles of a streak, out of `ids` sorted by
/// rating: spread evenly from the easiest to the hardest, so the streak's
/// ratings rise.
pub fn streak_pick(ids: &[String], want: usize) -> Vec<String> {
    if ids.len() <= want {
        return ids.to_vec();
    }
    (0..want)
        .map(|i| ids[i * (ids.len() - 1) / (want - 1).max(1)].clone())
        .collect()
}

/// A streak run as the server keeps it: the puzzles it issued, in order,
/// and how many of them it saw solved.
#[derive(Clone, Debug, PartialEq)]
pub struct StreakRun {
    /// The puzzle ids, in the order they are played.
    pub puzzles: Vec<String>,
    /// How many were solved, in order: the run's score.
    pub solved: usize,
    /// Ended: by a failed round, or by solving every puzzle.
    pub ended: bool,
}

/// What a round posted in a streak run does.
#[derive(Clone, Debug, PartialEq)]
pub enum StreakStep {
    /// The run's next puzzle, solved: the score rises by one (and the run
    /// ends when it was the last one).
    Solved,
    /// The run's next puzzle, failed: the run ends with its score.
    Failed,
    /// The round already counted, sent again (a double click, a retry):
    /// nothing changes.
    Again,
}

impl StreakRun {
    /// The puzzle the run waits for, if it goes on.
    pub fn next(&self) -> Option<&str> {
        (!self.ended)
            .then(|| self.puzzles.get(self.solved).map(String::as_str))
            .flatten()
    }

    /// What a round on `puzzle`, judged `win`, does to the run, or why it
    /// does not belong to it (a code and a reason). Only the run's next
    /// puzzle counts, once: the score is what the server saw, never a
    /// number the client sends.
    pub fn step(&self, puzzle: &str, win: bool) -> Result<StreakStep, (&'static str, String)> {
        if let Some(next) = self.next() {
            if puzzle == next {
                return Ok(if win {
                    StreakStep::Solved
                } else {
                    StreakStep::Failed
                });
            }
        }
        // The round that last changed the run, sent again with the same result.
        let failed_here = self.ended && self.puzzles.get(self.solved).is_some_and(|p| p == puzzle);
        let solved_last = self.solved > 0 && self.puzzles[self.solved - 1] == puzzle;
        if (failed_here && !win) || (solved_last && win) {
            return Ok(StreakStep::Again);
        }
        if !self.puzzles.iter().any(|p| p == puzzle) {
            return Err((
                "not_in_run",
                format!("puzzle {puzzle:?} is not one of this streak's"),
            ));
        }
        Err(match self.next() {
            Some(next) => (
                "not_next",
                format!(
                    "puzzle {puzzle:?} is not the streak's next one ({next:?}, after {} solved)",
                    self.solved
                ),
            ),
            None => (
                "streak_over",
                format!("this streak is over, with {} solved", self.solved),
            ),
        })
    }

    /// The run after a step.
    pub fn after(&self, step: &StreakStep) -> StreakRun {
        let mut run = self.clone();
        match step {
            StreakStep::Solved => {
                run.solved += 1;
                run.ended = run.solved >= run.puzzles.len();
            }
            StreakStep::Failed => run.ended = true,
            StreakStep::Again => {}
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(kind: GameKind, fen: &str, solution: &str) -> StoredPuzzle {
        StoredPuzzle {
            id: "test1".into(),
            kind,
            fen: fen.into(),
            solution: solution.split(' ').map(str::to_string).collect(),
            themes: vec!["mateIn2".into()],
            source: String::new(),
            rating: Rating::default(),
            plays: 0,
        }
    }

    fn moves(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn the_judge_knows_right_wrong_and_bad_moves() {
        let p = puzzle(
            GameKind::MAKRUK,
            "6k1/8/6nK/5R2/8/5P2/8/8 w - - 0 1",
            "h6g6 g8h8 f5f8",
        );
        assert_eq!(judge(&p, &moves("h6g6 g8h8 f5f8")), Ok(true));
        assert_eq!(judge(&p, &moves("f5f4")), Ok(false));
        assert_eq!(judge(&p, &moves("h6g6 g8h8 f5f7")), Ok(false));
        assert!(
            judge(&p, &moves("h6g6"))
                .unwrap_err()
                .contains("not finished")
        );
        assert!(judge(&p, &moves("h6h1")).unwrap_err().contains("not legal"));
        assert!(
            judge(&p, &moves("f5f4 g8h8"))
                .unwrap_err()
                .contains("after the wrong")
        );
        assert!(judge(&p, &[]).is_err());
        let long = judge(&p, &["a".repeat(5000)]).unwrap_err();
        assert!(long.len() < 100 && long.contains("longer than"), "{long}");
    }

    #[test]
    fn another_mate_on_the_last_move_is_right() {
        // Two rooks: h1h8 and h1a1 both mate; the solution names one.
        let p = puzzle(GameKind::MAKRUK, "k7/1R6/2K5/8/8/8/8/7R w - - 0 1", "h1h8");
        assert_eq!(judge(&p, &moves("h1a1")), Ok(true));
        assert_eq!(judge(&p, &moves("h1h2")), Ok(false));
    }

    #[test]
    fn the_answer_has_lichess_fields_and_the_solver() {
        let p = puzzle(
            GameKind::MAKRUK,
            "6k1/8/6nK/5R2/8/5P2/8/8 b - - 0 21",
            "g8h8",
        );
        let a = p.answer(None);
        assert_eq!(a.puzzle.color, "black");
        assert_eq!(a.puzzle.initial_ply, 41);
        assert_eq!(a.game.variant, "makruk");
        assert_eq!(a.game.source, None);
        let v = serde_json::to_value(&a).unwrap();
        assert!(v["puzzle"]["initialPly"].is_number(), "{v}");
    }

    #[test]
    fn a_win_raises_the_player_and_lowers_the_puzzle() {
        let (p, z) = rate_round(Rating::default(), Rating::default(), true);
        assert!(p.rating > 1500.0 && z.rating < 1500.0);
        let (p, z) = rate_round(Rating::default(), Rating::default(), false);
        assert!(p.rating < 1500.0 && z.rating > 1500.0);
    }

    #[test]
    fn a_streak_counts_its_next_puzzle_once_and_ends_at_a_failure() {
        let run = StreakRun {
            puzzles: moves("p1 p2 p3"),
            solved: 0,
            ended: false,
        };
        assert_eq!(run.step("p1", true), Ok(StreakStep::Solved));
        let run = run.after(&StreakStep::Solved);
        assert_eq!(run.solved, 1);
        // The same round again counts nothing; a later puzzle is not the next.
        assert_eq!(run.step("p1", true), Ok(StreakStep::Again));
        assert_eq!(run.step("p3", true).unwrap_err().0, "not_next");
        assert_eq!(run.step("zz", true).unwrap_err().0, "not_in_run");
        // p1 failed now is not a replay of its solved round.
        assert_eq!(run.step("p1", false).unwrap_err().0, "not_next");
        assert_eq!(run.step("p2", false), Ok(StreakStep::Failed));
        let run = run.after(&StreakStep::Failed);
        assert!(run.ended && run.solved == 1 && run.next().is_none());
        assert_eq!(run.step("p2", false), Ok(StreakStep::Again));
        assert_eq!(run.step("p2", true).unwrap_err().0, "streak_over");
        assert_eq!(run.step("p3", true).unwrap_err().0, "streak_over");
        // Every puzzle solved ends the run.
        let all = StreakRun {
            puzzles: moves("p1"),
            solved: 0,
            ended: false,
        }
        .after(&StreakStep::Solved);
        assert!(all.ended && all.solved == 1);
        assert_eq!(all.step("p1", true), Ok(StreakStep::Again));
    }

    #[test]
    fn days_themes_dailies_and_streaks() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(1_795_824_000_000), "2026-11-28");
        assert_eq!(clean_theme(Some("mateIn2")), Ok(Some("mateIn2".into())));
        assert_eq!(clean_theme(Some("")), Ok(None));
        assert!(clean_theme(Some("mate-in-2")).is_err());
        let i = daily_index("2026-11-28", GameKind::MAKRUK, 10);
        assert_eq!(i, daily_index("2026-11-28", GameKind::MAKRUK, 10));
        assert!(i < 10);
        let ids: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(streak_pick(&ids, 3), ["0", "4", "9"]);
        assert_eq!(streak_pick(&ids[..2], 3), ["0", "1"]);
    }
}
