//! The UCI state machine: the game, its position, the options and the search
//! running on a thread of its own, so that `stop`, `isready` and `quit` are
//! answered during a search.

use super::command::{Command, Go, echo, parse};
use super::options::{Settings, makhos_rules, number, option_lines, use_nnue_option};
use super::tables::UciTables;
use super::{Board, Output, perft};
use crate::eval::nnue::{self, Layout, Network};
use crate::{
    Game, Limits, MakhosGame, MakrukGame, SearchMemory, SearchOptions, Tablebase, Tt,
    search_with_memory,
};
use games::GameKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// One UCI conversation: what the GUI has set up, and the search under way.
pub(crate) struct Session<T: UciTables> {
    out: Output,
    /// The game (`UCI_Variant`, and `Makhos Rules` for Mak-hot).
    kind: GameKind,
    /// The `Makhos Rules` option, kept while another game is chosen.
    makhos_rules: makhos::Rules,
    board: Board,
    tt: Arc<Mutex<Tt>>,
    /// The histories the game's searches hand on (cleared with the table,
    /// and when the game or the evaluation changes).
    memory: Arc<Mutex<SearchMemory>>,
    settings: Settings,
    stop: Arc<AtomicBool>,
    /// True from `go` until its `bestmove` is written.
    running: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Endgame tables (`TablebasePath`): the root move and the search's probes.
    tables: T,
    /// Each game's network, indexed by [`Layout::index`]: the shipped one, or the
    /// one `EvalFile` loaded (kept for the life of the process).
    networks: [Option<&'static Network>; 2],
    /// `Use NNUE` (Makruk) and `Use NNUE Makhos`, indexed by [`Layout::index`]:
    /// the game's positions are scored by its network (when one is loaded)
    /// instead of the classical evaluation.
    use_nnue: [bool; 2],
    /// Why the last `position` command was refused, until a position is set
    /// up again: `go` then searches nothing (never the position before).
    refused: Option<String>,
    /// Whether the search and the table are warm (see [`Session::warm_up`]).
    warmed: bool,
}

/// The stack of a search thread.
const SEARCH_STACK: usize = 64 << 20;

impl<T: UciTables> Session<T> {
    /// A session in the Makruk start position, writing to `out`.
    pub(crate) fn new(out: Output, tables: T) -> Session<T> {
        Session {
            out,
            kind: GameKind::MAKRUK,
            makhos_rules: makhos::Rules::Default,
            board: Board::start(GameKind::MAKRUK),
            tt: Arc::new(Mutex::new(Tt::new(16))),
            memory: Arc::new(Mutex::new(SearchMemory::new())),
            settings: Settings::default(),
            stop: Arc::new(AtomicBool::new(false)),
            running: Arc::new(AtomicBool::new(false)),
            search: None,
            tables,
            networks: Layout::ALL.map(|l| nnue::embedded(l).ok()),
            use_nnue: Layout::ALL.map(nnue::on_by_default),
            refused: None,
            warmed: false,
        }
    }

    fn say(&self, line: &str) {
        self.out.say(line);
    }

    fn searching(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Stops a running search and waits for its `bestmove`.
    pub(crate) fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = h.join();
        }
    }

