//! A WebSocket message from a client must never panic the reader; a message
//! read must write back to JSON that reads to the same message, and a refused
//! one must still give a JSON error answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use thaiboard_server::ws_protocol::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse(text) {
        Ok(message) => {
            let written = message.to_json().expect("a client's message has a wire form");
            assert_eq!(parse(&written).expect("written messages read back"), message);
        }
        Err(refused) => {
            let answer: serde_json::Value = serde_json::from_str(&refused.to_json()).unwrap();
            assert_eq!(answer["type"], "error");
        }
    }
});
