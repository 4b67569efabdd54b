//! UCI sessions against the engine's protocol loop (`engine::uci::run`),
//! driven line by line as a GUI drives it: what cutechess-cli and
//! Fairy-Stockfish's peers need (issue 40, items 6 to 9).

use engine::uci::{NoTables, run};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Generous: the test machine is shared and debug builds are slow.
const WAIT: Duration = Duration::from_secs(120);

/// The GUI's input to the engine: lines sent through a channel.
struct Input {
    lines: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The engine's output: its writes, sent through a channel.
struct Output(Sender<Vec<u8>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One conversation with the protocol loop running on a thread.
struct Session {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    partial: String,
    lines: std::collections::VecDeque<String>,
    engine: Option<JoinHandle<()>>,
}

impl Session {
    fn start() -> Session {
        let (to_engine, lines) = channel();
        let (out, output) = channel();
        let input = Input {
            lines,
            pending: Vec::new(),
        };
        let engine = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || run(BufReader::new(input), Output(out), NoTables))
            .unwrap();
        Session {
            input: Some(to_engine),
            output,
            partial: String::new(),
            lines: Default::default(),
            engine: Some(engine),
        }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_ref().expect("session open");
        input.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// The next line the engine writes.
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some(line);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let bytes = self.output.recv_timeout(left).ok()?;
            self.partial.push_str(&String::from_utf8_lossy(&bytes));
            while let Some(i) = self.partial.find('\n') {
                let line: String = self.partial.drain(..=i).collect();
                self.lines.push_back(line.trim_end().to_string());
            }
        }
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => panic!("no line starting with '{prefix}'; got {seen:?}"),
            }
        }
    }

    /// The lines written in answer to `line`, up to the `readyok` of an
    /// `isready` sent after it.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// `go …` and its lines up to `bestmove`; the best move.
    fn go(&mut self, line: &str) -> (Vec<String>, String) {
        self.send(line);
        let lines = self.until("bestmove");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        (lines.clone(), best.to_string())
    }

    /// The position's FEN as `d` prints it.
    fn fen(&mut self) -> String {
        let lines = self.ask("d");
        let line = lines
            .iter()
            .find(|l| l.starts_with("Fen: "))
            .unwrap_or_else(|| panic!("no Fen line: {lines:?}"));
        line["Fen: ".len()..].to_string()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // End of input ends the loop (a running search is stopped).
        self.input.take();
        if let Some(h) = self.engine.take() {
            let _ = h.join();
        }
    }
}

fn info_strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Item 6: `default` is a UCI keyword, so the option line names the
/// standard rules `standard`; `default` is still read.
#[test]
fn makhos_rules_are_offered_without_the_keyword_default() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until("uciok");
    let rules = lines
        .iter()
        .find(|l| l.starts_with("option name Makhos Rules "))
        .expect("the Makhos Rules option");
    assert_eq!(
        rules,
        "option name Makhos Rules type combo default standard var standard var no-reverse"
    );
    // No option line offers a value that is a keyword of the protocol.
    for line in lines.iter().filter(|l| l.starts_with("option ")) {
        let after_type = line.split(" type ").nth(1).unwrap();
        assert!(
            !after_type.contains(" var default") && !after_type.contains("default default"),
            "{line}"
        );
    }
    s.ask("setoption name UCI_Variant value makhos");
    for (value, rules) in [
        ("no-reverse", "no-reverse"),
        ("standard", "default"),
        ("no-reverse", "no-reverse"),
        ("default", "default"),
        ("Standard", "default"),
    ] {
        let said = s.ask(&format!("setoption name Makhos Rules value {value}"));
        assert!(info_strings(&said).is_empty(), "{value}: {said:?}");
        let board = s.ask("d");
        assert!(
            board.contains(&format!("Variant: makhos ({rules} rules)")),
            "{value}: {board:?}"
        );
    }
    let said = s.ask("setoption name Makhos Rules value reverse");
    assert!(
        said.iter()
            .any(|l| l.contains("Makhos Rules") && l.contains("standard, no-reverse")),
        "{said:?}"
    );
}

/// Item 7: GUIs ponder only engines that declare `Ponder`; pondering runs
/// until `ponderhit` (or `stop`) and then answers.
#[test]
fn ponder_is_declared_and_a_pondering_search_answers_on_ponderhit() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until("uciok");
    assert!(
        lines.contains(&"option name Ponder type check default false".to_string()),
        "{lines:?}"
    );
    assert!(info_strings(&s.ask("setoption name Ponder value true")).is_empty());
    s.send("position startpos moves e3e4 e6e5");
    s.send("go ponder wtime 10000 btime 10000");
    s.until("info depth 1 ");
    // No bestmove while pondering.
    s.send("isready");
    let still = s.until("readyok");
    assert!(
        !still.iter().any(|l| l.starts_with("bestmove")),
        "{still:?}"
    );
    s.send("ponderhit");
    let lines = s.until("bestmove");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let mut pos = makruk::Position::new(makruk::Variant::Makruk);
    for m in ["e3e4", "e6e5"] {
        pos = pos.played(pos.parse_uci(m).unwrap());
    }
    assert!(pos.parse_uci(best).is_ok(), "{best}");
}

