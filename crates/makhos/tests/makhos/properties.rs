//! Property tests over random playouts: position text, move text and Zobrist keys.

use makhos::{Bitboard, Game, Move, Position, Rules, Square, king_slides};
use proptest::prelude::*;

/// Plays `choices.len()` pseudo-random legal moves from the start (stopping when the game
/// ends) and returns every position with the move played from it.
fn playout(rules: Rules, choices: &[u16]) -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    let mut pos = Position::start();
    for &c in choices {
        let legal = pos.legal_moves(rules);
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        out.push((pos, m));
        pos = pos.played(&m);
    }
    out
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Default), Just(Rules::NoReverse)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn position_text_round_trips(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, m) in playout(rules, &choices) {
            let text = pos.to_string();
            prop_assert_eq!(text.parse::<Position>(), Ok(pos), "{}", text);
            let after = pos.played(&m);
            prop_assert_eq!(after.to_string().parse::<Position>(), Ok(after));
            // The unchecked setup written back reads the same.
            prop_assert_eq!(Position::from_setup(&pos.to_setup()), Ok(pos));
        }
    }

    /// The position seen from the other side has the same moves, turned half a turn, and
    /// the same positions after them; flipping twice gives the position back. Tablebases
    /// store one of each such pair and rely on this.
    #[test]
    fn a_flipped_position_has_the_turned_moves(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let turned = |sq: Square| Square::new(31 - sq.index() as u8).unwrap();
        for (pos, _) in playout(rules, &choices) {
            let flipped = pos.flipped();
            prop_assert_eq!(flipped.flipped(), pos);
            prop_assert_eq!(flipped.turn(), pos.turn().other());
            prop_assert_eq!(flipped.to_string().parse::<Position>(), Ok(flipped));
            let key = |m: &Move| (m.from(), m.to(), m.captured().0);
            let mut want: Vec<_> = pos
                .legal_moves(rules)
                .iter()
                .map(|m| (turned(m.from()), turned(m.to()), m.captured().0.reverse_bits()))
                .collect();
            let mut got: Vec<_> = flipped.legal_moves(rules).iter().map(key).collect();
            want.sort();
            got.sort();
            prop_assert_eq!(got, want, "{} against {}", pos, flipped);
            for m in flipped.legal_moves(rules) {
                let back = pos
                    .legal_moves(rules)
                    .into_iter()
                    .find(|n| (turned(n.from()), turned(n.to()), n.captured().0.reverse_bits()) == key(&m))
                    .unwrap();
                prop_assert_eq!(flipped.played(&m), pos.played(&back).flipped());
            }
        }
    }

    /// Without a capture, a king's legal moves are exactly its slides, and each slide can
    /// be slid back.
    #[test]
    fn a_kings_quiet_moves_are_its_slides(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        for (pos, _) in playout(rules, &choices) {
            if pos.has_capture() {
                continue;
            }
            let moves = pos.legal_moves(rules);
            for from in pos.kings(pos.turn()).squares() {
                let mut want: Vec<Square> =
                    moves.iter().filter(|m| m.from() == from).map(|m| m.to()).collect();
                want.sort();
                let slides = king_slides(from, pos.occupied());
                let got: Vec<Square> = slides.squares().collect();
                prop_assert_eq!(&got, &want, "{}", pos);
                for to in got {
                    let occupied = Bitboard(pos.occupied().0 & !from.bit() | to.bit());
                    prop_assert!(king_slides(to, occupied).contains(from));
                }
            }
        }
    }

    /// Every legal move, played, moves its piece to its landing square and removes exactly
    /// the pieces it captured (even when it lands where a captured piece stood).
    #[test]
    fn playing_a_legal_move_does_what_it_says(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, _) in playout(rules, &choices) {
            let us = pos.turn();
            for m in pos.legal_moves(rules) {
                let after = pos.played(&m);
                prop_assert_eq!(after.turn(), us.other());
                prop_assert!(after.pieces(us).contains(m.to()), "{} {}", pos, m.to_algebraic());
                prop_assert_eq!(after.pieces(us).count(), pos.pieces(us).count());
                prop_assert_eq!(
                    after.pieces(us.other()).0,
                    pos.pieces(us.other()).0 & !m.captured().0,
                    "{} {}", pos, m.to_algebraic()
                );
            }
        }
    }

    #[test]
    fn every_move_notation_parses_back_to_the_same_move(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, _) in playout(rules, &choices) {
            for m in pos.legal_moves(rules) {
                let forms = [
                    m.to_algebraic(),
                    m.to_engine(),
                    m.to_numeric(),
                    m.to_numeric_short(&pos, rules),
                    m.to_algebraic_short(&pos, rules),
                    m.to_numeric().replace('x', "-"),
                ];
                for text in forms {
                    let back = pos.parse_move(rules, &text);
                    prop_assert_eq!(back.as_ref(), Ok(&m), "{} in {}", text, pos);
                    prop_assert_eq!(pos.played(back.as_ref().unwrap()), pos.played(&m));
                }
            }
        }
    }

    #[test]
    fn zobrist_incremental_equals_fresh(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let mut game = Game::new(rules);
        for (pos, m) in playout(rules, &choices) {
            let key = pos.zobrist();
            for n in pos.legal_moves(rules) {
                prop_assert_eq!(pos.zobrist_after(key, &n), pos.played(&n).zobrist());
            }
            if game.play_past_end(&m).is_err() {
                break;
            }
            prop_assert_eq!(game.hash(), game.position().zobrist());
        }
    }

    #[test]
    fn legal_moves_are_distinct_and_count_matches(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, _) in playout(rules, &choices) {
            let legal = pos.legal_moves(rules);
            prop_assert_eq!(legal.len() as u64, pos.count_legal_moves(rules));
            let after: std::collections::HashSet<Position> = legal.iter().map(|m| pos.played(m)).collect();
            // Distinct moves lead to distinct positions (duplicates were merged).
            prop_assert_eq!(after.len(), legal.len());
            // Captures are compulsory: either all moves capture or none does.
            prop_assert!(legal.iter().all(|m| m.is_capture()) || legal.iter().all(|m| !m.is_capture()));
            prop_assert_eq!(pos.has_capture(), legal.first().is_some_and(|m| m.is_capture()));
        }
    }

    #[test]
    fn fast_perft_equals_plain_recursion(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, _) in playout(rules, &choices).into_iter().step_by(7) {
            let legal = pos.legal_moves(rules);
            let by_hand: u64 = legal.iter().map(|m| pos.played(m).legal_moves(rules).len() as u64).sum();
            prop_assert_eq!(makhos::perft(&pos, rules, 2), by_hand, "{}", pos);
            let by_hand3: u64 = legal.iter().map(|m| makhos::perft(&pos.played(m), rules, 2)).sum();
            prop_assert_eq!(makhos::perft(&pos, rules, 3), by_hand3, "{}", pos);
            prop_assert_eq!(makhos::perft(&pos, rules, 1), legal.len() as u64);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
        let _ = text.parse::<Position>();
        let _ = Position::start().parse_move(Rules::Default, &text);
    }

    #[test]
    fn position_like_text_never_panics(text in "[WB]:[WBK]?[a-h1-9K,x:-]{0,30}:[WBK]?[a-h1-9K,]{0,30}") {
        if let Ok(p) = text.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
            let _ = p.legal_moves(Rules::Default);
        }
    }
}
