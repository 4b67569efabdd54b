//! `thaiboard nnue label` end to end, with our own `thaiboard uci` as the
//! external engine: the labelled shard holds the same positions as the
//! one `gen` wrote, with scores of the same sign, and a second run skips
//! it; an engine that cannot start or dies is an error, not a panic.

use crate::common::thaiboard;
use nnue::data::{Record, read_shard, shard_path};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-label-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// One shard of one game at 100 nodes a move.
fn gen_one_shard(data: &Path) {
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "gen",
        "--out",
        data.to_str().unwrap(),
        "--shards",
        "1",
        "--games-per-shard",
        "1",
        "--nodes",
        "100",
        "--max-plies",
        "300",
        "--seed",
        "3",
    ]);
    assert!(ok, "{out}{err}");
}

fn label(
    data: &Path,
    labelled: &Path,
    engine: &str,
    engine_args: &[&str],
) -> (bool, String, String) {
    let mut args = vec![
        "nnue",
        "label",
        "--engine",
        engine,
        "--nodes",
        "300",
        "--in",
        data.to_str().unwrap(),
        "--out",
        labelled.to_str().unwrap(),
    ];
    for a in engine_args {
        args.extend(["--engine-arg", a]);
    }
    thaiboard(&args)
}

#[test]
fn labels_a_shard_with_thaiboard_uci_keeping_its_positions() {
    let dir = scratch("uci");
    let (data, labelled) = (dir.join("data"), dir.join("labelled"));
    gen_one_shard(&data);
    let (ok, out, err) = label(&data, &labelled, env!("CARGO_BIN_EXE_thaiboard"), &["uci"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("shard 0: "), "{out}");
    let before: Vec<Record> = read_shard(&shard_path(&data, 0)).unwrap();
    let after: Vec<Record> = read_shard(&shard_path(&labelled, 0)).unwrap();
    assert!(before.len() >= 10, "{} positions", before.len());
    // `gen` kept no position whose search found a mate, but a search of
    // other depth may: a few may be dropped, none added or changed.
    assert!(
        after.len() + 5 >= before.len(),
        "{} of {}",
        after.len(),
        before.len()
    );
    let mut rest = before.iter();
    let mut agree = (0, 0);
    for a in &after {
        let b = rest
            .find(|b| {
                (&b.board, b.white_to_move, b.result, b.game)
                    == (&a.board, a.white_to_move, a.result, a.game)
            })
            .expect("every labelled position is one of the shard's, in order");
        // The same engine at a similar node count: clear scores keep
        // their sign whichever side is to move.
        if b.score.abs() >= 150 {
            agree.1 += 1;
            if (a.score > 0) == (b.score > 0) {
                agree.0 += 1;
            }
        }
    }
    eprintln!(
        "{} of {} positions labelled; signs agree on {} of {}",
        after.len(),
        before.len(),
        agree.0,
        agree.1
    );
    assert!(agree.1 >= 5, "only {} clear scores", agree.1);
    assert!(
        agree.0 * 10 >= agree.1 * 9,
        "signs agree on {} of {}",
        agree.0,
        agree.1
    );
    // Run again: the shard is there and is not labelled again.
    let (ok, out, err) = label(&data, &labelled, env!("CARGO_BIN_EXE_thaiboard"), &["uci"]);
    assert!(ok, "{out}{err}");
    assert!(!out.contains("shard 0: "), "{out}");
    assert!(out.contains("holds 1 shards"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_fails_is_a_clear_error() {
    let dir = scratch("fails");
    let (data, labelled) = (dir.join("data"), dir.join("labelled"));
    gen_one_shard(&data);
    let missing = dir.join("no-such-engine");
    let (ok, out, err) = label(&data, &labelled, missing.to_str().unwrap(), &[]);
    assert!(!ok, "{out}");
    assert!(err.contains("cannot start"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // `thaiboard perft` is no UCI engine: it never says `uciok`.
    let (ok, out, err) = label(
        &data,
        &labelled,
        env!("CARGO_BIN_EXE_thaiboard"),
        &["perft", "1"],
    );
    assert!(!ok, "{out}");
    // It exits before the answer, or even before reading `uci`.
    assert!(err.contains("at start"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!shard_path(&labelled, 0).exists());
    let _ = std::fs::remove_dir_all(&dir);
}
