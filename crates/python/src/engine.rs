//! `thaiboard.engine`: the engine's search, run with the GIL released and
//! stoppable from another thread.

use engine::{
    Limits, MakhosGame, MakrukGame, Score, SearchInfo, SearchOptions, Tt, search,
    with_makruk_played_by_default,
};
use games::GameKind;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The root of a search: a position of either game and the keys of the
/// positions before it.
#[derive(Clone)]
enum Root {
    Makruk {
        pos: makruk::Position,
        history: Vec<u64>,
    },
    Makhos {
        pos: makhos::Position,
        rules: makhos::Rules,
        no_progress: u32,
        history: Vec<u64>,
    },
}

fn root_of(kind: GameKind, fen: Option<&str>, moves: &[String]) -> PyResult<Root> {
    let bad_move = |i: usize, text: &str, at: String, e: String| {
        PyValueError::new_err(format!("move {} '{text}' in {at}: {e}", i + 1))
    };
    match kind {
        GameKind::Makruk(variant) => {
            let start = match fen {
                None | Some("startpos") => makruk::Position::new(variant),
                Some(text) => makruk::Position::from_fen(variant, text)
                    .map_err(|e| PyValueError::new_err(format!("invalid FEN '{text}': {e}")))?,
            };
            let mut pos = start.clone();
            let mut played = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                let m = pos
                    .parse_uci(text)
                    .map_err(|e| e.to_string())
                    .or_else(|_| pos.parse_move(text).map_err(|e| e.to_string()))
                    .map_err(|e| bad_move(i, text, pos.fen(), e))?;
                pos.play(m)
                    .map_err(|e| bad_move(i, text, pos.fen(), e.to_string()))?;
                played.push(m);
            }
            let history = MakrukGame::history_keys(&start, &played);
            Ok(Root::Makruk { pos, history })
        }
        GameKind::Makhos(rules) => {
            let start = match fen {
                None | Some("startpos") => makhos::Position::start(),
                Some(text) => text.parse::<makhos::Position>().map_err(|e| {
                    PyValueError::new_err(format!("invalid Mak-hot position '{text}': {e}"))
                })?,
            };
            let mut game = makhos::Game::from_position(start, rules);
            for (i, text) in moves.iter().enumerate() {
                let at = game.position().to_string();
                game.play_text(text)
                    .map_err(|e| bad_move(i, text, at, e.to_string()))?;
            }
            let mut history = game.hashes().to_vec();
            if history.last() == Some(&game.hash()) {
                history.pop();
            }
            Ok(Root::Makhos {
                pos: *game.position(),
                rules,
                no_progress: game.no_progress_plies(),
                history,
            })
        }
    }
}

/// One line of the result: its score and moves.
struct Line {
    multipv: u32,
    depth: u32,
    score: Score,
    pv: Vec<String>,
}

/// What a finished search found.
struct Found {
    best: Option<String>,
    score: i32,
    depth: u32,
    nodes: u64,
    lines: Vec<Line>,
}

fn run<G: engine::Game>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    opts: &SearchOptions,
    hash_mb: usize,
    stop: &AtomicBool,
) -> Found {
    let mut tt = Tt::new(hash_mb);
    let mut lines: Vec<Line> = Vec::new();
    let result = search(
        root,
        history,
        &mut tt,
        limits,
        opts,
        stop,
        |info: &SearchInfo| {
            let line = Line {
                multipv: info.multipv,
                depth: info.depth,
                score: info.score,
                pv: info.pv.clone(),
            };
            match lines.iter_mut().find(|l| l.multipv == info.multipv) {
                Some(l) => *l = line,
                None => lines.push(line),
            }
        },
    );
    lines.sort_by_key(|l| l.multipv);
    Found {
        best: result.best.map(G::move_text),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        lines,
    }
}

fn score_dict<'py>(py: Python<'py>, score: Score) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match score {
        Score::Cp(cp) => d.set_item("cp", cp)?,
        Score::Mate(n) => d.set_item("mate", n)?,
    }
    Ok(d)
}

/// The moves of `pv` (engine form) from `root` in SAN and Thai (Makruk) or
/// algebraic squares (Mak-hot, no Thai form).
fn pv_texts(root: &Root, pv: &[String]) -> (Vec<String>, Option<Vec<String>>) {
    match root {
        Root::Makruk { pos, .. } => {
            let mut pos = pos.clone();
            let (mut san, mut thai) = (Vec::new(), Vec::new());
            for text in pv {
                let Ok(m) = pos.parse_uci(text) else { break };
                san.push(pos.san(m));
                thai.push(pos.thai_san(m));
                pos.play_unchecked(m);
            }
            (san, Some(thai))
        }
        Root::Makhos { pos, rules, .. } => {
            let mut pos = *pos;
            let mut out = Vec::new();
            for text in pv {
                let Ok(m) = pos.parse_move(*rules, text) else {
                    break;
                };
                out.push(m.to_algebraic());
                pos.play_unchecked(&m);
            }
            (out, None)
        }
    }
}

fn line_dict<'py>(
    py: Python<'py>,
    root: &Root,
    pv: &[String],
    score: Score,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (san, thai) = pv_texts(root, pv);
    d.set_item("score", score_dict(py, score)?)?;
    d.set_item("pv", PyList::new(py, pv)?)?;
    d.set_item("pv_san", PyList::new(py, &san)?)?;
    d.set_item("pv_thai", thai)?;
    Ok(d)
}

