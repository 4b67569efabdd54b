//! Puzzle sets: one puzzle a line, tab-separated, for Makruk, Ouk Chatrang
//! and Mak-hot alike.
//!
//! The miner (`thaiboard puzzles mine`) writes these lines, the start set
//! shipped with the server is made of them, and the server reads them. The
//! columns, in this order (the first line of a file may be [`PUZZLE_HEADER`];
//! blank lines and lines starting with `#` are skipped):
//!
//! | column | what |
//! |---|---|
//! | `id` | 4 to 16 ASCII letters and digits, unique in the set |
//! | `variant` | `makruk`, `cambodian` or `makhos` |
//! | `rules` | `default`, or a rule option of the variant (`no-reverse`) |
//! | `fen` | the position before the solver's first move (FEN, or Mak-hot's `W:W...:B...`) |
//! | `solution` | the moves in engine form (UCI; Mak-hot `c3e5c7`), space-separated: the solver's, the reply, the solver's, ..., ending on the solver's |
//! | `rating` | the puzzle's starting rating, 400 to 4000 |
//! | `themes` | space-separated names of letters and digits (`mateIn2 countingWin`), or `-` |
//! | `source` | where it came from (a game's address or a match and game number), or `-` |
//!
//! Mak-hot FENs contain commas, so the separator is a tab, which no column
//! may hold. [`Puzzle::replay`] checks a puzzle against the rules crates:
//! the position reads, the game is not over there (a count that has already
//! run out, say), every move is legal in turn and none follows the end of
//! the game, the last move is the solver's, and it does not end the game in
//! a draw or a loss for the solver. Whether the solution is the *only* winning line is the miner's
//! question, not this module's (it needs a search).
//!
//! ```
//! use records::puzzle::{Puzzle, read_puzzles, puzzle_line};
//! let text = "id\tvariant\trules\tfen\tsolution\trating\tthemes\tsource\n\
//!             k0001\tmakruk\tdefault\t4k3/8/3R4/8/8/8/8/4K2R w - - 0 1\th1h8\t900\t-\t-\n";
//! let puzzles: Vec<Puzzle> = read_puzzles(text.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(puzzles[0].solution, ["h1h8"]);
//! assert_eq!(puzzles[0].replay().unwrap().len(), 2);
//! assert_eq!(puzzle_line(&puzzles[0]), text.lines().nth(1).unwrap());
//! ```

use std::fmt;
use std::io::{BufRead, Read};

use games::{AnyGame, AnyPosition, GameKind};

/// The column names, the optional first line of a set.
pub const PUZZLE_HEADER: &str = "id\tvariant\trules\tfen\tsolution\trating\tthemes\tsource";

/// The longest line read; a longer one is an error (the rest of it is skipped).
pub const MAX_PUZZLE_LINE: usize = 4096;

/// The lowest and highest rating a puzzle line may carry.
pub const PUZZLE_RATINGS: std::ops::RangeInclusive<u16> = 400..=4000;

/// One puzzle of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name in the set (4 to 16 ASCII letters and digits).
    pub id: String,
    /// The game and its rule option.
    pub kind: GameKind,
    /// The position before the solver's first move.
    pub fen: String,
    /// The solver's moves and the replies between them, in engine form.
    pub solution: Vec<String>,
    /// The starting rating.
    pub rating: u16,
    /// Theme names (`mateIn1`, `countingWin`, `multiCapture`, ...).
    pub themes: Vec<String>,
    /// Where it came from; empty when unknown.
    pub source: String,
}

/// What is wrong with a line of a set, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle set line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// Plays the solution from the position as a game under the rules crates
    /// (as the server judges a round): every position from the start to the
    /// end, or what is wrong (a FEN that does not read, a game already over
    /// at the start, an illegal move or one after the end of the game with
    /// its number, a solution that is empty, one that ends on a reply
    /// instead of the solver's move, or one whose last move ends the game in
    /// a draw or a loss for the solver).
    pub fn replay(&self) -> Result<Vec<AnyPosition>, String> {
        let position = AnyPosition::from_fen(self.kind, &self.fen)
            .map_err(|e| format!("the position does not read: {e}"))?;
        let solver = position.turn();
        let mut game = AnyGame::from_position(position.clone());
        if let Some(o) = game.outcome() {
            return Err(format!("the game is already over in the position ({o})"));
        }
        if self.solution.is_empty() {
            return Err("the solution has no move".into());
        }
        if self.solution.len() % 2 == 0 {
            return Err(format!(
                "the solution ends on a reply (it has {} moves; the last must be the solver's)",
                self.solution.len()
            ));
        }
        let mut positions = vec![position];
        for (i, text) in self.solution.iter().enumerate() {
            game.play_engine(text)
                .map_err(|e| format!("move {} ({text}) is not legal: {e}", i + 1))?;
            positions.push(game.position());
        }
        if let Some(o) = game.outcome()
            && o.winner != Some(solver)
        {
            let n = self.solution.len();
            return Err(format!(
                "move {n} ({}), the last, ends the game without the solver's win ({o})",
                self.solution[n - 1]
            ));
        }
        Ok(positions)
    }
}

