//! `extend_legal_moves` and `extend_noisy_moves` against `legal_moves`
//! (and its filtering by captures and promotions), move for move and in
//! order.

use crate::common::{Rng, read_vector};
use makruk::{Position, Variant};

fn check(p: &Position, noisy_seen: &mut usize) {
    let all = p.legal_moves();
    let mut listed = Vec::new();
    p.extend_legal_moves(&mut listed);
    assert_eq!(listed.as_slice(), all.as_slice(), "{}", p.fen());
    let expected: Vec<_> = all
        .iter()
        .copied()
        .filter(|&m| m.is_promotion() || p.is_capture(m))
        .collect();
    // Appending keeps what was there.
    let mut noisy = vec![all.first().copied().unwrap_or(makruk::Move::new(
        makruk::Square::new(0).unwrap(),
        makruk::Square::new(1).unwrap(),
        false,
    ))];
    p.extend_noisy_moves(&mut noisy);
    assert_eq!(&noisy[1..], expected.as_slice(), "{}", p.fen());
    *noisy_seen += expected.len();
}

#[test]
fn appended_moves_equal_the_legal_moves_on_the_perft_suite() {
    let text = read_vector("perft.epd");
    let mut noisy = 0;
    let mut positions = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let p = Position::from_fen(Variant::Makruk, fen).unwrap();
        check(&p, &mut noisy);
        for m in p.legal_moves().iter() {
            let c = p.played(*m);
            check(&c, &mut noisy);
            for m2 in c.legal_moves().iter() {
                check(&c.played(*m2), &mut noisy);
                positions += 1;
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(noisy > 10_000, "{noisy}");
}

#[test]
fn appended_moves_equal_the_legal_moves_in_random_games() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut noisy = 0;
    for game in 0..300 {
        let variant = if game % 3 == 0 {
            Variant::Cambodian
        } else {
            Variant::Makruk
        };
        let mut p = Position::new(variant);
        for _ in 0..300 {
            check(&p, &mut noisy);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.next() as usize % moves.len()]);
        }
    }
    assert!(noisy > 10_000, "{noisy}");
}
