//! The fast sum ([`super::sum`]) checked against its definition,
//! the trace ([`super::trace::trace`]) summed with the same weights, on
//! random games and random weights. Test-only; it sits above both.

use super::shared::{Summer, TermWeights};
use super::sum::sums;
use super::terms as t;
use super::trace::{phase, trace};
use super::weights::MakrukWeights;
use makruk::{Position, Role, Variant};

/// The middlegame and endgame sums of the [`trace`] with `w`, from White's
/// view (for checking the fast path).
fn traced_sums(pos: &Position, w: &TermWeights) -> (i32, i32) {
    let mut s = Summer { w, mg: 0, eg: 0 };
    trace(pos, &mut s);
    (s.mg, s.eg)
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every position of random games from each opening of
/// `data/openings/makruk.epd` and from the start of both variants.
fn positions() -> Vec<Position> {
    let text = include_str!("../../../../../data/openings/makruk.epd");
    let mut starts: Vec<Position> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| Position::from_fen(Variant::Makruk, l.trim()).expect("opening FEN"))
        .collect();
    assert!(starts.len() >= 200, "{} openings", starts.len());
    starts.push(Position::new(Variant::Makruk));
    starts.push(Position::new(Variant::Cambodian));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    for start in starts {
        for _ in 0..2 {
            let mut p = start.clone();
            for _ in 0..160 {
                out.push(p.clone());
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures half the time, to reach endings.
                let captures: Vec<_> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
                let m = if !captures.is_empty() && rng.next() % 2 == 0 {
                    captures[rng.next() as usize % captures.len()]
                } else {
                    moves[rng.next() as usize % moves.len()]
                };
                p.play_unchecked(m);
            }
        }
    }
    out
}

/// Weights with every feature given a distinct random value, so no
/// feature hides behind a zero default weight.
fn random_weights(rng: &mut Rng) -> TermWeights {
    let mut w = MakrukWeights::DEFAULT.terms.clone();
    for f in 0..t::COUNT {
        w.mg[f] = (rng.next() % 2001) as i16 - 1000;
        w.eg[f] = (rng.next() % 2001) as i16 - 1000;
    }
    w
}

#[test]
fn the_fast_sums_equal_the_trace_on_random_games() {
    let positions = positions();
    assert!(positions.len() > 50_000, "{}", positions.len());
    let mut rng = Rng(7);
    let weights = [
        MakrukWeights::DEFAULT.terms.clone(),
        random_weights(&mut rng),
        random_weights(&mut rng),
    ];
    let mut endings = 0;
    for p in &positions {
        if p.by_role(Role::Pawn).is_empty() {
            endings += 1;
        }
        for w in &weights {
            let fast = sums(p, w);
            assert_eq!((fast.mg, fast.eg), traced_sums(p, w), "{}", p.fen());
            assert_eq!(fast.phase, phase(p), "{}", p.fen());
        }
    }
    assert!(endings > 1000, "only {endings} positions without bias");
}

/// Each feature on its own: a weight of 1 on one feature and 0 on the
/// rest gives that feature's net count, so a miscounted feature cannot
/// be hidden by another compensating it.
#[test]
fn every_feature_alone_counts_as_in_the_trace() {
    let positions: Vec<Position> = positions().into_iter().step_by(37).collect();
    for f in 0..t::COUNT {
        let mut w = TermWeights {
            mg: [0; t::COUNT],
            eg: [0; t::COUNT],
        };
        w.mg[f] = 1;
        w.eg[f] = -3;
        for p in &positions {
            let fast = sums(p, &w);
            assert_eq!(
                (fast.mg, fast.eg),
                traced_sums(p, &w),
                "feature {} in {}",
                t::name(f),
                p.fen()
            );
        }
    }
}
