//! Declared (manual) counting against Fairy-Stockfish as pychess drives it:
//! `CountingMode::Declared` must write the counting fields pyffish's
//! `get_fen(variant, fen, moves, False, False, True, count_started)` writes
//! for the same history of moves, declarations and stops, in both variants
//! (including Ouk Chatrang keeping a declared count that ends sooner than a
//! new pieces'-honour count).

use makruk::{Color, CountingMode, Position, Variant};

/// Replays the oracle's histories and compares the FEN after every move.
fn check(variant: Variant, positions: u32, plies: u32, seed: u64) {
    let records =
        crate::common::pyffish_oracle("pyffish_declared.py", variant, positions, plies, seed);
    assert!(records.len() as u32 >= positions, "too few records");
    let (mut pos, mut declarer) = (Position::new(variant), Color::White);
    let mut declarations = 0;
    for v in &records {
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let start = v["start"].as_str().unwrap();
        if moves.len() == 1 {
            pos = Position::from_fen(variant, start).unwrap_or_else(|e| panic!("{start}: {e}"));
            pos.set_counting_mode(CountingMode::Declared);
        }
        let history = format!("{start} moves {}", moves.join(" "));
        match v["event"].as_str() {
            Some("declare") => {
                declarer = pos.turn();
                assert!(
                    pos.may_start_board_count(declarer),
                    "{history}: may declare"
                );
                pos.start_board_count(declarer)
                    .unwrap_or_else(|e| panic!("{history}: declare: {e}"));
                declarations += 1;
            }
            Some("stop") => pos
                .stop_board_count(declarer)
                .unwrap_or_else(|e| panic!("{history}: stop: {e}")),
            _ => {}
        }
        let m = pos.parse_uci(moves[moves.len() - 1]).unwrap();
        pos.play(m).unwrap_or_else(|e| panic!("{history}: {e}"));
        assert_eq!(
            pos.fen_with_marks(true),
            v["fen"].as_str().unwrap(),
            "{history}"
        );
    }
    assert!(declarations > 10, "too few declarations: {declarations}");
}

#[test]
fn makruk_declared_counts_write_the_fields_pychess_writes() {
    check(Variant::Makruk, 60, 24, 31);
}

#[test]
fn cambodian_declared_counts_write_the_fields_pychess_writes() {
    check(Variant::Cambodian, 60, 24, 32);
}

#[test]
#[ignore = "long: declared-count histories from a thousand endgames"]
fn declared_counts_write_the_fields_pychess_writes_long() {
    check(Variant::Makruk, 1000, 60, 1031);
    check(Variant::Cambodian, 1000, 60, 1032);
}
