//! A UCI engine as a child process: a reader thread turns its output into
//! lines on a channel, so every wait has a deadline.

use crate::spec::EngineSpec;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended or closed its pipes.
    Crashed(String),
    /// No answer before the deadline.
    Timeout(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) | EngineError::Timeout(s) => f.write_str(s),
        }
    }
}

/// The engine's last reported score, from its own point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// In centipawns, mates as ±(100000 − moves).
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(m) if m >= 0 => 100_000 - m,
            EngineScore::Mate(m) => -100_000 - m,
        }
    }

    /// PGN comment form: `+0.35`, `-1.20`, `+M3`, `-M2`.
    pub fn text(self) -> String {
        match self {
            EngineScore::Cp(c) => format!("{:+.2}", f64::from(c) / 100.0),
            EngineScore::Mate(m) if m >= 0 => format!("+M{m}"),
            EngineScore::Mate(m) => format!("-M{}", -m),
        }
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The move text after `bestmove`.
    pub best: String,
    /// The last score reported.
    pub score: Option<EngineScore>,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A running engine.
pub struct Engine {
    /// The name from its spec.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Reads `info ... depth D ... score cp X|mate Y ...`.
fn parse_info(line: &str, score: &mut Option<EngineScore>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => {
                let v = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                match (words.get(i + 1), v) {
                    (Some(&"cp"), Some(v)) => *score = Some(EngineScore::Cp(v)),
                    (Some(&"mate"), Some(v)) => *score = Some(EngineScore::Mate(v)),
                    _ => {}
                }
            }
            "pv" | "string" => return,
            _ => {}
        }
        i += 1;
    }
}

impl Engine {
    /// Starts the program of `spec` (`program`, the resolved command for a
    /// spec without `cmd`), says `uci`, sets `options` then the spec's own
    /// options, and waits for `readyok`.
    pub fn start(
        spec: &EngineSpec,
        program: &str,
        args: &[String],
        options: &[(String, String)],
        startup: Duration,
    ) -> Result<Engine, String> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("engine '{}': cannot start '{program}': {e}", spec.name))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("engine '{}': no pipes to the process", spec.name));
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = Engine {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
        };
        let setup = (|| {
            let deadline = Instant::now() + startup;
            engine.send("uci")?;
            engine.wait_for("uciok", deadline)?;
            for (name, value) in options.iter().chain(&spec.options) {
                engine.send(&format!("setoption name {name} value {value}"))?;
            }
            engine.send("isready")?;
            engine.wait_for("readyok", deadline)
        })();
        setup.map_err(|e| format!("engine '{}' at start: {e}", spec.name))?;
        Ok(engine)
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                EngineError::Crashed(format!("{} stopped reading its input ({e})", self.name))
            })
    }

    /// The next line, or an error at the deadline or when the engine exits.
    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!(
                "{} did not answer in time (waiting for {waiting_for})",
                self.name
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or_else(String::new, |s| format!(", {s}"));
                Err(EngineError::Crashed(format!(
                    "{} exited (waiting for {waiting_for}{status})",
                    self.name
                )))
            }
        }
    }

    /// Reads lines until one whose first word is `word`.
    pub fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<(), EngineError> {
        loop {
            let line = self.next_line(deadline, word)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(());
            }
        }
    }

    /// `ucinewgame` then `isready`, waiting for `readyok`.
    pub fn new_game(&mut self, wait: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + wait)
    }

    /// Sends `position` and `go` lines and waits for `bestmove` until
    /// `wait` after sending `go`.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        wait: Duration,
    ) -> Result<SearchReply, EngineError> {
        self.send(position)?;
        let started = Instant::now();
        self.send(go)?;
        let deadline = started + wait;
        let mut score = None;
        let mut depth = None;
        loop {
            let line = self.next_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => parse_info(&line, &mut score, &mut depth),
                Some("bestmove") => {
                    return Ok(SearchReply {
                        best: words.next().unwrap_or("").to_string(),
                        score,
                        depth,
                        elapsed: started.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }
}

impl Drop for Engine {
    /// Says `quit`, gives the engine a moment, then kills it.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_info_lines() {
        let (mut s, mut d) = (None, None);
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 10 pv e3e4",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(EngineScore::Cp(-35)), Some(7)));
        parse_info("info depth 9 score mate -2 pv a1a2", &mut s, &mut d);
        assert_eq!((s, d), (Some(EngineScore::Mate(-2)), Some(9)));
        parse_info("info string depth 99 score cp 1", &mut s, &mut d);
        assert_eq!(d, Some(9));
        assert_eq!(EngineScore::Cp(35).text(), "+0.35");
        assert_eq!(EngineScore::Mate(-2).text(), "-M2");
        assert!(EngineScore::Mate(3).as_cp() > 90_000);
        assert!(EngineScore::Mate(-3).as_cp() < -90_000);
    }
}
