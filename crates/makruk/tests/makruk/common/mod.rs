//! Helpers shared by the integration tests: locating the reference vectors,
//! and a small random generator for playouts.

#![allow(dead_code)]

use std::path::PathBuf;

/// The path of a file in the repository's `vectors/makruk/`.
pub fn vector_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/makruk")
        .join(name);
    assert!(
        path.exists(),
        "reference vector {} not found: the repository's vectors/ folder is incomplete",
        path.display()
    );
    path
}

/// The text of a vector file.
pub fn read_vector(name: &str) -> String {
    std::fs::read_to_string(vector_path(name)).expect("vector file is readable")
}

/// The JSON lines of a vector file.
pub fn json_lines(name: &str) -> Vec<serde_json::Value> {
    read_vector(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("vector line is JSON"))
        .collect()
}

/// A small deterministic generator (xorshift) for playouts.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Runs a Fairy-Stockfish oracle script of `tests/oracle/` (pyffish must be
/// installed: `pip install pyffish`) with its usual arguments (variant,
/// number of games or positions, plies, seed) and returns its JSON lines.
pub fn pyffish_oracle(
    script: &str,
    variant: makruk::Variant,
    count: u32,
    plies: u32,
    seed: u64,
) -> Vec<serde_json::Value> {
    let args = [
        variant.name().to_string(),
        count.to_string(),
        plies.to_string(),
        seed.to_string(),
    ];
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle")
        .join(script);
    let out = std::process::Command::new("python3")
        .arg(path)
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the pyffish oracle {script} failed (install it with `pip install pyffish`): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("the oracle writes UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("oracle line is JSON"))
        .collect()
}

/// Asserts that `p`'s legal moves are the oracle's list `moves` (UCI).
pub fn assert_same_moves(p: &makruk::Position, moves: &serde_json::Value, fen: &str) {
    let expected: std::collections::BTreeSet<&str> = moves
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m.as_str().expect("a UCI move"))
        .collect();
    let ours: Vec<String> = p.legal_moves().iter().map(|m| m.to_uci()).collect();
    assert_eq!(
        ours.iter()
            .map(String::as_str)
            .collect::<std::collections::BTreeSet<_>>(),
        expected,
        "{fen}: legal moves"
    );
}
