//! The independent check of the Makruk 4- and 5-piece tables, and their pieces'-honour
//! facts: `cargo run --release -p thaiboard-tablebase --example makruk_check -- DIR
//! [SAMPLES] [SEED] [NAMES]` (NAMES: only the tables whose names contain it, `R` for the
//! ruea's, `KRNvKR` for one).
//!
//! For every 4-piece table without bias and every 5-piece table of `tb gen`'s plan
//! (pieces' honour and board's honour) in DIR, it draws SAMPLES random placements (every
//! square for every piece: the folded 5-piece index is probed through its symmetries),
//! gives each a running count that leaves a few plies (and, for short decided positions,
//! exactly the plies on both sides of the count's edge), and compares the tables' value
//! under the count with a plain minimax that shares no code with the retrograde
//! generator: the rules crate plays every move and runs the count (a capture that leaves
//! a bare khun starts the pieces'-honour count), `state()` decides mate, stalemate and
//! the count's draw. The positions a capture reaches are valued by the tables checked
//! before them: three pieces by [`BareTable`], the first generator (forward rounds over
//! lists of children, itself checked against a search in the crate's tests); four
//! pieces, below a 5-piece table, by the 4-piece tables this same check compares with
//! the minimax.
//!
//! Then, for each bare-khun material, it reports the share of positions (stronger side
//! to move) mated within the count as the rules start it, and the longest mate.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/makruk_counted.rs"]
mod makruk_counted;
use common::Lcg;
use makruk::{Position, Setup, State, Variant};
use makruk_counted::Counted;
use std::collections::HashMap;
use thaiboard_tablebase::makruk::solve::phase_count;
use thaiboard_tablebase::makruk::{Dtm, MakrukTables, plan};
use thaiboard_tablebase::makruk::{index::position_at, material::Material};

/// Samples per table when none are given.
const DEFAULT_SAMPLES: usize = 2000;
/// The most plies a sampled count leaves (the minimax is exhaustive to there).
const MAX_PLIES_LEFT: u32 = 4;

/// Plain minimax: 1 win, 0 draw, -1 loss for the side to move; positions of fewer than
/// `pieces` pieces from the oracle. The count bounds the depth.
fn minimax(pos: &Position, pieces: u32, oracle: &Counted, memo: &mut HashMap<String, i8>) -> i8 {
    match pos.state() {
        State::Checkmate => return -1,
        State::Ongoing => {}
        _ => return 0,
    }
    if pos.occupied().count() < pieces {
        return oracle.value(pos);
    }
    let key = pos.fen();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = -1;
    for &m in pos.legal_moves().iter() {
        best = best.max(-minimax(&pos.played(m), pieces, oracle, memo));
        if best == 1 {
            break;
        }
    }
    memo.insert(key, best);
    best
}

/// `pos` with its count set to leave `left` plies.
fn with_left(pos: &Position, left: u32) -> Option<Position> {
    let mut setup: Setup = pos.to_setup();
    let limit = setup.counting_limit;
    setup.counting_ply = (limit + 1).checked_sub(left)?;
    Position::from_setup(pos.variant(), &setup).ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: makruk_check DIR [SAMPLES] [SEED] [NAMES]");
        std::process::exit(2);
    };
    let samples: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_SAMPLES);
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let only = args.next().unwrap_or_default();
    let variant = Variant::Makruk;
    let tables = MakrukTables::open(std::path::Path::new(&dir), variant).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let oracle = Counted::new(variant, &tables);
    let mut rng = Lcg(seed);
    let mut failures = 0;
    for material in plan(variant, 5).0 {
        if material.pieces() < 4 || material.bias() > 0 || !material.name().contains(&only) {
            continue;
        }
        let pieces = material.pieces();
        let count = phase_count(variant, &material);
        let mut memo = HashMap::new();
        let (mut compared, mut seen) = (0, [0usize; 3]);
        // Half the samples are positions decided in a few plies, checked on both sides
        // of the count's edge; the other half are random, with a random short count.
        let (mut decisive, mut other, mut tries) = (0, 0, 0);
        let mut missing = false;
        while (decisive < samples / 2 || other < samples / 2) && tries < 1000 * samples {
            tries += 1;
            let i = rng.below(material.entries() as u64) as usize;
            let Some(pos) = position_at(variant, &material, count, i) else {
                continue;
            };
            if pos.state() != State::Ongoing {
                continue;
            }
            let stored = match tables.stored(&pos) {
                Ok(Some(d)) => d,
                Ok(None) => {
                    missing = true;
                    break;
                }
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1)
                }
            };
            let lefts: Vec<u32> = match stored {
                Dtm::Win(d) | Dtm::Loss(d)
                    if u32::from(d) <= MAX_PLIES_LEFT + 1 && decisive < samples / 2 =>
                {
                    decisive += 1;
                    (u32::from(d).saturating_sub(1)..=u32::from(d))
                        .filter(|&l| l > 0)
                        .collect()
                }
                _ if other < samples / 2 => {
                    other += 1;
                    vec![1 + rng.below(u64::from(MAX_PLIES_LEFT)) as u32]
                }
                _ => continue,
            };
            for left in lefts {
                let Some(counted) = with_left(&pos, left) else {
                    continue;
                };
                let got = tables.verdict(&counted).ok().flatten().map(|v| v.value);
                let want = minimax(&counted, pieces, &oracle, &mut memo);
                if got != Some(want) {
                    failures += 1;
                    eprintln!(
                        "{}: {} tables {got:?}, minimax {want}",
                        material.name(),
                        counted.fen()
                    );
                }
                seen[(want + 1) as usize] += 1;
                compared += 1;
            }
        }
        if missing {
            println!("{:<7} not generated yet", material.name());
            continue;
        }
        println!(
            "{:<7} {compared} positions agree with the minimax (losses {}, draws {}, wins {})",
            material.name(),
            seen[0],
            seen[1],
            seen[2]
        );
    }
    honour_report(&tables, variant);
    if failures > 0 {
        eprintln!("{failures} disagreements");
        std::process::exit(1);
    }
}

/// Pieces' honour: for each material against a bare khun, the share of positions with the
/// stronger side to move that it mates within the count the rules start when the khun
/// becomes bare (the khun's side to move at ply `2·pieces`, so the stronger side moves
/// at the next ply), and the longest mate.
fn honour_report(tables: &MakrukTables, variant: Variant) {
    for material in Material::all_up_to(4) {
        if !material.black.is_empty() || material.bias() > 0 {
            continue;
        }
        let (limit, start) = phase_count(variant, &material);
        let left = (limit + 1).saturating_sub(start + 1);
        let (mut positions, mut won, mut unbounded, mut longest) = (0u64, 0u64, 0u64, 0u16);
        for i in (0..material.entries()).step_by(2) {
            let Some(pos) = position_at(variant, &material, (limit, start), i) else {
                continue;
            };
            let Ok(Some(stored)) = tables.stored(&pos) else {
                if pos.state() == State::Ongoing {
                    println!("{:<7} not generated yet", material.name());
                    break;
                }
                continue;
            };
            positions += 1;
            if let Dtm::Win(d) = stored {
                unbounded += 1;
                longest = longest.max(d);
                won += u64::from(u32::from(d) <= left);
            }
        }
        if positions == 0 {
            continue;
        }
        println!(
            "{:<7} count {limit} plies: mated in time {won} of {positions} ({:.1}%), without the count {unbounded} ({:.1}%), longest mate {longest} plies",
            material.name(),
            100.0 * won as f64 / positions as f64,
            100.0 * unbounded as f64 / positions as f64,
        );
    }
}
