//! What the `nnue` command-line tests share.

use std::process::Command;

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