    /// Carries out one input line; `false` after `quit`.
    pub(crate) fn handle(&mut self, line: &str) -> bool {
        let parsed = match parse(line) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return true,
            Err(e) => {
                self.say(&format!("info string {e}"));
                return true;
            }
        };
        for note in &parsed.notes {
            self.say(&format!("info string {note}"));
        }
        match parsed.command {
            Command::Uci => self.cmd_uci(),
            Command::IsReady => {
                if !self.warmed && !self.searching() {
                    self.warm_up();
                }
                self.say("readyok")
            }
            Command::UciNewGame => {
                self.finish_search();
                self.forget();
                self.board = Board::start(self.kind);
                self.refused = None;
            }
            Command::SetOption { name, value } => {
                if self.searching() {
                    self.finish_search();
                }
                self.cmd_setoption(&name, &value.unwrap_or_default());
            }
            Command::Position { setup, moves } => match Board::set_up(self.kind, &setup, &moves) {
                Ok(board) => {
                    self.board = board;
                    self.refused = None;
                }
                Err(e) => {
                    self.say(&format!(
                        "info string position: {e} (refused: go answers bestmove (none) until a position is set up)"
                    ));
                    self.refused = Some(e);
                }
            },
            Command::Go(go) => self.cmd_go(&go),
            Command::Stop | Command::PonderHit => self.finish_search(),
            Command::Quit => {
                self.finish_search();
                return false;
            }
            Command::Display => {
                if let Some(e) = &self.refused {
                    self.say(&format!(
                        "info string the last position command was refused ({e}); the board before it:"
                    ));
                }
                self.out.write(&self.board.diagram(self.kind));
            }
            Command::Bench(words) => {
                self.finish_search();
                self.cmd_bench(&words);
            }
            Command::Ignored(cmd) => {
                self.say(&format!("info string '{cmd}' is accepted and ignored"))
            }
        }
        true
    }

    /// Forgets what earlier searches left: the table and the histories.
    fn forget(&mut self) {
        lock(&self.tt).clear();
        lock(&self.memory).clear();
    }

    fn cmd_uci(&self) {
        self.say(&format!("id name thaiboard {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the thaiboard authors");
        for line in option_lines() {
            self.say(&line);
        }
        self.say("uciok");
    }

    /// `bench [DEPTH]`: [`crate::bench::report`] at `DEPTH` or the default depths.
    fn cmd_bench(&self, words: &[String]) {
        let depth = words.first().and_then(|w| w.parse::<u32>().ok());
        if !words.is_empty() && depth.is_none() {
            self.say("info string bench: expected 'bench [depth]'");
            return;
        }
        crate::bench::report(depth, &mut |line| self.say(line));
    }

    fn cmd_setoption(&mut self, name: &str, value: &str) {
        let lower = name.to_ascii_lowercase();
        if self.settings.set(&self.out, name, &lower, value) {
            return;
        }
        match lower.as_str() {
            "uci_variant" => {
                let kind = match GameKind::from_names(value, None) {
                    Ok(GameKind::Makhos(_)) => GameKind::Makhos(self.makhos_rules),
                    Ok(kind) => kind,
                    Err(_) => {
                        self.say(&format!(
                            "info string UCI_Variant '{}' unknown (makruk, cambodian, makhos)",
                            echo(value)
                        ));
                        return;
                    }
                };
                self.kind = kind;
                self.board = Board::start(kind);
                self.refused = None;
                lock(&self.memory).clear();
            }
            "makhos rules" => match makhos_rules(value) {
                Ok(r) => {
                    self.makhos_rules = r;
                    if let GameKind::Makhos(_) = self.kind {
                        self.kind = GameKind::Makhos(r);
                    }
                    if let Board::Makhos(g, _) = &mut self.board {
                        g.rules = r;
                    }
                    lock(&self.memory).clear();
                }
                Err(e) => self.say(&format!("info string Makhos Rules: {e}")),
            },
            "hash" => {
                if let Some(mb) = number(&self.out, name, value, 1, 4096) {
                    // A new table: the game's searches start afresh.
                    *lock(&self.tt) = Tt::new(mb as usize);
                    lock(&self.memory).clear();
                    self.warmed = false;
                }
            }
            "clear hash" => self.forget(),
            "tablebasepath" => {
                let dir = (value != "<empty>").then(|| std::path::PathBuf::from(&value));
                self.tables.set_dir(dir);
            }
            // The table keeps static evaluations and the memory their
            // corrections: a change of evaluation clears both.
            "use nnue" | "use nnue makhos" | "evalfile" => {
                self.set_evaluation(name, value);
                self.forget();
            }
            "ponder" | "uci_chess960" | "uci_analysemode" => {}
            _ => self.say(&format!(
                "info string unknown option '{}' ignored",
                echo(name)
            )),
        }
    }

    /// `Use NNUE`, `Use NNUE Makhos` or `EvalFile`: a file that cannot be
    /// used is refused with its reason and the network is kept.
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
                        self.say(&format!(
                            "info string {option}: no network loaded (the shipped one is damaged: set EvalFile); the classical evaluation plays until one is"
                        ));
                    }
                }
                "false" => self.use_nnue[layout.index()] = false,
                _ => self.say(&format!("info string {option}: expected true or false")),
            }
            return;
        }
        if value.is_empty() || value == "<empty>" {
            // Back to the shipped networks.
            for layout in Layout::ALL {
                match nnue::embedded(layout) {
                    Ok(net) => self.networks[layout.index()] = Some(net),
                    Err(e) => self.say(&format!(
                        "info string EvalFile: the shipped {} network: {e}",
                        layout.name()
                    )),
                }
            }
            return;
        }
        match Network::load(std::path::Path::new(value)) {
            Ok(net) => {
                self.say(&format!(
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
            Err(e) => self.say(&format!(
                "info string EvalFile {}: {e} (network unchanged)",
                echo(value)
            )),
        }
    }

    fn cmd_go(&mut self, go: &Go) {
        if self.searching() {
            self.say("info string go: a search is already running (send stop first)");
            return;
        }
        let started = std::time::Instant::now();
        self.finish_search();
        if let Some(e) = &self.refused {
            // As a GUI must not get a move for a position it did not set up.
            self.say(&format!(
                "info string go: no position to search: the last position command was refused ({e})"
            ));
            self.say("bestmove (none)");
            return;
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let mut limits = go.limits(self.settings.overhead, Some(started));
        limits.slow_mover = self.settings.slow_mover;
        if self.settings.random_mover && !limits.infinite {
            let best = match &self.board {
                Board::Makruk(g, _) => random_move(g),
                Board::Makhos(g, _) => random_move(g),
            };
            match best {
                Some(m) => self.say(&format!("bestmove {m}")),
                None => self.say("bestmove (none)"),
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
                    self.say(&format!("info string {}", m.info));
                    self.say(&format!("bestmove {}", m.uci));
                    return;
                }
                Ok(None) => {}
                Err(e) => self.say(&format!("info string TablebasePath: {e}")),
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
            self.say(&format!("info string TablebasePath: {e}"));
        }
        self.stop.store(false, Ordering::SeqCst);
        self.running.store(true, Ordering::SeqCst);
        let running = Arc::clone(&self.running);
        let board = self.board.clone();
        let [network, makhos_network] =
            Layout::ALL.map(|l| self.networks[l.index()].filter(|_| self.use_nnue[l.index()]));
        let tt = Arc::clone(&self.tt);
        let memory = Arc::clone(&self.memory);
        let stop = Arc::clone(&self.stop);
        let out = self.out.clone();
        let opts = SearchOptions {
            multipv: self.settings.multipv,
            skill: self.settings.skill(),
            seed: seed(),
            threads: self.settings.threads,
            searchmoves: self.searchmoves(&go.searchmoves),
            params: self.settings.params,
        };
        let show_wdl = self.settings.show_wdl;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let infinite = limits.infinite;
                let (best, ponder, score) = {
                    let mut tt = lock(&tt);
                    let mut memory = lock(&memory);
                    let run = Run {
                        limits: &limits,
                        opts: &opts,
                        stop: &stop,
                        out: &out,
                        show_wdl,
                    };
                    match (&board, network) {
                        (Board::Makruk(g, hist), Some(net)) => {
                            let tables = makruk_tables.as_deref().map(|t| t as _);
                            run.search(&g.with_network(net), hist, &mut tt, &mut memory, tables)
                        }
                        (Board::Makruk(g, hist), None) => {
                            let tables = makruk_tables.as_deref().map(|t| t as _);
                            run.search(g, hist, &mut tt, &mut memory, tables)
                        }
                        (Board::Makhos(g, hist), _) => {
                            let tables = makhos_tables.as_deref().map(|t| t as _);
                            let g = match makhos_network {
                                Some(net) => g.with_network(net),
                                None => g.clone(),
                            };
                            run.search(&g, hist, &mut tt, &mut memory, tables)
                        }
                    }
                };
                if best.is_none() {
                    out.say(&format!("info depth 0 score {score}"));
                }
                // UCI: no bestmove before `stop` in infinite (and ponder) mode.
                while infinite && !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                // Not running any more once the GUI can read `bestmove`.
                running.store(false, Ordering::SeqCst);
                match (best, ponder) {
                    (Some(b), Some(p)) => out.say(&format!("bestmove {b} ponder {p}")),
                    (Some(b), None) => out.say(&format!("bestmove {b}")),
                    _ => out.say("bestmove (none)"),
                }
            });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.running.store(false, Ordering::SeqCst);
                self.say(&format!("info string cannot start the search thread: {e}"));
                self.say("bestmove (none)");
            }
        }
    }

    /// Searches the position to depth 2 on a search thread, silently and
    /// with a table of its own, once per process, when the GUI first asks
    /// `isready`: what the first search of a process pays once (the
    /// allocator's first pages for a search thread's tables, the first run
    /// of the search's code, the first touch of the table's pages) is paid
    /// before the clock runs. Measured at `go depth 1`: 2 to 4 ms for the
    /// first search of a process against 0.3 ms for the next ones (issue
    /// 40, item 4). A new `Hash` table is warmed again at the next `isready`.
    fn warm_up(&mut self) {
        self.warmed = true;
        // The table is empty (no search since it was made): writing it
        // whole faults its pages in now instead of during the first search.
        lock(&self.tt).clear();
        let board = self.board.clone();
        let [network, makhos_network] =
            Layout::ALL.map(|l| self.networks[l.index()].filter(|_| self.use_nnue[l.index()]));
        let warm = move || {
            let mut tt = Tt::new(1);
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            let opts = SearchOptions::default();
            let stop = AtomicBool::new(false);
            match (&board, network) {
                (Board::Makruk(g, hist), Some(net)) => {
                    crate::search(
                        &g.with_network(net),
                        hist,
                        &mut tt,
                        &limits,
                        &opts,
                        &stop,
                        |_| {},
                    );
                }
                (Board::Makruk(g, hist), None) => {
                    crate::search(g, hist, &mut tt, &limits, &opts, &stop, |_| {});
                }
                (Board::Makhos(g, hist), _) => {
                    let g = match makhos_network {
                        Some(net) => g.with_network(net),
                        None => g.clone(),
                    };
                    crate::search(&g, hist, &mut tt, &limits, &opts, &stop, |_| {});
                }
            }
        };
        // Without the thread the first search is merely slower.
        if let Ok(h) = std::thread::Builder::new()
            .name("warm-up".into())
            .stack_size(SEARCH_STACK)
            .spawn(warm)
        {
            let _ = h.join();
        }
    }

    /// The legal moves of `go searchmoves` in the engine's move form; each
    /// word that is not a legal move is said and left out (with none left,
    /// every move is searched, and that is said too).
    fn searchmoves(&self, words: &[String]) -> Vec<String> {
        let mut moves = Vec::new();
        for w in words {
            let parsed = match &self.board {
                Board::Makruk(g, _) => g
                    .pos
                    .parse_uci(w)
                    .map(<MakrukGame as Game>::move_text)
                    .map_err(|e| e.to_string()),
                Board::Makhos(g, _) => g
                    .pos
                    .parse_move(g.rules, w)
                    .map(<MakhosGame as Game>::move_text)
                    .map_err(|e| e.to_string()),
            };
            match parsed {
                Ok(m) => moves.push(m),
                Err(e) => self.say(&format!(
                    "info string go searchmoves: '{}' left out: {e}",
                    echo(w)
                )),
            }
        }
        if !words.is_empty() && moves.is_empty() {
            self.say("info string go searchmoves: no legal move named; searching every move");
        }
        moves
    }

    /// `go perft DEPTH`: the perft report of the position.
    fn perft(&self, depth: u32) {
        let fen = self.board.fen();
        let result = match self.kind {
            GameKind::Makhos(rules) => fen
                .parse::<makhos::Position>()
                .map(|pos| perft::makhos_divide(&pos, rules, depth))
                .map_err(|e| format!("--fen '{fen}': {e}")),
            GameKind::Makruk(v) => makruk::Position::from_fen(v, &fen)
                .map(|pos| perft::makruk_divide(&pos, depth))
                .map_err(|e| format!("invalid FEN '{fen}': {e}")),
        };
        match result {
            Ok((rows, total)) => self.out.write(&perft::report(&rows, total)),
            Err(e) => self.say(&format!("info string perft: {e}")),
        }
    }
}