/// Item 8: counting fields of other rules are read as Fairy-Stockfish reads
/// them, and played on as it plays them.
#[test]
fn ouk_chatrang_reads_the_counts_peers_write() {
    let mut s = Session::start();
    s.ask("setoption name UCI_Variant value cambodian");
    // The case of pyffish's test suite.
    let said = s.ask("position fen 8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1 moves e5f6");
    assert!(info_strings(&said).is_empty(), "{said:?}");
    assert_eq!(s.fen(), "8/2K3k1/5S2/6S1/8/8/8/8 b - 42 8 1");
    // As cutechess writes it: a Makruk limit, the count past its end. The
    // position is searched (drawn), as Fairy-Stockfish searches it.
    let said = s.ask("position fen 8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1");
    assert!(info_strings(&said).is_empty(), "{said:?}");
    assert_eq!(s.fen(), "8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1");
    let (lines, best) = s.go("go depth 4");
    let pos = makruk::Position::from_fen(
        makruk::Variant::Cambodian,
        "8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1",
    )
    .unwrap();
    assert!(pos.parse_uci(&best).is_ok(), "{best}: {lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(" score cp 0 ")),
        "a drawn count scores 0: {lines:?}"
    );
    // Makruk keeps a limit of no rule as written.
    s.ask("setoption name UCI_Variant value makruk");
    s.ask("position fen rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 1000 5 1 moves a3a4");
    assert_eq!(
        s.fen(),
        "rnsmksnr/8/pppppppp/8/P7/1PPPPPPP/8/RNSKMSNR b - 1000 6 1"
    );
}

/// Item 8: a position that cannot be played is refused, and the next `go`
/// answers `bestmove (none)` instead of searching the position before it.
#[test]
fn a_refused_position_is_never_searched_as_the_one_before() {
    let mut s = Session::start();
    s.ask("position startpos moves e3e4");
    for bad in [
        "position fen 8/8/8 w - - 0 1",
        "position startpos moves e3e4 e3e4",
        "position fen 4k3/8/8/8/8/8/8/4K2K w - - 0 1",
    ] {
        let said = s.ask(bad);
        assert!(
            said.iter().any(|l| l.starts_with("info string position: ")),
            "{bad}: {said:?}"
        );
        let (lines, best) = s.go("go depth 3");
        assert_eq!(best, "(none)", "{bad}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string go: no position to search")),
            "{lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        let (_, best) = s.go("go perft 1");
        assert_eq!(best, "(none)");
    }
    // A position set up again is searched.
    s.ask("position startpos");
    let (_, best) = s.go("go depth 2");
    let start = makruk::Position::new(makruk::Variant::Makruk);
    assert!(start.parse_uci(&best).is_ok(), "{best}");
    // So is the start after `ucinewgame`.
    s.ask("position fen nonsense");
    s.ask("ucinewgame");
    let (_, best) = s.go("go depth 1");
    assert!(start.parse_uci(&best).is_ok(), "{best}");
}

/// Item 9: `go searchmoves` searches only the moves named.
#[test]
fn searchmoves_limits_the_root_moves() {
    let mut s = Session::start();
    s.ask("position startpos");
    for only in [["a3a4", "a3a4"], ["h3h4", "b1d2"]] {
        let (lines, best) = s.go(&format!("go depth 4 searchmoves {} {}", only[0], only[1]));
        assert!(only.contains(&best.as_str()), "{only:?}: {best}");
        for info in lines.iter().filter(|l| l.starts_with("info depth")) {
            let first = info
                .split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            assert!(only.contains(&first), "{info}");
        }
    }
    // Words that are no legal move are said and left out.
    let (lines, best) = s.go("go depth 2 searchmoves e3e5 g3g4");
    assert_eq!(best, "g3g4");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string go searchmoves: 'e3e5' left out")),
        "{lines:?}"
    );
    // None legal: every move is searched, and that is said.
    let (lines, best) = s.go("go depth 2 searchmoves e3e5");
    assert_ne!(best, "(none)");
    assert!(
        lines.iter().any(|l| l.contains("searching every move")),
        "{lines:?}"
    );
    // Mak-hot moves are named in its own notation.
    s.ask("setoption name UCI_Variant value makhos");
    let (_, best) = s.go("go depth 3 searchmoves b2c3");
    assert_eq!(best, "b2c3");
}

/// Item 9: `info` lines carry `tbhits`, and `wdl` with `UCI_ShowWDL`.
#[test]
fn info_lines_carry_tbhits_and_wdl_when_asked() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until("uciok");
    assert!(lines.contains(&"option name UCI_ShowWDL type check default false".to_string()));
    s.ask("position startpos");
    let (lines, _) = s.go("go depth 3");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for info in &infos {
        assert!(info.contains(" tbhits 0 "), "{info}");
        assert!(!info.contains(" wdl "), "{info}");
    }
    assert!(info_strings(&s.ask("setoption name UCI_ShowWDL value true")).is_empty());
    let (lines, _) = s.go("go depth 3");
    for info in lines.iter().filter(|l| l.starts_with("info depth")) {
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect("wdl");
        assert_eq!(words[at - 3], "score", "{info}: wdl follows the score");
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
    }
    // A mate found is a certain win.
    s.ask("position fen 4k3/R7/8/8/8/8/8/1R1K4 w - - 0 1");
    let (lines, _) = s.go("go depth 4");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" score mate "), "{last}");
    assert!(last.contains(" wdl 1000 0 0 "), "{last}");
    s.ask("setoption name UCI_ShowWDL value false");
    let (lines, _) = s.go("go depth 2");
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
}

