//! FEN parsing must never panic; whatever parses must write back and
//! re-read to the same position, and its moves must be playable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use makruk::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for variant in [Variant::Makruk, Variant::Cambodian] {
        if let Ok(pos) = Position::from_fen(variant, text) {
            let fen = pos.fen();
            let again = Position::from_fen(variant, &fen).expect("written FEN re-reads");
            assert_eq!(again.fen(), fen);
            for &m in pos.legal_moves().iter() {
                let after = pos.played(m);
                let _ = after.state();
                let _ = pos.san(m);
            }
        }
    }
});
