//! The judge: whether a position has exactly one winning move, by a search
//! at a fixed depth (MultiPV 2) or by the endgame tables, and the lines the
//! miner builds and the checker re-checks with it.
//!
//! Every search starts from a fresh transposition table on one thread, so a
//! verdict depends only on the position and the depth: `puzzles check`
//! repeats the miner's verdicts exactly.

use crate::material::{balance, needs_tables};
use engine::{Game, Limits, MakhosGame, MakrukGame, Score, SearchOptions, TableValue, Tablebase};
use games::{AnyMove, AnyPosition, Color};
use std::sync::atomic::AtomicBool;

/// A winning score: the best move must reach at least this (centipawns, or
/// centi-men in Mak-hot), about a minor piece in Makruk and two men in Mak-hot.
pub const WIN: i32 = 300;
/// Every other move must score at most this (a plain edge, not a win): the
/// best move is then at least `WIN - OTHERS_MAX` = 200 better than any other.
pub const OTHERS_MAX: i32 = 100;
/// Scores at or beyond this are decided: mates and table wins (the static
/// evaluation never reaches it).
pub const DECIDED: i32 = 20_000;
/// Material (in the units of [`crate::material`]) the solver must have gained
/// over the puzzle's start, after the opponent's best reply to the last
/// solution move, for a line to end on a won material situation.
pub const CASHED: i32 = 200;
/// Most solver moves in a line.
pub const MAX_SOLVER_MOVES: usize = 5;
/// The score the judge gives a move the tables call won.
const TABLE_WIN: i32 = 29_000;
/// Transposition table of each search, in MiB.
const TT_MIB: usize = 2;

/// What a position is worth to its side to move, as a puzzle step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one move wins clearly.
    Unique {
        /// The move, in engine form.
        mv: String,
        /// Its score (side to move's view).
        score: i32,
        /// The first depth from which the search kept this move on top
        /// (1 for the tables).
        found_at: u32,
    },
    /// No move wins clearly.
    NotWinning,
    /// More than one move wins (or scores above [`OTHERS_MAX`]).
    Several,
    /// A position the engine cannot decide (few pieces or a running count,
    /// and neither a mate score nor tables).
    Undecided,
    /// The side to move has no legal move.
    NoMoves,
}

/// Classifies the best lines of a MultiPV search (best first, each a move and
/// its score from the side to move's view): the rule of "one move wins
/// clearly and every other move does not". `decided_only` asks for a mate or
/// table score (positions the engine alone cannot judge).
pub fn classify(lines: &[(String, i32)], found_at: u32, decided_only: bool) -> Verdict {
    let Some((mv, score)) = lines.first() else {
        return Verdict::NoMoves;
    };
    if *score < WIN {
        return Verdict::NotWinning;
    }
    if lines.get(1).is_some_and(|(_, s)| *s > OTHERS_MAX) {
        return Verdict::Several;
    }
    if decided_only && *score < DECIDED {
        return Verdict::Undecided;
    }
    Verdict::Unique {
        mv: mv.clone(),
        score: *score,
        found_at,
    }
}

/// The internal score of a reported one (mates as `MATE - plies`).
fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => engine::MATE - (2 * m - 1),
        Score::Mate(m) => -engine::MATE + 2 * (-m),
    }
}

/// Endgame tables the judge may consult, per game.
#[derive(Clone, Copy, Default)]
pub struct Tables<'a> {
    /// Makruk or Ouk Chatrang tables (of the variant mined).
    pub makruk: Option<&'a dyn Tablebase<MakrukGame>>,
    /// Mak-hot tables (of the rules mined).
    pub makhos: Option<&'a dyn Tablebase<MakhosGame>>,
}

/// A finished solution: the moves (solver's first and last) and facts the
/// themes and the rating read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves in engine form.
    pub moves: Vec<String>,
    /// The depth from which the search kept the first move on top.
    pub found_at: u32,
    /// Whether the last move mates (leaves the opponent lost without a move).
    pub mates: bool,
}

/// The judge: a fixed search depth and optional tables.
#[derive(Clone, Copy)]
pub struct Judge<'a> {
    /// The search depth of every verdict.
    pub depth: u32,
    /// Tables that decide the positions they hold.
    pub tables: Tables<'a>,
}

/// The engine's view of a position of either game.
enum EngineGame {
    Makruk(MakrukGame),
    Makhos(MakhosGame),
}

