//! The reader on arbitrary bytes: it never panics, and every game it
//! accepts is written out and read back as the same tree.

#![no_main]

use libfuzzer_sys::fuzz_target;
use records::{Letters, Reader, WriteOptions, game_to_string, read_one, replay};

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::new(data);
    let mut games = 0;
    while let Some(item) = reader.read_game() {
        games += 1;
        if games > 64 {
            break;
        }
        let Ok(game) = item else { continue };
        let _ = replay(&game);
        for letters in [Letters::Fsf, Letters::SchemingMind] {
            let out = game_to_string(&game, &WriteOptions::with_letters(letters));
            match read_one(&out) {
                Ok(back) => assert_eq!(back, game, "round trip changed the game:\n{out}"),
                Err(e) => panic!("a written game does not read back: {e}\n{out}"),
            }
        }
    }
});
