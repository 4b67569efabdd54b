//! The root: iterative deepening, MultiPV, the soft time limit, the
//! threads of one search and the skill limit.

use super::memory::{SearchMemory, ThreadMemory};
use super::params::{
    FALLING_SCORE_DIVISOR, FALLING_SCORE_MAX, INSTABILITY_DECAY, INSTABILITY_TIME_SHARE,
    SINGLE_MOVE_DEPTH, SOFT_TIME_SCALE, STABLE_ITERATIONS, STABLE_TIME_FACTOR, SearchParams,
};
use super::score::{MATE, MATE_BOUND, MAX_PLY, Score};
use super::smp::{Finding, HelperJob, aspiration_search, helper_search, pick};
use super::state::new_searcher;
use crate::game::Game;
use crate::tables::Tablebase;
use crate::time::Limits;
use crate::tt::Tt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Options of a search beyond its limits.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// How many best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Strength limit 0-20 (`Skill Level`); `None` for full strength.
    pub skill: Option<u32>,
    /// Seed of the skill noise.
    pub seed: u64,
    /// Search threads (`Threads`): more than one runs helper threads over
    /// the same shared table (lazy SMP). With one line wanted at full
    /// strength the threads vote on the move; otherwise the main thread's
    /// lines are used.
    pub threads: usize,
    /// The root moves to search (UCI `go searchmoves`), in protocol move
    /// form; empty, or naming no legal move: every legal move.
    pub searchmoves: Vec<String>,
    /// The search's tunable margins and reductions (UCI: the options
    /// [`SEARCH_TUNABLES`] names; `thaiboard tune spsa` tunes them).
    pub params: SearchParams,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multipv: 1,
            skill: None,
            seed: 0x9E37_79B9_7F4A_7C15,
            threads: 1,
            searchmoves: Vec::new(),
            params: SearchParams::default(),
        }
    }
}

/// One `info` report: one line of one completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// 1-based line number (`MultiPV`).
    pub multipv: u32,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Nodes the endgame tables answered (main thread).
    pub tbhits: u64,
    /// The line, in protocol move form.
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// The UCI `info` line.
    pub fn to_uci(&self) -> String {
        self.to_uci_with_wdl(false)
    }

    /// The UCI `info` line, with `wdl W D L` after the score when `wdl` is
    /// set (`UCI_ShowWDL`; see [`Score::wdl`]).
    pub fn to_uci_with_wdl(&self, wdl: bool) -> String {
        let mut score = match self.score {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        if wdl {
            let [w, d, l] = self.score.wdl();
            score.push_str(&format!(" wdl {w} {d} {l}"));
        }
        format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
            self.depth,
            self.seldepth,
            self.multipv,
            score,
            self.nodes,
            self.nps,
            self.hashfull,
            self.tbhits,
            self.time_ms,
            self.pv.join(" ")
        )
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<M>,
    /// The expected reply.
    pub ponder: Option<M>,
    /// The score of the best line (internal units, side to move's view).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes the endgame tables answered (main thread).
    pub table_hits: u64,
}

/// The skill limit's noise (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Searches `root` within `limits`, calling `on_info` after each completed
/// iteration (one call per line). `history` holds the keys of the game's
/// earlier positions (oldest first) for repetition detection. The search
/// ends early when `stop` becomes true; a best move is returned whenever a
/// legal move exists.
pub fn search<G: Game>(
    root: &G,
    history: &[u64],
    tt: &mut Tt,
    limits: &Limits,
    opts: &SearchOptions,
    stop: &AtomicBool,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    search_with_tables(root, history, tt, limits, opts, None, stop, on_info)
}

/// [`search`], probing endgame `tables` at every node below the root: a
/// position they hold is scored with its exact value (see
/// [`crate::TableValue`]) instead of being searched. With `None` the search
/// is exactly [`search`].
#[allow(clippy::too_many_arguments)]
pub fn search_with_tables<G: Game>(
    root: &G,
    history: &[u64],
    tt: &mut Tt,
    limits: &Limits,
    opts: &SearchOptions,
    tables: Option<&dyn Tablebase<G>>,
    stop: &AtomicBool,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let mut fresh = SearchMemory::new();
    search_with_memory(
        root, history, tt, &mut fresh, limits, opts, tables, stop, on_info,
    )
}

