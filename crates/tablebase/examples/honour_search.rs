//! Pieces' honour beyond the tables: for a material against a bare khun (any number of
//! pieces), the share of random positions the stronger side mates before the count runs
//! out, found by a plain mate search over the rules crate (no table is read):
//! `cargo run --release -p thaiboard-tablebase --example honour_search -- NAME [SAMPLES]
//! [SEED]`, e.g. `KRRNvK 2000 1` (the rule book's example: two rueas and a ma against a
//! bare khun, five pieces on the board, mate within 8 − 5 = 3 moves).
//!
//! Each sample is a random legal placement with the count as the rules start it when the
//! khun becomes bare (limit twice the pieces'-honour limit, ply twice the pieces on the
//! board, the bare khun to move), and the same placement with the stronger side to move
//! one ply into that count. The search is an AND-OR search to the plies the count leaves:
//! the rules crate plays every move (the bare khun's captures included; they do not
//! restart the count) and `state()` decides mate and the count's draw. It reports the
//! share mated in time with its 95% interval and how many mates land on each move.

#[path = "../tests/common/mod.rs"]
mod common;
use common::Lcg;
use makruk::{Color, Piece, Position, Role, Setup, State, Variant};
use std::collections::HashMap;
use thaiboard_tablebase::makruk::material::Material;
use thaiboard_tablebase::makruk::plies_left;

/// Samples when none are given.
const DEFAULT_SAMPLES: usize = 1000;
/// Tries per wanted sample (random placements are often illegal).
const TRIES_PER_SAMPLE: usize = 100;
/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;
/// Squares on the board.
const SQUARES: u64 = 64;

/// Whether the side to move (the stronger side) mates within `plies` plies (`attacker`),
/// or the side to move (the bare khun) is mated within them (not `attacker`).
fn mated_within(
    pos: &Position,
    plies: u32,
    attacker: bool,
    memo: &mut HashMap<(u64, u32, u32), bool>,
) -> bool {
    match pos.state() {
        State::Checkmate => return !attacker,
        State::Ongoing => {}
        _ => return false,
    }
    if plies == 0 {
        return false;
    }
    let ply = pos.counting().map_or(0, |c| c.ply);
    let key = (pos.zobrist(), ply, plies);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let moves = pos.legal_moves();
    let result = if attacker {
        // The last ply must mate: only checks can.
        moves.iter().any(|&m| {
            let child = pos.played(m);
            (plies > 1 || child.is_check()) && mated_within(&child, plies - 1, false, memo)
        })
    } else {
        plies > 1
            && moves
                .iter()
                .all(|&m| mated_within(&pos.played(m), plies - 1, true, memo))
    };
    memo.insert(key, result);
    result
}

/// A random legal placement of `material` with `turn` to move and the count at `count`.
fn sample(rng: &mut Lcg, material: &Material, turn: Color, count: (u32, u32)) -> Option<Position> {
    let mut setup = Setup::empty();
    let king = |color| Piece {
        color,
        role: Role::King,
    };
    let pieces: Vec<Piece> = [king(Color::White), king(Color::Black)]
        .into_iter()
        .chain(material.placed())
        .collect();
    for p in pieces {
        let sq = rng.below(SQUARES) as usize;
        if setup.board[sq].is_some() {
            return None;
        }
        setup.board[sq] = Some(p);
    }
    // A side's second met is a promoted bia.
    for color in [Color::White, Color::Black] {
        let mets = setup.squares_of(Piece {
            color,
            role: Role::Met,
        });
        if let Some(second) = mets.into_iter().nth(1) {
            setup.promoted = setup.promoted.with(second);
        }
    }
    setup.turn = turn;
    (setup.counting_limit, setup.counting_ply) = count;
    let pos = Position::from_setup(Variant::Makruk, &setup).ok()?;
    (pos.state() == State::Ongoing).then_some(pos)
}

/// One side to move's tally: samples, mates in time by the stronger side's move number.
struct Tally {
    samples: usize,
    by_move: Vec<usize>,
}

impl Tally {
    fn report(&self, who: &str, left: u32) {
        let won: usize = self.by_move.iter().sum();
        let n = self.samples.max(1) as f64;
        let p = won as f64 / n;
        let half = Z95 * (p * (1.0 - p) / n).sqrt();
        let per_move: Vec<String> = self
            .by_move
            .iter()
            .enumerate()
            .map(|(k, c)| format!("move {}: {c}", k + 1))
            .collect();
        println!(
            "{who} to move, {left} plies left: mated in time {won} of {} ({:.1}% ± {:.1}); {}",
            self.samples,
            100.0 * p,
            100.0 * half,
            per_move.join(", ")
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(material) = args.next().as_deref().and_then(Material::from_name) else {
        eprintln!(
            "usage: honour_search NAME [SAMPLES] [SEED] (NAME: a bare-khun material such as KRRNvK)"
        );
        std::process::exit(2);
    };
    if !material.black.is_empty() || material.bias() > 0 || material.white.is_empty() {
        eprintln!("{material}: not a material against a bare khun without bias");
        std::process::exit(2);
    }
    let samples: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_SAMPLES);
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut rng = Lcg(seed);
    let started = std::time::Instant::now();
    // The count the rules start when the last black piece falls: read off a sample.
    let probe = loop {
        if let Some(p) = sample(&mut rng, &material, Color::Black, (0, 0)) {
            break p;
        }
    };
    let limit = 2 * probe.counting_limit_for(Color::Black);
    let start = 2 * material.pieces();
    println!(
        "{material}: pieces' honour count {limit} plies, starting at ply {start} with the bare khun to move"
    );
    for (turn, ply, who) in [
        (Color::Black, start, "bare khun"),
        (Color::White, start + 1, "stronger side"),
    ] {
        let mut memo = HashMap::new();
        let mut tally = Tally {
            samples: 0,
            by_move: Vec::new(),
        };
        let mut left = 0;
        let mut tries = 0;
        while tally.samples < samples && tries < TRIES_PER_SAMPLE * samples {
            tries += 1;
            let Some(pos) = sample(&mut rng, &material, turn, (limit, ply)) else {
                continue;
            };
            left = plies_left(&pos).unwrap_or(0);
            tally.samples += 1;
            if memo.len() > 1 << 22 {
                memo.clear();
            }
            let attacker = turn == Color::White;
            // The shortest mate: search deeper one stronger-side move at a time.
            let first = if attacker { 1 } else { 2 };
            for plies in (first..=left).step_by(2) {
                if mated_within(&pos, plies, attacker, &mut memo) {
                    let k = plies.div_ceil(2) as usize;
                    if tally.by_move.len() < k {
                        tally.by_move.resize(k, 0);
                    }
                    tally.by_move[k - 1] += 1;
                    break;
                }
            }
        }
        tally.report(who, left);
    }
    println!("{:.0} s", started.elapsed().as_secs_f64());
}
