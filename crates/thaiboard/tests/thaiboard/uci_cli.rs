//! UCI protocol tests driving the built `thaiboard uci` binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Generous: the test machine is shared and debug builds are slow.
const WAIT: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_thaiboard"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start thaiboard uci");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no line starting with '{prefix}'; got {seen:?}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success());
                return;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name thaiboard")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in [
        "option name UCI_Variant type combo default makruk var makruk var cambodian var makhos",
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Move Overhead type spin",
        "option name Slow Mover type spin default 100 min 10 max 1000",
        "option name Skill Level type spin",
        "option name UCI_LimitStrength type check",
        "option name UCI_Elo type spin",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "missing {opt}");
    }
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn go_depth_gives_a_legal_bestmove_with_info() {
    let mut e = Engine::start();
    e.send("ucinewgame");
    e.send("position startpos moves e3e4 e6e5");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 3"))
        .expect("depth 3 info");
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info} lacks {field}");
    }
    let mut pos = makruk::Position::new(makruk::Variant::Makruk);
    for m in ["e3e4", "e6e5"] {
        let m = pos.parse_uci(m).unwrap();
        pos.play(m).unwrap();
    }
    let best = bestmove(&lines);
    assert!(pos.parse_uci(&best).is_ok(), "illegal bestmove {best}");
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1 ");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    // The protocol target is 50 ms; the bound here is generous for a loaded machine.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_ne!(bestmove(&lines), "(none)");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn garbage_lines_get_info_strings_not_crashes() {
    let mut e = Engine::start();
    for junk in [
        "hello world",
        "position fen not a fen",
        "position startpos moves e3e5",
        "setoption name Hash value lots",
        "setoption name Nonsense value 3",
        "go depth x",
        "setoption",
        "\u{1F600} \t",
    ] {
        e.send(junk);
        e.send("isready");
        let lines = e.until("readyok");
        if !junk.trim().starts_with('\u{1F600}') {
            assert!(
                lines.iter().any(|l| l.starts_with("info string")),
                "no info string for {junk:?}: {lines:?}"
            );
        }
        if junk == "go depth x" {
            // The refused `position ... e3e5` left no position to search:
            // the answer comes at once, never a search of the one before.
            assert!(
                lines.iter().any(|l| l == "bestmove (none)"),
                "{junk:?}: {lines:?}"
            );
        }
    }
    // Still playing after all that.
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_ne!(bestmove(&lines), "(none)");
    e.quit();
}

#[test]
fn no_legal_move_answers_bestmove_none() {
    let mut e = Engine::start();
    e.send("position fen 1R2k3/R7/8/8/8/8/8/3K4 b - - 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn go_perft_counts_like_the_perft_command() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 12012");
    e.send("setoption name UCI_Variant value makhos");
    e.send("position startpos");
    e.send("go perft 4");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 3136");
    e.quit();
}

#[test]
fn makhos_variant_plays_legal_moves_and_captures() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value makhos");
    e.send("ucinewgame");
    e.send("position startpos moves b2c3 g7h6");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let best = bestmove(&lines);
    let mut g = makhos::Game::new(makhos::Rules::Default);
    g.play_text("b2c3").unwrap();
    g.play_text("g7h6").unwrap();
    assert!(g.play_text(&best).is_ok(), "illegal bestmove {best}");
    // A forced multi-capture, written in the engine form.
    e.send("position fen W:Wb2,h2:Ba7,c3,e5,g3,g7");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "b2d4f6h8");
    e.send("d");
    let lines = e.until("Key:");
    assert!(
        lines.iter().any(|l| l.starts_with("Fen: W:Wb2,h2:B")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn bench_prints_a_deterministic_node_count() {
    let mut e = Engine::start();
    e.send("bench 3");
    let a = e.until("Nodes searched");
    e.send("bench 3");
    let b = e.until("Nodes searched");
    assert_eq!(a.last(), b.last());
    e.quit();
}

#[test]
fn go_right_after_bestmove_starts_a_new_search() {
    let mut e = Engine::start();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 1");
        let lines = e.until("bestmove");
        moves.push(bestmove(&lines));
    }
    assert_eq!(moves.len(), 8);
    e.quit();
}

#[test]
fn multipv_and_strength_options_are_honoured() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 2 ") && l.contains(&format!(" multipv {k} "))),
            "no multipv {k}: {lines:?}"
        );
    }
    e.send("setoption name MultiPV value 1");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 500");
    e.send("setoption name UCI_Variant value cambodian");
    e.send("position startpos");
    e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let lines = e.until("bestmove");
    let pos = makruk::Position::new(makruk::Variant::Cambodian);
    assert!(pos.parse_uci(&bestmove(&lines)).is_ok());
    e.quit();
}

