//! `thaiboard puzzles`: mining a known one-move win and nothing else, refusing
//! a position with two winning moves, resuming without duplicates, `check`
//! naming bad lines, and the start set shipped with the server reading and
//! replaying.

use crate::common::{arg, run, scratch, text};
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

/// The puzzle lines of a set (header left out).
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// White mates with Ra8 (the khun on g6 covers g7 and h7); black is up a met,
/// a ma and four bias, so no other move wins.
const ONE_WIN: &str = "7k/8/1m4K1/3ppp2/3p4/3n4/8/R7 w - - 0 1";
/// The same with a second ruea: Ra8 and Rc8 both mate.
const TWO_WINS: &str = "7k/8/1m4K1/3ppp2/3p4/3n4/8/R1R5 w - - 0 1";

fn game(fen: &str) -> String {
    game_with(fen, "*")
}

/// A Makruk game from `fen` with the movetext `moves` (ending in its result).
fn game_with(fen: &str, moves: &str) -> String {
    format!("[Variant \"makruk\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"*\"]\n\n{moves}\n\n")
}

/// `puzzles mine` of the Makruk games in `pgn` into `out`, which must
/// succeed: the puzzle lines it wrote.
fn mine_makruk(pgn: &Path, out: &Path) -> Vec<String> {
    let mined = run(&[
        "puzzles",
        "mine",
        "--variant",
        "makruk",
        "--games",
        arg(pgn),
        "--out",
        arg(out),
    ]);
    assert!(mined.status.success(), "{}", text(&mined));
    lines(out)
}

