//! `thaiboard tb`: generating small tables, probing them (text and the API's JSON),
//! verifying them, and the errors for damaged files and positions outside the tables.

use crate::common::{run, scratch, text};
use std::process::{Command, Output};

/// `thaiboard tb gen ARGS`.
fn tb_gen(args: &[&str]) -> Output {
    let mut all = vec!["tb", "gen"];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn makhos_tables_are_generated_probed_and_verified() {
    let dir = scratch("tb-makhos");
    let d = dir.to_str().unwrap();
    let out = tb_gen(&["--variant", "makhos", "--pieces", "3", "--out", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("[8/8] MMvM"), "{}", text(&out));
    let again = tb_gen(&["--variant", "makhos", "--pieces", "3", "--out", d]);
    assert!(
        text(&again).contains("8 tables (0 generated)"),
        "{}",
        text(&again)
    );

    // `tb probe` of a Mak-hot position at a count, its text or (with `json`) its JSON.
    let probe_out = |fen: &str, count: &str, json: bool| {
        let mut args = vec![
            "tb",
            "probe",
            "--tables",
            d,
            "--variant",
            "makhos",
            "--fen",
            fen,
            "--count",
            count,
        ];
        if json {
            args.push("--json");
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", text(&out));
        out
    };
    let probe = |count: &str| {
        let out = probe_out("W:WKb8,Kd8:BKh2", count, true);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let fresh = probe("0");
    assert_eq!(fresh["category"], "win");
    assert_eq!(fresh["dtz"], 7);
    assert_eq!(fresh["moves"][0]["uci"], "d8b6");
    assert_eq!(fresh["moves"][0]["category"], "loss");
    assert_eq!(fresh["moves"][0]["dtz"], -6);
    assert_eq!(
        fresh["dtw"], 7,
        "the capture of the last king ends the game"
    );
    assert_eq!(probe("26")["category"], "draw");

    // The text answer gives both distances; near the count's end only the man's move
    // wins, and the end is further away (the worked example of the tables' docs).
    let tight = probe_out("W:Wb6,Kc7:Bb8", "31", false);
    let lines: Vec<String> = text(&tight).lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        "win for white at count 31 (end of the game: 11 plies; next capture or man move: 1 plies)"
    );
    assert!(
        lines[1].starts_with("b6-a7") && lines[1].contains("loss"),
        "{lines:?}"
    );
    assert!(lines[2..].iter().all(|l| l.contains("draw")), "{lines:?}");

    let out = run(&["tb", "verify", d]);
    assert!(out.status.success(), "{}", text(&out));
    // Each table and its distance-to-win file.
    assert!(text(&out).contains("16 files, 0 failed"), "{}", text(&out));

    let outside = run(&[
        "tb",
        "probe",
        "--tables",
        d,
        "--variant",
        "makhos",
        "--fen",
        "W:WKa1,Kc1,Ke1:BKh8",
    ]);
    assert_eq!(outside.status.code(), Some(1));
    assert!(
        text(&outside).contains("outside the tables"),
        "{}",
        text(&outside)
    );

    let file = dir.join("makhos-default-KKvK.thtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&file, &bytes).unwrap();
    let out = run(&["tb", "verify", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("corrupted"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_tb_options_are_refused() {
    let dir = scratch("tb-bad");
    let d = dir.to_str().unwrap();
    let out = tb_gen(&["--variant", "makhos", "--pieces", "12", "--out", d]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = tb_gen(&["--variant", "makruk", "--pieces", "6", "--out", d]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Five pieces: only the tables the folded index holds (refused before generating).
    for only in ["KRRRvK", "KRRSvK", "KRRvK"] {
        let out = tb_gen(&[
            "--variant",
            "makruk",
            "--pieces",
            "5",
            "--only",
            only,
            "--out",
            d,
        ]);
        assert_eq!(out.status.code(), Some(2), "{only}: {}", text(&out));
        assert!(text(&out).contains("KRRNvK"), "{}", text(&out));
    }
    let out = run(&["tb", "verify", d]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

#[test]
fn makruk_bare_khun_tables_answer_under_the_count() {
    let dir = scratch("tb-makruk");
    let d = dir.to_str().unwrap();
    let out = tb_gen(&["--variant", "makruk", "--pieces", "3", "--out", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("KRvK"), "{}", text(&out));
    let probe = |fen: &str| {
        let out = run(&[
            "tb",
            "probe",
            "--tables",
            d,
            "--variant",
            "makruk",
            "--fen",
            fen,
            "--json",
        ]);
        assert!(out.status.success(), "{}", text(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let mate = probe("7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    assert_eq!(mate["category"], "win");
    assert_eq!(mate["moves"][0]["uci"], "a1a8");
    assert_eq!(mate["moves"][0]["san"], "Ra8#");
    // Mated in 28 plies without the count, but the count leaves 3: a draw.
    let late = probe("4k3/8/8/8/8/8/8/R3K3 b - 32 30 1");
    assert_eq!(late["category"], "draw");
    assert_eq!(late["dtm"], -28);
    assert_eq!(late["plies_left"], 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `TablebasePath`: in a won table position the engine plays the tables' fastest win
/// without searching, and says so; a directory that cannot be read is reported.
#[test]
fn the_uci_engine_plays_the_tables_move_at_the_root() {
    use std::io::Write;
    let dir = scratch("tb-uci");
    let d = dir.to_str().unwrap();
    let out = tb_gen(&["--variant", "makhos", "--pieces", "3", "--out", d]);
    assert!(out.status.success(), "{}", text(&out));
    let script = format!(
        "setoption name UCI_Variant value makhos\n\
         setoption name TablebasePath value {d}\n\
         position fen W:WKb8,Kd8:BKh2\n\
         go depth 2\n\
         position fen W:Wb6,Kc7:Bb8\n\
         go depth 2\n\
         setoption name TablebasePath value {d}/missing\n\
         go depth 1\n\
         quit\n"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    let best: Vec<&str> = lines
        .lines()
        .filter(|l| l.starts_with("bestmove"))
        .collect();
    assert_eq!(best.first(), Some(&"bestmove d8b6"), "{lines}");
    assert!(lines.contains("info string tablebase win"), "{lines}");
    // Every move wins and the man's move is the next zeroing move, but the king's
    // c7-d6 ends the game soonest (3 plies against the man's 11).
    assert_eq!(best.get(1), Some(&"bestmove c7d6"), "{lines}");
    assert!(lines.contains("the end in 3 plies"), "{lines}");
    assert!(lines.contains("info string TablebasePath:"), "{lines}");
    assert_eq!(best.len(), 3, "{lines}");
    let _ = std::fs::remove_dir_all(&dir);
}
