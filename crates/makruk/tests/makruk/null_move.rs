//! `Position::null_move` against its definition: rebuilding the position
//! from its setup with the other side to move.

use crate::common::{Rng, read_vector};
use makruk::{Color, CountingMode, Position, Variant};

/// The definition: the setup round trip with the turn flipped.
fn by_setup(p: &Position) -> Option<Position> {
    let mut setup = p.to_setup();
    setup.turn = !setup.turn;
    Position::from_setup(p.variant(), &setup).ok()
}

/// Tallies of what the checked positions covered.
#[derive(Default)]
struct Seen {
    passed: usize,
    refused: usize,
    counting: usize,
    declared: usize,
}

fn check(p: &Position, seen: &mut Seen) {
    let fast = p.null_move();
    assert_eq!(fast, by_setup(p), "{}", p.fen());
    match fast {
        Some(n) => {
            seen.passed += 1;
            assert_eq!(n.turn(), !p.turn());
            assert_eq!(n.zobrist(), by_setup(p).unwrap().zobrist());
            assert_eq!(n.counting(), by_setup(p).unwrap().counting());
            assert_eq!(
                n.legal_moves().as_slice(),
                by_setup(p).unwrap().legal_moves().as_slice()
            );
            assert!(!n.is_check(), "{}", p.fen());
        }
        None => {
            seen.refused += 1;
            assert!(p.is_check(), "{}", p.fen());
        }
    }
    if p.counting().is_some() {
        seen.counting += 1;
    }
    if p.counting_mode() == CountingMode::Declared {
        seen.declared += 1;
    }
}

/// Plays up to `plies` random moves from `start`, checking each position.
fn playout(start: Position, plies: usize, rng: &mut Rng, seen: &mut Seen) {
    let mut p = start;
    for _ in 0..plies {
        check(&p, seen);
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[rng.next() as usize % moves.len()]);
    }
}

#[test]
fn null_move_equals_the_setup_round_trip_on_the_perft_suite() {
    let text = read_vector("perft.epd");
    let mut seen = Seen::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let p = Position::from_fen(Variant::Makruk, fen).unwrap();
        // The position, its children and grandchildren.
        check(&p, &mut seen);
        for m in p.legal_moves().iter() {
            let c = p.played(*m);
            check(&c, &mut seen);
            for m2 in c.legal_moves().iter() {
                check(&c.played(*m2), &mut seen);
            }
        }
        playout(p, 200, &mut rng, &mut seen);
    }
    assert!(seen.passed > 10_000, "{}", seen.passed);
    assert!(seen.refused > 100, "{}", seen.refused);
    assert!(seen.counting > 100, "{}", seen.counting);
}

#[test]
fn null_move_equals_the_setup_round_trip_in_random_games() {
    let mut seen = Seen::default();
    let mut rng = Rng(12345);
    for game in 0..200 {
        let variant = if game % 2 == 0 {
            Variant::Makruk
        } else {
            Variant::Cambodian
        };
        playout(Position::new(variant), 400, &mut rng, &mut seen);
    }
    // Counting endings, automatic and declared.
    for fen in [
        "4k3/8/8/8/R7/8/8/R2K2N1 w - 16 10 1",
        "8/8/8/8/3k4/8/8/R3K3 w - 32 5 2",
        "4k3/8/8/2m5/1M6/8/3R4/3K4 w - 128 20 30",
        "4k3/8/8/2m5/1M6/8/3R4/3K4 w - - 0 30",
        "4k3/3s4/8/2m5/1M6/8/3R4/3K4 b - - 0 30",
    ] {
        for declared in [false, true] {
            let mut p = Position::from_fen(Variant::Makruk, fen).unwrap();
            if declared {
                p.set_counting_mode(CountingMode::Declared);
                let _ = p.start_board_count(Color::White);
            }
            playout(p, 150, &mut rng, &mut seen);
        }
    }
    assert!(seen.passed > 10_000, "{}", seen.passed);
    assert!(seen.refused > 100, "{}", seen.refused);
    assert!(seen.counting > 100, "{}", seen.counting);
    assert!(seen.declared > 100, "{}", seen.declared);
}
