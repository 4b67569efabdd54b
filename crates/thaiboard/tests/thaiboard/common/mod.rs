//! What the command-line tests share: running the binary and scratch folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `thaiboard ARGS`: whether it succeeded, its standard output and its error output.
pub fn thaiboard(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args(args)
        .output()
        .expect("run thaiboard");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `thaiboard ARGS` and returns what it did.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args(args)
        .output()
        .expect("run thaiboard")
}

/// A run's standard output, then its error output, as text.
pub fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// An empty scratch folder of this test process, `thaiboard-{name}-{pid}`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a scratch folder");
    dir
}

/// A path as an argument (the scratch paths are UTF-8).
pub fn arg(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}