#[test]
fn threads_two_finds_the_same_mate() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position fen 4k3/8/R7/8/8/8/8/1R1K4 w - - 0 1");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("info");
    assert!(info.contains(" score mate 2 "), "{info}");
    let pos =
        makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/8/R7/8/8/8/8/1R1K4 w - - 0 1")
            .unwrap();
    let best = pos.parse_uci(&bestmove(&lines)).unwrap();
    assert!(pos.legal_moves().contains(&best));
    e.send("setoption name Threads value 0");
    let lines = e.until("info string setoption Threads");
    assert!(lines.last().unwrap().contains("not a number from 1 to 256"));
    e.quit();
}

#[test]
fn slow_mover_takes_fairy_stockfishs_range() {
    let mut e = Engine::start();
    for bad in ["9", "1001", "fast"] {
        e.send(&format!("setoption name Slow Mover value {bad}"));
        let lines = e.until("info string setoption Slow Mover");
        assert!(
            lines
                .last()
                .unwrap()
                .contains(&format!("'{bad}' is not a number from 10 to 1000")),
            "{lines:?}"
        );
    }
    // An accepted value says nothing, and a clock-based search still moves.
    e.send("setoption name Slow Mover value 10");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.contains("Slow Mover")), "{lines:?}");
    e.send("position startpos");
    e.send("go wtime 2000 btime 2000 winc 20 binc 20");
    let lines = e.until("bestmove");
    let pos = makruk::Position::new(makruk::Variant::Makruk);
    assert!(
        pos.legal_moves()
            .contains(&pos.parse_uci(&bestmove(&lines)).unwrap())
    );
    e.quit();
}

#[test]
fn random_mover_plays_varied_legal_moves_in_both_games() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Random Mover type check default false")
    );
    e.send("setoption name Random Mover value true");
    let start = makruk::Position::new(makruk::Variant::Makruk);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..12 {
        e.send("position startpos");
        e.send("go depth 30");
        let lines = e.until("bestmove");
        // No search: no info lines, an immediate answer.
        assert_eq!(lines.len(), 1, "{lines:?}");
        let best = bestmove(&lines);
        assert!(start.parse_uci(&best).is_ok(), "illegal bestmove {best}");
        seen.insert(best);
    }
    assert!(seen.len() > 1, "always the same move: {seen:?}");

    e.send("setoption name UCI_Variant value makhos");
    e.send("position startpos");
    e.send("go depth 30");
    let best = bestmove(&e.until("bestmove"));
    let pos = makhos::Position::start();
    assert!(
        pos.parse_move(makhos::Rules::Default, &best).is_ok(),
        "illegal Mak-hot bestmove {best}"
    );
    e.send("setoption name Random Mover value maybe");
    let lines = e.until("info string Random Mover");
    assert!(lines.last().unwrap().contains("true or false"));
    e.send("setoption name Random Mover value false");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2")),
        "{lines:?}"
    );
    e.quit();
}

/// A network file whose every raw score is `cp` centipawns for the side to
/// move (zero weights, output biases only), in a fresh temporary folder.
fn constant_network_file(name: &str, cp: i32) -> std::path::PathBuf {
    constant_network_of(engine::eval::nnue::Layout::Makruk, name, cp)
}

