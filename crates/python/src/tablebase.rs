//! `thaiboard.tablebase`: endgame-table probes in the shape of
//! `thaiboard tb probe --json`, and table generation.

use games::GameKind;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use thaiboard_tablebase::makhos::MakhosTables;
use thaiboard_tablebase::{makhos, makruk};

fn kind_of(variant: &str, rules: Option<&str>) -> PyResult<GameKind> {
    GameKind::from_names(variant, rules).map_err(|e| PyValueError::new_err(format!("{e}")))
}

fn table_error(dir: &std::path::Path, e: impl std::fmt::Display) -> PyErr {
    PyOSError::new_err(format!("{}: {e}", dir.display()))
}

/// Probes the tables in `dir` for `fen` (Makruk FEN with its counting
/// fields, or Mak-hot position text with `count` plies already on the
/// no-progress count) and returns the answer as the JSON text of
/// `thaiboard tb probe --json`.
#[pyfunction]
#[pyo3(signature = (dir, variant, fen, count=0, rules=None))]
pub fn probe_json(
    py: Python<'_>,
    dir: PathBuf,
    variant: &str,
    fen: &str,
    count: u32,
    rules: Option<&str>,
) -> PyResult<String> {
    match kind_of(variant, rules)? {
        GameKind::Makruk(variant) => {
            let pos = ::makruk::Position::from_fen(variant, fen)
                .map_err(|e| PyValueError::new_err(format!("invalid FEN '{fen}': {e}")))?;
            let answer = py.detach(|| -> Result<_, String> {
                let tables =
                    makruk::MakrukTables::open(&dir, variant).map_err(|e| e.to_string())?;
                let answer = tables.answer(&pos).map_err(|e| e.to_string())?;
                Ok((answer, tables.len()))
            });
            let (answer, len) = answer.map_err(|e| table_error(&dir, e))?;
            let answer = answer.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "position outside the tables: {} has {len} {} tables (3 and 4 pieces; 5: pieces' honour without khon or bia, where generated)",
                    dir.display(),
                    variant.name()
                ))
            })?;
            serde_json::to_string(&answer).map_err(|e| PyValueError::new_err(e.to_string()))
        }
        GameKind::Makhos(rules) => {
            let pos: ::makhos::Position = fen.parse().map_err(|e| {
                PyValueError::new_err(format!("invalid Mak-hot position '{fen}': {e}"))
            })?;
            let tables = MakhosTables::open(&dir, rules).map_err(|e| table_error(&dir, e))?;
            let answer = py
                .detach(|| makhos::answer(&tables, &pos, count))
                .map_err(|e| PyValueError::new_err(format!("{fen}: {e}")))?;
            serde_json::to_string(&answer).map_err(|e| PyValueError::new_err(e.to_string()))
        }
    }
}

/// Generates the tables of up to `pieces` pieces for `variant` into `dir`
/// (tables already there are kept), with the GIL released. Returns the
/// number of tables.
#[pyfunction]
#[pyo3(signature = (dir, variant, pieces, rules=None))]
pub fn generate(
    py: Python<'_>,
    dir: PathBuf,
    variant: &str,
    pieces: u32,
    rules: Option<&str>,
) -> PyResult<usize> {
    match kind_of(variant, rules)? {
        GameKind::Makruk(variant) => {
            if !(3..=5).contains(&pieces) {
                return Err(PyValueError::new_err("Makruk tables have 3 to 5 pieces"));
            }
            py.detach(|| makruk::generate(variant, pieces, &dir, false, |_| {}))
                .map_err(|e| table_error(&dir, e))?;
            makruk::MakrukTables::open(&dir, variant)
                .map(|t| t.len())
                .map_err(|e| table_error(&dir, e))
        }
        GameKind::Makhos(rules) => {
            if !(2..=7).contains(&pieces) {
                return Err(PyValueError::new_err("Mak-hot tables have 2 to 7 pieces"));
            }
            py.detach(|| makhos::generate(&dir, rules, pieces, false, |_| {}).map(|r| r.len()))
                .map_err(|e| table_error(&dir, e))
        }
    }
}

/// Adds the module's functions to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(probe_json, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}