fn engine_game(pos: &AnyPosition) -> EngineGame {
    match pos {
        AnyPosition::Makruk(p) => EngineGame::Makruk(MakrukGame::new(p.clone())),
        AnyPosition::Makhos {
            position, rules, ..
        } => EngineGame::Makhos(MakhosGame::new(*position, *rules, 0)),
    }
}

/// Lines of a MultiPV search at `depth`, best first, and the first depth from
/// which the top move stayed the final one (self-play picks its moves with
/// it too).
pub(crate) fn search_lines<G: Game>(
    g: &G,
    depth: u32,
    multipv: usize,
    tables: Option<&dyn Tablebase<G>>,
) -> (Vec<(String, i32)>, u32) {
    let mut tt = engine::Tt::new(TT_MIB);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let opts = SearchOptions {
        multipv,
        ..SearchOptions::default()
    };
    let mut lines: Vec<(u32, String, i32)> = Vec::new();
    let mut tops: Vec<(u32, String)> = Vec::new();
    let result =
        engine::search_with_tables(g, &[], &mut tt, &limits, &opts, tables, &stop, |info| {
            let Some(first) = info.pv.first() else { return };
            if info.multipv == 1 {
                tops.push((info.depth, first.clone()));
                lines.retain(|(d, _, _)| *d == info.depth);
            }
            lines.push((info.depth, first.clone(), internal(info.score)));
        });
    // A root with a single legal move answers without an iteration report.
    if lines.is_empty()
        && let Some(best) = result.best
    {
        return (vec![(G::move_text(best), result.score)], 1);
    }
    let last = lines.last().map_or(0, |l| l.0);
    let mut best: Vec<(String, i32)> = lines
        .into_iter()
        .filter(|l| l.0 == last)
        .map(|l| (l.1, l.2))
        .collect();
    best.sort_by_key(|b| std::cmp::Reverse(b.1));
    let mut found_at = last.max(1);
    if let Some((top, _)) = best.first() {
        for (d, m) in tops.iter().rev() {
            if m != top {
                break;
            }
            found_at = *d;
        }
    }
    (best, found_at)
}