/// A network of `layout` that scores every position `cp` for the side to
/// move, written to a file of its own.
fn constant_network_of(
    layout: engine::eval::nnue::Layout,
    name: &str,
    cp: i32,
) -> std::path::PathBuf {
    use engine::eval::nnue::{Network, OUTPUT_SCALE, QA, QB};
    let mut net = Network::zeroed_for(layout);
    for b in &mut net.output_biases {
        *b = cp * QA * QB / OUTPUT_SCALE;
    }
    net.description = format!("constant {cp} cp");
    let dir =
        std::env::temp_dir().join(format!("thaiboard-uci-nnue-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// Loads each network file with `EvalFile`, switches Makruk's network on
/// and returns what the engine said up to `readyok`.
fn load_networks(e: &mut Engine, paths: &[&std::path::Path]) -> Vec<String> {
    for path in paths {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
    }
    e.send("setoption name Use NNUE value true");
    e.send("isready");
    e.until("readyok")
}

fn depth_one_score(e: &mut Engine) -> String {
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 1 "))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    format!("{} {}", words[at + 1], words[at + 2])
}

#[test]
fn evalfile_and_use_nnue_choose_the_evaluation() {
    let path = constant_network_file("choose", 50);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    for opt in [
        "option name Use NNUE type check default true",
        "option name EvalFile type string",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "missing {opt}");
    }
    // The shipped network plays by default; switched off, the classical sum.
    let by_default = depth_one_score(&mut e);
    e.send("setoption name Use NNUE value false");
    let classical = depth_one_score(&mut e);
    assert_ne!(
        by_default, classical,
        "the shipped network adds its correction"
    );
    let lines = load_networks(&mut e, &[&path]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("network") && l.contains("constant 50 cp")),
        "{lines:?}"
    );
    // Every child of the root scores +50 for its mover: -50 at the root.
    assert_eq!(depth_one_score(&mut e), "cp -50");
    // An empty EvalFile goes back to the shipped network.
    e.send("setoption name EvalFile value <empty>");
    let shipped = depth_one_score(&mut e);
    assert_eq!(shipped, by_default);
    e.send("setoption name Use NNUE value false");
    assert_eq!(depth_one_score(&mut e), classical);
    assert_ne!(classical, "cp -50");
    e.quit();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_mak_hot_network_plays_mak_hot_and_leaves_makruk_its_own() {
    use engine::eval::nnue::Layout;
    let makruk = constant_network_of(Layout::Makruk, "both-makruk", 50);
    let makhos = constant_network_of(Layout::Makhos, "both-makhos", 30);
    let mut e = Engine::start();
    let lines = load_networks(&mut e, &[&makruk, &makhos]);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("makhos network") && l.contains("constant 30 cp")),
        "{lines:?}"
    );
    assert_eq!(depth_one_score(&mut e), "cp -50");
    e.send("setoption name UCI_Variant value makhos");
    assert_eq!(depth_one_score(&mut e), "cp -30");
    // Each game has its own switch: Makruk's leaves Mak-hot's network on.
    e.send("setoption name Use NNUE value false");
    assert_eq!(depth_one_score(&mut e), "cp -30");
    // Without it, Mak-hot is scored by its classical evaluation.
    e.send("setoption name Use NNUE Makhos value false");
    let classical = depth_one_score(&mut e);
    assert_ne!(classical, "cp -30");
    // An empty EvalFile goes back to the shipped Mak-hot network, which
    // plays by default.
    e.send("setoption name EvalFile value <empty>");
    e.send("setoption name Use NNUE Makhos value true");
    let shipped = depth_one_score(&mut e);
    assert_ne!(shipped, "cp -30");
    assert_ne!(shipped, classical);
    e.quit();
    let mut fresh = Engine::start();
    fresh.send("uci");
    let lines = fresh.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Use NNUE Makhos type check default true"),
        "{lines:?}"
    );
    fresh.send("setoption name UCI_Variant value makhos");
    assert_eq!(depth_one_score(&mut fresh), shipped, "on by default");
    fresh.quit();
    for p in [makruk, makhos] {
        let _ = std::fs::remove_dir_all(p.parent().unwrap());
    }
}

#[test]
fn damaged_or_cut_short_network_files_are_refused_with_a_reason() {
    let path = constant_network_file("damaged", 10);
    let bytes = std::fs::read(&path).unwrap();
    let dir = path.parent().unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, &bytes[..bytes.len() - 100]).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, &flipped).unwrap();
    let mut e = Engine::start();
    for (file, reason) in [
        (short, "cut short"),
        (damaged, "damaged"),
        (dir.join("missing.nnue"), "cannot read"),
    ] {
        e.send(&format!("setoption name EvalFile value {}", file.display()));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string EvalFile") && l.contains(reason)),
            "{reason}: {lines:?}"
        );
    }
    // Still playing, with the shipped network.
    e.send("setoption name Use NNUE value true");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_ne!(bestmove(&lines), "(none)");
    e.quit();
    let _ = std::fs::remove_dir_all(dir);
}
