//! The UCI protocol's input, read into typed commands (no I/O here).
//!
//! [`parse`] reads one line a GUI sends (`uci`, `setoption name Hash value
//! 64`, `position fen … moves …`, `go wtime … btime …`, …) into a
//! [`Command`]. A command written with [`std::fmt::Display`] reads back to
//! itself.
//!
//! Parts of a `go` that cannot be used (a parameter without its number, an
//! unknown word) do not refuse the command: they come back as
//! [`Parsed::notes`] for the engine to say, as Fairy-Stockfish searches on.

use std::fmt;

/// Longest text of the input repeated in a message (a garbage line may be
/// megabytes long).
pub const MAX_ECHO_CHARS: usize = 80;

/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: name the engine and its options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget the previous game.
    UciNewGame,
    /// `setoption name NAME [value VALUE]` (words joined by single spaces).
    SetOption {
        /// The option's name, as written.
        name: String,
        /// Its value, when given (`value` followed by nothing gives `""`).
        value: Option<String>,
    },
    /// `position startpos|fen FEN [moves M…]`.
    Position {
        /// Where the game starts.
        setup: Setup,
        /// The moves played from there, as written.
        moves: Vec<String>,
    },
    /// `go …`: search (or count with `perft`).
    Go(Go),
    /// `stop`: end the search and answer its best move.
    Stop,
    /// `ponderhit`: the expected move was played.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the board (Fairy-Stockfish's debugging command).
    Display,
    /// `bench [ARGS…]`.
    Bench(Vec<String>),
    /// `debug` and `register`: accepted and ignored.
    Ignored(&'static str),
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The game's start position.
    StartPos,
    /// A FEN (Makruk) or position text (Mak-hot), words joined by single spaces.
    Fen(String),
}

/// The parameters of `go`. Numbers are as given (negative ones read as 0);
/// [`Go::limits`] turns them into the search's [`crate::Limits`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's clock, ms.
    pub wtime: Option<u64>,
    /// Black's clock, ms.
    pub btime: Option<u64>,
    /// White's increment, ms.
    pub winc: Option<u64>,
    /// Black's increment, ms.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Time for this move, ms.
    pub movetime: Option<u64>,
    /// Depth in plies.
    pub depth: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Mate in this many moves (searched to twice as many plies).
    pub mate: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `stop` or `ponderhit`.
    pub ponder: bool,
    /// `perft DEPTH`: count the moves instead of searching.
    pub perft: Option<u32>,
    /// `searchmoves M…`: search only these root moves (as written).
    pub searchmoves: Vec<String>,
}

/// Deepest search a `go depth` or `go mate` asks for.
pub const MAX_GO_DEPTH: u64 = 100;

impl Go {
    /// The search's limits, with `overhead` ms kept back for communication
    /// and the clock started at `started`.
    pub fn limits(&self, overhead: u64, started: Option<std::time::Instant>) -> crate::Limits {
        let depth = match (self.depth, self.mate) {
            (Some(d), _) => Some(d.clamp(1, MAX_GO_DEPTH) as u32),
            (None, Some(m)) => Some(m.saturating_mul(2).clamp(1, MAX_GO_DEPTH) as u32),
            (None, None) => None,
        };
        crate::Limits {
            wtime: self.wtime,
            btime: self.btime,
            winc: self.winc,
            binc: self.binc,
            movestogo: self.movestogo,
            movetime: self.movetime,
            depth,
            nodes: self.nodes.map(|n| n.max(1)),
            infinite: self.infinite || self.ponder,
            overhead,
            started,
            ..crate::Limits::default()
        }
    }
}

/// A line read: its command and what of it was ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command.
    pub command: Command,
    /// Parts left out, each said as a sentence (only `go` has any).
    pub notes: Vec<String>,
}

/// The first [`MAX_ECHO_CHARS`] characters of `s`, to repeat in a message.
pub fn echo(s: &str) -> String {
    s.chars().take(MAX_ECHO_CHARS).collect()
}

