//! `thaiboard.records`: PGN (Makruk, Ouk Chatrang) and PDN (Mak-hot) game
//! records, read and written as the command line does.

use games::{AnyPosition, GameKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use records::{Game, GameResult, Letters, Node, ReadError, SquareStyle, WriteOptions};

pyo3::create_exception!(
    thaiboard.records,
    RecordError,
    PyValueError,
    "A broken record: `game` (its number in the text, from 1), `line` and `column` (from 1) where the problem starts, and the offending `text`."
);

fn record_error(py: Python<'_>, e: &ReadError) -> PyErr {
    let err = RecordError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("game", e.game);
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("column", e.column);
    let _ = value.setattr("text", e.text.clone());
    let _ = value.setattr("move_number", e.move_number.clone());
    err
}

fn letters_of(name: &str) -> PyResult<Letters> {
    match name {
        "fsf" | "fairy-stockfish" => Ok(Letters::Fsf),
        "schemingmind" | "playok" => Ok(Letters::SchemingMind),
        _ => Err(PyValueError::new_err(format!(
            "unknown letters '{name}': use 'fsf' (M, S) or 'schemingmind' (Q, B)"
        ))),
    }
}

fn squares_of(name: &str) -> PyResult<SquareStyle> {
    match name {
        "numeric" => Ok(SquareStyle::Numeric),
        "algebraic" => Ok(SquareStyle::Algebraic),
        _ => Err(PyValueError::new_err(format!(
            "unknown Mak-hot square style '{name}': use 'numeric' or 'algebraic'"
        ))),
    }
}

/// One game read from a record, or made to be written.
#[pyclass(module = "thaiboard.records", name = "Record")]
pub struct PyRecord {
    game: Game,
}

#[pymethods]
impl PyRecord {
    /// The tags in order, as `(name, value)` pairs.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.game
            .tags
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// One tag's value, or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.game.tags.get(name).map(str::to_string)
    }

    /// `makruk`, `cambodian` or `makhos`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.kind().variant_name()
    }

    /// Mak-hot's rule option (`default` or `no-reverse`); `None` for Makruk.
    #[getter]
    fn rules(&self) -> Option<&'static str> {
        match self.game.kind() {
            GameKind::Makhos(_) => Some(self.game.kind().rules_name()),
            GameKind::Makruk(_) => None,
        }
    }

    /// The start position (FEN, or Mak-hot position text).
    #[getter]
    fn fen(&self) -> String {
        self.game.start.fen()
    }

    /// The position after the main line.
    #[getter]
    fn end_fen(&self) -> String {
        self.game.end_position().fen()
    }

    /// The main line as written in SAN (Makruk, Fairy-Stockfish letters) or
    /// algebraic squares with every landing (Mak-hot).
    #[getter]
    fn moves(&self) -> Vec<String> {
        let mut pos = self.game.start.clone();
        let mut out = Vec::new();
        for m in self.game.mainline() {
            out.push(pos.display_move(&m));
            pos.play_unchecked(&m);
        }
        out
    }

    /// The main line in engine form (UCI for Makruk, `c3e5c7` for Mak-hot).
    #[getter]
    fn engine_moves(&self) -> Vec<String> {
        self.game.mainline().map(|m| m.to_engine()).collect()
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[getter]
    fn result(&self) -> &'static str {
        self.game.result.as_str()
    }

    /// The comments of the main line: `(ply, comment)` pairs, ply 0 for a
    /// comment before the first move, ply n for one after the n-th move.
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = self
            .game
            .moves
            .comments
            .iter()
            .map(|c| (0, c.clone()))
            .collect();
        for (i, node) in self.game.moves.nodes.iter().enumerate() {
            let node: &Node = node;
            out.extend(node.comments.iter().map(|c| (i + 1, c.clone())));
        }
        out
    }

    /// The record as PGN/PDN text: `letters` `fsf` (M, S, `c6=M`) or
    /// `schemingmind` (Q, B); Mak-hot `squares` `numeric` or `algebraic`.
    #[pyo3(signature = (letters="fsf", squares="numeric"))]
    fn to_text(&self, letters: &str, squares: &str) -> PyResult<String> {
        let opts = WriteOptions {
            letters: letters_of(letters)?,
            squares: squares_of(squares)?,
            ..WriteOptions::default()
        };
        Ok(records::game_to_string(&self.game, &opts))
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(variant='{}', plies={}, result='{}')",
            self.variant(),
            self.game.moves.nodes.len(),
            self.result()
        )
    }
}

