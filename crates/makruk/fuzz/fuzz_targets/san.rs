//! SAN and UCI reading must never panic, against a few positions; a move
//! read must be legal and written SAN must read back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use makruk::{Position, Variant};

const FENS: [&str; 4] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "r1s1k2r/2m4n/2pppps1/pp6/P1PKP1P1/1P1P2SN/1S6/RN2M3 w - - 0 18",
    "4k3/8/8/2P5/3p4/4S3/4M3/K7 w - - 0 1",
    "4k3/8/8/8/8/8/8/N1K1N3 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for fen in FENS {
        let pos = Position::from_fen(Variant::Makruk, fen).unwrap();
        if let Ok(m) = pos.parse_san(text) {
            assert!(pos.is_legal(m));
            assert_eq!(pos.parse_san(&pos.san(m)).unwrap(), m);
        }
        if let Ok(m) = pos.parse_uci(text) {
            assert!(pos.is_legal(m));
        }
    }
});