/// The line (without its newline) that [`read_puzzles`] reads back to `puzzle`.
pub fn puzzle_line(puzzle: &Puzzle) -> String {
    let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    [
        puzzle.id.clone(),
        puzzle.kind.variant_name().to_string(),
        puzzle.kind.rules_name().to_string(),
        puzzle.fen.clone(),
        puzzle.solution.join(" "),
        puzzle.rating.to_string(),
        or_dash(puzzle.themes.join(" ")),
        or_dash(puzzle.source.clone()),
    ]
    .join("\t")
}

/// Reads a set line by line; each item is a puzzle or the error of its line.
/// The reader goes on after a bad line, and stops after an error of the
/// reader itself (a broken gzip stream, a failing disk), which is its last
/// item. Only the form is checked here: call [`Puzzle::replay`] for the rules.
pub fn read_puzzles<R: BufRead>(reader: R) -> PuzzleReader<R> {
    PuzzleReader {
        reader,
        line: 0,
        buf: Vec::new(),
        failed: false,
    }
}

/// The iterator of [`read_puzzles`].
pub struct PuzzleReader<R> {
    reader: R,
    line: usize,
    buf: Vec<u8>,
    /// The reader failed: nothing more is read.
    failed: bool,
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, PuzzleError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            self.buf.clear();
            self.line += 1;
            let line = self.line;
            let err = |message: String| Some(Err(PuzzleError { line, message }));
            let read = (&mut self.reader)
                .take(MAX_PUZZLE_LINE as u64 + 1)
                .read_until(b'\n', &mut self.buf);
            match read {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    self.failed = true;
                    return err(format!("cannot read: {e}"));
                }
            }
            if self.buf.len() > MAX_PUZZLE_LINE && !self.buf.ends_with(b"\n") {
                // Skip the rest of the long line, so the next item starts on the next line.
                let mut rest = Vec::new();
                if let Err(e) = self.reader.read_until(b'\n', &mut rest) {
                    self.failed = true;
                    return err(format!("cannot read: {e}"));
                }
                return err(format!("the line is longer than {MAX_PUZZLE_LINE} bytes"));
            }
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                return err("the line is not UTF-8".into());
            };
            let text = text.trim_end_matches(['\n', '\r']);
            if text.trim().is_empty()
                || text.starts_with('#')
                || (line == 1 && text == PUZZLE_HEADER)
            {
                continue;
            }
            return Some(parse_line(text).map_err(|message| PuzzleError { line, message }));
        }
    }
}

