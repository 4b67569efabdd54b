//! `thaiboard match`: small matches of our engine against itself and
//! against deliberately broken fake engines (shell scripts).

use std::path::PathBuf;
use std::process::{Command, Output};

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thaiboard"))
        .arg("match")
        .args(args)
        .output()
        .expect("run thaiboard match")
}

/// Runs a match that must succeed; returns its standard output.
fn run_ok(args: &[&str]) -> String {
    let o = run(args);
    let out = stdout(&o);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-match-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The W, L, D numbers of the last `Score of` line.
fn final_score(out: &str) -> (u64, u64, u64) {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of"))
        .unwrap_or_else(|| panic!("no score line in:\n{out}"));
    let nums: Vec<u64> = line
        .split(':')
        .nth(1)
        .unwrap()
        .split('[')
        .next()
        .unwrap()
        .split(" - ")
        .map(|n| n.trim().parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2])
}

/// Reads the PGN back, replays every game, and checks each result against
/// what the rules decide; returns the games.
fn replay_all(path: &PathBuf) -> Vec<records::Game> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = records::read_all(&text);
    assert!(!games.is_empty());
    let mut out = Vec::new();
    for g in games {
        let g = g.unwrap_or_else(|e| panic!("PGN does not read back: {e}\n{text}"));
        let r = records::replay(&g);
        assert_eq!(r.illegal_ply, None);
        assert_eq!(r.rule_end, None, "the game went on past a rule ending");
        assert_ne!(g.result, records::GameResult::Unknown);
        let termination = g.tags.get("Termination").unwrap();
        if termination == "normal" {
            assert_eq!(
                r.decided_result(),
                Some(g.result),
                "result against the rules"
            );
        } else {
            assert_eq!(r.decided_result(), None);
        }
        assert_eq!(
            g.tags.get("PlyCount").unwrap(),
            g.moves.nodes.len().to_string()
        );
        out.push(g);
    }
    out
}

/// The two engines of the self-play matches: our engine at depth 2
/// against itself at depth 1.
const DEEP_VS_SHALLOW: &[&str] = &[
    "--engine",
    "name=deep",
    "depth=2",
    "--engine",
    "name=shallow",
    "depth=1",
];

fn self_play(variant: &str, openings: &str, pgn_name: &str) {
    let pgn = temp_path(pgn_name);
    let openings = format!("{REPO}/data/openings/{openings}");
    let o = run(&[
        DEEP_VS_SHALLOW,
        &[
            "--variant",
            variant,
            "--openings",
            &openings,
            "--games",
            "4",
            "--concurrency",
            "2",
            "--maxmoves",
            "60",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    ]
    .concat());
    let out = stdout(&o);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (w, l, d) = final_score(&out);
    assert_eq!(w + l + d, 4, "{out}");
    assert_eq!(out.matches("Finished game").count(), 4);
    let games = replay_all(&pgn);
    assert_eq!(games.len(), 4);
    let deep_points: f64 = games
        .iter()
        .map(|g| {
            let deep_white = g.tags.get("White") == Some("deep");
            match (g.result, deep_white) {
                (records::GameResult::WhiteWins, true)
                | (records::GameResult::BlackWins, false) => 1.0,
                (records::GameResult::Draw, _) => 0.5,
                _ => 0.0,
            }
        })
        .sum();
    assert_eq!(
        deep_points,
        w as f64 + d as f64 / 2.0,
        "score against the PGN"
    );
    // Colour-reversed pairs from the same opening.
    assert_eq!(
        games
            .iter()
            .filter(|g| g.tags.get("White") == Some("deep"))
            .count(),
        2
    );
    for g in &games {
        assert!(g.tags.get("FEN").is_some(), "openings are set-up positions");
    }
}

#[test]
fn makruk_self_play_pgn_replays_and_score_adds_up() {
    self_play("makruk", "makruk.epd", "makruk.pgn");
}

#[test]
fn makhos_self_play_pdn_replays_and_score_adds_up() {
    self_play("makhos", "makhos.txt", "makhos.pdn");
}

/// A fake UCI engine in shell that handles the handshake, then does
/// `on_go` when asked to move.
fn fake_engine(on_go: &str) -> Vec<String> {
    let script = format!(
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) {on_go};; quit) exit 0;; esac; done"
    );
    sh_engine("broken", &script)
}

