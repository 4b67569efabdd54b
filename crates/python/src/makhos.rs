//! `thaiboard.makhos`: Mak-hot (Thai checkers) in the style of pyffish:
//! functions over a position text and a list of moves, and a `Game` class.

use makhos::{Game, Position, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn rules_of(name: &str) -> PyResult<Rules> {
    name.parse::<Rules>().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown Mak-hot rules '{name}': use 'default' or 'no-reverse'"
        ))
    })
}

fn position_of(text: Option<&str>) -> PyResult<Position> {
    match text {
        None | Some("startpos") => Ok(Position::start()),
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| PyValueError::new_err(format!("invalid Mak-hot position '{text}': {e}"))),
    }
}

/// A legal Mak-hot move: where it starts and ends, every square it lands
/// on, and the squares of the pieces it captures.
#[pyclass(module = "thaiboard.makhos", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// The start square (`c3`).
    #[pyo3(get)]
    pub from_square: String,
    /// The end square.
    #[pyo3(get)]
    pub to_square: String,
    /// Every landing square after the start, the end included (a plain move:
    /// just the end).
    #[pyo3(get)]
    pub path: Vec<String>,
    /// The squares of the captured pieces in the order they are jumped
    /// (empty for a plain move).
    #[pyo3(get)]
    pub captured: Vec<String>,
    /// Algebraic notation with every landing (`c3-d4`, `c3xe5xc7`).
    #[pyo3(get)]
    pub algebraic: String,
    /// PDN numeric notation (`22-18`, `25x18x9`).
    #[pyo3(get)]
    pub numeric: String,
    /// The engine form: the squares run together (`c3e5c7`).
    #[pyo3(get)]
    pub engine: String,
}

impl Move {
    fn of(m: &makhos::Move) -> Move {
        Move {
            from_square: m.from().name(),
            to_square: m.to().name(),
            path: m.path().iter().map(|s| s.name()).collect(),
            captured: captured_in_order(m),
            algebraic: m.to_algebraic(),
            numeric: m.to_numeric(),
            engine: m.to_engine(),
        }
    }
}

/// The captured squares in the order they are jumped: the one between each
/// landing square and the next.
fn captured_in_order(m: &makhos::Move) -> Vec<String> {
    let captured: Vec<makhos::Square> = m.captured().into_iter().collect();
    let mut out = Vec::with_capacity(captured.len());
    let mut at = m.from();
    for next in m.path() {
        let between = |s: &makhos::Square| {
            let (f, r) = (s.file() as i32, s.rank() as i32);
            let (f0, r0, f1, r1) = (
                at.file() as i32,
                at.rank() as i32,
                next.file() as i32,
                next.rank() as i32,
            );
            (f - f0) * (r1 - r0) == (r - r0) * (f1 - f0)
                && (f - f0).signum() == (f1 - f0).signum()
                && (f - f0).abs() < (f1 - f0).abs()
                && f != f0
        };
        out.extend(captured.iter().filter(|s| between(s)).map(|s| s.name()));
        at = next;
    }
    if out.len() != captured.len() {
        // Not expected; keep every captured square all the same.
        return captured.iter().map(|s| s.name()).collect();
    }
    out
}

#[pymethods]
impl Move {
    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    fn __str__(&self) -> String {
        self.algebraic.clone()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.algebraic)
    }
}

/// Plays `moves` (any accepted notation) from `position` under `rules`.
fn replay(
    position: Option<&str>,
    moves: &[String],
    rules: &str,
    no_progress: u32,
) -> PyResult<Game> {
    let rules = rules_of(rules)?;
    let start = position_of(position)?;
    let mut game = Game::from_position_with_count(start, rules, no_progress);
    for (i, text) in moves.iter().enumerate() {
        game.play_past_end_text(text).map_err(|e| {
            PyValueError::new_err(format!(
                "move {} '{text}' in {}: {e}",
                i + 1,
                game.position()
            ))
        })?;
    }
    Ok(game)
}

/// Reading and playing a move text even past a rule's end (the functions
/// only describe positions; the `Game` class stops at the end).
trait PlayPastEnd {
    fn play_past_end_text(&mut self, text: &str) -> Result<makhos::Move, String>;
}

impl PlayPastEnd for Game {
    fn play_past_end_text(&mut self, text: &str) -> Result<makhos::Move, String> {
        let mv = self
            .position()
            .parse_move(self.rules(), text)
            .map_err(|e| e.to_string())?;
        self.play_past_end(&mv).map_err(|e| e.to_string())
    }
}

/// The start position's text (`W:Wa1,c1,...:Bb8,...`, White to move).
#[pyfunction]
pub fn start_position() -> String {
    Position::start().to_string()
}

/// The legal moves after `moves` are played from `position` (the start
/// when `None`) under `rules` (`default` or `no-reverse`); captures are
/// compulsory and complete.
#[pyfunction]
#[pyo3(signature = (position=None, moves=Vec::new(), rules="default"))]
pub fn legal_moves(position: Option<&str>, moves: Vec<String>, rules: &str) -> PyResult<Vec<Move>> {
    let game = replay(position, &moves, rules, 0)?;
    Ok(game.legal_moves().iter().map(Move::of).collect())
}