/// A search of one position, to be run once with `run()`; `stop()` ends it
/// early from any thread (the best move found so far is returned).
#[pyclass(module = "thaiboard.engine", name = "Search", frozen)]
pub struct PySearch {
    root: Root,
    limits: Limits,
    opts: SearchOptions,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
}

#[pymethods]
impl PySearch {
    /// Prepares a search of `fen` (the start when `None`) after `moves`
    /// (UCI or SAN; Mak-hot moves in any notation) in `variant` (`makruk`,
    /// `cambodian`, `makhos` with `rules`), limited by `depth` (plies),
    /// `nodes` and `movetime` (milliseconds); with none of them it runs
    /// until `stop()`. `multipv` best lines are reported.
    #[new]
    #[pyo3(signature = (variant, fen=None, moves=Vec::new(), depth=None, nodes=None, movetime=None, multipv=1, rules=None, hash_mb=16))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        fen: Option<&str>,
        moves: Vec<String>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        multipv: usize,
        rules: Option<&str>,
        hash_mb: usize,
    ) -> PyResult<PySearch> {
        let kind = GameKind::from_names(variant, rules)
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        if multipv == 0 {
            return Err(PyValueError::new_err("multipv must be at least 1"));
        }
        if !(1..=1024).contains(&hash_mb) {
            return Err(PyValueError::new_err("hash_mb must be between 1 and 1024"));
        }
        let root = root_of(kind, fen, &moves)?;
        let limits = Limits {
            depth,
            nodes,
            movetime,
            infinite: depth.is_none() && nodes.is_none() && movetime.is_none(),
            ..Limits::default()
        };
        let opts = SearchOptions {
            multipv,
            ..SearchOptions::default()
        };
        Ok(PySearch {
            root,
            limits,
            opts,
            hash_mb,
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Asks a running search to stop (also before it starts: it then
    /// returns at once). Safe from any thread.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether `stop()` was called.
    #[getter]
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs the search with the GIL released and returns a dict:
    /// `best` (UCI or Mak-hot engine form, `None` without a legal move),
    /// `best_san`, `best_thai` (Makruk), `score` (`{'cp': n}` or
    /// `{'mate': n}`, the side to move's view), `depth`, `nodes`, `pv`,
    /// `pv_san`, `pv_thai` (the best line) and `lines` (one dict per
    /// `multipv` line with `score`, `pv`, `pv_san`, `pv_thai`).
    fn run<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (root, limits, opts, hash_mb) = (&self.root, &self.limits, &self.opts, self.hash_mb);
        let stop = Arc::clone(&self.stop);
        let found = py.detach(move || match root {
            Root::Makruk { pos, history } => {
                with_makruk_played_by_default!(pos.clone(), |g| run(
                    g, history, limits, opts, hash_mb, &stop
                ))
            }
            Root::Makhos {
                pos,
                rules,
                no_progress,
                history,
            } => {
                let g = MakhosGame::played_by_default(*pos, *rules, *no_progress);
                run(&g, history, limits, opts, hash_mb, &stop)
            }
        });
        let root = &self.root;
        let d = PyDict::new(py);
        let best_pv: Vec<String> = match (found.lines.first(), &found.best) {
            (Some(l), Some(b)) if l.pv.first() == Some(b) => l.pv.clone(),
            (_, Some(b)) => vec![b.clone()],
            _ => Vec::new(),
        };
        let score = found
            .lines
            .first()
            .filter(|l| l.pv.first() == found.best.as_ref())
            .map_or(Score::from_internal(found.score), |l| l.score);
        let (san, thai) = pv_texts(root, &best_pv);
        d.set_item("best", &found.best)?;
        d.set_item("best_san", san.first())?;
        d.set_item("best_thai", thai.as_ref().and_then(|t| t.first()))?;
        d.set_item("score", score_dict(py, score)?)?;
        d.set_item("depth", found.depth)?;
        d.set_item("nodes", found.nodes)?;
        d.set_item("pv", PyList::new(py, &best_pv)?)?;
        d.set_item("pv_san", PyList::new(py, &san)?)?;
        d.set_item("pv_thai", thai)?;
        let lines = PyList::empty(py);
        for l in &found.lines {
            let ld = line_dict(py, root, &l.pv, l.score)?;
            ld.set_item("multipv", l.multipv)?;
            ld.set_item("depth", l.depth)?;
            lines.append(ld)?;
        }
        d.set_item("lines", lines)?;
        Ok(d)
    }
}

/// Searches `fen` after `moves` and returns what `Search.run()` returns.
/// Pass a `Search` object instead to be able to stop it from another thread.
#[pyfunction]
#[pyo3(signature = (variant, fen=None, moves=Vec::new(), depth=None, nodes=None, movetime=None, multipv=1, rules=None, hash_mb=16))]
#[allow(clippy::too_many_arguments)]
pub fn search_position<'py>(
    py: Python<'py>,
    variant: &str,
    fen: Option<&str>,
    moves: Vec<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    multipv: usize,
    rules: Option<&str>,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    PySearch::new(
        variant, fen, moves, depth, nodes, movetime, multipv, rules, hash_mb,
    )?
    .run(py)
}

/// Adds the module's functions and classes to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search_position, m)?)?;
    m.add_class::<PySearch>()?;
    Ok(())
}