/// What every search of a `go` shares.
struct Run<'a> {
    limits: &'a Limits,
    opts: &'a SearchOptions,
    stop: &'a AtomicBool,
    out: &'a Output,
    /// `UCI_ShowWDL`.
    show_wdl: bool,
}

impl Run<'_> {
    /// Searches `g` (after the positions `hist`) with `tables`, saying its
    /// `info` lines; the best move, the move to ponder and the score to say
    /// when there is no move.
    fn search<G: Game>(
        &self,
        g: &G,
        hist: &[u64],
        tt: &mut Tt,
        memory: &mut SearchMemory,
        tables: Option<&dyn Tablebase<G>>,
    ) -> (Option<String>, Option<String>, String) {
        let r = search_with_memory(
            g,
            hist,
            tt,
            memory,
            self.limits,
            self.opts,
            tables,
            self.stop,
            |info| self.out.say(&info.to_uci_with_wdl(self.show_wdl)),
        );
        let score = if r.score <= -crate::MATE + 1 {
            "mate 0".to_string()
        } else {
            "cp 0".to_string()
        };
        (r.best.map(G::move_text), r.ponder.map(G::move_text), score)
    }
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

/// The lock of a table shared with the search thread (a panicked search
/// leaves it usable).
fn lock<V>(shared: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1
}
