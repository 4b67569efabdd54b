//! The web board's API types (`web/src/api-types.ts`) are generated from the
//! Rust types the server sends, never copied by hand: this test fails when
//! the file is out of date, and `UPDATE_API_TYPES=1 cargo test -p
//! thaiboard-server --test server api_types` rewrites it.

use thaiboard_server::web_api_types;

#[test]
fn web_api_types_are_generated_from_the_rust_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/api-types.ts");
    let want = web_api_types();
    if std::env::var_os("UPDATE_API_TYPES").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "{path} is out of date: run UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test server api_types"
    );
}
