//! Where the engine's protocol lines go: one writer shared by the thread that
//! reads commands and the search thread, each line written whole and flushed.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// The GUI's end of the conversation. Clones write to the same place; a
/// write that fails (the GUI went away) is dropped, never a panic.
#[derive(Clone)]
pub(crate) struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    /// Lines to `writer`.
    pub(crate) fn new<W: Write + Send + 'static>(writer: W) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes `line` and a newline.
    pub(crate) fn say(&self, line: &str) {
        self.write(&format!("{line}\n"));
    }

    /// Writes `text` as it is, in one piece.
    pub(crate) fn write(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(text.as_bytes()).and_then(|_| w.flush());
    }
}
