//! UCI input lines must never panic the reader or the position set-up: each
//! line is read; a command read writes back to text that reads to the same
//! command; a `position` command is set up in each game (Makruk, Ouk
//! Chatrang, Mak-hot under both rule options), and a position set up has a
//! text that sets up again.
#![no_main]

use engine::uci::{Board, Setup, parse};
use games::GameKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The engine reads input lossily (`String::from_utf8_lossy`): so here.
    let input = String::from_utf8_lossy(data);
    for line in input.split('\n') {
        let Ok(Some(parsed)) = parse(line) else { continue };
        let written = parsed.command.to_string();
        let again = parse(&written).expect("written commands read").expect("not blank");
        assert_eq!(again.command, parsed.command, "{written}");
        for kind in GameKind::ALL {
            if let Some(Ok(board)) = Board::from_command(kind, &parsed.command) {
                let fen = board.fen();
                assert!(Board::set_up(kind, &Setup::Fen(fen.clone()), &[]).is_ok(), "{fen}");
            }
        }
    }
});