/// `--engine` words for a UCI engine that is the shell script `script`.
fn sh_engine(name: &str, script: &str) -> Vec<String> {
    vec![
        format!("name={name}"),
        "cmd=sh".to_string(),
        "arg=-c".to_string(),
        format!("arg={script}"),
    ]
}

/// Plays our engine against a broken one (two games, one per colour):
/// returns the output and the PGN games.
fn against_broken(on_go: &str, extra: &[&str], pgn_name: &str) -> (String, Vec<records::Game>) {
    let pgn = temp_path(pgn_name);
    let mut args = vec!["--engine", "name=good", "depth=1", "--engine"];
    let fake = fake_engine(on_go);
    args.extend(fake.iter().map(String::as_str));
    args.extend(["--games", "2", "--pgn", pgn.to_str().unwrap()]);
    args.extend(extra);
    let out = run_ok(&args);
    assert_eq!(final_score(&out), (2, 0, 0), "{out}");
    (out, replay_all(&pgn))
}

fn last_comment(g: &records::Game) -> String {
    match g.moves.nodes.last() {
        Some(n) => n.comments.last().cloned().unwrap_or_default(),
        None => g.moves.comments.last().cloned().unwrap_or_default(),
    }
}

#[test]
fn illegal_move_loses() {
    let (out, games) = against_broken("echo 'bestmove a1a1'", &["--depth", "1"], "illegal.pgn");
    for g in &games {
        assert_eq!(g.tags.get("Termination"), Some("rules infraction"));
        assert!(
            last_comment(g).contains("(broken) played an illegal move 'a1a1'"),
            "{}",
            last_comment(g)
        );
    }
    assert!(out.contains("played an illegal move"));
}

#[test]
fn crash_loses() {
    let (_, games) = against_broken("exit 3", &["--depth", "1"], "crash.pgn");
    for g in &games {
        assert_eq!(g.tags.get("Termination"), Some("abandoned"));
        assert!(
            last_comment(g).contains("(broken) crashed"),
            "{}",
            last_comment(g)
        );
    }
}

#[test]
fn hang_loses_on_time() {
    // The fake engine never answers `go`: with a clock it loses on time.
    let (_, games) = against_broken(":", &["--tc", "0.3+0", "--margin", "50"], "hang.pgn");
    for g in &games {
        assert_eq!(g.tags.get("Termination"), Some("time forfeit"));
        assert!(
            last_comment(g).contains("(broken) loses on time"),
            "{}",
            last_comment(g)
        );
        assert_eq!(g.tags.get("TimeControl"), Some("0.3"));
    }
}

#[test]
fn hang_without_clock_loses_after_the_timeout() {
    let (_, games) = against_broken(":", &["--depth", "1", "--timeout", "1"], "hang2.pgn");
    for g in &games {
        assert_eq!(g.tags.get("Termination"), Some("time forfeit"));
        assert!(
            last_comment(g).contains("(broken) hangs"),
            "{}",
            last_comment(g)
        );
    }
}