/// The tables' verdict on `g`: `None` when they do not cover it.
fn table_verdict<G: Game>(g: &G, tables: &dyn Tablebase<G>) -> Option<Verdict> {
    if !tables.covers(g) {
        return None;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if moves.is_empty() {
        return Some(Verdict::NoMoves);
    }
    let mut winners = Vec::new();
    for m in moves {
        let child = g.play(m);
        let mut replies = Vec::new();
        child.legal_moves(&mut replies);
        let won = if replies.is_empty() {
            child.no_moves_loses()
        } else {
            match tables.probe(&child) {
                Some(TableValue::Mated(_) | TableValue::Loses(_)) => true,
                Some(_) => false,
                None => return Some(Verdict::Undecided),
            }
        };
        if won {
            winners.push(G::move_text(m));
        }
    }
    Some(match winners.as_slice() {
        [] => Verdict::NotWinning,
        [one] => Verdict::Unique {
            mv: one.clone(),
            score: TABLE_WIN,
            found_at: 1,
        },
        _ => Verdict::Several,
    })
}

/// Whether the tables call the side to move of `g` lost (`None`: not covered).
fn table_lost<G: Game>(g: &G, tables: Option<&dyn Tablebase<G>>) -> Option<bool> {
    let tables = tables?;
    if !tables.covers(g) {
        return None;
    }
    tables
        .probe(g)
        .map(|v| matches!(v, TableValue::Mated(_) | TableValue::Loses(_)))
}

/// Whether the side to move has no legal move and thereby loses.
pub fn is_lost_terminal(pos: &AnyPosition) -> bool {
    fn lost<G: Game>(g: &G) -> bool {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.is_empty() && g.no_moves_loses()
    }
    match engine_game(pos) {
        EngineGame::Makruk(g) => lost(&g),
        EngineGame::Makhos(g) => lost(&g),
    }
}

impl Judge<'_> {
    /// The verdict on `pos` for its side to move.
    pub fn verdict(&self, pos: &AnyPosition) -> Verdict {
        let decided_only = needs_tables(pos);
        match engine_game(pos) {
            EngineGame::Makruk(g) => self.verdict_of(&g, self.tables.makruk, decided_only),
            EngineGame::Makhos(g) => self.verdict_of(&g, self.tables.makhos, decided_only),
        }
    }

    fn verdict_of<G: Game>(
        &self,
        g: &G,
        tables: Option<&dyn Tablebase<G>>,
        decided_only: bool,
    ) -> Verdict {
        if let Some(v) = tables.and_then(|t| table_verdict(g, t)) {
            return v;
        }
        let (lines, found_at) = search_lines(g, self.depth, 2, tables);
        classify(&lines, found_at, decided_only)
    }

    /// The best move of the side to move and its score, `None` without a move.
    pub fn best(&self, pos: &AnyPosition) -> Option<(String, i32)> {
        fn best<G: Game>(
            g: &G,
            depth: u32,
            tables: Option<&dyn Tablebase<G>>,
        ) -> Option<(String, i32)> {
            search_lines(g, depth, 1, tables).0.into_iter().next()
        }
        match engine_game(pos) {
            EngineGame::Makruk(g) => best(&g, self.depth, self.tables.makruk),
            EngineGame::Makhos(g) => best(&g, self.depth, self.tables.makhos),
        }
    }

    /// Whether the line may end after a solver's move, in `pos` (the opponent
    /// to move), the puzzle having started in `start`: the opponent is mated
    /// (or has no move and loses), the tables call the opponent lost, or after
    /// the opponent's best reply the solver keeps a winning score and has
    /// gained at least [`CASHED`] material over the start.
    pub fn decided(&self, start: &AnyPosition, pos: &AnyPosition) -> bool {
        if is_lost_terminal(pos) {
            return true;
        }
        let lost = match engine_game(pos) {
            EngineGame::Makruk(g) => table_lost(&g, self.tables.makruk),
            EngineGame::Makhos(g) => table_lost(&g, self.tables.makhos),
        };
        if let Some(lost) = lost {
            return lost;
        }
        if needs_tables(pos) {
            return false;
        }
        let solver = start.turn();
        let Some((reply, score)) = self.best(pos) else {
            return false;
        };
        if score > -WIN {
            return false;
        }
        let mut after = pos.clone();
        let Ok(mv) = after.parse_engine(&reply) else {
            return false;
        };
        if after.play(&mv).is_err() {
            return false;
        }
        balance(&after, solver) - balance(start, solver) >= CASHED
    }

    /// The unique winning line from `start`, or `None`: the first move not
    /// forced (two legal moves at least), every solver move the
    /// only clear win ([`Judge::verdict`]), every reply the engine's best, up to
    /// [`MAX_SOLVER_MOVES`], ending on a decided position ([`Judge::decided`]).
    pub fn solve(&self, start: &AnyPosition) -> Option<Line> {
        if start.legal_moves().len() < 2 {
            return None;
        }
        let mut pos = start.clone();
        let mut moves: Vec<String> = Vec::new();
        let mut found_at = 0;
        for step in 0..MAX_SOLVER_MOVES {
            let Verdict::Unique {
                mv, found_at: f, ..
            } = self.verdict(&pos)
            else {
                return None;
            };
            if step == 0 {
                found_at = f;
            }
            play(&mut pos, &mv)?;
            moves.push(mv);
            if self.decided(start, &pos) {
                return Some(Line {
                    mates: is_lost_terminal(&pos),
                    moves,
                    found_at,
                });
            }
            let (reply, _) = self.best(&pos)?;
            play(&mut pos, &reply)?;
            moves.push(reply);
        }
        None
    }

    /// Re-checks a solution from `start`: the first move is not forced, every
    /// solver move is the judge's
    /// unique winning move, every move legal, and the last one reaches a decided
    /// position. The error names the first move that fails and why.
    pub fn check(&self, start: &AnyPosition, solution: &[String]) -> Result<(), String> {
        if start.legal_moves().len() < 2 {
            return Err("the first move is the only legal move".into());
        }
        let mut pos = start.clone();
        for (i, mv) in solution.iter().enumerate() {
            if i % 2 == 0 {
                match self.verdict(&pos) {
                    Verdict::Unique { mv: best, .. } if best == *mv => {}
                    Verdict::Unique { mv: best, .. } => {
                        return Err(format!(
                            "move {} ({mv}): the only winning move is {best}",
                            i + 1
                        ));
                    }
                    other => {
                        return Err(format!(
                            "move {} ({mv}): not a unique win ({})",
                            i + 1,
                            describe(&other)
                        ));
                    }
                }
            }
            play(&mut pos, mv).ok_or_else(|| format!("move {} ({mv}) is not legal", i + 1))?;
        }
        if solution.len() % 2 == 0 {
            return Err("the solution ends on a reply".into());
        }
        if !self.decided(start, &pos) {
            return Err("the solution does not end on a decided position".into());
        }
        Ok(())
    }
}

