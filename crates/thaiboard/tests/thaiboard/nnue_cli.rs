//! `thaiboard nnue` end to end on a tiny run: gen, train (stopped and
//! resumed), quantize, then the network in `bench`; clear errors for bad
//! files.

use crate::common::thaiboard;
use std::path::PathBuf;

/// A fresh scratch folder for one test, and in it the paths of the data
/// folder, the training run and the network file.
fn scratch(name: &str) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("thaiboard-nnue-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (data, run, net) = (dir.join("data"), dir.join("run"), dir.join("net.nnue"));
    (dir, data, run, net)
}

#[test]
fn gen_train_resume_quantize_bench() {
    let (dir, data, run, net) = scratch("cli");
    let (data_s, run_s, net_s) = (
        data.to_str().unwrap(),
        run.to_str().unwrap(),
        net.to_str().unwrap(),
    );
    let generate = |shards: &str| {
        thaiboard(&[
            "nnue",
            "gen",
            "--out",
            data_s,
            "--shards",
            shards,
            "--games-per-shard",
            "1",
            "--nodes",
            "100",
            "--max-plies",
            "300",
        ])
    };
    let (ok, out, err) = generate("1");
    assert!(ok, "{out}{err}");
    assert!(out.contains("shard 0: 1 games"), "{out}");
    let (ok, out, err) = generate("2");
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("shard 1: ") && !out.contains("shard 0"),
        "{out}"
    );

    let train = |epochs: &str| {
        thaiboard(&[
            "nnue",
            "train",
            "--data",
            data_s,
            "--out",
            run_s,
            "--epochs",
            epochs,
            "--batch",
            "32",
            "--val-percent",
            "40",
        ])
    };
    let (ok, out, err) = train("1");
    assert!(ok, "{out}{err}");
    assert!(out.contains("epoch 1 "), "{out}");
    let (ok, out, err) = train("2");
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("resuming from") && out.contains("epoch 2 "),
        "{out}"
    );
    assert!(!out.contains("epoch 1 "), "{out}");
    let log = std::fs::read_to_string(run.join("train.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");

    let ck = run.join("checkpoint.bin");
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "quantize",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--out",
        net_s,
    ]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = thaiboard(&["bench", "--depth", "3", "--eval-file", net_s]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("makruk classical: depth 3 nodes"), "{out}");
    assert!(out.contains("makruk nnue (Scalar): depth 3 nodes"), "{out}");
    assert!(
        out.contains("nnue (Scalar) / classical nodes per second: "),
        "{out}"
    );

    // Damaged files: a clear error, no panic.
    let bytes = std::fs::read(&net).unwrap();
    std::fs::write(&net, &bytes[..bytes.len() / 3]).unwrap();
    let (ok, _, err) = thaiboard(&["bench", "--depth", "3", "--eval-file", net_s]);
    assert!(
        !ok && err.contains("--eval-file") && err.contains("cut short"),
        "{err}"
    );
    std::fs::write(&ck, b"THNNCKPT but nothing more").unwrap();
    let (ok, _, err) = thaiboard(&[
        "nnue",
        "quantize",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--out",
        net_s,
    ]);
    assert!(!ok && err.contains("checkpoint"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_mak_hot_pipeline_from_the_command_line() {
    let (dir, data, run, net) = scratch("makhos");
    let (data_s, run_s, net_s) = (
        data.to_str().unwrap(),
        run.to_str().unwrap(),
        net.to_str().unwrap(),
    );
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "gen",
        "--variant",
        "makhos",
        "--out",
        data_s,
        "--shards",
        "2",
        "--games-per-shard",
        "3",
        "--nodes",
        "200",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("shard 1: 3 games"), "{out}");
    let train = |extra: &[&str]| {
        let mut args = vec![
            "nnue",
            "train",
            "--variant",
            "makhos",
            "--data",
            data_s,
            "--out",
            run_s,
            "--epochs",
            "1",
            "--batch",
            "32",
            "--val-percent",
            "40",
        ];
        args.extend_from_slice(extra);
        thaiboard(&args)
    };
    // A Mak-hot network adds to nothing.
    let (ok, _, err) = train(&["--base", "classical"]);
    assert!(
        !ok && err.contains("Mak-hot network adds to nothing"),
        "{err}"
    );
    let (ok, out, err) = train(&[]);
    assert!(ok && out.contains("epoch 1 "), "{out}{err}");
    // Makruk shards are not Mak-hot's, and a Mak-hot run is not resumed
    // as a Makruk one.
    let (ok, _, err) = thaiboard(&[
        "nnue", "train", "--data", data_s, "--out", run_s, "--epochs", "2",
    ]);
    assert!(
        !ok && err.contains("is a makhos network, but --variant is makruk"),
        "{err}"
    );
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "quantize",
        "--checkpoint",
        run.join("best.bin").to_str().unwrap(),
        "--out",
        net_s,
    ]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "check",
        "--checkpoint",
        run.join("best.bin").to_str().unwrap(),
        "--data",
        data_s,
    ]);
    assert!(ok && out.contains("held-out positions"), "{out}{err}");
    let (ok, out, err) = thaiboard(&["bench", "--depth", "4", "--eval-file", net_s]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("makhos classical: depth 4 nodes"), "{out}");
    assert!(out.contains("makhos nnue (Scalar): depth 4 nodes"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ouk Chatrang games for a network, and a run that starts from the
/// shipped network's weights: with a step size too small to move them, the
/// network it writes searches exactly as the shipped one.
#[test]
fn ouk_chatrang_data_and_a_run_from_the_shipped_network() {
    let (dir, data, run, net) = scratch("ouk-init");
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/makruk.nnue");
    let (data_s, run_s, net_s) = (
        data.to_str().unwrap(),
        run.to_str().unwrap(),
        net.to_str().unwrap(),
    );
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "gen",
        "--variant",
        "cambodian",
        "--out",
        data_s,
        "--shards",
        "1",
        "--games-per-shard",
        "2",
        "--nodes",
        "100",
        "--max-plies",
        "300",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("shard 0: 2 games"), "{out}");
    let train = |base: &str| {
        thaiboard(&[
            "nnue",
            "train",
            "--data",
            data_s,
            "--out",
            run_s,
            "--epochs",
            "1",
            "--batch",
            "64",
            "--val-percent",
            "40",
            "--base",
            base,
            "--lr",
            "1e-9",
            "--init",
            shipped,
        ])
    };
    let (ok, _, err) = train("zero");
    assert!(!ok && err.contains("base classical"), "{err}");
    let (ok, out, err) = train("classical");
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("starting from") && out.contains("epoch 1 "),
        "{out}"
    );
    let ck = run.join("checkpoint.bin");
    let (ok, out, err) = thaiboard(&[
        "nnue",
        "quantize",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--out",
        net_s,
    ]);
    assert!(ok, "{out}{err}");
    let nodes = |file: &str| {
        let (ok, out, err) = thaiboard(&["bench", "--depth", "5", "--eval-file", file]);
        assert!(ok, "{out}{err}");
        out.lines()
            .find(|l| l.starts_with("makruk nnue (Scalar): depth 5 nodes"))
            .unwrap_or_else(|| panic!("{out}"))
            .split_whitespace()
            .nth(6)
            .unwrap()
            .to_string()
    };
    assert_eq!(nodes(net_s), nodes(shipped));
    let _ = std::fs::remove_dir_all(&dir);
}
