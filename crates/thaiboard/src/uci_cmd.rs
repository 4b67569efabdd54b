//! `thaiboard uci`: the engine over the UCI protocol (Fairy-Stockfish style),
//! and `thaiboard bench`.
//!
//! Standard input is read on the main thread; searches run on a second
//! thread, so `stop`, `isready` and `quit` are answered during a search.

use crate::GameArgs;
use crate::bench_cmd::cmd_bench_words;
use crate::error::CliError;
use crate::output::say;
use engine::eval::nnue::{Layout, Network};
use engine::uci::{self, Board, Command, Go, echo};
use engine::{Game, Limits, SearchOptions, Tablebase, Tt, search_with_tables};
use games::GameKind;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

struct Uci {
    /// The game (`UCI_Variant`, and `Makhos Rules` for Mak-hot).
    kind: GameKind,
    /// The `Makhos Rules` option, kept while another game is chosen.
    makhos_rules: makhos::Rules,
    board: Board,
    tt: Arc<Mutex<Tt>>,
    multipv: usize,
    /// Search threads (`Threads`).
    threads: usize,
    overhead: u64,
    /// `Slow Mover`: percent of the planned time a clock-based search spends.
    slow_mover: u64,
    skill_level: u32,
    limit_strength: bool,
    elo: u32,
    /// Testing aid: answer `go` with a uniformly random legal move.
    random_mover: bool,
    stop: Arc<AtomicBool>,
    /// True from `go` until its `bestmove` is written.
    running: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Endgame tables consulted at the root (`TablebasePath`).
    tables: crate::tb_root::RootTables,
    /// Each game's network, indexed by [`Layout::index`]: the shipped one, or the
    /// one `EvalFile` loaded (kept for the life of the process).
    networks: [Option<&'static Network>; 2],
    /// `Use NNUE` (Makruk) and `Use NNUE Makhos`, indexed by [`Layout::index`]:
    /// the game's positions are scored by its network (when one is loaded)
    /// instead of the classical evaluation.
    use_nnue: [bool; 2],
}

/// The UCI option that switches `layout`'s network on and off.
fn use_nnue_option(layout: Layout) -> &'static str {
    match layout {
        Layout::Makruk => "Use NNUE",
        Layout::Makhos => "Use NNUE Makhos",
    }
}

const ELO_MIN: u32 = 500;
const ELO_MAX: u32 = 2850;

impl Uci {
    fn new() -> Uci {
        Uci {
            kind: GameKind::MAKRUK,
            makhos_rules: makhos::Rules::Default,
            board: Board::start(GameKind::MAKRUK),
            tt: Arc::new(Mutex::new(Tt::new(16))),
            multipv: 1,
            threads: 1,
            overhead: 10,
            slow_mover: engine::SLOW_MOVER_DEFAULT,
            skill_level: 20,
            limit_strength: false,
            elo: ELO_MAX,
            random_mover: false,
            stop: Arc::new(AtomicBool::new(false)),
            running: Arc::new(AtomicBool::new(false)),
            search: None,
            tables: crate::tb_root::RootTables::default(),
            networks: Layout::ALL.map(|l| engine::eval::nnue::embedded(l).ok()),
            use_nnue: Layout::ALL.map(engine::eval::nnue::on_by_default),
        }
    }

