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