/// The position text after `moves` are played from `position`.
#[pyfunction]
#[pyo3(signature = (position=None, moves=Vec::new(), rules="default"))]
pub fn get_position(position: Option<&str>, moves: Vec<String>, rules: &str) -> PyResult<String> {
    Ok(replay(position, &moves, rules, 0)?.position().to_string())
}

/// `move` (any accepted notation) of `position` written in `style`:
/// `algebraic` (`c3xe5xc7`), `numeric` (`22x18x9`), `engine` (`c3e5c7`),
/// `algebraic_short` or `numeric_short` (start and end only where that is
/// unambiguous).
#[pyfunction]
#[pyo3(signature = (position, r#move, style="algebraic", rules="default"))]
pub fn move_text(
    position: Option<&str>,
    r#move: &str,
    style: &str,
    rules: &str,
) -> PyResult<String> {
    let rules = rules_of(rules)?;
    let pos = position_of(position)?;
    let m = pos.parse_move(rules, r#move).map_err(|e| {
        PyValueError::new_err(format!("move '{move}' in {pos}: {e}", move = r#move))
    })?;
    Ok(match style {
        "algebraic" => m.to_algebraic(),
        "numeric" => m.to_numeric(),
        "engine" => m.to_engine(),
        "algebraic_short" => m.to_algebraic_short(&pos, rules),
        "numeric_short" => m.to_numeric_short(&pos, rules),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown style '{style}': use algebraic, numeric, engine, algebraic_short or numeric_short"
            )));
        }
    })
}

/// How the game stands after `moves`: `None` while it goes on, else
/// `(result, reason)` with result `1-0`, `0-1` or `1/2-1/2` and reason
/// `no_moves` (the side to move cannot move and loses), `kings` (one king
/// each), `repetition` (third occurrence) or `no_progress` (32 plies
/// without a capture or man move, counting `no_progress` plies already
/// played before `position`).
#[pyfunction]
#[pyo3(signature = (position=None, moves=Vec::new(), rules="default", no_progress=0))]
pub fn game_result(
    position: Option<&str>,
    moves: Vec<String>,
    rules: &str,
    no_progress: u32,
) -> PyResult<Option<(&'static str, &'static str)>> {
    let game = replay(position, &moves, rules, no_progress)?;
    Ok(game.outcome().map(|o| (o.result(), o.reason.name())))
}

/// A Mak-hot game: its moves, positions and draw rules.
#[pyclass(module = "thaiboard.makhos", name = "Game")]
pub struct PyGame {
    game: Game,
}

#[pymethods]
impl PyGame {
    /// A game from `position` (the start when `None`) under `rules`
    /// (`default` or `no-reverse`), `no_progress` plies already without a
    /// capture or man move.
    #[new]
    #[pyo3(signature = (position=None, rules="default", no_progress=0))]
    fn new(position: Option<&str>, rules: &str, no_progress: u32) -> PyResult<PyGame> {
        Ok(PyGame {
            game: replay(position, &[], rules, no_progress)?,
        })
    }

    /// Plays a move in any accepted notation (`c3-d4`, `c3xe5xc7`,
    /// `22-18`, ...); raises `ValueError` if it is not legal or the game is over.
    fn play(&mut self, r#move: &str) -> PyResult<Move> {
        self.game
            .play_text(r#move)
            .map(|m| Move::of(&m))
            .map_err(|e| {
                PyValueError::new_err(format!(
                    "move '{move}' in {}: {e}",
                    self.game.position(),
                    move = r#move
                ))
            })
    }

    /// Takes back the last move, returning it (`None` at the start).
    fn undo(&mut self) -> Option<Move> {
        self.game.undo().map(|m| Move::of(&m))
    }

    /// The legal moves now.
    fn legal_moves(&self) -> Vec<Move> {
        self.game.legal_moves().iter().map(Move::of).collect()
    }

    /// The current position's text.
    #[getter]
    fn position(&self) -> String {
        self.game.position().to_string()
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.game.position().turn().name()
    }

    /// The rule option: `default` or `no-reverse`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.rules().name()
    }

    /// The moves played, as algebraic text.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(|m| m.to_algebraic()).collect()
    }

    /// Plies in a row with no capture and no man move.
    #[getter]
    fn no_progress_plies(&self) -> u32 {
        self.game.no_progress_plies()
    }

    /// How often the current position has occurred, this time included.
    #[getter]
    fn repetition_count(&self) -> usize {
        self.game.repetition_count()
    }

    /// `None` while the game goes on, else `(result, reason)` as
    /// [`game_result`].
    #[getter]
    fn outcome(&self) -> Option<(&'static str, &'static str)> {
        self.game.outcome().map(|o| (o.result(), o.reason.name()))
    }

    fn __repr__(&self) -> String {
        format!(
            "Game('{}', rules='{}', plies={})",
            self.game.position(),
            self.game.rules().name(),
            self.game.moves().len()
        )
    }
}

/// Adds the module's functions and classes to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(start_position, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(get_position, m)?)?;
    m.add_function(wrap_pyfunction!(move_text, m)?)?;
    m.add_function(wrap_pyfunction!(game_result, m)?)?;
    m.add_class::<Move>()?;
    m.add_class::<PyGame>()?;
    m.add("NO_PROGRESS_LIMIT", makhos::NO_PROGRESS_LIMIT)?;
    Ok(())
}