/// One line's columns into a puzzle, or what is wrong.
fn parse_line(text: &str) -> Result<Puzzle, String> {
    let columns: Vec<&str> = text.split('\t').collect();
    let [id, variant, rules, fen, solution, rating, themes, source] = columns[..] else {
        return Err(format!(
            "{} columns, expected 8 separated by tabs ({})",
            columns.len(),
            PUZZLE_HEADER.replace('\t', ", ")
        ));
    };
    if !(4..=16).contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!(
            "id {id:?}: expected 4 to 16 ASCII letters and digits"
        ));
    }
    let kind = GameKind::from_names(variant, Some(rules))
        .map_err(|e| format!("variant {variant:?} with rules {rules:?}: {e}"))?;
    if fen.trim().is_empty() {
        return Err("the position (fen) is empty".into());
    }
    let solution: Vec<String> = solution.split_whitespace().map(str::to_string).collect();
    if solution.is_empty() {
        return Err("the solution has no move".into());
    }
    let rating: u16 = rating
        .parse()
        .ok()
        .filter(|r| PUZZLE_RATINGS.contains(r))
        .ok_or_else(|| {
            format!(
                "rating {rating:?}: expected a whole number from {} to {}",
                PUZZLE_RATINGS.start(),
                PUZZLE_RATINGS.end()
            )
        })?;
    let themes: Vec<String> = match themes {
        "-" => Vec::new(),
        t => t.split_whitespace().map(str::to_string).collect(),
    };
    if let Some(bad) = themes
        .iter()
        .find(|t| !t.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(format!("theme {bad:?}: expected ASCII letters and digits"));
    }
    Ok(Puzzle {
        id: id.to_string(),
        kind,
        fen: fen.trim().to_string(),
        solution,
        rating,
        themes,
        source: if source == "-" {
            String::new()
        } else {
            source.to_string()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Result<Puzzle, PuzzleError> {
        read_puzzles(line.as_bytes()).next().unwrap()
    }

    #[test]
    fn a_line_reads_and_writes_back() {
        let line = "abcd12\tmakhos\tno-reverse\tW:Wc3:Bd4,f6\tc3e5g7\t1500\tmultiCapture kingWin\tmatch 3 game 7";
        let p = one(line).unwrap();
        assert_eq!(
            p.kind,
            GameKind::from_names("makhos", Some("no-reverse")).unwrap()
        );
        assert_eq!(p.themes, ["multiCapture", "kingWin"]);
        assert_eq!(puzzle_line(&p), line);
    }

    #[test]
    fn errors_say_what_and_where() {
        let text = "# a comment\n\nshort\tmakruk\n";
        let e = read_puzzles(text.as_bytes()).next().unwrap().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("2 columns"), "{e}");
        let cases = [
            ("ab\tmakruk\tdefault\tx\te3e4\t1500\t-\t-", "id \"ab\""),
            (
                "abcd\tchess\tdefault\tx\te3e4\t1500\t-\t-",
                "variant \"chess\"",
            ),
            ("abcd\tmakruk\tdefault\tx\te3e4\t99\t-\t-", "rating \"99\""),
            ("abcd\tmakruk\tdefault\tx\t \t1500\t-\t-", "no move"),
            (
                "abcd\tmakruk\tdefault\tx\te3e4\t1500\tmate-in-1\t-",
                "theme",
            ),
        ];
        for (line, expected) in cases {
            let e = one(line).unwrap_err();
            assert!(e.to_string().contains(expected), "{line}: {e}");
        }
    }

    #[test]
    fn a_failing_reader_gives_one_error_and_stops() {
        /// Reads one good line, then fails at every call.
        struct Failing(usize);
        impl std::io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let line =
                    b"abcd\tmakruk\tdefault\t4k3/8/3R4/8/8/8/8/4K2R w - - 0 1\th1h8\t900\t-\t-\n";
                if self.0 >= line.len() {
                    return Err(std::io::Error::other("the disk is gone"));
                }
                let n = buf.len().min(line.len() - self.0);
                buf[..n].copy_from_slice(&line[self.0..self.0 + n]);
                self.0 += n;
                Ok(n)
            }
        }
        let items: Vec<_> = read_puzzles(std::io::BufReader::new(Failing(0)))
            .take(5)
            .collect();
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(items[0].is_ok(), "{items:?}");
        let e = items[1].as_ref().unwrap_err();
        assert!(e.message.contains("the disk is gone"), "{e}");
    }

    #[test]
    fn a_long_line_is_an_error_and_the_next_line_still_reads() {
        let long = "x".repeat(MAX_PUZZLE_LINE + 10);
        let good = "abcd\tmakruk\tdefault\t4k3/8/3R4/8/8/8/8/4K2R w - - 0 1\th1h8\t900\t-\t-";
        let text = format!("{long}\n{good}\n");
        let items: Vec<_> = read_puzzles(text.as_bytes()).collect();
        assert!(items[0].as_ref().unwrap_err().message.contains("longer"));
        assert_eq!(items[1].as_ref().unwrap().id, "abcd");
        assert_eq!(items[1].as_ref().unwrap().replay().unwrap().len(), 2);
    }

    #[test]
    fn replay_refuses_illegal_moves_and_solutions_ending_on_a_reply() {
        let base = "abcd\tmakruk\tdefault\t4k3/8/3R4/8/8/8/8/4K2R w - - 0 1";
        let p = one(&format!("{base}\th1h7\t900\t-\t-")).unwrap();
        assert!(p.replay().is_ok());
        let p = one(&format!("{base}\th1h9\t900\t-\t-")).unwrap();
        assert!(p.replay().unwrap_err().contains("move 1 (h1h9)"));
        let p = one(&format!("{base}\th1h7 e8f8\t900\t-\t-")).unwrap();
        assert!(p.replay().unwrap_err().contains("ends on a reply"));
        let p = one("abcd\tmakruk\tdefault\tnot a fen\th1h7\t900\t-\t-").unwrap();
        assert!(p.replay().unwrap_err().contains("does not read"));
    }

    #[test]
    fn replay_plays_the_game_rules_a_count_that_ran_out_included() {
        // Black's count against a bare khun: 32 plies allowed.
        let line = |count: &str, solution: &str| {
            one(&format!(
                "abcd\tmakruk\tdefault\t8/8/3r4/2m5/4n1m1/1k6/8/1K6 b - 32 {count} 97\t{solution}\t900\t-\t-"
            ))
            .unwrap()
        };
        // Ply 33 of 32: the game was drawn before the mate (a puzzle once
        // shipped so, which the server could not judge).
        let e = line("33", "d6d1").replay().unwrap_err();
        assert!(
            e.contains("already over") && e.contains("counting_draw"),
            "{e}"
        );
        // Ply 32 of 32: the mate in time counts, a quiet move draws.
        assert_eq!(line("32", "d6d1").replay().unwrap().len(), 2);
        let e = line("32", "d6d2").replay().unwrap_err();
        assert!(
            e.contains("move 1 (d6d2), the last") && e.contains("counting_draw"),
            "{e}"
        );
        // A move after the end of the game is not legal.
        let e = line("31", "d6d2 b1a1 d2d1").replay().unwrap_err();
        assert!(
            e.contains("move 3 (d2d1) is not legal: the game is over"),
            "{e}"
        );
    }
}
