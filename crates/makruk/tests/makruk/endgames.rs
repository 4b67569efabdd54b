//! Differential tests of the endgame rules against Fairy-Stockfish (pyffish):
//! random playouts from generated endgame positions (few pieces, bare or
//! nearly bare khuns, with and without bias, running counts, Ouk Chatrang's
//! first-move rights) in both variants. At every ply the legal moves, the
//! FEN after the move (counting fields and promotion marks included) and
//! the rule state must agree (also from FENs whose counting fields are those
//! of other rules). The quick runs are part of CI; `cargo test -- --ignored` plays
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
    check_oracle(
        "pyffish_endgames.py",
        variant,
        positions,
        plies,
        seed,
        endings,
    );
}

/// [`check`] with the records of oracle `script`.
fn check_oracle(
    script: &str,
    variant: Variant,
    positions: u32,
    plies: u32,
    seed: u64,
    endings: &[&str],
) {
    let records = crate::common::pyffish_oracle(script, variant, positions, plies, seed);
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

/// Counting fields of other rules (Makruk limits in Ouk Chatrang, as
/// cutechess writes them; limits of no rule; counts with bias; counts past
/// their end), read and played on as Fairy-Stockfish does: first the case of
/// pyffish's own test suite (`8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1`, e5f6,
/// to `... b - 42 8 1` in Ouk Chatrang) and cutechess's `... b - 88 89 1`.
#[test]
fn foreign_counting_fields_are_read_and_played_as_fairy_stockfish() {
    for (variant, seed) in [(Variant::Cambodian, 31), (Variant::Makruk, 32)] {
        check_oracle(
            "pyffish_foreign_counts.py",
            variant,
            150,
            6,
            seed,
            &["counting_draw"],
        );
    }
}