/// A verdict in words, for errors.
pub fn describe(v: &Verdict) -> &'static str {
    match v {
        Verdict::Unique { .. } => "one winning move",
        Verdict::NotWinning => "no move wins clearly",
        Verdict::Several => "more than one move wins",
        Verdict::Undecided => "neither the engine nor the tables can decide it",
        Verdict::NoMoves => "no legal move",
    }
}

/// Plays an engine-form move, `None` if it is not legal.
fn play(pos: &mut AnyPosition, text: &str) -> Option<AnyMove> {
    let mv = pos.parse_engine(text).ok()?;
    pos.play(&mv).ok()?;
    Some(mv)
}

/// The side that solves a puzzle starting in `pos`.
pub fn solver(pos: &AnyPosition) -> Color {
    pos.turn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameKind;

    fn lines(scores: &[i32]) -> Vec<(String, i32)> {
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("m{i}"), *s))
            .collect()
    }

    #[test]
    fn one_clear_win_is_unique_and_a_second_win_or_an_edge_is_not() {
        assert!(matches!(
            classify(&lines(&[450, 20]), 3, false),
            Verdict::Unique {
                score: 450,
                found_at: 3,
                ..
            }
        ));
        assert!(matches!(
            classify(&lines(&[29_990, OTHERS_MAX]), 1, true),
            Verdict::Unique { .. }
        ));
        assert_eq!(classify(&lines(&[450, 350]), 3, false), Verdict::Several);
        assert_eq!(
            classify(&lines(&[29_990, OTHERS_MAX + 1]), 3, false),
            Verdict::Several
        );
        assert_eq!(
            classify(&lines(&[WIN - 1, -500]), 3, false),
            Verdict::NotWinning
        );
        assert_eq!(classify(&lines(&[]), 3, false), Verdict::NoMoves);
        // A single legal move that wins is unique.
        assert!(matches!(
            classify(&lines(&[400]), 2, false),
            Verdict::Unique { .. }
        ));
        // Few pieces: a centipawn win is not enough, a mate is.
        assert_eq!(classify(&lines(&[900, 0]), 3, true), Verdict::Undecided);
    }

    #[test]
    fn mate_scores_convert_to_internal_scores() {
        assert_eq!(internal(Score::Mate(1)), engine::MATE - 1);
        assert_eq!(internal(Score::Mate(-2)), -engine::MATE + 4);
        assert_eq!(internal(Score::Cp(-35)), -35);
    }

    fn makruk(fen: &str) -> AnyPosition {
        AnyPosition::from_fen(GameKind::MAKRUK, fen).unwrap()
    }

    #[test]
    fn a_back_rank_mate_is_the_only_win_and_is_found_and_checked() {
        // The white rook mates on a8 (the khun on g6 takes g7, h7); black is up
        // a met, a ma and four bias, so nothing else wins.
        let start = makruk("7k/8/1m4K1/3ppp2/3p4/3n4/8/R7 w - - 0 1");
        let judge = Judge {
            depth: 5,
            tables: Tables::default(),
        };
        let line = judge.solve(&start).expect("a mate in one");
        assert_eq!(line.moves, ["a1a8"]);
        assert!(line.mates);
        judge.check(&start, &line.moves).unwrap();
        let err = judge.check(&start, &["a1a7".to_string()]).unwrap_err();
        assert!(err.contains("the only winning move is a1a8"), "{err}");
    }

    #[test]
    fn two_mates_in_one_are_refused() {
        // Two rooks, each mates on the eighth rank: two winning moves.
        let start = makruk("7k/8/1m4K1/3ppp2/3p4/3n4/8/R1R5 w - - 0 1");
        let judge = Judge {
            depth: 5,
            tables: Tables::default(),
        };
        assert_eq!(judge.verdict(&start), Verdict::Several);
        assert_eq!(judge.solve(&start), None);
    }

    #[test]
    fn a_forced_first_move_is_no_puzzle() {
        // Mak-hot: the white man must take the last black piece, its only move.
        let start = AnyPosition::from_fen(GameKind::MAKHOS, "W:Wa3:BKb4").unwrap();
        let judge = Judge {
            depth: 4,
            tables: Tables::default(),
        };
        assert!(matches!(judge.verdict(&start), Verdict::Unique { .. }));
        assert_eq!(judge.solve(&start), None);
        let err = judge.check(&start, &["a3c5".to_string()]).unwrap_err();
        assert!(err.contains("only legal move"), "{err}");
    }
}