#[test]
fn mining_finds_the_one_move_win_and_refuses_two_winning_moves() {
    let dir = scratch("puzzles-known");
    let pgn = dir.join("known.pgn");
    std::fs::write(&pgn, game(ONE_WIN) + &game(TWO_WINS)).unwrap();
    let out = dir.join("set.tsv");
    let found = mine_makruk(&pgn, &out);
    assert_eq!(found.len(), 1, "{found:?}");
    let cols: Vec<&str> = found[0].split('\t').collect();
    assert_eq!(cols[1..5], ["makruk", "default", ONE_WIN, "a1a8"]);
    assert!(cols[6].split(' ').any(|t| t == "mateIn1"), "{}", cols[6]);
    assert_eq!(cols[7], "known.pgn#1:0");
    // The set passes the independent check.
    let check = run(&["puzzles", "check", arg(&out)]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(text(&check).contains("1 good, 0 bad"), "{}", text(&check));
}

/// A record that plays on past its count (as a human game may): Black's
/// count against the bare khun allows 32 plies and stands at 31. Rd1 mates
/// in time; after Rd2 Ka1 the count has run out, so the game is drawn and
/// the mate Rd1 that follows in the record is no puzzle.
#[test]
fn mining_keeps_the_mate_in_time_and_not_the_one_after_the_count_ran_out() {
    let dir = scratch("puzzles-count");
    let pgn = dir.join("count.pgn");
    let fen = "8/8/3r4/2m5/4n1m1/1k6/8/1K6 b - 32 31 97";
    std::fs::write(&pgn, game_with(fen, "97... Rd2 98. Ka1 Rd1# *")).unwrap();
    let out = dir.join("set.tsv");
    let found = mine_makruk(&pgn, &out);
    assert_eq!(found.len(), 1, "{found:?}");
    let cols: Vec<&str> = found[0].split('\t').collect();
    assert_eq!(cols[3..5], [fen, "d6d1"]);
    assert_eq!(cols[7], "count.pgn#1:0");
    // `check` refuses the line mined after the count ran out, saying why.
    let late = found[0]
        .replace(fen, "8/8/8/2m5/4n1m1/1k6/3r4/K7 b - 32 33 99")
        .replace("d6d1", "d2d1");
    std::fs::write(
        &out,
        format!("{}\n{late}\n", records::puzzle::PUZZLE_HEADER),
    )
    .unwrap();
    let check = run(&["puzzles", "check", arg(&out)]);
    assert!(!check.status.success(), "{}", text(&check));
    assert!(
        text(&check).contains("already over in the position (1/2-1/2 by counting_draw)"),
        "{}",
        text(&check)
    );
}

#[test]
fn a_killed_run_resumes_without_duplicates() {
    let dir = scratch("puzzles-resume");
    let pgn = dir.join("games.pgn");
    // Seed 34: puzzles in games 2, 3 and 4 of 7 with the engine of
    // 2026-12-06 (seed 1's first seven games, since correction history,
    // hold none), so the run below stops and resumes among games with and
    // without puzzles.
    let games = |n: &str| {
        run(&[
            "puzzles",
            "games",
            "--variant",
            "makruk",
            "--games",
            n,
            "--seed",
            "34",
            "--depth",
            "2",
            "--out",
            arg(&pgn),
        ])
    };
    let made = games("6");
    assert!(made.status.success(), "{}", text(&made));
    // Playing on to 6 again adds nothing; to 7 adds one game.
    let again = games("6");
    assert!(again.status.success(), "{}", text(&again));
    let count = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .matches("[Event ")
            .count()
    };
    assert_eq!(count(&pgn), 6);
    std::fs::write(
        &pgn,
        std::fs::read_to_string(&pgn).unwrap() + "[Event \"torn",
    )
    .unwrap();
    let more = games("7");
    assert!(more.status.success(), "{}", text(&more));
    assert_eq!(count(&pgn), 7);
    let mine = |out: &Path| {
        run(&[
            "puzzles",
            "mine",
            "--variant",
            "makruk",
            "--games",
            arg(&pgn),
            "--out",
            arg(out),
            "--depth",
            "3",
            "--confirm-depth",
            "5",
        ])
    };
    // A clean run gives the expected set.
    let clean = dir.join("clean.tsv");
    let mined = mine(&clean);
    assert!(mined.status.success(), "{}", text(&mined));
    let expected = lines(&clean);
    assert!(
        !expected.is_empty(),
        "no puzzle in 7 noisy games: {}",
        text(&mined)
    );
    // A run killed while writing a line: the set holds the puzzles of the
    // games up to the first with a puzzle and half a line, the progress those games.
    let killed = dir.join("killed.tsv");
    let upto = game_number(&expected[0]);
    let done: Vec<&String> = expected.iter().filter(|l| game_number(l) <= upto).collect();
    let mut set = records::puzzle::PUZZLE_HEADER.to_string() + "\n";
    for l in &done {
        set += &format!("{l}\n");
    }
    std::fs::write(&killed, set + "abcd1234\tmakr").unwrap();
    let progress: String = (1..=upto).map(|n| format!("games.pgn#{n}\n")).collect();
    std::fs::write(dir.join("killed.tsv.progress"), progress).unwrap();
    let resumed = mine(&killed);
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert!(
        text(&resumed).contains("interrupted write"),
        "{}",
        text(&resumed)
    );
    let mut got = lines(&killed);
    let mut want = expected.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    // A real kill: start, stop it, run again; the same set, each id once.
    let real = dir.join("real.tsv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .args([
            "puzzles",
            "mine",
            "--variant",
            "makruk",
            "--games",
            arg(&pgn),
            "--out",
            arg(&real),
            "--depth",
            "3",
            "--confirm-depth",
            "5",
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    let rerun = mine(&real);
    assert!(rerun.status.success(), "{}", text(&rerun));
    let mut got = lines(&real);
    let ids: HashSet<&str> = got.iter().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(ids.len(), got.len(), "duplicate ids: {got:?}");
    got.sort();
    assert_eq!(got, want);
}

/// The game number of a puzzle line's source (`games.pgn#N:PLY`).
fn game_number(line: &str) -> usize {
    let source = line.split('\t').nth(7).unwrap();
    let game = source.rsplit_once(':').unwrap().0;
    game.rsplit_once('#').unwrap().1.parse().unwrap()
}

#[test]
fn check_names_every_bad_line_and_fails() {
    let dir = scratch("puzzles-check");
    let set = dir.join("set.tsv");
    let good = format!("good0001\tmakruk\tdefault\t{ONE_WIN}\ta1a8\t800\tmateIn1\t-");
    let body = [
        records::puzzle::PUZZLE_HEADER.to_string(),
        good.clone(),
        // 3: the position does not read.
        "badfen01\tmakruk\tdefault\t7k/8/9/8/8/8/8/R7 w - - 0 1\ta1a8\t800\t-\t-".into(),
        // 4: an illegal move.
        format!("illegal1\tmakruk\tdefault\t{ONE_WIN}\ta1b8\t800\t-\t-"),
        // 5: a move that wins, but not the only one.
        format!("twowins1\tmakruk\tdefault\t{TWO_WINS}\ta1a8\t800\t-\t-"),
        // 6: the same id again.
        good.replace("\t-", "\tsource"),
        // 7: a line of too few columns.
        "short001\tmakruk".into(),
        // 8: a legal move that does not win.
        format!("nowin001\tmakruk\tdefault\t{ONE_WIN}\ta1a2\t800\t-\t-"),
    ]
    .join("\n");
    std::fs::write(&set, body + "\n").unwrap();
    let out = run(&["puzzles", "check", "--confirm-depth", "5", arg(&set)]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    let p = arg(&set);
    for n in 3..=8 {
        assert!(
            t.contains(&format!("{p}:{n}: ")),
            "line {n} not named:\n{t}"
        );
    }
    assert!(!t.contains(&format!("{p}:2: ")), "{t}");
    assert!(t.contains("not legal"), "{t}");
    assert!(t.contains("more than one move wins"), "{t}");
    assert!(t.contains("appears twice"), "{t}");
    assert!(t.contains("1 good, 6 bad"), "{t}");
    // Without search, only the form and the replay count.
    let quick = run(&["puzzles", "check", "--no-search", arg(&set)]);
    assert!(text(&quick).contains("3 good, 4 bad"), "{}", text(&quick));
}

/// The start set the server embeds: every file reads, every puzzle replays
/// under the rules, ids are unique, and each file holds its own game.
#[test]
fn the_shipped_puzzle_sets_read_and_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/puzzles");
    for (file, variant) in [
        ("makruk.tsv.gz", "makruk"),
        ("cambodian.tsv.gz", "cambodian"),
        ("makhos.tsv.gz", "makhos"),
    ] {
        let path = dir.join(file);
        let out = run(&["puzzles", "check", "--no-search", arg(&path)]);
        assert!(out.status.success(), "{file}: {}", text(&out));
        let gz = std::fs::File::open(&path).unwrap();
        let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(gz));
        let mut n = 0;
        for p in records::puzzle::read_puzzles(reader) {
            let p = p.unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(p.kind.variant_name(), variant, "{file}: {}", p.id);
            n += 1;
        }
        assert!(n > 0, "{file} is empty");
    }
}
