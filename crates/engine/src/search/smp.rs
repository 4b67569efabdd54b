//! Lazy SMP: helper threads that search the same root over the shared
//! table, each with its own iterative deepening and aspiration windows, and
//! the vote that picks which thread's line is played.
//!
//! The helpers help in two ways: their table entries cut the main thread's
//! tree, and a helper that finishes a deeper iteration than the main thread
//! can supply the move (see [`pick`]).

use super::memory::ThreadMemory;
use super::params::{ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, SearchParams};
use super::score::{DECIDED_BOUND, INF, MATE_BOUND};
use super::state::{Searcher, new_searcher};
use crate::game::Game;
use crate::tables::Tablebase;
use crate::tt::Tt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What one thread's last completed iteration found.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Finding<M> {
    /// The iteration's depth.
    pub(super) depth: u32,
    /// Its deepest ply.
    pub(super) seldepth: u32,
    /// Its score (side to move's view).
    pub(super) score: i32,
    /// Its principal variation (never empty).
    pub(super) pv: Vec<M>,
}

/// One iteration at `depth`: a window `prev` ± the aspiration delta around
/// the last iteration's score (from [`ASPIRATION_MIN_DEPTH`], unless that
/// score is decided), each failing side doubled until it opens fully; a full
/// window without `prev`. The score means nothing once `s.stopped`.
pub(super) fn aspiration_search<G: Game>(
    s: &mut Searcher<'_, G>,
    root: &G,
    depth: u32,
    prev: Option<i32>,
) -> i32 {
    let (mut alpha, mut beta, mut delta) = match prev {
        Some(p) if depth >= ASPIRATION_MIN_DEPTH && p.abs() < DECIDED_BOUND => {
            let delta = s.params.aspiration_delta;
            (p - delta, p + delta, delta)
        }
        _ => (-INF, INF, INF),
    };
    loop {
        let score = s.negamax(root, depth as i32, alpha, beta, 0, true, false);
        if s.stopped {
            return score;
        }
        if score <= alpha && alpha > -INF {
            delta *= 2;
            alpha = if delta > ASPIRATION_MAX_DELTA {
                -INF
            } else {
                (score - delta).max(-INF)
            };
        } else if score >= beta && beta < INF {
            delta *= 2;
            beta = if delta > ASPIRATION_MAX_DELTA {
                INF
            } else {
                (score + delta).min(INF)
            };
        } else {
            return score;
        }
    }
}

/// What every helper of one search shares: the root and its history, the
/// tables, the root moves searched (`go searchmoves` codes; empty: all), the
/// deepest iteration wanted, and the signal that ends the helpers.
pub(super) struct HelperJob<'a, G: Game> {
    pub(super) root: &'a G,
    pub(super) history: &'a [u64],
    pub(super) tt: &'a Tt,
    pub(super) tables: Option<&'a dyn Tablebase<G>>,
    pub(super) root_only: &'a [u64],
    pub(super) max_depth: u32,
    pub(super) stop: &'a AtomicBool,
    /// Nodes of all helpers, added after each iteration.
    pub(super) nodes: &'a AtomicU64,
    /// The tunable numbers of the search.
    pub(super) params: &'a SearchParams,
}

/// A helper: iterative deepening with aspiration windows until the job's
/// `stop`, writing each completed iteration into `finding`, starting from
/// the histories in `memory` and leaving there what it learnt.
pub(super) fn helper_search<G: Game>(
    job: &HelperJob<'_, G>,
    finding: &Mutex<Option<Finding<G::Move>>>,
    memory: &mut ThreadMemory,
) {
    let mut s = new_searcher::<G>(
        job.tt,
        job.tables,
        job.stop,
        job.history,
        None,
        None,
        None,
        job.params,
        std::mem::take(memory),
    );
    s.root_only = job.root_only.to_vec();
    let mut counted = 0;
    let mut prev = None;
    for depth in 1..=job.max_depth {
        s.seldepth = 0;
        let score = aspiration_search(&mut s, job.root, depth, prev);
        job.nodes.fetch_add(s.nodes - counted, Ordering::Relaxed);
        counted = s.nodes;
        if s.stopped || s.pv[0].is_empty() {
            break;
        }
        prev = Some(score);
        let found = Finding {
            depth,
            seldepth: s.seldepth as u32,
            score,
            pv: s.pv[0].clone(),
        };
        // A poisoned lock means a helper panicked: its finding is dropped.
        if let Ok(mut slot) = finding.lock() {
            *slot = Some(found);
        }
    }
}

