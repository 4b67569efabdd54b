//! Reading record files: a file, a gzipped file or standard input, and a
//! read error written as `file:line:column: game N: what`. Shared by the
//! `pgn` and `puzzles` commands.

use records::ReadError;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// Opens a record file (through gzip when its name ends in `.gz`), or
/// standard input for `-`, with its length when the bytes read are the
/// file's (for a progress bar).
pub fn open(path: &Path) -> io::Result<(Box<dyn BufRead>, Option<u64>)> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(BufReader::new(io::stdin())), None));
    }
    let file = File::open(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let unzipped = flate2::read::GzDecoder::new(file);
        return Ok((Box::new(BufReader::with_capacity(1 << 16, unzipped)), None));
    }
    let len = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(BufReader::with_capacity(1 << 16, file)), len))
}

/// A read error as `file:line:column: game N: what`.
pub fn problem_line(file: &Path, e: &ReadError) -> String {
    let mut s = format!(
        "{}:{}:{}: game {}: {}",
        file.display(),
        e.line,
        e.column,
        e.game,
        e.kind
    );
    match (&e.move_number, e.text.is_empty()) {
        (Some(n), _) => s.push_str(&format!(": {n} {}", e.text)),
        (None, false) => s.push_str(&format!(": {}", e.text)),
        (None, true) => {}
    }
    s
}
