//! The consistency proof of a solved Mak-hot table, move by move and forward (the
//! generator worked backward, sliding kings back, so this checks its rounds). With a
//! fresh count, where a move *reaches* in `1` ply if it is a capture or a man move and in
//! `1 + D'` plies if it is a king move to a position stored with distance `D'`:
//!
//! - a **win in `d`** has a move to a position the opponent loses (a zeroing move into a
//!   loss at a fresh count, or a king move to a stored loss) that reaches in `d`, and none
//!   that reaches sooner;
//! - a **loss in `D`** has only moves to positions the opponent wins (at a fresh count
//!   after a zeroing move, stored wins after a king move), the longest reaching in `D`;
//!   a loss in 0 has no legal move;
//! - a **draw** has no move to a loss that reaches within 32 plies, and is not a position
//!   whose every move leads to a win reaching within 32.
//!
//! The positions after zeroing moves are valued through [`resolve`], as probes value
//! them; the positions after king moves are read from the table itself.

use super::index::{Material, TableIndex};
use super::probe::resolve;
use super::{NO_PROGRESS_LIMIT, Stored, Wdl};
use makhos::{Position, Rules, generate_legal_moves};
use std::collections::HashMap;

/// A broken rule: the position and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The position, in Mak-hot position text.
    pub position: String,
    /// What the table says and what its moves say.
    pub reason: String,
}

/// Checks every entry of `values`, the table of `material` under `rules`; `solved` holds
/// the tables its captures and promotions reach. The layouts are shared out over
/// `threads` threads. Returns the number of positions checked.
pub fn check_table(
    material: Material,
    rules: Rules,
    values: &[u8],
    solved: &HashMap<Material, Vec<u8>>,
    threads: usize,
) -> Result<u64, Inconsistency> {
    let index = TableIndex::new(material);
    let layouts: Vec<u64> = (0..index.layouts())
        .filter(|&l| index.layout_men(l).is_some())
        .collect();
    let threads = threads.clamp(1, layouts.len().max(1));
    let chunk = layouts.len().div_ceil(threads).max(1);
    let check = |part: &[u64]| -> Result<u64, Inconsistency> {
        let mut checked = 0;
        let mut moves = Vec::with_capacity(64);
        for &l in part {
            let Some(layout) = index.layout_index(l) else {
                continue;
            };
            for i in 0..layout.len() {
                let pos = layout.position_at(i);
                let stored = values[(layout.base() + i) as usize];
                check_position(&pos, stored, &index, rules, values, solved, &mut moves)?;
                checked += 1;
            }
        }
        Ok(checked)
    };
    if threads == 1 {
        return check(&layouts);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = layouts
            .chunks(chunk)
            .map(|part| scope.spawn(move || check(part)))
            .collect();
        handles.into_iter().try_fold(0, |sum, h| {
            let n = h
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            Ok(sum + n)
        })
    })
}

/// What one move does for the side playing it.
#[derive(Copy, Clone, Debug)]
struct Reach {
    /// The opponent's value after it.
    theirs: Wdl,
    /// Plies to the next zeroing move along it (`1` for a zeroing move).
    plies: u32,
}

fn check_position(
    pos: &Position,
    stored: u8,
    index: &TableIndex,
    rules: Rules,
    values: &[u8],
    solved: &HashMap<Material, Vec<u8>>,
    moves: &mut Vec<makhos::Move>,
) -> Result<(), Inconsistency> {
    let fail = |reason: String| Inconsistency {
        position: pos.to_string(),
        reason,
    };
    let here = Stored::from_byte(stored).ok_or_else(|| fail(format!("entry byte {stored}")))?;
    moves.clear();
    generate_legal_moves(pos, rules, moves);
    let material = index.material();
    let mut reaches = Vec::with_capacity(moves.len());
    for mv in moves.iter() {
        let child = pos.played(mv);
        let reach = if mv.is_capture() || pos.is_man_move(mv) {
            let after = resolve(&child, rules, |m, i| {
                let table = if m == material {
                    Some(values)
                } else {
                    solved.get(&m).map(Vec::as_slice)
                };
                Ok::<_, ()>(table.and_then(|t| t.get(i as usize).copied()))
            })
            .ok()
            .flatten()
            .ok_or_else(|| fail(format!("{} leads outside the tables", mv.to_algebraic())))?;
            Reach {
                theirs: after.at_count(0),
                plies: 1,
            }
        } else {
            let after = Stored::from_byte(values[index.index_of(&child) as usize])
                .ok_or_else(|| fail(format!("{} leads to no entry", mv.to_algebraic())))?;
            match after {
                Stored::Win(d) => Reach {
                    theirs: Wdl::Win,
                    plies: 1 + u32::from(d),
                },
                Stored::Loss(d) => Reach {
                    theirs: Wdl::Loss,
                    plies: 1 + u32::from(d),
                },
                Stored::Draw => Reach {
                    theirs: Wdl::Draw,
                    plies: 0,
                },
            }
        };
        reaches.push(reach);
    }
    let fastest_win = reaches
        .iter()
        .filter(|r| r.theirs == Wdl::Loss)
        .map(|r| r.plies)
        .min();
    let all_lose = reaches.iter().all(|r| r.theirs == Wdl::Win);
    let longest_loss = reaches.iter().map(|r| r.plies).max().unwrap_or(0);
    let ok = match here {
        Stored::Win(d) => fastest_win == Some(u32::from(d)),
        Stored::Loss(0) => reaches.is_empty(),
        Stored::Loss(d) => !reaches.is_empty() && all_lose && longest_loss == u32::from(d),
        Stored::Draw => {
            !reaches.is_empty()
                && fastest_win.is_none_or(|p| p > NO_PROGRESS_LIMIT)
                && (!all_lose || longest_loss > NO_PROGRESS_LIMIT)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(fail(format!("stored {here:?}, moves {reaches:?}")))
    }
}
