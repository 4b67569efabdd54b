//! Makruk pieces'-honour tables with three pieces, generated on the fly: the values under
//! the count against an independent search over the rules crate (which runs the count
//! itself), and the facts of the endings.

use crate::common::Lcg;
use makruk::{Color, Position, Role, Setup, State, Variant};
use std::collections::HashMap;
use thaiboard_tablebase::makruk::{BareTable, Dtm};

/// Random positions compared with the search, per table.
const SAMPLES: usize = 150;
/// Plies left on the count in the sampled positions (the search is exhaustive to there).
const MAX_PLIES_LEFT: u32 = 6;

/// A plain minimax over `makruk` alone: the rules crate plays the moves and runs the
/// count, and `state()` decides mate, stalemate and the count's draw. 1 win, 0 draw,
/// -1 loss for the side to move.
fn minimax(pos: &Position, memo: &mut HashMap<String, i8>) -> i8 {
    let key = pos.fen();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = match pos.state() {
        State::Checkmate => -1,
        State::Ongoing => {
            let mut best = -1;
            for &m in pos.legal_moves().iter() {
                best = best.max(-minimax(&pos.played(m), memo));
                if best == 1 {
                    break;
                }
            }
            best
        }
        _ => 0,
    };
    memo.insert(key, v);
    v
}

/// `pos` with a running pieces'-honour count: `limit` plies, `left` plies to go.
fn with_count(pos: &Position, limit: u32, left: u32) -> Position {
    let mut setup: Setup = pos.to_setup();
    setup.counting_limit = limit;
    setup.counting_ply = limit + 1 - left;
    Position::from_setup(pos.variant(), &setup).unwrap()
}

fn check_against_search(variant: Variant, strong: Color, role: Role, seed: u64) {
    let table = BareTable::generate(variant, strong, role);
    let mut rng = Lcg(seed);
    let mut memo = HashMap::new();
    let mut seen = [0usize; 3];
    let (mut decisive, mut other) = (0, 0);
    while decisive + other < SAMPLES {
        let Some(pos) = table.position_at(rng.below(64 * 64 * 64 * 2) as usize) else {
            continue;
        };
        if pos.state() != State::Ongoing {
            continue;
        }
        // Short mates are checked on both sides of the count's edge; others at random.
        let lefts: Vec<u32> = match table.dtm(&pos) {
            Some(Dtm::Win(d) | Dtm::Loss(d)) if (d as u32) <= MAX_PLIES_LEFT => {
                decisive += 1;
                (d as u32 - 1..=d as u32).filter(|&l| l > 0).collect()
            }
            _ if other < SAMPLES / 2 => {
                other += 1;
                vec![1 + rng.below(MAX_PLIES_LEFT as u64) as u32]
            }
            _ => continue,
        };
        let limit = 2 * pos.counting_limit_for(!strong);
        for left in lefts {
            let counted = with_count(&pos, limit, left);
            let got = table.value(&counted).unwrap();
            assert_eq!(
                got,
                minimax(&counted, &mut memo),
                "{} ({left} plies left)",
                counted.fen()
            );
            seen[(got + 1) as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn ruea_against_a_bare_khun_matches_a_search_under_the_count() {
    check_against_search(Variant::Makruk, Color::White, Role::Rook, 1);
}

#[test]
fn black_khon_against_a_bare_khun_matches_a_search_under_the_count() {
    // The khon moves forward, so the colour of the stronger side matters.
    check_against_search(Variant::Makruk, Color::Black, Role::Khon, 2);
}

#[test]
fn ouk_chatrang_ruea_matches_a_search_under_its_own_count() {
    check_against_search(Variant::Cambodian, Color::White, Role::Rook, 3);
}

/// Khun and ruea against a bare khun: every position with the ruea's side to move is a
/// forced mate, the longest in 31 plies (16 moves, as in chess), but the count (16 moves,
/// 32 plies, started at ply 6 when the khun became bare) leaves 26 plies: 152,872 of the
/// 175,168 positions (87.3%) are mated in time, the rest are draws by the count.
#[test]
fn the_ruea_mates_every_bare_khun_within_its_count() {
    let table = BareTable::generate(Variant::Makruk, Color::White, Role::Rook);
    let r = table.honour_report();
    assert_eq!(r.limit, 32);
    assert_eq!(r.won_without_count, r.positions, "{r:?}");
    assert_eq!(
        (r.positions, r.won, r.longest),
        (175_168, 152_872, 31),
        "{r:?}"
    );
    let pos = Position::from_fen(Variant::Makruk, "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
    assert_eq!(table.dtm(&pos), Some(Dtm::Win(1)));
    assert_eq!(table.value(&pos), Some(1));
}

#[test]
fn a_position_of_other_material_is_not_in_a_table() {
    let table = BareTable::generate(Variant::Makruk, Color::White, Role::Knight);
    let pos = Position::from_fen(Variant::Makruk, "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
    assert_eq!(table.value(&pos), None);
}