    fn searching(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = h.join();
        }
    }

    fn skill(&self) -> Option<u32> {
        if self.limit_strength {
            let elo = self.elo.clamp(ELO_MIN, ELO_MAX);
            Some((elo - ELO_MIN) * 20 / (ELO_MAX - ELO_MIN))
        } else if self.skill_level < 20 {
            Some(self.skill_level)
        } else {
            None
        }
    }

    fn handle(&mut self, line: &str) -> bool {
        let parsed = match uci::parse(line) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return true,
            Err(e) => {
                say(&format!("info string {e}"));
                return true;
            }
        };
        for note in &parsed.notes {
            say(&format!("info string {note}"));
        }
        match parsed.command {
            Command::Uci => self.cmd_uci(),
            Command::IsReady => say("readyok"),
            Command::UciNewGame => {
                self.finish_search();
                lock(&self.tt).clear();
                self.board = Board::start(self.kind);
            }
            Command::SetOption { name, value } => {
                if self.searching() {
                    self.finish_search();
                }
                self.cmd_setoption(&name, &value.unwrap_or_default());
            }
            Command::Position { setup, moves } => match Board::set_up(self.kind, &setup, &moves) {
                Ok(board) => self.board = board,
                Err(e) => say(&format!("info string position: {e} (position unchanged)")),
            },
            Command::Go(go) => self.cmd_go(&go),
            Command::Stop | Command::PonderHit => self.finish_search(),
            Command::Quit => {
                self.finish_search();
                return false;
            }
            Command::Display => self.cmd_d(),
            Command::Bench(words) => {
                self.finish_search();
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                cmd_bench_words(&words);
            }
            Command::Ignored(cmd) => say(&format!("info string '{cmd}' is accepted and ignored")),
        }
        true
    }

    fn cmd_uci(&self) {
        say(&format!("id name thaiboard {}", env!("CARGO_PKG_VERSION")));
        say("id author the thaiboard authors");
        say(
            "option name UCI_Variant type combo default makruk var makruk var cambodian var makhos",
        );
        say("option name Makhos Rules type combo default default var default var no-reverse");
        say("option name Hash type spin default 16 min 1 max 4096");
        say("option name Clear Hash type button");
        say("option name Threads type spin default 1 min 1 max 256");
        say("option name MultiPV type spin default 1 min 1 max 256");
        say("option name Move Overhead type spin default 10 min 0 max 5000");
        let (lo, hi) = engine::SLOW_MOVER_RANGE;
        say(&format!(
            "option name Slow Mover type spin default {} min {lo} max {hi}",
            engine::SLOW_MOVER_DEFAULT
        ));
        say("option name Skill Level type spin default 20 min 0 max 20");
        say("option name UCI_LimitStrength type check default false");
        say(&format!(
            "option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"
        ));
        say("option name Random Mover type check default false");
        say("option name TablebasePath type string default <empty>");
        for layout in Layout::ALL {
            say(&format!(
                "option name {} type check default {}",
                use_nnue_option(layout),
                engine::eval::nnue::on_by_default(layout)
            ));
        }
        say("option name EvalFile type string default <empty>");
        say("uciok");
    }

    fn cmd_setoption(&mut self, name: &str, value: &str) {
        let num = |lo: u64, hi: u64| -> Option<u64> {
            match value.parse::<u64>() {
                Ok(v) if (lo..=hi).contains(&v) => Some(v),
                _ => {
                    say(&format!(
                        "info string setoption {name}: '{}' is not a number from {lo} to {hi}",
                        echo(value)
                    ));
                    None
                }
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let kind = match GameKind::from_names(value, None) {
                    Ok(GameKind::Makhos(_)) => GameKind::Makhos(self.makhos_rules),
                    Ok(kind) => kind,
                    Err(_) => {
                        say(&format!(
                            "info string UCI_Variant '{}' unknown (makruk, cambodian, makhos)",
                            echo(value)
                        ));
                        return;
                    }
                };
                self.kind = kind;
                self.board = Board::start(kind);
            }
            "makhos rules" => match value.parse::<makhos::Rules>() {
                Ok(r) => {
                    self.makhos_rules = r;
                    if let GameKind::Makhos(_) = self.kind {
                        self.kind = GameKind::Makhos(r);
                    }
                    if let Board::Makhos(g, _) = &mut self.board {
                        g.rules = r;
                    }
                }
                Err(e) => say(&format!("info string Makhos Rules: {e}")),
            },
            "hash" => {
                if let Some(mb) = num(1, 4096) {
                    *lock(&self.tt) = Tt::new(mb as usize);
                }
            }
            "clear hash" => lock(&self.tt).clear(),
            "threads" => {
                if let Some(n) = num(1, 256) {
                    self.threads = n as usize;
                }
            }
            "multipv" => {
                if let Some(n) = num(1, 256) {
                    self.multipv = n as usize;
                }
            }
            "move overhead" => {
                if let Some(n) = num(0, 5000) {
                    self.overhead = n;
                }
            }
            "slow mover" => {
                let (lo, hi) = engine::SLOW_MOVER_RANGE;
                if let Some(n) = num(lo, hi) {
                    self.slow_mover = n;
                }
            }
            "skill level" => {
                if let Some(n) = num(0, 20) {
                    self.skill_level = n as u32;
                }
            }
            "uci_limitstrength" => match value.to_ascii_lowercase().as_str() {
                "true" => self.limit_strength = true,
                "false" => self.limit_strength = false,
                _ => say("info string UCI_LimitStrength: expected true or false"),
            },
            "uci_elo" => {
                if let Some(n) = num(ELO_MIN as u64, ELO_MAX as u64) {
                    self.elo = n as u32;
                }
            }
            "random mover" => match value.to_ascii_lowercase().as_str() {
                "true" => self.random_mover = true,
                "false" => self.random_mover = false,
                _ => say("info string Random Mover: expected true or false"),
            },
            "tablebasepath" => {
                let dir = (value != "<empty>").then(|| std::path::PathBuf::from(&value));
                self.tables.set_dir(dir);
            }
            // The table keeps static evaluations: a change of evaluation
            // clears it.
            "use nnue" | "use nnue makhos" | "evalfile" => {
                self.set_evaluation(name, value);
                lock(&self.tt).clear();
            }
            "ponder" | "uci_chess960" | "uci_analysemode" | "uci_showwdl" => {}
            _ => say(&format!(
                "info string unknown option '{}' ignored",
                echo(name)
            )),
        }
    }

    /// `Use NNUE`, `Use NNUE Makhos` (`name` lower-cased) or `EvalFile`: a
    /// file that cannot be used is refused with its reason and the network
    /// is kept.
    fn set_evaluation(&mut self, name: &str, value: &str) {
        let switch = Layout::ALL
            .into_iter()
            .find(|&l| use_nnue_option(l).eq_ignore_ascii_case(name));
        if let Some(layout) = switch {
            let option = use_nnue_option(layout);
            match value.to_ascii_lowercase().as_str() {
                "true" => {
                    self.use_nnue[layout.index()] = true;
                    if self.networks[layout.index()].is_none() {
                        say(&format!(
                            "info string {option}: no network loaded (the shipped one is damaged: set EvalFile); the classical evaluation plays until one is"
                        ));
                    }
                }
                "false" => self.use_nnue[layout.index()] = false,
                _ => say(&format!("info string {option}: expected true or false")),
            }
            return;
        }
        if value.is_empty() || value == "<empty>" {
            // Back to the shipped networks.
            for layout in Layout::ALL {
                match engine::eval::nnue::embedded(layout) {
                    Ok(net) => self.networks[layout.index()] = Some(net),
                    Err(e) => say(&format!(
                        "info string EvalFile: the shipped {} network: {e}",
                        layout.name()
                    )),
                }
            }
            return;
        }
        match Network::load(std::path::Path::new(value)) {
            Ok(net) => {
                say(&format!(
                    "info string EvalFile: {} network {} loaded ({})",
                    net.layout.name(),
                    echo(value),
                    echo(&net.description)
                ));
                // Searches hold the network by reference for their whole
                // run: it lives as long as the process. A file holds one
                // game's network; the other game's is kept.
                let net: &'static Network = Box::leak(Box::new(net));
                self.networks[net.layout.index()] = Some(net);
            }
            Err(e) => say(&format!(
                "info string EvalFile {}: {e} (network unchanged)",
                echo(value)
            )),
        }
    }

    fn cmd_go(&mut self, go: &Go) {
        if self.searching() {
            say("info string go: a search is already running (send stop first)");
            return;
        }
        let started = std::time::Instant::now();
        self.finish_search();
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let mut limits = go.limits(self.overhead, Some(started));
        limits.slow_mover = self.slow_mover;
        if self.random_mover && !limits.infinite {
            let best = match &self.board {
                Board::Makruk(g, _) => random_move(g),
                Board::Makhos(g, _) => random_move(g),
            };
            match best {
                Some(m) => say(&format!("bestmove {m}")),
                None => say("bestmove (none)"),
            }
            return;
        }
        if !limits.infinite {
            let chosen = match &self.board {
                Board::Makruk(g, _) => self.tables.makruk_move(&g.pos),
                Board::Makhos(g, _) => self.tables.makhos_move(&g.pos, g.rules, g.no_progress),
            };
            match chosen {
                Ok(Some(m)) => {
                    say(&format!("info string {}", m.info));
                    say(&format!("bestmove {}", m.uci));
                    return;
                }
                Ok(None) => {}
                Err(e) => say(&format!("info string TablebasePath: {e}")),
            }
        }
        // The tables inside the search (an unreadable directory was reported above, or
        // is reported here when the root move was not asked for).
        let (mut makruk_tables, mut makhos_tables) = (None, None);
        let probe = match &self.board {
            Board::Makruk(g, _) => self
                .tables
                .makruk_probe(g.pos.variant())
                .map(|t| makruk_tables = t),
            Board::Makhos(g, _) => self.tables.makhos_probe(g.rules).map(|t| makhos_tables = t),
        };
        if let Err(e) = probe {
            say(&format!("info string TablebasePath: {e}"));
        }
        self.stop.store(false, Ordering::SeqCst);
        self.running.store(true, Ordering::SeqCst);
        let running = Arc::clone(&self.running);
        let board = self.board.clone();
        let [network, makhos_network] =
            Layout::ALL.map(|l| self.networks[l.index()].filter(|_| self.use_nnue[l.index()]));
        let tt = Arc::clone(&self.tt);
        let stop = Arc::clone(&self.stop);
        let opts = SearchOptions {
            multipv: self.multipv,
            skill: self.skill(),
            seed: seed(),
            threads: self.threads,
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let infinite = limits.infinite;
                let (best, ponder, score) = {
                    let mut tt = lock(&tt);
                    match (&board, network) {
                        (Board::Makruk(g, hist), Some(net)) => {
                            let tables = makruk_tables.as_deref().map(|t| t as _);
                            run(
                                &g.with_network(net),
                                hist,
                                &mut tt,
                                &limits,
                                &opts,
                                tables,
                                &stop,
                            )
                        }
                        (Board::Makruk(g, hist), None) => {
                            let tables = makruk_tables.as_deref().map(|t| t as _);
                            run(g, hist, &mut tt, &limits, &opts, tables, &stop)
                        }
                        (Board::Makhos(g, hist), _) => {
                            let tables = makhos_tables.as_deref().map(|t| t as _);
                            let g = match makhos_network {
                                Some(net) => g.with_network(net),
                                None => g.clone(),
                            };
                            run(&g, hist, &mut tt, &limits, &opts, tables, &stop)
                        }
                    }
                };
                if best.is_none() {
                    say(&format!("info depth 0 score {score}"));
                }
                // UCI: no bestmove before `stop` in infinite (and ponder) mode.
                while infinite && !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                // Not running any more once the GUI can read `bestmove`.
                running.store(false, Ordering::SeqCst);
                match (best, ponder) {
                    (Some(b), Some(p)) => say(&format!("bestmove {b} ponder {p}")),
                    (Some(b), None) => say(&format!("bestmove {b}")),
                    _ => say("bestmove (none)"),
                }
            });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.running.store(false, Ordering::SeqCst);
                say(&format!("info string cannot start the search thread: {e}"));
                say("bestmove (none)");
            }
        }
    }

    fn perft(&self, depth: u32) {
        let args = GameArgs {
            variant: self.kind.variant_name().to_string(),
            rules: None,
            fen: Some(self.board.fen()),
        };
        let result = match self.kind {
            GameKind::Makhos(rules) => crate::makhos_cmd::perft(&args, rules, depth, false),
            GameKind::Makruk(v) => crate::makruk_cmd::perft(&args, v, depth, false),
        };
        if let Err(e) = result {
            say(&format!("info string perft: {}", e.message));
        }
    }

    fn cmd_d(&self) {
        let mut text = String::new();
        match &self.board {
            Board::Makruk(g, _) => {
                text.push_str("\n +---+---+---+---+---+---+---+---+\n");
                for rank in (0..8u8).rev() {
                    for file in 0..8u8 {
                        let sq = makruk::Square::from_coords(file, rank).expect("square");
                        let c = g.pos.piece_at(sq).map_or(' ', |p| p.char());
                        text.push_str(&format!(" | {c}"));
                    }
                    text.push_str(&format!(
                        " | {}\n +---+---+---+---+---+---+---+---+\n",
                        rank + 1
                    ));
                }
                text.push_str("   a   b   c   d   e   f   g   h\n\n");
                text.push_str(&format!("Variant: {}\n", self.kind.variant_name()));
                text.push_str(&format!("Fen: {}\n", g.pos.fen()));
                text.push_str(&format!("Key: {:016X}\n", g.key()));
                let checkers: Vec<String> = g.pos.checkers().map(|s| s.to_string()).collect();
                text.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
            }
            Board::Makhos(g, _) => {
                text.push_str("\n +---+---+---+---+---+---+---+---+\n");
                for rank in (0..8u8).rev() {
                    for file in 0..8u8 {
                        let c = match makhos::Square::from_coords(file, rank) {
                            None => ' ',
                            Some(sq) => match g.pos.piece_at(sq) {
                                None => '.',
                                Some(p) => {
                                    let c = if p.color == makhos::Color::White {
                                        'w'
                                    } else {
                                        'b'
                                    };
                                    if p.role == makhos::Role::King {
                                        c.to_ascii_uppercase()
                                    } else {
                                        c
                                    }
                                }
                            },
                        };
                        text.push_str(&format!(" | {c}"));
                    }
                    text.push_str(&format!(
                        " | {}\n +---+---+---+---+---+---+---+---+\n",
                        rank + 1
                    ));
                }
                text.push_str("   a   b   c   d   e   f   g   h\n\n");
                text.push_str(&format!("Variant: makhos ({} rules)\n", g.rules.name()));
                text.push_str(&format!("Fen: {}\n", g.pos));
                text.push_str(&format!("Key: {:016X}\n", g.key()));
                text.push_str(&format!("No-progress plies: {}\n", g.no_progress));
            }
        }
        print!("{text}");
    }
}

