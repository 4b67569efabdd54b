//! Differential tests against Fairy-Stockfish through its Python binding
//! (`pip install pyffish`; `.ci/run` installs it). Random playouts from the
//! start of each variant: the legal move set must agree at every position,
//! and the SAN and exact FEN after the move played.

use makruk::{Position, Variant};

fn compare(variant: Variant, records: &[serde_json::Value]) {
    assert!(records.len() > 100, "too few positions: {}", records.len());
    for v in records {
        let fen = v["fen"].as_str().unwrap();
        let p = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(p.fen(), fen);
        assert_eq!(
            p.is_check(),
            v["in_check"].as_bool().unwrap(),
            "{fen}: in check"
        );
        crate::common::assert_same_moves(&p, &v["moves"], fen);
        let Some(played) = v["played"].as_str() else {
            continue;
        };
        let (san, after) = (v["san"].as_str().unwrap(), v["fen_after"].as_str().unwrap());
        let m = p.parse_uci(played).unwrap();
        assert_eq!(p.san(m), san, "{fen} {played}: SAN");
        assert_eq!(p.parse_san(san).unwrap(), m, "{fen}: reading {san}");
        assert_eq!(p.played(m).fen(), after, "{fen} {played}: FEN after");
    }
}

#[test]
fn cambodian_playouts_agree_with_fairy_stockfish() {
    compare(
        Variant::Cambodian,
        &crate::common::pyffish_oracle("pyffish_playouts.py", Variant::Cambodian, 40, 40, 7),
    );
}

#[test]
fn makruk_long_playouts_agree_with_fairy_stockfish() {
    compare(
        Variant::Makruk,
        &crate::common::pyffish_oracle("pyffish_playouts.py", Variant::Makruk, 4, 300, 11),
    );
}
