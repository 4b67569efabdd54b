//! The native part of the `thaiboard` Python package (`thaiboard._native`),
//! built by maturin: one submodule per public Python module, which the
//! package's Python files re-export with their documentation and types.

use pyo3::prelude::*;

mod engine;
mod makhos;
mod pyffish;
mod records;
mod tablebase;

fn submodule<'py>(
    parent: &Bound<'py, PyModule>,
    name: &str,
    register: fn(&Bound<'py, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let m = PyModule::new(parent.py(), name)?;
    register(&m)?;
    parent.add_submodule(&m)?;
    Ok(())
}

/// The native module: submodules `pyffish`, `makhos`, `records`, `engine`
/// and `tablebase`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    submodule(m, "pyffish", pyffish::register)?;
    submodule(m, "makhos", makhos::register)?;
    submodule(m, "records", records::register)?;
    submodule(m, "engine", engine::register)?;
    submodule(m, "tablebase", tablebase::register)?;
    Ok(())
}
