//! Fairy-Stockfish's Thai notation, byte for byte: every legal move of a
//! few hundred positions of each variant (playouts from the start and
//! generated crowded positions with promoted bias, moves that need their
//! origin written, promotions, checks and mates) is written as pyffish's
//! `get_san` writes it with `NOTATION_SAN`, `NOTATION_THAI_SAN` and
//! `NOTATION_THAI_LAN`, and read back to the same move.

use makruk::{Notation, Position, ThaiError, Variant};

/// How many moves of the records showed each feature.
#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    promoted_met: usize,
    disambiguated: usize,
    promotion: usize,
    check: usize,
    mate: usize,
    /// Short forms two legal moves share (Fairy-Stockfish writes a bia's
    /// capture and a khon's, khun's or promoted met's capture alike).
    shared_short_forms: usize,
}

fn compare(variant: Variant, records: &[serde_json::Value]) -> Seen {
    let mut seen = Seen::default();
    for v in records {
        let fen = v["fen"].as_str().unwrap();
        let p = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let rows = v["moves"].as_array().unwrap();
        assert_eq!(rows.len(), p.legal_moves().len(), "{fen}: legal moves");
        let short: Vec<String> = p.legal_moves().iter().map(|&m| p.thai_san(m)).collect();
        for row in rows {
            let [uci, san, thai_san, thai_lan] =
                [0, 1, 2, 3].map(|i| row[i].as_str().unwrap().to_string());
            let m = p.parse_uci(&uci).unwrap();
            assert_eq!(p.write_move(m, Notation::San), san, "{fen} {uci}: SAN");
            assert_eq!(p.thai_san(m), thai_san, "{fen} {uci}: Thai SAN");
            assert_eq!(p.thai_lan(m), thai_lan, "{fen} {uci}: Thai LAN");
            assert_eq!(p.parse_thai(&thai_lan), Ok(m), "{fen}: reading {thai_lan}");
            assert_eq!(p.parse_move(&thai_lan), Ok(m), "{fen}: reading {thai_lan}");
            match p.parse_thai(&thai_san) {
                Ok(read) => assert_eq!(read, m, "{fen}: reading {thai_san}"),
                Err(ThaiError::Ambiguous { candidates, .. }) => {
                    let same = short.iter().filter(|s| **s == thai_san).count();
                    assert!(same > 1, "{fen}: {thai_san} read as {candidates:?}");
                    assert!(candidates.contains(&thai_lan), "{fen}: {thai_san}");
                    seen.shared_short_forms += 1;
                }
                Err(e) => panic!("{fen}: reading {thai_san}: {e}"),
            }
            seen.moves += 1;
            seen.promoted_met += usize::from(thai_lan.starts_with('ง'));
            seen.disambiguated += usize::from(
                !thai_lan.starts_with('บ') && thai_san.chars().filter(|c| *c != '-').count() > 4,
            );
            seen.promotion += usize::from(thai_san.contains("=M"));
            seen.check += usize::from(thai_san.ends_with('+'));
            seen.mate += usize::from(thai_san.ends_with('#'));
        }
    }
    seen
}

fn check(variant: Variant, positions: u32, seed: u64) {
    let records =
        crate::common::pyffish_oracle("pyffish_notation.py", variant, positions, 80, seed);
    assert_eq!(records.len() as u32, positions, "records");
    let seen = compare(variant, &records);
    eprintln!("{variant:?}: {seen:?}");
    assert!(seen.moves > 20 * positions as usize, "{seen:?}");
    for (what, n) in [
        ("promoted met", seen.promoted_met),
        ("disambiguated", seen.disambiguated),
        ("promotion", seen.promotion),
        ("check", seen.check),
        ("mate", seen.mate),
    ] {
        assert!(n > 0, "no move with {what}: {seen:?}");
    }
}

#[test]
fn makruk_moves_are_written_and_read_as_fairy_stockfish_writes_them() {
    check(Variant::Makruk, 120, 31);
}

#[test]
fn cambodian_moves_are_written_and_read_as_fairy_stockfish_writes_them() {
    check(Variant::Cambodian, 120, 32);
}

#[test]
#[ignore = "long: every legal move of thousands of positions"]
fn thai_notation_agrees_with_fairy_stockfish_long() {
    check(Variant::Makruk, 2000, 1031);
    check(Variant::Cambodian, 2000, 1032);
}
