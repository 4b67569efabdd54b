//! The `thaiboard` binary with `--variant makhos`: perft, moves, fen; good and bad input.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args(args)
        .output()
        .expect("run thaiboard")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs a command that must fail with exit code 2; returns its error message.
fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err
}

#[test]
fn perft_divides_like_stockfish() {
    let out = ok(&["perft", "--variant", "makhos", "3"]);
    let expect = "b2a3: 56\nb2c3: 56\nd2c3: 56\nd2e3: 56\nf2e3: 56\nf2g3: 56\nh2g3: 56\n\nNodes searched: 392\n";
    assert_eq!(out, expect);
}

#[test]
fn perft_with_rules_and_position() {
    let fen = "W:Wa1,c1,g1,b2,e3,g5:BKg3,b6,c7,e7,g7,b8,d8,f8";
    let out = ok(&["perft", "--variant", "makhos", "--fen", fen, "4"]);
    assert!(out.ends_with("\nNodes searched: 4849\n"), "{out}");
    let out = ok(&[
        "perft",
        "--variant",
        "makhos",
        "--rules",
        "no-reverse",
        "--fen",
        fen,
        "4",
    ]);
    assert!(out.ends_with("\nNodes searched: 4839\n"), "{out}");
    // Captures appear in engine form with every landing square.
    let out = ok(&[
        "perft",
        "--variant",
        "makhos",
        "--fen",
        "W:Wb2:Bc3,c5,c7",
        "1",
    ]);
    assert_eq!(out, "b2d4b6d8: 1\n\nNodes searched: 1\n");
    let out = ok(&["perft", "--variant", "makhos", "0"]);
    assert_eq!(out, "\nNodes searched: 1\n");
}

#[test]
fn perft_bench_reports_speed() {
    let out = ok(&["perft", "--variant", "makhos", "--bench", "5"]);
    assert!(out.contains("Nodes searched: 26592\n"), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("Time: ") && last.contains(" nodes/second"),
        "{last}"
    );
}

