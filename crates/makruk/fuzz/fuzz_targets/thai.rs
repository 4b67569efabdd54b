//! Thai notation reading must never panic, against a few positions
//! (promoted bias among them); an error must point inside the text, a move
//! read must be legal, and its long Thai form must read back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use makruk::{Position, ThaiMove, Variant};

const FENS: [&str; 4] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "4k3/8/8/1p6/S1P5/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/2M~1M3/8/4K3 w - - 0 1",
    "3rk3/8/1p6/2P5/8/8/8/4K3 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match ThaiMove::parse(text) {
        Err(e) => assert_eq!(e.found, text.chars().nth(e.at)),
        Ok(read) => {
            for fen in FENS {
                let pos = Position::from_fen(Variant::Makruk, fen).unwrap();
                if let Ok(m) = read.to_move(&pos) {
                    assert!(pos.is_legal(m));
                    assert_eq!(pos.parse_thai(&pos.thai_lan(m)).unwrap(), m);
                }
            }
        }
    }
});
