//! Move text: arbitrary strings read against several positions must give a legal move or a
//! clean error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use makhos::{Position, Rules};

const POSITIONS: [&str; 6] = [
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wb2:Bc3,c5,c7",
    "W:Wc1:Bb2,d2,b4,d4",
    "W:WKc1:Bb2,d2,b4,d4",
    "W:WKd4:Bf6,b2",
    "B:Wa1,c1,e1,b2,f2,c3,e3,Kf8:Bf6,h6,a7,b8,d8,h8",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for p in POSITIONS {
        let pos: Position = p.parse().expect("fixed position");
        for rules in Rules::ALL {
            if let Ok(m) = pos.parse_move(rules, text) {
                assert!(
                    pos.legal_moves(rules).contains(&m),
                    "{text} gave an illegal move"
                );
                let _ = pos.played(&m);
            }
        }
    }
});
