//! `thaiboard pgn check` and `thaiboard pgn convert` on good and broken files.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args(args)
        .output()
        .expect("run thaiboard")
}

fn vector(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/makruk/").to_string() + name;
    assert!(
        std::path::Path::new(&path).exists(),
        "test vector {path} is missing: the tests read the repository's vectors/ folder"
    );
    path
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-pgn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_good_files() {
    let sm = vector("schemingmind.pgn");
    let playok = vector("playok.pgn");
    let o = run(&["pgn", "check", &sm, &playok]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert_eq!(out.lines().last(), Some("19 games, 19 ok, 0 with errors"));
    // The PlayOK game that mates past an undeclared count gets a note.
    assert!(
        out.contains(&format!(
            "{playok}: game 4: note: the rules end the game after ply 236 (move 118...): \
             counting_draw (count 129 of 128 plies)"
        )),
        "{out}"
    );
    // A result that the final position contradicts gets a note.
    let path = temp_file(
        "mate.pgn",
        "[FEN \"4k3/8/8/8/8/8/R7/1R1K4 w - - 0 1\"]\n\n1. Ra7 Kd8 2. Rb8# 0-1\n",
    );
    let o = run(&["pgn", "check", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains(
            "game 1: note: the result 0-1 differs from the final position (checkmate: 1-0)"
        ),
        "{}",
        stdout(&o)
    );
    // Not a terminal: no progress bar, nothing on standard error.
    assert_eq!(stderr(&o), "");
    let o = run(&["pgn", "check", "--no-notes", &sm]);
    assert_eq!(stdout(&o), "1 games, 1 ok, 0 with errors\n");
}

const BROKEN: &str = "[Event \"a\"]\n\n1. e4 e5 2. Qe2 1-0\n\n\
[Event \"b\"]\n[Bad tag\n\n1. e4 *\n\n\
[Event \"c\"]\n\n1. e4 {never closed\n\n\
[Event \"d\"]\n\n1. e4 e5 (1... d5 2. Md2) 2. Nd2 $1 1/2-1/2\n\n\
[Event \"e\"]\n\n1. e4 e5 2. Nd2 Nd7 3. Nc4 Nc5 1-0\n";

#[test]
fn check_broken_file() {
    let path = temp_file("broken.pgn", BROKEN);
    let p = path.display().to_string();
    let o = run(&["pgn", "check", &p]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        vec![
            format!("{p}:3:13: game 1: illegal move: 2. Qe2").as_str(),
            format!("{p}:6:1: game 2: bad tag: the value must be in double quotes: [Bad tag")
                .as_str(),
            format!("{p}:12:7: game 3: unterminated comment: {{never closed").as_str(),
            "5 games, 2 ok, 3 with errors",
        ]
    );
    assert!(stderr(&o).contains("3 broken game(s)"));
}

#[test]
fn check_missing_file_fails() {
    let o = run(&["pgn", "check", "/nonexistent/file.pgn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("/nonexistent/file.pgn: cannot read"));
    assert!(stdout(&o).contains("0 games, 0 ok, 0 with errors"));
}

#[test]
fn convert_letters_and_back() {
    let playok = vector("playok.pgn");
    let o = run(&["pgn", "convert", "--letters", "fsf", &playok]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fsf = stdout(&o);
    assert!(fsf.contains("3. Sf2 Sf7"), "{fsf}");
    assert!(fsf.contains("22. axb4 axb3=M"), "{fsf}");
    assert!(fsf.lines().all(|l| l.chars().count() <= 80));
    assert_eq!(fsf.matches("[Event ").count(), 18);

    let fsf_path = temp_file("fsf.pgn", &fsf);
    let sm_path = std::env::temp_dir()
        .join(format!("thaiboard-pgn-cli-{}", std::process::id()))
        .join("sm.pgn");
    let o = run(&[
        "pgn",
        "convert",
        "--letters",
        "schemingmind",
        "--out",
        &sm_path.display().to_string(),
        &fsf_path.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let sm = std::fs::read_to_string(&sm_path).unwrap();
    assert!(sm.contains("3. Bf2 Bf7"), "{sm}");
    assert!(sm.contains("22. axb4 axb3 "), "{sm}");
    let o = run(&["pgn", "check", "--no-notes", &sm_path.display().to_string()]);
    assert_eq!(stdout(&o), "18 games, 18 ok, 0 with errors\n");
}

#[test]
fn convert_reports_broken_games_and_keeps_the_rest() {
    let path = temp_file("broken2.pgn", BROKEN);
    let o = run(&["pgn", "convert", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.matches("[Event ").count(), 2, "{out}");
    assert!(
        out.contains("1. e4 e5 (1... d5 2. Md2) 2. Nd2 $1 1/2-1/2"),
        "{out}"
    );
    let err = stderr(&o);
    assert!(err.contains("game 1: illegal move: 2. Qe2"), "{err}");
    assert!(err.contains("3 broken game(s) left out"), "{err}");
}

#[test]
fn pdn_files_go_through_the_same_commands() {
    let pdn = "[GameType \"makhos\"]\n[Rules \"no-reverse\"]\n\n\
               1. 25-22 6-10 2. 22-18 10-14 3. 18x9 5x14 *\n\n\
               [Variant \"makhos\"]\n\n1. b2-c3 c7-d6 2. c3-b4 *\n\n\
               [GameType \"makhos\"]\n\n1. 25-22 6-10 2. 25-21 *\n";
    let path = temp_file("games.pdn", pdn);
    let p = path.display().to_string();
    let o = run(&["pgn", "check", &p]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!("{p}:12:18: game 3: illegal move: 2. 25-21")),
        "{out}"
    );
    assert!(out.ends_with("3 games, 2 ok, 1 with errors\n"), "{out}");
    let o = run(&["pgn", "convert", "--squares", "algebraic", &p]);
    let out = stdout(&o);
    assert!(out.contains("[Rules \"no-reverse\"]"), "{out}");
    assert!(out.contains("1. b2-c3 c7-d6 2. c3-b4 *"), "{out}");
}

/// Two rounds of a match as `thaiboard match` writes them (one pair, the
/// colours reversed), then a game with an illegal move.
const MATCH: &str = r#"[White "us"]
[Black "them"]
[Round "1"]
[Result "1-0"]
[FEN "7k/8/6K1/8/8/8/8/R7 w - - 0 30"]
[Termination "normal"]

30. Ra8# {+M1/3 0.10s} {White mates} 1-0

[White "them"]
[Black "us"]
[Round "2"]
[Result "1/2-1/2"]
[FEN "7k/8/6K1/8/8/8/8/R7 b - - 0 5"]
[Termination "time forfeit"]

5... Kg8 {+2.50/14 0.20s} 6. Ra2 {-0.50/10 0.30s} Kh8 {+3.00/16 0.40s}
{White (them) ran out of time, but Black has only the khun} 1/2-1/2

[White "us"]
[Black "them"]
[Round "3"]
[Result "1-0"]

1. Qe2 1-0
"#;

#[test]
fn stats_sum_up_a_match_from_one_players_side() {
    let path = temp_file("match.pgn", MATCH);
    let p = path.display().to_string();
    let o = run(&["pgn", "stats", "--player", "us", &p]);
    let out = stdout(&o);
    // The broken game is named on standard error and left out.
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        stderr(&o).contains(&format!("{p}:25:4: game 3: illegal move: 1. Qe2")),
        "{}",
        stderr(&o)
    );
    for want in [
        "Score of us vs them: 1 - 0 - 1  [0.750] 2\n",
        "Pairs (0, 1/2, 1, 3/2, 2 points): [0, 0, 0, 1, 0]",
        "As White: 1 - 0 - 0; as Black: 0 - 0 - 1\n",
        "Draws after us had scored +2.00 or more: 1; after them had: 0\n",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
    let lines: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(
        lines.contains(&vec!["win", "checkmate", "1", "(1", "+", "0)"]),
        "{out}"
    );
    assert!(
        out.lines().any(
            |l| l.starts_with("  draw  time forfeit: White (them) ran out of time")
                && l.ends_with("1  (0 + 1)")
        ),
        "{out}"
    );
    // Our moves 5 and 6 as Black took 0.20 and 0.40 s at depths 14 and
    // 16; theirs 0.30 s at depth 10; our move 30 is in the band from 21.
    assert!(
        lines.contains(&vec!["1-10", "0.300", "d15.0", "0.300", "d10.0"]),
        "{out}"
    );
    assert!(
        lines.contains(&vec!["21-30", "0.100", "d3.0", "-"]),
        "{out}"
    );

    // Without --player: White of the first game, said so.
    let o = run(&["pgn", "stats", &p]);
    assert!(
        stdout(&o).starts_with("Player: us (White of the first game; --player chooses)\n"),
        "{}",
        stdout(&o)
    );
    // From the other side, the same games.
    let o = run(&["pgn", "stats", "--player", "them", &p]);
    assert!(stdout(&o).contains("Score of them vs us: 0 - 1 - 1  [0.250] 2\n"));

    // A gzipped PGN (as data/matches/ keeps them) reads the same.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, MATCH.as_bytes()).unwrap();
    let zipped = temp_file("match.pgn.gz", "");
    std::fs::write(&zipped, gz.finish().unwrap()).unwrap();
    let z = run(&[
        "pgn",
        "stats",
        "--player",
        "us",
        &zipped.display().to_string(),
    ]);
    assert_eq!(z.status.code(), Some(1));
    assert_eq!(stdout(&z), out);
}

#[test]
fn stats_without_games_or_files_fail_clearly() {
    let empty = temp_file("empty.pgn", "");
    let o = run(&["pgn", "stats", &empty.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no game to report on"),
        "{}",
        stderr(&o)
    );
    let path = temp_file("match-nobody.pgn", MATCH);
    let o = run(&[
        "pgn",
        "stats",
        "--player",
        "nobody",
        &path.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nobody played none of the 2 game(s)"),
        "{}",
        stderr(&o)
    );
    let o = run(&["pgn", "stats", "/nonexistent/games.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/games.pgn"),
        "{}",
        stderr(&o)
    );
}
