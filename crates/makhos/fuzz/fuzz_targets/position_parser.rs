//! Position text: arbitrary strings must parse or fail cleanly; what parses must write back
//! to the same position and support move generation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use makhos::{Position, Rules, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = text.parse::<Setup>() {
        let _ = setup.to_string();
        let _ = Position::from_setup(&setup);
    }
    if let Ok(pos) = text.parse::<Position>() {
        let again: Position = pos
            .to_string()
            .parse()
            .expect("written position text reads back");
        assert_eq!(again, pos);
        for rules in Rules::ALL {
            let moves = pos.legal_moves(rules);
            assert_eq!(moves.len() as u64, pos.count_legal_moves(rules));
            for m in moves {
                let _ = pos.played(&m);
                let back = pos
                    .parse_move(rules, &m.to_engine())
                    .expect("engine form reads back");
                assert_eq!(back, m);
            }
        }
    }
});