#[test]
fn moves_lists_move_and_position_after() {
    let out = ok(&["moves", "--variant", "makhos"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7);
    assert_eq!(
        lines[0],
        "b2-a3 B:Wa1,c1,e1,g1,d2,f2,h2,a3:Ba7,c7,e7,g7,b8,d8,f8,h8"
    );
    assert_eq!(
        lines[6],
        "h2-g3 B:Wa1,c1,e1,g1,b2,d2,f2,g3:Ba7,c7,e7,g7,b8,d8,f8,h8"
    );
    let out = ok(&[
        "moves",
        "--variant",
        "makhos",
        "--rules",
        "no-reverse",
        "--fen",
        "W:WKd4:Bf6,b2",
    ]);
    assert_eq!(out, "d4xa1 B:WKa1:Bf6\nd4xg7 B:WKg7:Bb2\n");
    let out = ok(&["moves", "--variant", "makhos", "--fen", "W:WKd4:Bf6,b2"]);
    assert_eq!(out, "d4xa1xg7 B:WKg7:B\nd4xg7xa1 B:WKa1:B\n");
    // No legal move: nothing listed, success.
    assert_eq!(
        ok(&["moves", "--variant", "makhos", "--fen", "W:Wa1:Bb2,c3"]),
        ""
    );
}

#[test]
fn fen_plays_moves_in_any_notation_and_reports_state() {
    let out = ok(&[
        "fen",
        "--variant",
        "makhos",
        "--moves",
        "b2c3 g7-h6 22-18 h6-g5",
    ]);
    assert_eq!(
        out,
        "W:Wa1,c1,e1,g1,d2,f2,h2,d4:Bg5,a7,c7,e7,b8,d8,f8,h8\nongoing\n"
    );
    assert_eq!(
        ok(&["fen", "--variant", "makhos"]),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8\nongoing\n"
    );
    let out = ok(&[
        "fen",
        "--variant",
        "makhos",
        "--fen",
        "W:Wb2:Bc3,c5,c7,h8",
        "--moves",
        "25x2",
    ]);
    assert_eq!(out, "B:WKd8:Bh8\nongoing\n");
}

#[test]
fn fen_reports_every_end_state() {
    let st = |fen: &str, moves: &str| -> String {
        let out = ok(&["fen", "--variant", "makhos", "--fen", fen, "--moves", moves]);
        out.lines().nth(1).unwrap().to_string()
    };
    assert_eq!(st("B:Wa1:Bb2,d4", "d4-c3"), "win_black");
    assert_eq!(st("W:Wc3:Bd4", "c3xe5"), "win_white");
    assert_eq!(st("W:WKa1:BKh8,d4", "a1xe5"), "draw_kings");
    assert_eq!(
        st(
            "W:WKa1,Kc1:BKb8,Kf8",
            "c1-d2 f8-e7 d2-c1 e7-f8 c1-d2 f8-e7 d2-c1 e7-f8"
        ),
        "draw_repetition"
    );
    // 32 plies of king moves to fresh positions, found with the library.
    let start: makhos::Position = "W:WKa1,Kc1:BKh8,Kf8".parse().unwrap();
    let rules = makhos::Rules::Default;
    let mut pos = start;
    let mut seen = vec![pos];
    let mut played = Vec::new();
    for _ in 0..32 {
        let m = pos
            .legal_moves(rules)
            .into_iter()
            .find(|m| {
                let n = pos.played(m);
                !m.is_capture() && !n.has_capture() && !seen.contains(&n)
            })
            .expect("fresh quiet move");
        played.push(m.to_engine());
        pos = pos.played(&m);
        seen.push(pos);
    }
    assert_eq!(
        st("W:WKa1,Kc1:BKh8,Kf8", &played[..31].join(" ")),
        "ongoing"
    );
    assert_eq!(
        st("W:WKa1,Kc1:BKh8,Kf8", &played.join(" ")),
        "draw_no_progress"
    );
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    let e = fails(&["fen", "--variant", "makhos", "--moves", "b2c3 h2h3"]);
    assert!(e.contains("move 2") && e.contains("h2h3"), "{e}");
    let e = fails(&["fen", "--variant", "makhos", "--moves", "b2c3 g7h6 b2c3"]);
    assert!(
        e.contains("move 3") && e.contains("b2c3") && e.contains("illegal"),
        "{e}"
    );
    let e = fails(&[
        "fen",
        "--variant",
        "makhos",
        "--fen",
        "W:Wc1:Bb2,d2,b4,d4",
        "--moves",
        "c1xc5",
    ]);
    assert!(
        e.contains("move 1")
            && e.contains("ambiguous")
            && e.contains("c1xa3xc5")
            && e.contains("c1xe3xc5"),
        "{e}"
    );
    let e = fails(&[
        "fen",
        "--variant",
        "makhos",
        "--fen",
        "W:Wa1:Bb2,c3",
        "--moves",
        "a1b2",
    ]);
    assert!(e.contains("move 1"), "{e}");
    let e = fails(&["moves", "--variant", "makhos", "--fen", "W:Wa2:Bb8"]);
    assert!(e.contains("a2") && e.contains("light"), "{e}");
    let e = fails(&["perft", "--variant", "makhos", "--fen", "W:Wb8:Ba7", "2"]);
    assert!(e.contains("b8") && e.contains("promotion"), "{e}");
    let e = fails(&["perft", "--variant", "makhos", "--fen", "W:Wc3:Bc3", "2"]);
    assert!(e.contains("c3"), "{e}");
    let e = fails(&["perft", "--variant", "makhos", "--fen", "garbage", "2"]);
    assert!(e.contains("garbage"), "{e}");
    let e = fails(&["moves", "--variant", "makhos", "--rules", "backwards"]);
    assert!(e.contains("backwards"), "{e}");
    let e = fails(&["fen", "--variant", "makhos", "--moves", "z9-a1"]);
    assert!(e.contains("move 1") && e.contains("z9"), "{e}");
    fails(&["perft", "--variant", "makhos", "--fen", "", "1"]);
}
