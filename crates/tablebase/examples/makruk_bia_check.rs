//! The independent check of the Makruk 4-piece tables with bias on the board:
//! `cargo run --release -p thaiboard-tablebase --example makruk_bia_check -- DIR
//! [SAMPLES] [SEED] [NAMES] [DEPTH]` (NAMES: only the tables whose names contain it, `-`
//! for all).
//!
//! While a bia stands no count runs, so these tables store the plies to the end of the
//! phase: to mate, or to the capture or promotion that starts a count into a won
//! position. No count bounds a search here, so the check bounds it by depth: a plain
//! AND-OR search over the rules crate (it shares no code with the retrograde generator)
//! answers "does the side to move force the end of the phase in its favour within `n`
//! plies" (and the same for the opponent). A position where a count runs (after a
//! promotion or a capture that starts one) is a leaf valued under its own count: by
//! [`BareTable`], the first generator, for three pieces, and by the 4-piece tables
//! without bias (themselves checked against a minimax by `makruk_check`) for four.
//!
//! For each table it draws SAMPLES random positions, half of them among the positions the
//! table stores as won or lost (most of these tables are drawn almost everywhere). A
//! position stored as won or lost in `d ≤ MAX_EXACT` plies must be decided that way by
//! the search at depth `d` and not at depth `d − 1` (the distance is exact); every sampled
//! position must be decided by the search at depth DEPTH (default [`DEFAULT_DEPTH`])
//! exactly when the table says it is decided within DEPTH plies, and the same way.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/makruk_counted.rs"]
mod makruk_counted;
use common::Lcg;
use makruk::{Position, State, Variant};
use makruk_counted::Counted;
use std::collections::HashMap;
use thaiboard_tablebase::makruk::solve::phase_count;
use thaiboard_tablebase::makruk::{Dtm, MakrukTables};
use thaiboard_tablebase::makruk::{index::position_at, material::Material};

/// Samples per table when none are given.
const DEFAULT_SAMPLES: usize = 2000;
/// The depth every sample is searched to when none is given.
const DEFAULT_DEPTH: u32 = 3;
/// The longest stored distance whose exactness is checked (searched to it and one less).
const MAX_EXACT: u32 = 5;
/// Tries per wanted sample before a table is given up (most entries are illegal or
/// undecided in a few plies).
const TRIES_PER_SAMPLE: usize = 1000;

/// What the depth-bounded search says for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bounded {
    /// It forces a won end of the phase within the depth.
    Win,
    /// The opponent forces one within the depth.
    Loss,
    /// Neither within the depth (or a draw).
    Open,
}

struct Checker<'a> {
    /// The values of counted positions.
    counted: Counted<'a>,
    memo: HashMap<(String, u32), Bounded>,
}

impl Checker<'_> {
    /// The AND-OR search to `depth` plies.
    fn search(&mut self, pos: &Position, depth: u32) -> Bounded {
        match pos.state() {
            State::Checkmate => return Bounded::Loss,
            State::Ongoing => {}
            _ => return Bounded::Open,
        }
        if pos.counting().is_some() {
            return match self.counted.value(pos) {
                1 => Bounded::Win,
                -1 => Bounded::Loss,
                _ => Bounded::Open,
            };
        }
        if depth == 0 {
            return Bounded::Open;
        }
        // The move numbers do not change the value.
        let fen = pos.fen();
        let key = (
            fen[..fen.rfind(' ').unwrap_or(fen.len())].to_string(),
            depth,
        );
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut all_win = true;
        let mut result = Bounded::Open;
        for &m in pos.legal_moves().iter() {
            match self.search(&pos.played(m), depth - 1) {
                Bounded::Loss => {
                    result = Bounded::Win;
                    break;
                }
                Bounded::Win => {}
                Bounded::Open => all_win = false,
            }
        }
        if result != Bounded::Win && all_win {
            result = Bounded::Loss;
        }
        self.memo.insert(key, result);
        result
    }
}

/// What the table's stored distance says the search must find at `depth`.
fn expected(stored: Dtm, depth: u32) -> Bounded {
    match stored {
        Dtm::Win(d) if u32::from(d) <= depth => Bounded::Win,
        Dtm::Loss(d) if u32::from(d) <= depth => Bounded::Loss,
        _ => Bounded::Open,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: makruk_bia_check DIR [SAMPLES] [SEED] [NAMES]");
        std::process::exit(2);
    };
    let samples: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_SAMPLES);
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let only = args.next().filter(|s| s != "-").unwrap_or_default();
    let depth: u32 = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_DEPTH);
    let variant = Variant::Makruk;
    let tables = MakrukTables::open(std::path::Path::new(&dir), variant).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let mut checker = Checker {
        counted: Counted::new(variant, &tables),
        memo: HashMap::new(),
    };
    let mut rng = Lcg(seed);
    let mut failures = 0;
    for material in Material::all_up_to(4) {
        if material.bias() == 0 || !material.name().contains(&only) {
            continue;
        }
        let count = phase_count(variant, &material);
        let started = std::time::Instant::now();
        checker.memo.clear();
        let (mut exact, mut bounded, mut tries) = (0usize, [0usize; 3], 0);
        let mut missing = false;
        let compare = |checker: &mut Checker, pos: &Position, stored: Dtm, depth: u32| {
            let want = expected(stored, depth);
            let got = checker.search(pos, depth);
            if got != want {
                eprintln!(
                    "{}: {} stored {stored:?}, search to {depth} plies {got:?}",
                    material.name(),
                    pos.fen()
                );
                return false;
            }
            true
        };
        let (mut done, mut decided) = (0, 0);
        while done < samples && tries < TRIES_PER_SAMPLE * samples {
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
            // Half the samples among decided positions while they last.
            let is_decided = stored != Dtm::Draw;
            if is_decided {
                decided += 1;
            } else if done - decided >= samples / 2 && tries < TRIES_PER_SAMPLE * samples / 2 {
                continue;
            }
            done += 1;
            if let Dtm::Win(d) | Dtm::Loss(d) = stored
                && (1..=MAX_EXACT).contains(&u32::from(d))
            {
                let d = u32::from(d);
                let ok = compare(&mut checker, &pos, stored, d)
                    && compare(&mut checker, &pos, stored, d - 1);
                failures += usize::from(!ok);
                exact += 1;
            }
            let ok = compare(&mut checker, &pos, stored, depth);
            failures += usize::from(!ok);
            let slot = match expected(stored, depth) {
                Bounded::Loss => 0,
                Bounded::Open => 1,
                Bounded::Win => 2,
            };
            bounded[slot] += 1;
        }
        if missing {
            println!("{:<7} not generated yet", material.name());
            continue;
        }
        println!(
            "{:<7} {done} positions ({decided} stored won or lost) searched to {depth} plies (lost {}, open {}, won {}), {exact} distances of 1-{MAX_EXACT} plies exact; {:.0} s",
            material.name(),
            bounded[0],
            bounded[1],
            bounded[2],
            started.elapsed().as_secs_f64()
        );
    }
    if failures > 0 {
        eprintln!("{failures} disagreements");
        std::process::exit(1);
    }
}