/// Reads one input line. `Ok(None)`: a blank line. An error says what is
/// wrong with the line (an unknown command, a `setoption` without a name,
/// a `position` without its start, a bad perft depth).
pub fn parse(line: &str) -> Result<Option<Parsed>, String> {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let plain = |command| {
        Ok(Some(Parsed {
            command,
            notes: Vec::new(),
        }))
    };
    match cmd {
        "uci" => plain(Command::Uci),
        "isready" => plain(Command::IsReady),
        "ucinewgame" => plain(Command::UciNewGame),
        "setoption" => plain(parse_setoption(&rest)?),
        "position" => plain(parse_position(&rest)?),
        "go" => {
            let (go, notes) = parse_go(&rest)?;
            Ok(Some(Parsed {
                command: Command::Go(go),
                notes,
            }))
        }
        "stop" => plain(Command::Stop),
        "ponderhit" => plain(Command::PonderHit),
        "quit" => plain(Command::Quit),
        "d" => plain(Command::Display),
        "bench" => plain(Command::Bench(rest.iter().map(|w| w.to_string()).collect())),
        "debug" => plain(Command::Ignored("debug")),
        "register" => plain(Command::Ignored("register")),
        _ => Err(format!(
            "unknown command '{}' ignored (try uci, isready, position, go, stop, d, bench, quit)",
            echo(line.trim())
        )),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    const USAGE: &str = "setoption: expected 'setoption name <id> [value <x>]'";
    if words.first() != Some(&"name") {
        return Err(USAGE.into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err(USAGE.into());
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let setup = match setup {
        ["startpos"] => Setup::StartPos,
        ["fen", fen @ ..] if !fen.is_empty() => Setup::Fen(fen.join(" ")),
        _ => return Err("position: expected 'position startpos|fen <fen> [moves ...]'".into()),
    };
    Ok(Command::Position {
        setup,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// The words of `go` that are parameters (the others are ignored with a note).
fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "infinite"
            | "ponder"
            | "perft"
            | "searchmoves"
    )
}

fn parse_go(words: &[&str]) -> Result<(Go, Vec<String>), String> {
    let mut go = Go::default();
    let mut notes = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let number = words.get(i + 1).and_then(|v| v.parse::<i64>().ok());
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "perft" => match number {
                Some(d) if (0..=i64::from(MAX_PERFT_DEPTH)).contains(&d) => {
                    go.perft = Some(d as u32);
                    i += 1;
                }
                _ => {
                    return Err(format!(
                        "go perft: expected a depth from 0 to {MAX_PERFT_DEPTH}"
                    ));
                }
            },
            "searchmoves" => {
                while i + 1 < words.len() && !is_go_keyword(words[i + 1]) {
                    i += 1;
                    go.searchmoves.push(words[i].to_string());
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth" | "nodes"
            | "mate" => {
                let Some(v) = number else {
                    notes.push(format!("go {key}: expected a number"));
                    i += 1;
                    continue;
                };
                let v = Some(v.max(0) as u64);
                match key {
                    "wtime" => go.wtime = v,
                    "btime" => go.btime = v,
                    "winc" => go.winc = v,
                    "binc" => go.binc = v,
                    "movestogo" => go.movestogo = v,
                    "movetime" => go.movetime = v,
                    "depth" => go.depth = v,
                    "mate" => go.mate = v,
                    _ => go.nodes = v,
                }
                i += 1;
            }
            other => notes.push(format!("go: unknown parameter '{}' ignored", echo(other))),
        }
        i += 1;
    }
    Ok((go, notes))
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value.as_deref() {
                    Some("") => f.write_str(" value"),
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Position { setup, moves } => {
                match setup {
                    Setup::StartPos => f.write_str("position startpos")?,
                    Setup::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => {
                f.write_str("go")?;
                let numbers = [
                    ("wtime", go.wtime),
                    ("btime", go.btime),
                    ("winc", go.winc),
                    ("binc", go.binc),
                    ("movestogo", go.movestogo),
                    ("movetime", go.movetime),
                    ("depth", go.depth),
                    ("nodes", go.nodes),
                    ("mate", go.mate),
                    ("perft", go.perft.map(u64::from)),
                ];
                for (key, value) in numbers {
                    if let Some(v) = value {
                        write!(f, " {key} {v}")?;
                    }
                }
                if go.infinite {
                    f.write_str(" infinite")?;
                }
                if go.ponder {
                    f.write_str(" ponder")?;
                }
                if !go.searchmoves.is_empty() {
                    write!(f, " searchmoves {}", go.searchmoves.join(" "))?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Bench(words) => {
                f.write_str("bench")?;
                for w in words {
                    write!(f, " {w}")?;
                }
                Ok(())
            }
            Command::Ignored(word) => f.write_str(word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        parse(line).unwrap().unwrap().command
    }

    #[test]
    fn commands_are_read_with_their_arguments() {
        assert_eq!(command("  isready \r\n"), Command::IsReady);
        assert_eq!(
            command("setoption name Move  Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            command("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 moves a1a8 e8e7"),
            Command::Position {
                setup: Setup::Fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1".into()),
                moves: vec!["a1a8".into(), "e8e7".into()],
            }
        );
        let Command::Go(go) = command("go wtime 1000 btime -5 winc 10 binc 10 mate 3") else {
            panic!("not go");
        };
        assert_eq!(
            (go.wtime, go.btime, go.mate),
            (Some(1000), Some(0), Some(3))
        );
        let limits = go.limits(10, None);
        assert_eq!(limits.depth, Some(6));
        assert_eq!(limits.overhead, 10);
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn parts_of_go_that_cannot_be_used_are_noted_not_refused() {
        let parsed = parse("go depth x searchmoves e3e4 f3f4 nodes 500 sideways")
            .unwrap()
            .unwrap();
        let Command::Go(go) = &parsed.command else {
            panic!("not go");
        };
        assert_eq!((go.depth, go.nodes), (None, Some(500)));
        assert_eq!(go.searchmoves, ["e3e4", "f3f4"]);
        // The word that is not a number is then an unknown parameter of its own.
        assert_eq!(parsed.notes.len(), 3, "{:?}", parsed.notes);
        assert!(parsed.notes[0].contains("depth: expected a number"));
        assert!(parsed.notes[1].contains("'x'"));
        assert!(parsed.notes[2].contains("'sideways'"));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, why) in [
            ("setoption Hash 5", "setoption name"),
            ("setoption name value 5", "setoption name"),
            ("position", "position startpos|fen"),
            ("position fen moves e3e4", "position startpos|fen"),
            ("position startpos 4k3", "position startpos|fen"),
            ("go perft 65", "0 to 64"),
            ("go perft", "0 to 64"),
            ("fly me to the moon", "unknown command 'fly me"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(why), "{line}: {e}");
        }
        let long = "x".repeat(10_000);
        assert!(parse(&long).unwrap_err().len() < 2 * MAX_ECHO_CHARS + 100);
    }

    #[test]
    fn written_commands_read_back_to_themselves() {
        for line in [
            "uci",
            "setoption name UCI_Variant value makhos",
            "setoption name Clear Hash",
            "setoption name EvalFile value",
            "position startpos moves e3e4 e6e5",
            "position fen W:WKb8:BKh2",
            "go wtime 0 btime 5 movestogo 3 depth 7 perft 2 infinite ponder",
            "go movetime 100 searchmoves e3e4 c5c6m",
            "bench 16 1 13",
            "register",
        ] {
            let c = command(line);
            assert_eq!(c.to_string(), line);
            assert_eq!(command(&c.to_string()), c);
        }
    }
}