/// Reads every game of a PGN/PDN text. Raises `RecordError` (with `game`,
/// `line`, `column` and `text`) at the first broken game.
#[pyfunction]
pub fn read(py: Python<'_>, text: &str) -> PyResult<Vec<PyRecord>> {
    records::read_all(text)
        .into_iter()
        .map(|r| match r {
            Ok(game) => Ok(PyRecord { game }),
            Err(e) => Err(record_error(py, &e)),
        })
        .collect()
}

/// Reads every game of a PGN/PDN text, going on after a broken game: a
/// list of `Record` and `RecordError` objects, in order.
#[pyfunction]
pub fn read_games(py: Python<'_>, text: &str) -> PyResult<Vec<Py<PyAny>>> {
    records::read_all(text)
        .into_iter()
        .map(|r| match r {
            Ok(game) => Ok(Py::new(py, PyRecord { game })?.into_any()),
            Err(e) => Ok(record_error(py, &e).into_value(py).into_any()),
        })
        .collect()
}

/// A record of `moves` (engine form, SAN, Thai or Mak-hot notation) played
/// from `fen` (the start when `None`) in `variant` (`makruk`, `cambodian`,
/// `makhos` with `rules`), with extra `tags` and a `result`.
#[pyfunction]
#[pyo3(signature = (variant, moves, fen=None, tags=None, result=None, rules=None))]
pub fn record(
    variant: &str,
    moves: Vec<String>,
    fen: Option<&str>,
    tags: Option<&Bound<'_, PyDict>>,
    result: Option<&str>,
    rules: Option<&str>,
) -> PyResult<PyRecord> {
    let kind =
        GameKind::from_names(variant, rules).map_err(|e| PyValueError::new_err(format!("{e}")))?;
    let start = match fen {
        None => AnyPosition::start(kind),
        Some(text) => AnyPosition::from_fen(kind, text)
            .map_err(|e| PyValueError::new_err(format!("invalid position '{text}': {e}")))?,
    };
    let mut game = Game::new(start.clone());
    let mut pos = start;
    for (i, text) in moves.iter().enumerate() {
        let mv = pos
            .parse_engine(text)
            .or_else(|_| pos.parse_text(text))
            .map_err(|e| {
                PyValueError::new_err(format!("move {} '{text}' in {}: {e}", i + 1, pos.fen()))
            })?;
        pos.play(&mv)
            .map_err(|e| PyValueError::new_err(format!("move {} '{text}': {e}", i + 1)))?;
        game.moves.nodes.push(Node::new(mv));
    }
    if let Some(tags) = tags {
        for (k, v) in tags.iter() {
            let (k, v): (String, String) = (k.extract()?, v.str()?.to_string());
            game.tags.set(&k, &v);
        }
    }
    if let Some(r) = result {
        let r = Some(r)
            .filter(|r| ["1-0", "0-1", "1/2-1/2", "*"].contains(r))
            .and_then(GameResult::from_text)
            .ok_or_else(|| {
                PyValueError::new_err(format!("unknown result '{r}': use 1-0, 0-1, 1/2-1/2 or *"))
            })?;
        game.set_result(r);
    }
    Ok(PyRecord { game })
}

/// The PGN/PDN text of `moves` played from `fen` (see `record`).
#[pyfunction]
#[pyo3(signature = (variant, moves, fen=None, tags=None, result=None, rules=None, letters="fsf", squares="numeric"))]
#[allow(clippy::too_many_arguments)]
pub fn write(
    variant: &str,
    moves: Vec<String>,
    fen: Option<&str>,
    tags: Option<&Bound<'_, PyDict>>,
    result: Option<&str>,
    rules: Option<&str>,
    letters: &str,
    squares: &str,
) -> PyResult<String> {
    record(variant, moves, fen, tags, result, rules)?.to_text(letters, squares)
}

/// Adds the module's functions and classes to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(record, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_class::<PyRecord>()?;
    m.add("RecordError", m.py().get_type::<RecordError>())?;
    Ok(())
}
