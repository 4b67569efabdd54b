//! Solving a table's distances to win from its finished main table (the metric is in
//! [`super::dtw`]).
//!
//! One layout at a time, most advanced first (a man move leads to a layout solved
//! before). A first pass, split over the cores, generates each position's moves once:
//! its zeroing moves are valued from the distance files already solved (the fastest into
//! a loss, the slowest into a win), and whether its king moves are legal (no capture is
//! compulsory) is noted. Then the layers `r = 1..=32` of plies left on the count: layer
//! `r` recomputes only the positions decided at `r` and those with a king move into a
//! position whose distance changed at `r − 1` (found by sliding a king back), so a
//! position's last change is the layer from which its distance is settled.

use super::dtw::{DtwEntry, MAX_DTW, SLACK_UNKNOWN};
use super::error::GenerateError;
use super::index::{LayoutIndex, Material, TableIndex};
use super::layout_moves::{PARALLEL_MIN_ENTRIES, predecessors, successors, worker_threads};
use super::probe::{Located, locate};
use super::{NO_PROGRESS_LIMIT, Stored, Wdl};
use makhos::{Position, Rules, generate_legal_moves};
use std::cmp::Reverse;
use std::collections::HashMap;

/// A distance not known yet (only while solving).
const UNSET: u16 = u16::MAX;

/// Solves the distance-to-win entries ([`DtwEntry::to_u16`]) of `material`'s table, whose
/// main entries are `dtz`; `solved` and `solved_dtw` hold the main tables and distance
/// entries of every table its captures and promotions reach.
pub fn solve_dtw(
    material: Material,
    rules: Rules,
    dtz: &[u8],
    solved: &HashMap<Material, Vec<u8>>,
    solved_dtw: &HashMap<Material, Vec<u16>>,
) -> Result<Vec<u16>, GenerateError> {
    let index = TableIndex::new(material);
    let mut out = vec![0u16; index.len() as usize];
    let mut layouts: Vec<u64> = (0..index.layouts())
        .filter(|&l| index.layout_men(l).is_some())
        .collect();
    layouts.sort_by_key(|&l| Reverse(index.advancement(l)));
    let threads = worker_threads();
    for layout in layouts.into_iter().filter_map(|l| index.layout_index(l)) {
        let base = layout.base() as usize;
        let len = layout.len() as usize;
        let ctx = Context {
            layout: &layout,
            material,
            rules,
            dtz,
            dtw: &out,
            solved,
            solved_dtw,
        };
        let firsts = first_pass(&ctx, threads)?;
        let entries = layers(&layout, &dtz[base..base + len], &firsts).map_err(|plies| {
            GenerateError::DistanceTooLong {
                table: material,
                plies,
            }
        })?;
        out[base..base + len].copy_from_slice(&entries);
    }
    Ok(out)
}

/// What the first pass reads.
struct Context<'a> {
    layout: &'a LayoutIndex,
    material: Material,
    rules: Rules,
    /// The table's main entries.
    dtz: &'a [u8],
    /// The table's distance entries: final for the layouts solved before this one.
    dtw: &'a [u16],
    solved: &'a HashMap<Material, Vec<u8>>,
    solved_dtw: &'a HashMap<Material, Vec<u16>>,
}

/// One position's zeroing moves and whether it may move a king.
#[derive(Copy, Clone, Debug)]
struct First {
    /// Fewest plies to the end through a zeroing move into a loss ([`UNSET`]: none).
    fastest: u16,
    /// Most plies to the end through a zeroing move into a win (0: none).
    slowest: u16,
    /// No capture is compulsory: king moves are legal.
    quiet: bool,
}

fn first_pass(ctx: &Context<'_>, threads: usize) -> Result<Vec<First>, GenerateError> {
    let len = ctx.layout.len() as usize;
    let none = First {
        fastest: UNSET,
        slowest: 0,
        quiet: false,
    };
    let mut firsts = vec![none; len];
    if threads <= 1 || len < PARALLEL_MIN_ENTRIES {
        scan(ctx, 0, &mut firsts)?;
        return Ok(firsts);
    }
    let chunk = len.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = firsts
            .chunks_mut(chunk)
            .enumerate()
            .map(|(c, part)| scope.spawn(move || scan(ctx, c * chunk, part)))
            .collect();
        handles.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    })?;
    Ok(firsts)
}

/// The first pass over entries `start..start + part.len()` of the layout.
fn scan(ctx: &Context<'_>, start: usize, part: &mut [First]) -> Result<(), GenerateError> {
    let mut moves = Vec::with_capacity(64);
    for (k, first) in part.iter_mut().enumerate() {
        let pos = ctx.layout.position_at((start + k) as u64);
        moves.clear();
        generate_legal_moves(&pos, ctx.rules, &mut moves);
        first.quiet = moves.first().is_some_and(|m| !m.is_capture());
        for mv in &moves {
            if !(mv.is_capture() || pos.is_man_move(mv)) {
                continue;
            }
            let (value, plies) = after_zeroing(&pos.played(mv), ctx)?;
            match value {
                Wdl::Loss => first.fastest = first.fastest.min(plies + 1),
                Wdl::Win => first.slowest = first.slowest.max(plies + 1),
                Wdl::Draw => {}
            }
        }
    }
    Ok(())
}

