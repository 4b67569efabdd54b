//! Checks generated Mak-hot tables on sampled positions, for tables too big for the
//! tests: `cargo run --release -p thaiboard-tablebase --example makhos_check -- DIR
//! [RULES] [SAMPLES] [PIECES]` (default rules, 2,000 samples per table, tables of any
//! size; `PIECES` keeps only the tables of that many pieces).
//!
//! Each sampled position (half of them seen from the other side, through
//! [`makhos::Position::flipped`]) is checked two ways, both through the probing code
//! only, never the generator:
//! - **against its moves:** a win in `d` has a move to a loss that reaches the next
//!   capture or man move in `d` plies and none faster, a loss in `D` has only moves to
//!   wins and its longest is `D`, a draw has a drawing move and no winning one;
//! - **against a plain search:** with the count at `32 − k` (`k` = 0 to [`SEARCH_PLIES`]),
//!   a minimax over the rules crate that plays king moves out to the count's end and
//!   values each capture or man move by a probe at a fresh count must give the probe's
//!   result at that count. That pins every stored distance up to `k` plies.
//!
//! Where the tables have distance-to-win files, both checks cover the distances too: a
//! win in `w` plies to the end has a move to a loss in `w − 1` and none sooner, a loss's
//! longest move is `w − 1`, and the plain search, counting plies to the end (the
//! winner's fewest, the loser's most), must give the probe's distance at each count.
//!
//! It prints one line per table and exits with status 1 at the first disagreement.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/makhos_search.rs"]
mod makhos_search;

use common::Lcg;
use makhos::{Position, Rules};
use makhos_search::search;
use std::collections::HashMap;
use std::time::Instant;
use thaiboard_tablebase::makhos::{
    MakhosTables, MoveValue, NO_PROGRESS_LIMIT, Stored, TableIndex, Wdl,
};