fn run<G: Game>(
    g: &G,
    hist: &[u64],
    tt: &mut Tt,
    limits: &Limits,
    opts: &SearchOptions,
    tables: Option<&dyn Tablebase<G>>,
    stop: &AtomicBool,
) -> (Option<String>, Option<String>, String) {
    let r = search_with_tables(g, hist, tt, limits, opts, tables, stop, |info| {
        say(&info.to_uci())
    });
    let score = if r.score <= -engine::MATE + 1 {
        "mate 0".to_string()
    } else {
        "cp 0".to_string()
    };
    (r.best.map(G::move_text), r.ponder.map(G::move_text), score)
}

/// A uniformly random legal move (the `Random Mover` testing aid), or
/// `None` when there is none.
fn random_move<G: Game>(g: &G) -> Option<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    // splitmix64 of the clock: plenty for a testing aid.
    let mut z = seed().wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    Some(G::move_text(moves[(z % moves.len() as u64) as usize]))
}

fn lock(tt: &Mutex<Tt>) -> std::sync::MutexGuard<'_, Tt> {
    tt.lock().unwrap_or_else(|e| e.into_inner())
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1
}

/// `thaiboard uci`: speaks UCI on standard input and output until `quit` or
/// the end of input.
pub fn uci() -> Result<(), CliError> {
    let mut uci = Uci::new();
    let stdin = std::io::stdin();
    let mut buf = Vec::new();
    let mut input = stdin.lock();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !uci.handle(&line) {
                    return Ok(());
                }
            }
            Err(e) => {
                say(&format!("info string cannot read input: {e}"));
                break;
            }
        }
    }
    // End of input: stop a running search (its bestmove is still written).
    if let Some(h) = uci.search.take() {
        uci.stop.store(true, Ordering::SeqCst);
        let _ = h.join();
    }
    Ok(())
}