#[test]
fn random_mover_never_beats_the_engine_at_makhos_and_the_sprt_stops_early() {
    let pgn = temp_path("random.pdn");
    let o = run(&[
        "--variant",
        "makhos",
        "--engine",
        "name=engine",
        "depth=3",
        "--engine",
        "name=random",
        "option.Random Mover=true",
        "--depth",
        "1",
        "--games",
        "20",
        "--sprt",
        "elo0=0",
        "elo1=400",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    // The random mover draws the occasional game (one king each: the clock
    // seeds its moves), but never wins one. Five pairs won decide the SPRT
    // (LLR 2.99 > 2.94), a drawn game costs a pair or so more, and at most
    // one more game starts after the decision: well inside the 20 games.
    let (w, l, d) = final_score(&out);
    assert!(w >= 10 && l == 0 && d <= 3 && w + d < 20, "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(
        out.contains("SPRT decided: the match stopped early"),
        "{out}"
    );
    assert_eq!(replay_all(&pgn).len() as u64, w + d);
}

#[test]
fn bad_command_lines_are_refused_clearly() {
    for (args, needle) in [
        (vec!["--engine", "depth=1"], "exactly two --engine"),
        (
            vec!["--engine", "depth=1", "--engine", "colour=red"],
            "--engine 2: engine setting 'colour=red': unknown key",
        ),
        (
            vec!["--engine", "name=a", "--engine", "name=b"],
            "has no limit",
        ),
        (
            vec!["--engine", "depth=1", "--engine", "depth=1", "--tc", "fast"],
            "time control 'fast'",
        ),
        (
            vec![
                "--engine",
                "depth=1",
                "--engine",
                "depth=1",
                "--openings",
                "/no/such/file",
            ],
            "cannot read openings",
        ),
        (
            vec![
                "--engine", "depth=1", "--engine", "depth=1", "--sprt", "elo0=5", "elo1=0",
            ],
            "must be below elo1",
        ),
        (
            vec![
                "--engine",
                "depth=1",
                "--engine",
                "cmd=/no/such/engine",
                "depth=1",
            ],
            "cannot start '/no/such/engine'",
        ),
    ] {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn pgn_openings_are_played_as_book_moves_cut_to_plies() {
    let openings = temp_path("book.pgn");
    std::fs::write(
        &openings,
        "[Variant \"makruk\"]\n\n1. e4 e5 2. Ne2 Ne7 3. c4 *\n\n[Variant \"makruk\"]\n\n1. c4 c5 *\n",
    )
    .unwrap();
    let pgn = temp_path("book-out.pgn");
    let o = run(&[
        "--engine",
        "depth=1",
        "--engine",
        "depth=1",
        "--openings",
        openings.to_str().unwrap(),
        "--plies",
        "3",
        "--rounds",
        "2",
        "--maxmoves",
        "6",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let games = replay_all(&pgn);
    assert_eq!(games.len(), 4);
    let book: Vec<usize> = games
        .iter()
        .map(|g| {
            g.moves
                .nodes
                .iter()
                .take_while(|n| n.comments.first().map(String::as_str) == Some("book"))
                .count()
        })
        .collect();
    // Game pairs: the first opening cut to 3 plies, the second has 2.
    assert_eq!(book, [3, 3, 2, 2]);
    for g in &games {
        assert_eq!(g.tags.get("FEN"), None, "PGN openings start from the start");
        // Depth-1 engines may mate quickly; otherwise --maxmoves 6 draws
        // at 12 plies.
        if g.tags.get("Termination") == Some("adjudication") {
            assert_eq!(g.moves.nodes.len(), 12);
            assert_eq!(g.result, records::GameResult::Draw);
        } else {
            assert_eq!(g.tags.get("Termination"), Some("normal"));
            assert!(g.moves.nodes.len() < 12);
        }
    }
}

#[test]
fn resign_adjudication_ends_lost_games() {
    // A rook up: both engines see it, so the side without resigns.
    let openings = temp_path("rook-up.epd");
    std::fs::write(
        &openings,
        "rnsmksn1/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n",
    )
    .unwrap();
    let pgn = temp_path("resign.pgn");
    let o = run(&[
        "--engine",
        "depth=3",
        "--engine",
        "depth=3",
        "--openings",
        openings.to_str().unwrap(),
        "--resign",
        "movecount=2",
        "score=300",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let games = replay_all(&pgn);
    for g in &games {
        assert_eq!(g.tags.get("Termination"), Some("adjudication"), "{out}");
        assert_eq!(g.result, records::GameResult::WhiteWins);
        assert!(
            last_comment(g).contains("Black resigns"),
            "{}",
            last_comment(g)
        );
        assert!(g.moves.nodes.len() <= 6);
    }
    // Each engine won once with White: 1 - 1 - 0.
    assert_eq!(final_score(&out), (1, 1, 0), "{out}");
}

/// A fake engine that only shuffles the khuns of `7k/8/8/p7/P7/8/8/K7 w`
/// (a1-b1 and h8-g8 and back), choosing by the number of moves played:
/// the locked bias keep the counting rules away, so only adjudication ends
/// the game.
fn shuffler(name: &str) -> Vec<String> {
    let script = "n=0; while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; \
        position*) set -- $line; n=$(( $# > 9 ? $# - 9 : 0 ));; \
        go*) case $((n % 4)) in 0) echo 'bestmove a1b1';; 1) echo 'bestmove h8g8';; 2) echo 'bestmove b1a1';; *) echo 'bestmove g8h8';; esac;; \
        quit) exit 0;; esac; done";
    sh_engine(name, script)
}

/// Plays the shufflers two games with `extra` options; returns their plies
/// and last comments.
fn shuffled(extra: &[&str], pgn_name: &str) -> Vec<(usize, String)> {
    let openings = temp_path("locked-bias.epd");
    std::fs::write(&openings, "7k/8/8/p7/P7/8/8/K7 w - - 0 1\n").unwrap();
    let pgn = temp_path(pgn_name);
    let (a, b) = (shuffler("a"), shuffler("b"));
    let mut args = vec!["--engine"];
    args.extend(a.iter().map(String::as_str));
    args.push("--engine");
    args.extend(b.iter().map(String::as_str));
    args.extend(["--openings", openings.to_str().unwrap(), "--depth", "1"]);
    args.extend(["--games", "2", "--pgn", pgn.to_str().unwrap()]);
    args.extend(extra);
    let out = run_ok(&args);
    assert_eq!(final_score(&out), (0, 0, 2), "{out}");
    replay_all(&pgn)
        .iter()
        .map(|g| {
            assert_eq!(g.tags.get("Termination"), Some("adjudication"));
            (g.moves.nodes.len(), last_comment(g))
        })
        .collect()
}

#[test]
fn makruk_repetitions_are_adjudicated_drawn() {
    // The start position comes back after 4 and 8 plies: drawn at its third
    // occurrence by default.
    for (plies, why) in shuffled(&[], "rep-default.pgn") {
        assert_eq!(plies, 8, "{why}");
        assert_eq!(why, "Draw: the same position 3 times (--repetition)");
    }
    for (plies, why) in shuffled(&["--repetition", "5"], "rep-5.pgn") {
        assert_eq!(plies, 16, "{why}");
        assert!(why.contains("5 times"), "{why}");
    }
    // Off: only the move cap ends it.
    for (plies, why) in shuffled(&["--repetition", "0", "--maxmoves", "15"], "rep-off.pgn") {
        assert_eq!(plies, 30, "{why}");
        assert!(why.contains("--maxmoves"), "{why}");
    }
}

#[test]
fn a_stopped_match_resumes_from_its_pgn() {
    let pgn = temp_path("resume.pgn");
    let _ = std::fs::remove_file(&pgn);
    let openings = format!("{REPO}/data/openings/makruk.epd");
    let play = |games: &str, seed: &str| {
        run(&[
            DEEP_VS_SHALLOW,
            &[
                "--openings",
                &openings,
                "--random-order",
                "--seed",
                seed,
                "--games",
                games,
                "--maxmoves",
                "40",
                "--pgn",
                pgn.to_str().unwrap(),
                "--resume",
            ],
        ]
        .concat())
    };
    // A first run of 3 games stands for a match stopped after its third.
    let o = play("3", "5");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("Resuming: 0 finished game(s)"));
    let first = replay_all(&pgn);
    assert_eq!(first.len(), 3);
    let (w, l, d) = final_score(&stdout(&o));
    // The same match of 6 games plays only the other 3 and counts all 6.
    let o = play("6", "5");
    let out = stdout(&o);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains(&format!(
            "Resuming: 3 finished game(s) in the PGN ({w} - {l} - {d}), 3 to play"
        )),
        "{out}"
    );
    assert_eq!(out.matches("Finished game").count(), 3, "{out}");
    for n in 4..=6 {
        assert!(out.contains(&format!("Finished game {n} ")), "{out}");
    }
    let (w6, l6, d6) = final_score(&out);
    assert_eq!(w6 + l6 + d6, 6);
    assert!(w6 >= w && l6 >= l && d6 >= d);
    let all = replay_all(&pgn);
    assert_eq!(all.len(), 6);
    assert_eq!(
        all[..3],
        first[..],
        "the earlier games are kept as they were"
    );
    let rounds: Vec<&str> = all.iter().map(|g| g.tags.get("Round").unwrap()).collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    // Games 3 and 4 are one pair: the same opening, colours reversed.
    assert_eq!(all[2].start, all[3].start);
    assert_eq!(all[2].tags.get("White"), all[3].tags.get("Black"));
    // Run again: nothing is left to play.
    let o = play("6", "5");
    assert!(stdout(&o).contains("6 finished game(s)") && stdout(&o).contains("0 to play"));
    assert_eq!(final_score(&stdout(&o)), (w6, l6, d6));
    // Another seed orders the openings otherwise: refused, the PGN untouched.
    let before = std::fs::read_to_string(&pgn).unwrap();
    let o = play("6", "6");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("does not start from this match's opening"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), before);
}