/// Samples per table when none is given.
const DEFAULT_SAMPLES: usize = 2_000;
/// Plies left on the count up to which the plain search checks each sample.
const SEARCH_PLIES: u32 = 3;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: makhos_check DIR [RULES] [SAMPLES] [PIECES]");
        std::process::exit(2);
    };
    let rules: Rules = args
        .next()
        .map_or(Ok(Rules::Default), |r| r.parse())
        .unwrap_or_else(|e| fail(&e.to_string()));
    let samples: usize = args.next().map_or(DEFAULT_SAMPLES, |n| {
        n.parse().unwrap_or_else(|_| fail("bad SAMPLES"))
    });
    let pieces: Option<u32> = args
        .next()
        .map(|n| n.parse().unwrap_or_else(|_| fail("bad PIECES")));
    let tables = MakhosTables::open(std::path::Path::new(&dir), rules)
        .unwrap_or_else(|e| fail(&e.to_string()));
    // Distances to win are checked too where the tables have them.
    let distances = tables.has_distances();
    let started = Instant::now();
    let mut checked = 0;
    for material in tables.materials() {
        if pieces.is_some_and(|p| material.total() != p) {
            continue;
        }
        let index = TableIndex::new(material);
        let mut rng = Lcg(0x6d616b686f73 ^ index.len());
        let table_started = Instant::now();
        let mut tally = [0usize; 3];
        let mut done = 0;
        while done < samples {
            let Some(pos) = index.position_at(rng.below(index.len())) else {
                continue;
            };
            let pos = if rng.below(2) == 0 {
                pos
            } else {
                pos.flipped()
            };
            let stored = check_moves(&tables, &pos);
            tally[stored.at_count(0) as usize] += 1;
            let mut memo = HashMap::new();
            for k in 0..=SEARCH_PLIES {
                let count = NO_PROGRESS_LIMIT - k;
                let want = tables
                    .probe(&pos, count)
                    .unwrap_or_else(|e| fail(&e.to_string()));
                let (got, plies) = search(&tables, &pos, count, distances, &mut memo)
                    .unwrap_or_else(|e| fail(&e.to_string()));
                if got != want.wdl {
                    fail(&format!(
                        "{material} {pos} at count {count}: search says {}, the table {} ({:?})",
                        got.name(),
                        want.wdl.name(),
                        want.stored
                    ));
                }
                if distances {
                    let table = tables
                        .distance_to_win(&pos, count)
                        .unwrap_or_else(|e| fail(&e.to_string()));
                    if table != (got != Wdl::Draw).then_some(plies) {
                        fail(&format!(
                            "{material} {pos} at count {count}: search says the end in {plies}, the tables {table:?}"
                        ));
                    }
                }
            }
            if distances {
                check_distance_moves(&tables, &pos);
            }
            done += 1;
        }
        checked += done;
        println!(
            "{material:<9} {done} positions agree (losses {}, draws {}, wins {} at count 0), {:.1} s",
            tally[0],
            tally[1],
            tally[2],
            table_started.elapsed().as_secs_f64()
        );
    }
    println!(
        "{checked} positions checked in {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

/// Checks `pos`'s stored value against the values of its moves; returns the value.
fn check_moves(tables: &MakhosTables, pos: &Position) -> Stored {
    let here = tables
        .probe(pos, 0)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let moves = tables
        .probe_moves(pos, 0)
        .unwrap_or_else(|e| fail(&e.to_string()));
    // Plies to the next zeroing move along each move, for the side playing it.
    let reach = |m: &MoveValue| {
        if m.zeroing {
            Some(1)
        } else {
            m.after.zeroing_plies().map(|d| d + 1)
        }
    };
    let ok = match here.stored {
        Stored::Win(d) => {
            let fastest = moves
                .iter()
                .filter(|m| m.after.wdl == Wdl::Loss)
                .filter_map(reach)
                .min();
            fastest == Some(u32::from(d))
        }
        Stored::Loss(d) => {
            moves.iter().all(|m| m.after.wdl == Wdl::Win)
                && moves.iter().filter_map(reach).max().unwrap_or(0) == u32::from(d)
        }
        Stored::Draw => {
            moves.iter().all(|m| m.after.wdl != Wdl::Loss)
                && moves.iter().any(|m| m.after.wdl == Wdl::Draw)
        }
    };
    if !ok {
        fail(&format!(
            "{pos}: {:?} disagrees with its moves",
            here.stored
        ));
    }
    here.stored
}

/// Checks `pos`'s distance to win with a fresh count against its moves' (each after the
/// move, at count 0 after a capture or man move, at 1 after a king move): a win in `w`
/// has a move to a loss in `w − 1` and none to a loss sooner; a loss in `w` has only
/// moves to wins, the longest in `w − 1`.
fn check_distance_moves(tables: &MakhosTables, pos: &Position) {
    let here = tables
        .probe(pos, 0)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let Some(w) = tables
        .distance_to_win(pos, 0)
        .unwrap_or_else(|e| fail(&e.to_string()))
    else {
        return;
    };
    let mut fastest = u32::MAX;
    let mut longest = 0;
    for m in tables
        .probe_moves(pos, 0)
        .unwrap_or_else(|e| fail(&e.to_string()))
    {
        let after = pos.played(&m.mv);
        let d = tables
            .distance_to_win(&after, m.after.no_progress)
            .unwrap_or_else(|e| fail(&e.to_string()));
        match (m.after.wdl, d) {
            (Wdl::Loss, Some(d)) => fastest = fastest.min(d + 1),
            (Wdl::Win, Some(d)) => longest = longest.max(d + 1),
            _ => {}
        }
    }
    let ok = match here.wdl {
        Wdl::Win => fastest == w,
        _ => longest == w || (w == 0 && longest == 0),
    };
    if !ok {
        fail(&format!(
            "{pos}: distance {w} ({:?}) disagrees with its moves (fastest {fastest}, longest {longest})",
            here.wdl
        ));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}
