//! Builds the web board (`web/`) with npm + esbuild into OUT_DIR and writes
//! `assets.rs`, the list of files that `src/assets.rs` embeds.
//!
//! - Runs `npm ci` in `web/` when `node_modules` is missing or older than
//!   `package-lock.json`, then `node build.mjs OUT_DIR/web`.
//! - Without node (or with `THAIBOARD_SKIP_WEB=1`), embeds a page that says
//!   how to build the board, and warns.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let web = manifest.join("../../web");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web");
    for p in [
        "src",
        "static",
        "pieces",
        "package.json",
        "package-lock.json",
        "build.mjs",
    ] {
        println!("cargo:rerun-if-changed={}", web.join(p).display());
    }
    println!("cargo:rerun-if-env-changed=THAIBOARD_SKIP_WEB");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();

    let built = if std::env::var_os("THAIBOARD_SKIP_WEB").is_some() {
        Err("THAIBOARD_SKIP_WEB is set".to_string())
    } else {
        build_web(&web, &out)
    };
    if let Err(why) = built {
        println!(
            "cargo:warning=web board not built ({why}); the server will show a placeholder page"
        );
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(
            out.join("index.html"),
            format!(
                "<!doctype html><meta charset=utf-8><title>thaiboard</title><p>The web board was not built: {}. \
                 Install Node.js 18+ and npm, then rebuild (cargo build -p thaiboard).</p>",
                why.replace('<', "&lt;")
            ),
        )
        .unwrap();
    }

    let mut files = Vec::new();
    collect(&out, &out, &mut files);
    files.sort();
    let mut code =
        String::from("/// Embedded web files: path relative to the build folder, contents.\n");
    code.push_str("pub static ASSETS: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &files {
        code.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            abs.display().to_string()
        ));
    }
    code.push_str("];\n");
    std::fs::write(
        PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("assets.rs"),
        code,
    )
    .unwrap();
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            files.push((rel, path));
        }
    }
}

fn mtime(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let tail: String = err
            .lines()
            .rev()
            .take(8)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" | ");
        return Err(format!("{shown} failed: {tail}"));
    }
    Ok(())
}

fn build_web(web: &Path, out: &Path) -> Result<(), String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node is not installed".into());
    }
    let lock = web.join("package-lock.json");
    let stamp = web.join("node_modules/.package-lock.json");
    let stale = match (mtime(&lock), mtime(&stamp)) {
        (Some(l), Some(s)) => s < l,
        _ => true,
    };
    if stale {
        // Several cargo builds (other target dirs) may run at once: one installs, the others wait.
        let guard = web.join(".npm-install.lock");
        let mut waited = 0;
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&guard)
            {
                Ok(_) => break,
                Err(_) if waited < 300 => {
                    let old = mtime(&guard)
                        .and_then(|t| t.elapsed().ok())
                        .is_some_and(|a| a > Duration::from_secs(600));
                    if old {
                        let _ = std::fs::remove_file(&guard);
                    }
                    std::thread::sleep(Duration::from_secs(1));
                    waited += 1;
                }
                Err(_) => return Err("timed out waiting for another npm install".into()),
            }
        }
        let still_stale = match (mtime(&lock), mtime(&stamp)) {
            (Some(l), Some(s)) => s < l,
            _ => true,
        };
        let result = if still_stale {
            run(Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(web))
        } else {
            Ok(())
        };
        let _ = std::fs::remove_file(&guard);
        result?;
    }
    run(Command::new("node")
        .arg("build.mjs")
        .arg(out)
        .current_dir(web))
}