/// The opponent's value with a fresh count after a zeroing move, and its distance.
fn after_zeroing(child: &Position, ctx: &Context<'_>) -> Result<(Wdl, u16), GenerateError> {
    let (material, index) = match locate(child, ctx.rules) {
        Located::NoMove => return Ok((Wdl::Loss, 0)),
        Located::KingsOnly => return Ok((Wdl::Draw, 0)),
        Located::Entry { material, index } => (material, index as usize),
    };
    let missing = || GenerateError::MissingTable {
        table: ctx.material,
        needed: material,
    };
    let (dtz, dtw) = if material == ctx.material {
        (ctx.dtz, ctx.dtw)
    } else {
        (
            ctx.solved.get(&material).ok_or_else(missing)?.as_slice(),
            ctx.solved_dtw
                .get(&material)
                .ok_or_else(missing)?
                .as_slice(),
        )
    };
    let stored = dtz
        .get(index)
        .copied()
        .and_then(Stored::from_byte)
        .ok_or_else(missing)?;
    let plies = DtwEntry::from_u16(*dtw.get(index).ok_or_else(missing)?).plies;
    Ok((stored.at_count(0), plies))
}

/// The layers of plies left, for one layout whose main entries are `dtz`: each position's
/// distance with 32 plies left and the slack from which it holds. `Err` carries a
/// distance too long for a file.
fn layers(layout: &LayoutIndex, dtz: &[u8], firsts: &[First]) -> Result<Vec<u16>, u32> {
    let len = dtz.len();
    let stored: Vec<Option<Stored>> = dtz.iter().map(|&b| Stored::from_byte(b)).collect();
    let mut val = vec![UNSET; len];
    let mut last = vec![0u8; len];
    let mut queued = vec![0u8; len];
    let mut decided_at: Vec<Vec<u32>> = vec![Vec::new(); NO_PROGRESS_LIMIT as usize + 1];
    let mut changed: Vec<u32> = Vec::new();
    for (i, s) in stored.iter().enumerate() {
        match s {
            Some(Stored::Loss(0)) => {
                val[i] = 0;
                changed.push(i as u32);
            }
            Some(Stored::Win(z) | Stored::Loss(z)) => decided_at[*z as usize].push(i as u32),
            _ => {}
        }
    }
    // Decided with `r` plies left, and not a position that cannot move.
    let decided = |s: Option<Stored>, r: u8| match s {
        Some(Stored::Win(d)) => d <= r,
        Some(Stored::Loss(d)) => (1..=r).contains(&d),
        _ => false,
    };
    for r in 1..=NO_PROGRESS_LIMIT as u8 {
        let mut work = std::mem::take(&mut decided_at[r as usize]);
        for &p in &work {
            queued[p as usize] = r;
        }
        for &q in &changed {
            predecessors(layout, q, |p| {
                if queued[p] != r && firsts[p].quiet && decided(stored[p], r) {
                    queued[p] = r;
                    work.push(p as u32);
                }
            });
        }
        let mut updates = Vec::new();
        for &p in &work {
            let p = p as usize;
            let v = match stored[p] {
                Some(Stored::Win(_)) => {
                    let mut best = firsts[p].fastest;
                    if firsts[p].quiet {
                        successors(layout, p, |q| {
                            if let Some(Stored::Loss(d)) = stored[q]
                                && d < r
                            {
                                debug_assert_ne!(val[q], UNSET);
                                best = best.min(val[q] + 1);
                            }
                        });
                    }
                    best
                }
                _ => {
                    let mut worst = firsts[p].slowest;
                    if firsts[p].quiet {
                        successors(layout, p, |q| {
                            debug_assert_ne!(val[q], UNSET, "a loss moves only to wins");
                            worst = worst.max(val[q].saturating_add(1));
                        });
                    }
                    worst
                }
            };
            if u32::from(v) > MAX_DTW {
                return Err(u32::from(v));
            }
            if v != val[p] {
                debug_assert!(val[p] == UNSET || v < val[p], "distances only fall");
                updates.push((p, v));
            }
        }
        changed.clear();
        for (p, v) in updates {
            val[p] = v;
            last[p] = r;
            changed.push(p as u32);
        }
    }
    Ok(stored
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Some(Stored::Win(z) | Stored::Loss(z)) if val[i] != UNSET => DtwEntry {
                plies: val[i],
                slack: last[i].saturating_sub(*z).min(SLACK_UNKNOWN),
            }
            .to_u16(),
            _ => 0,
        })
        .collect())
}