/// The index of the finding to play; the main thread's comes first. A
/// proven win is played at once, the shortest first. Otherwise only the
/// threads that got at least as deep as the main thread vote, each for its
/// first move with the weight `(score - lowest score + 14) × depth`, so
/// deeper and better iterations count more; the move with the most votes
/// wins, and of the threads that chose it the deepest (then the best
/// scored) gives the line. Ties go to the main thread.
pub(super) fn pick<M: PartialEq>(findings: &[Finding<M>]) -> usize {
    if let Some((i, _)) = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.score >= MATE_BOUND)
        .max_by_key(|(i, f)| (f.score, std::cmp::Reverse(*i)))
    {
        return i;
    }
    let Some(main_depth) = findings.first().map(|f| f.depth) else {
        return 0;
    };
    let voters = || findings.iter().filter(|f| f.depth >= main_depth);
    let Some(lowest) = voters().map(|f| f.score).min() else {
        return 0;
    };
    let votes = |mv: &M| -> i64 {
        voters()
            .filter(|f| f.pv.first() == Some(mv))
            .map(|f| (f.score as i64 - lowest as i64 + 14) * f.depth as i64)
            .sum()
    };
    let mut best = 0;
    let mut best_votes = i64::MIN;
    for (i, f) in findings.iter().enumerate() {
        if f.depth < main_depth {
            continue;
        }
        let v = votes(&f.pv[0]);
        let better = v > best_votes
            || (v == best_votes
                && (f.depth, f.score) > (findings[best].depth, findings[best].score));
        if better {
            best = i;
            best_votes = v;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(depth: u32, score: i32, pv: &[u8]) -> Finding<u8> {
        Finding {
            depth,
            seldepth: depth,
            score,
            pv: pv.to_vec(),
        }
    }

    #[test]
    fn one_thread_plays_its_own_line() {
        assert_eq!(pick(&[f(9, 20, &[1, 2])]), 0);
    }

    #[test]
    fn a_deeper_helper_outvotes_the_main_thread() {
        // Main at depth 10 likes move 1; the helper finished depth 14 and
        // prefers move 2 by a little.
        assert_eq!(pick(&[f(10, 30, &[1]), f(14, 35, &[2])]), 1);
        // A shallower helper does not, however much better its score:
        // it has not seen what the main thread saw.
        assert_eq!(pick(&[f(14, 30, &[1]), f(10, 35, &[2])]), 0);
        assert_eq!(pick(&[f(7, 10, &[1]), f(5, 300, &[2])]), 0);
        // Nor does its vote help a deeper helper of its opinion.
        assert_eq!(pick(&[f(7, 10, &[1]), f(7, 10, &[2]), f(6, 300, &[2])]), 0);
    }

    #[test]
    fn agreeing_threads_give_the_deepest_line() {
        let findings = [f(12, 10, &[3, 4]), f(13, 5, &[3, 7]), f(13, 40, &[5])];
        // Move 3: (10-5+14)*12 + (5-5+14)*13 = 228 + 182 = 410 against
        // move 5: (40-5+14)*13 = 637: move 5 wins.
        assert_eq!(pick(&findings), 2);
        let findings = [f(12, 10, &[3, 4]), f(13, 5, &[3, 7]), f(13, 12, &[5])];
        // Now move 3's 410 votes beat move 5's (12-5+14)*13 = 273, and of
        // the threads that chose move 3 the deeper one gives the line.
        assert_eq!(pick(&findings), 1);
    }

    #[test]
    fn the_shortest_proven_win_is_played() {
        let win_in = |plies: i32| super::super::score::MATE - plies;
        let findings = [
            f(20, 50, &[1]),
            f(8, win_in(9), &[2]),
            f(9, win_in(5), &[3]),
        ];
        assert_eq!(pick(&findings), 2);
    }

    #[test]
    fn ties_go_to_the_main_thread() {
        assert_eq!(pick(&[f(10, 0, &[1]), f(10, 0, &[2])]), 0);
    }
}
