//! Property tests over random playouts of both variants.

use makruk::{Letters, Position, Setup, Variant};
use proptest::prelude::*;

/// Plays up to `plies` moves chosen by `choices` from the start of `variant`,
/// returning every position reached with the move played from it.
fn playout(variant: Variant, choices: &[u16]) -> Vec<(Position, makruk::Move)> {
    let mut pos = Position::new(variant);
    let mut out = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        out.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    out
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Makruk), Just(Variant::Cambodian)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trip(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..300)) {
        for (pos, m) in playout(v, &choices) {
            let after = pos.played(m);
            let fen = after.fen();
            let reread = Position::from_fen(v, &fen).unwrap();
            prop_assert_eq!(reread.fen(), fen.clone());
            prop_assert_eq!(reread.zobrist(), after.zobrist());
            prop_assert_eq!(Setup::from_fen(&fen).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn san_and_uci_round_trip(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..200)) {
        for (pos, m) in playout(v, &choices) {
            for letters in [Letters::Fsf, Letters::SchemingMind] {
                let san = pos.san_with(m, letters);
                prop_assert_eq!(pos.parse_san(&san).unwrap(), m, "{} in {}", san, pos.fen());
            }
            prop_assert_eq!(pos.parse_uci(&m.to_uci()).unwrap(), m);
        }
    }

    #[test]
    fn incremental_zobrist_equals_fresh(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..300)) {
        for (pos, m) in playout(v, &choices) {
            let after = pos.played(m);
            let fresh = Position::from_setup(v, &after.to_setup()).unwrap();
            prop_assert_eq!(after.zobrist(), fresh.zobrist());
            prop_assert_eq!(after.checkers(), fresh.checkers());
        }
    }

    #[test]
    fn copy_make_leaves_the_original_untouched(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..100)) {
        for (pos, m) in playout(v, &choices) {
            let before = pos.clone();
            let _ = pos.played(m);
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.count_legal_moves(), pos.legal_moves().len());
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = Position::from_fen(Variant::Makruk, &text);
        let pos = Position::new(Variant::Cambodian);
        let _ = pos.parse_san(&text);
        let _ = pos.parse_uci(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `play` is only specified for legal moves, but even arbitrary moves
    /// (capturing a khun, moving the opponent's piece, from an empty
    /// square) must not panic.
    #[test]
    fn playing_arbitrary_moves_never_panics(from in 0u8..64, to in 0u8..64, promo: bool, choices in prop::collection::vec(any::<u16>(), 0..20)) {
        let mut pos = playout(Variant::Makruk, &choices).last().map(|(p, m)| p.played(*m)).unwrap_or_else(|| Position::new(Variant::Makruk));
        let m = makruk::Move::new(makruk::Square::new(from).unwrap(), makruk::Square::new(to).unwrap(), promo);
        pos.play_unchecked(m);
        let _ = pos.fen();
        let _ = pos.state();
        let _ = pos.legal_moves();
    }
}
