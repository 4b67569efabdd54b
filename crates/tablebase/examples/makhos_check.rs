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
//! It prints one line per table and exits with status 1 at the first disagreement.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Lcg;
use makhos::{Position, Rules};
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
                let got = search(&tables, &pos, count, rules, &mut memo);
                if got != want.wdl {
                    fail(&format!(
                        "{material} {pos} at count {count}: search says {}, the table {} ({:?})",
                        got.name(),
                        want.wdl.name(),
                        want.stored
                    ));
                }
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

/// The result for the side to move with `count` plies on the no-progress count: king
/// moves searched to the count's end, captures and man moves valued by a probe at a
/// fresh count, in `makhos::Game::outcome`'s order of checks.
fn search(
    tables: &MakhosTables,
    pos: &Position,
    count: u32,
    rules: Rules,
    memo: &mut HashMap<(Position, u32), Wdl>,
) -> Wdl {
    if let Some(&v) = memo.get(&(*pos, count)) {
        return v;
    }
    let moves = pos.legal_moves(rules);
    let value = if moves.is_empty() {
        Wdl::Loss
    } else if pos.is_kings_only_draw() || count >= NO_PROGRESS_LIMIT {
        Wdl::Draw
    } else {
        let mut best = Wdl::Loss;
        for mv in &moves {
            let child = pos.played(mv);
            let theirs = if mv.is_capture() || pos.is_man_move(mv) {
                tables
                    .probe(&child, 0)
                    .unwrap_or_else(|e| fail(&e.to_string()))
                    .wdl
            } else {
                search(tables, &child, count + 1, rules, memo)
            };
            best = best.max(theirs.flip());
            if best == Wdl::Win {
                break;
            }
        }
        best
    };
    memo.insert((*pos, count), value);
    value
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}