/// Item 4: a fixed `go movetime` is searched nearly whole (98 ms of 100
/// with the default `Move Overhead` of 10 ms, which once took 10 ms).
#[test]
fn movetime_is_searched_nearly_whole() {
    let mut s = Session::start();
    s.ask("position startpos");
    for _ in 0..2 {
        let started = Instant::now();
        let (lines, best) = s.go("go movetime 100");
        let took = started.elapsed();
        assert_ne!(best, "(none)");
        // A lower bound only: a loaded machine makes a search longer, never shorter.
        assert!(took >= Duration::from_millis(97), "{took:?}: {lines:?}");
    }
}

/// Item 4: the warm-up at the first `isready` leaves no trace in the
/// searches: the first search after it counts the nodes a search from a
/// cleared table counts, at fixed depth.
#[test]
fn the_first_search_after_isready_is_the_search_of_a_fresh_table() {
    let mut s = Session::start();
    s.ask("position startpos moves e3e4 e6e5");
    let (first, _) = s.go("go depth 7");
    s.ask("ucinewgame");
    s.ask("position startpos moves e3e4 e6e5");
    let (again, _) = s.go("go depth 7");
    assert_eq!(last_nodes(&first), last_nodes(&again));
    // A new table (which forgets the histories too) is warmed again, with
    // the same result.
    s.ask("setoption name Hash value 16");
    let (after_hash, _) = s.go("go depth 7");
    assert_eq!(last_nodes(&after_hash), last_nodes(&first));
}

/// The nodes of the last `info depth` line of `go depth N` from the start.
fn nodes_at_depth(s: &mut Session, depth: u32) -> u64 {
    s.ask("ucinewgame");
    s.ask("position startpos");
    let (lines, _) = s.go(&format!("go depth {depth}"));
    last_nodes(&lines)
}

/// The nodes of a search's last `info depth` line.
fn last_nodes(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

/// The search parameters `thaiboard tune spsa` tunes are options: each is
/// accepted by name with its default and changes nothing then; a changed
/// value changes the search; a value out of range is said and ignored.
#[test]
fn the_search_parameters_are_options_for_tuning() {
    let mut s = Session::start();
    let base = nodes_at_depth(&mut s, 7);
    for t in engine::SEARCH_TUNABLES {
        let said = s.ask(&format!("setoption name {} value {}", t.name, t.default));
        assert!(info_strings(&said).is_empty(), "{}: {said:?}", t.name);
    }
    assert_eq!(
        nodes_at_depth(&mut s, 7),
        base,
        "the defaults are the search's"
    );
    // Far less late-move reduction: the same depth costs more nodes.
    s.ask("setoption name LMRDivisor value 400");
    s.ask("setoption name LMRBase value -50");
    let less_reduced = nodes_at_depth(&mut s, 7);
    assert!(less_reduced > base, "{less_reduced} <= {base}");
    // Out of range, or not a number: said, and the value stays.
    for bad in ["119", "x", "99999999999"] {
        let said = s.ask(&format!("setoption name LMRDivisor value {bad}"));
        assert!(
            said.iter()
                .any(|l| l.contains("LMRDivisor") && l.contains("from 120 to 400")),
            "{bad}: {said:?}"
        );
    }
    assert_eq!(nodes_at_depth(&mut s, 7), less_reduced);
    // Tuning options are not offered to GUIs.
    let offered = s.ask("uci");
    assert!(
        !offered.iter().any(|l| l.contains("LMRDivisor")),
        "{offered:?}"
    );
}

/// The searches of one game hand on their histories (`HistoryCarry`, 100
/// by default): the second search of a game differs from the same search
/// with nothing carried, and each command that forgets them makes it the
/// same again.
#[test]
fn the_searches_of_a_game_hand_on_their_histories() {
    let second = |carry: u32, between: Option<&str>| -> u64 {
        let mut s = Session::start();
        s.ask(&format!("setoption name HistoryCarry value {carry}"));
        s.ask("position startpos");
        s.go("go depth 8");
        if let Some(command) = between {
            s.ask(command);
        }
        s.ask("position startpos moves c3c4 f6f5");
        last_nodes(&s.go("go depth 8").0)
    };
    assert_ne!(second(100, None), second(0, None), "nothing was handed on");
    for forget in [
        "ucinewgame",
        "setoption name Clear Hash",
        "setoption name Hash value 16",
        "setoption name UCI_Variant value makruk",
        "setoption name Use NNUE value true",
    ] {
        assert_eq!(
            second(100, Some(forget)),
            second(0, Some(forget)),
            "{forget}"
        );
    }
}