/// [`search_with_tables`] for a move of a game whose earlier moves were
/// searched with the same `memory`: the search starts from the histories
/// they learnt and leaves its own there for the next move. Keep one memory
/// per game, as the `tt`, and clear both for a new game.
#[allow(clippy::too_many_arguments)]
pub fn search_with_memory<G: Game>(
    root: &G,
    history: &[u64],
    tt: &mut Tt,
    memory: &mut SearchMemory,
    limits: &Limits,
    opts: &SearchOptions,
    tables: Option<&dyn Tablebase<G>>,
    stop: &AtomicBool,
    mut on_info: impl FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let plan = limits.plan(root.white_to_move());
    let started = limits.started.unwrap_or_else(Instant::now);
    tt.new_search();
    let tt: &Tt = tt;
    let helpers_stop = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let helpers = opts.threads.clamp(1, 256) - 1;
    let findings: Vec<Mutex<Option<Finding<G::Move>>>> =
        (0..helpers).map(|_| Mutex::new(None)).collect();
    let root_only = searchmoves_codes(root, &opts.searchmoves);
    let job = HelperJob {
        root,
        history,
        tt,
        tables,
        root_only: &root_only,
        max_depth: max_depth(limits, opts),
        stop: &helpers_stop,
        nodes: &helper_nodes,
        params: &opts.params,
    };
    // Each thread takes its own tables from the memory and puts back what it
    // learnt when it ends.
    let mut slots = std::mem::take(&mut memory.threads);
    slots.resize_with(helpers + 1, ThreadMemory::default);
    let (main_slot, helper_slots) = slots.split_first_mut().expect("one slot per thread");
    let (mut result, main_finding) = std::thread::scope(|scope| {
        for ((i, finding), slot) in findings.iter().enumerate().zip(helper_slots.iter_mut()) {
            let job = &job;
            let spawned = std::thread::Builder::new()
                .name(format!("search helper {}", i + 1))
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || helper_search(job, finding, slot));
            // Without a helper the search is merely slower.
            if spawned.is_err() {
                break;
            }
        }
        // Stops the helpers when the main search ends, even by a panic
        // (the scope waits for them).
        struct StopOnDrop<'a>(&'a AtomicBool);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _guard = StopOnDrop(&helpers_stop);
        main_search(
            root,
            history,
            tt,
            tables,
            limits,
            opts,
            &root_only,
            stop,
            &helper_nodes,
            plan,
            started,
            main_slot,
            &mut on_info,
        )
    });
    memory.threads = slots;
    // The helpers have finished: count all their nodes.
    result.nodes += helper_nodes.load(Ordering::Relaxed);
    // With one line wanted at full strength, the threads vote on the move.
    if let Some(main) = main_finding
        && opts.skill.is_none()
        && opts.multipv <= 1
        && helpers > 0
    {
        let mut all = vec![main];
        all.extend(
            findings
                .into_iter()
                .filter_map(|f| f.into_inner().ok().flatten()),
        );
        let chosen = pick(&all);
        if chosen != 0 {
            let f = &all[chosen];
            result.best = f.pv.first().copied();
            result.ponder = f.pv.get(1).copied();
            result.score = f.score;
            result.depth = f.depth;
            let time_ms = started.elapsed().as_millis() as u64;
            on_info(&SearchInfo {
                depth: f.depth,
                seldepth: f.seldepth,
                multipv: 1,
                score: Score::from_internal(f.score),
                nodes: result.nodes,
                nps: result.nodes * 1000 / time_ms.max(1),
                hashfull: tt.hashfull(),
                time_ms,
                tbhits: result.table_hits,
                pv: f.pv.iter().map(|&m| G::move_text(m)).collect(),
            });
        }
    }
    result
}

/// The codes of the legal root moves `go searchmoves` names (protocol move
/// form); empty when it names none, meaning every move.
fn searchmoves_codes<G: Game>(root: &G, names: &[String]) -> Vec<u64> {
    if names.is_empty() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| names.contains(&G::move_text(m)))
        .map(G::encode)
        .collect()
}

/// The deepest iteration: the `go depth` limit, the skill level's cap, and
/// the table's ply limit.
fn max_depth(limits: &Limits, opts: &SearchOptions) -> u32 {
    let mut max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 8)
        .clamp(1, MAX_PLY as u32 - 8);
    if let Some(level) = opts.skill {
        max_depth = max_depth.min(1 + level.min(20) / 2);
    }
    max_depth
}

