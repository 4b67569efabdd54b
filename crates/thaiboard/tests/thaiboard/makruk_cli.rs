//! The Makruk side of `thaiboard perft`, `moves` and `fen`, run as a user would.

use crate::common::run;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn perft_prints_root_moves_then_the_total() {
    let o = run(&["perft", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 23 + 2);
    assert!(lines.contains(&"e3e4: 506") || lines.iter().any(|l| l.starts_with("e3e4: ")));
    let sum: u64 = lines[..23]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 12012);
    assert_eq!(lines[23], "");
    assert_eq!(lines[24], "Nodes searched: 12012");
}

#[test]
fn perft_bench_adds_speed_and_cambodian_counts_special_moves() {
    let o = run(&["perft", "--bench", "--variant", "cambodian", "1"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("Nodes searched: 25"), "{text}");
    assert!(text.contains("nodes/second"), "{text}");
}

#[test]
fn moves_lists_uci_san_and_fen_after() {
    let o = run(&["moves", "--fen", "4k3/8/8/2P5/8/8/8/K7 w - - 0 1"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.lines()
            .any(|l| l == "c5c6m c6=M 4k3/8/2M5/8/8/8/8/K7 b - 128 6 1"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 4);
}

#[test]
fn fen_plays_moves_and_reports_the_state() {
    let o = run(&["fen", "--moves", "e3e4 e6e5"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2\nongoing\n"
    );
    let o = run(&[
        "fen",
        "--fen",
        "4k3/R7/4K3/8/8/8/8/8 w - - 0 1",
        "--moves",
        "a7a8",
    ]);
    assert_eq!(stdout(&o).lines().nth(1), Some("checkmate"));
    let o = run(&[
        "fen",
        "--fen",
        "4k3/8/8/8/8/8/3R4/3K4 w - 32 32 30",
        "--moves",
        "d2d3",
    ]);
    assert_eq!(stdout(&o).lines().nth(1), Some("counting_draw"));
    let o = run(&[
        "fen",
        "--fen",
        "k7/2K5/8/2M5/8/8/8/8 w - - 0 1",
        "--moves",
        "c5b6",
    ]);
    assert_eq!(stdout(&o).lines().nth(1), Some("stalemate"));
}

#[test]
fn cambodian_fen_uses_its_counting_limits() {
    let o = run(&[
        "fen",
        "--variant",
        "cambodian",
        "--fen",
        "8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1",
        "--moves",
        "g5g6m",
    ]);
    assert_eq!(stdout(&o), "8/3k4/6M1/2K1S3/8/8/8/8 b - 86 8 1\nongoing\n");
    let fen = "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33";
    let o = run(&["fen", "--variant", "cambodian", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Makruk reads Ouk Chatrang's limit as written, as Fairy-Stockfish does.
    let o = run(&["fen", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().next(),
        Some("3k4/2m5/5M2/4M3/3KS3/8/8/8 w - 126 0 33")
    );
    // And Ouk Chatrang reads Makruk's board's honour as its own.
    let o = run(&[
        "fen",
        "--variant",
        "cambodian",
        "--fen",
        "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 0 33",
    ]);
    assert_eq!(
        stdout(&o).lines().next(),
        Some("3k4/2m5/5M2/4M3/3KS3/8/8/8 w - 126 0 33")
    );
}

#[test]
fn promoted_marks_on_request() {
    let fen = "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33";
    let args = ["fen", "--variant", "cambodian", "--fen", fen];
    let o = run(&[&args[..], &["--promoted-marks"]].concat());
    assert_eq!(stdout(&o).lines().next(), Some(fen), "round trip");
    let o = run(&args);
    assert_eq!(
        stdout(&o).lines().next(),
        Some(fen.replace('~', "").as_str())
    );
    let o = run(&[
        "moves",
        "--promoted-marks",
        "--fen",
        "4k3/8/8/2P5/8/8/8/K7 w - - 0 1",
    ]);
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l == "c5c6m c6=M 4k3/8/2M~5/8/8/8/8/K7 b - 128 6 1"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn moves_writes_the_notation_chosen() {
    let fen = "4k3/8/8/4S3/8/2S5/8/4K3 w - - 0 1";
    let line = |notation: &str| {
        let o = run(&["moves", "--fen", fen, "--notation", notation]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        let line = text.lines().find(|l| l.starts_with("e5d4 ")).unwrap();
        line.rsplitn(7, ' ').last().unwrap().to_string()
    };
    assert_eq!(line("san"), "e5d4 Sed4");
    assert_eq!(line("schemingmind"), "e5d4 Bed4");
    assert_eq!(line("thai-san"), "e5d4 คจ-ง๔");
    assert_eq!(line("thai-lan"), "e5d4 ค จ๕-ง๔");
    let o = run(&["moves", "--notation", "thai"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("thai-lan"), "{}", stderr(&o));
}

#[test]
fn fen_reads_moves_in_thai_notation() {
    let after = "rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2\nongoing\n";
    for (notation, moves) in [
        ("thai-lan", "บ จ๓-จ๔ บ จ๖-จ๕"),
        ("thai-lan", "บ จ๓-จ๔, บ จ๖-จ๕"),
        ("thai-san", "จ๔ จ๕"),
    ] {
        let o = run(&["fen", "--notation", notation, "--moves", moves]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), after, "{notation}: {moves}");
    }
    // Without --notation, Thai is read too.
    let o = run(&["fen", "--moves", "จ๔ บ จ๖-จ๕"]);
    assert_eq!(stdout(&o), after);
    // A Thai move that cannot be read names the character.
    let o = run(&["fen", "--notation", "thai-san", "--moves", "จ๔ จ๙"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("move 2 ('จ๙')") && err.contains("at character 2, '๙'"),
        "{err}"
    );
}

#[test]
fn illegal_move_names_its_index_and_text() {
    let o = run(&["fen", "--moves", "e3e4 e6e5 e4e6"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("move 3") && err.contains("e4e6"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn bad_input_is_a_clear_error_never_a_panic() {
    for args in [
        vec!["fen", "--fen", "not a fen"],
        vec!["moves", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["perft", "--fen", "4k3/8/8/8/8/8/8/3K4 w - x 0 1", "2"],
        vec!["perft", "--rules", "no-reverse", "2"],
        vec!["fen", "--moves", "\u{e01}\u{e02}"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let o = run(&["perft", "many"]);
    assert_eq!(o.status.code(), Some(2), "clap rejects a non-number depth");
}
