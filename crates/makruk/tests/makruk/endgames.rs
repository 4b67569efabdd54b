//! Differential tests of the endgame rules against Fairy-Stockfish (pyffish):
//! random playouts from generated endgame positions (few pieces, bare or
//! nearly bare khuns, with and without bias, running counts, Ouk Chatrang's
//! first-move rights) in both variants. At every ply the legal moves, the
//! FEN after the move (counting fields and promotion marks included) and
//! the rule state must agree. The quick runs are part of CI; `cargo test -- --ignored` plays
//! thousands of positions more.

use makruk::{Position, Variant};
use std::collections::BTreeSet;

/// Checks every record; returns how many positions ended by each state.
fn compare(variant: Variant, records: &[serde_json::Value]) -> BTreeSet<String> {
    let mut reached = BTreeSet::new();
    for v in records {
        let fen = v["fen"].as_str().unwrap();
        let p = match v["fen_in"].as_str() {
            Some(given) => {
                let p =
                    Position::from_fen(variant, given).unwrap_or_else(|e| panic!("{given}: {e}"));
                assert_eq!(p.fen_with_marks(true), fen, "{given}: read and written");
                p
            }
            None => Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}")),
        };
        crate::common::assert_same_moves(&p, &v["moves"], fen);
        let state = v["state"].as_str().unwrap();
        assert_eq!(p.state().name(), state, "{fen}: state");
        reached.insert(state.to_string());
        let Some(played) = v["played"].as_str() else {
            continue;
        };
        let m = p.parse_uci(played).unwrap();
        let after = v["fen_after"].as_str().unwrap();
        let next = p.played(m);
        assert_eq!(
            next.fen_with_marks(true),
            after,
            "{fen} {played}: FEN after"
        );
        assert_eq!(
            next.fen(),
            after.replace('~', ""),
            "{fen} {played}: unmarked FEN"
        );
    }
    reached
}

/// Plays the playouts and checks that they reached each of `endings`.
fn check(variant: Variant, positions: u32, plies: u32, seed: u64, endings: &[&str]) {
    let records =
        crate::common::pyffish_oracle("pyffish_endgames.py", variant, positions, plies, seed);
    assert!(records.len() as u32 >= positions, "too few records");
    let reached = compare(variant, &records);
    for state in endings {
        assert!(reached.contains(*state), "no position reached {state}");
    }
}

/// The endings the long runs must reach.
const LONG_ENDINGS: &[&str] = &[
    "checkmate",
    "stalemate",
    "counting_draw",
    "insufficient_material",
];

#[test]
fn makruk_endgame_playouts_agree_with_fairy_stockfish() {
    check(Variant::Makruk, 300, 6, 21, &["counting_draw"]);
}

#[test]
fn cambodian_endgame_playouts_agree_with_fairy_stockfish() {
    check(Variant::Cambodian, 300, 6, 22, &["counting_draw"]);
}

#[test]
#[ignore = "long: thousands of endgame playouts (several minutes)"]
fn makruk_endgame_playouts_agree_with_fairy_stockfish_long() {
    check(Variant::Makruk, 3000, 40, 1021, LONG_ENDINGS);
}

#[test]
#[ignore = "long: thousands of endgame playouts (several minutes)"]
fn cambodian_endgame_playouts_agree_with_fairy_stockfish_long() {
    check(Variant::Cambodian, 3000, 40, 1022, LONG_ENDINGS);
}