/// The main thread's search: reports, limits, MultiPV and skill.
#[allow(clippy::too_many_arguments)]
fn main_search<G: Game>(
    root: &G,
    history: &[u64],
    tt: &Tt,
    tables: Option<&dyn Tablebase<G>>,
    limits: &Limits,
    opts: &SearchOptions,
    root_only: &[u64],
    stop: &AtomicBool,
    helper_nodes: &AtomicU64,
    plan: crate::time::Plan,
    started: Instant,
    memory: &mut ThreadMemory,
    mut on_info: impl FnMut(&SearchInfo),
) -> (SearchResult<G::Move>, Option<Finding<G::Move>>) {
    let mut s = new_searcher::<G>(
        tt,
        tables,
        stop,
        history,
        plan.hard,
        limits.nodes,
        Some(started),
        &opts.params,
        std::mem::take(memory),
    );
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves);
    // `go searchmoves`: only the named legal moves (all when none is).
    if !root_only.is_empty() {
        s.root_only = root_only.to_vec();
        root_moves.retain(|&m| root_only.contains(&G::encode(m)));
    }
    if root_moves.is_empty() {
        *memory = s.into_memory();
        let score = if root.no_moves_loses() { -MATE } else { 0 };
        let result = SearchResult {
            best: None,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            table_hits: 0,
        };
        return (result, None);
    }
    let multipv = opts.multipv.clamp(1, root_moves.len());
    let lines_wanted = match opts.skill {
        Some(_) => multipv.max(4).min(root_moves.len()),
        None => multipv,
    };
    let max_depth = max_depth(limits, opts);
    let mut lines: Vec<(Vec<G::Move>, i32)> = Vec::new();
    let (mut completed, mut completed_seldepth) = (0, 0);
    let (mut last_best, mut last_score, mut stable_iterations, mut instability) =
        (None, None, 0, 0.0f64);
    for depth in 1..=max_depth {
        s.may_stop_on_limits = depth > 1;
        s.seldepth = 0;
        s.excluded.clear();
        let mut new_lines: Vec<(Vec<G::Move>, i32)> = Vec::new();
        for idx in 0..lines_wanted {
            let prev = lines.get(idx).map(|l| l.1);
            let score = aspiration_search(&mut s, root, depth, prev);
            if s.stopped {
                break;
            }
            let pv = s.pv[0].clone();
            let Some(&first) = pv.first() else {
                break;
            };
            s.excluded.push(G::encode(first));
            new_lines.push((pv, score));
        }
        if s.stopped {
            if lines.is_empty() {
                if !new_lines.is_empty() {
                    lines = new_lines;
                } else if !s.pv[0].is_empty() {
                    lines = vec![(s.pv[0].clone(), 0)];
                }
            }
            break;
        }
        new_lines.sort_by_key(|l| std::cmp::Reverse(l.1));
        lines = new_lines;
        completed = depth;
        completed_seldepth = s.seldepth as u32;
        let time_ms = s.elapsed_ms();
        let hashfull = s.tt.hashfull();
        for (i, (pv, score)) in lines.iter().take(multipv).enumerate() {
            on_info(&SearchInfo {
                depth,
                seldepth: s.seldepth as u32,
                multipv: i as u32 + 1,
                score: Score::from_internal(*score),
                nodes: s.nodes + helper_nodes.load(Ordering::Relaxed),
                nps: (s.nodes + helper_nodes.load(Ordering::Relaxed)) * 1000 / time_ms.max(1),
                hashfull,
                time_ms,
                tbhits: s.table_hits,
                pv: pv.iter().map(|&m| G::move_text(m)).collect(),
            });
        }
        if s.stop.load(Ordering::Relaxed) {
            break;
        }
        // The soft limit stretches while the best move keeps changing or the
        // score falls, and shrinks once the best move has held for a while.
        let best_now = lines[0].0.first().map(|&m| G::encode(m));
        if best_now == last_best {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
            instability += 1.0;
        }
        last_best = best_now;
        let falling = last_score.map_or(0, |prev: i32| {
            (prev - lines[0].1).clamp(0, FALLING_SCORE_MAX)
        });
        last_score = Some(lines[0].1);
        if let Some(soft) = plan.soft {
            let stability = if stable_iterations >= STABLE_ITERATIONS {
                STABLE_TIME_FACTOR
            } else {
                1.0
            };
            let scale = (1.0 + INSTABILITY_TIME_SHARE * instability)
                * stability
                * (1.0 + falling as f64 / FALLING_SCORE_DIVISOR);
            if time_ms as f64 >= soft as f64 * scale.clamp(SOFT_TIME_SCALE.0, SOFT_TIME_SCALE.1) {
                break;
            }
        }
        instability *= INSTABILITY_DECAY;
        if let Some(n) = limits.node_limit_reached(s.nodes) {
            if n {
                break;
            }
        }
        let top = lines[0].1;
        if !limits.infinite
            && limits.depth.is_none()
            && top.abs() >= MATE_BOUND
            && depth as i32 >= (MATE - top.abs()) + 4
        {
            break;
        }
        if root_moves.len() == 1 && plan.soft.is_some() && depth >= SINGLE_MOVE_DEPTH {
            break;
        }
    }
    if lines.is_empty() {
        lines.push((vec![root_moves[0]], 0));
    }
    let mut pick = 0;
    if let Some(level) = opts.skill
        && level < 20
        && lines.len() > 1
    {
        let mut rng = Rng(opts.seed | 1);
        let weakness = 120 - 2 * level.min(20) as i64;
        let top = lines[0].1 as i64;
        let delta = (top - lines[lines.len() - 1].1 as i64).min(100);
        let mut best = i64::MIN;
        for (i, (_, score)) in lines.iter().enumerate() {
            let sc = *score as i64;
            let push =
                (weakness * (top - sc) + delta * (rng.next() % weakness as u64) as i64) / 128;
            if sc + push >= best {
                best = sc + push;
                pick = i;
            }
        }
    }
    let (pv, score) = &lines[pick];
    let result = SearchResult {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score: *score,
        depth: completed,
        nodes: s.nodes,
        table_hits: s.table_hits,
    };
    *memory = s.into_memory();
    // The best line of the last completed iteration, for the threads' vote.
    let finding = (completed > 0 && !lines[0].0.is_empty()).then(|| Finding {
        depth: completed,
        seldepth: completed_seldepth,
        score: lines[0].1,
        pv: lines[0].0.clone(),
    });
    (result, finding)
}
