//! The writer: PGN export format for Makruk (Fairy-Stockfish letters by
//! default, SchemingMind letters on request) and PDN for Mak-hot.
//!
//! Export format: the Seven Tag Roster first, in its order, then the other
//! tags; a blank line; movetext in lines of at most [`DEFAULT_WIDTH`]
//! characters (so within 80 columns), with move numbers, comments, NAGs
//! (as `$n`) and variations; the result; a blank line.

use crate::makhos_moves::SquareStyle;
use crate::notation::{move_number_text, move_text};
use crate::tree::{Game, Line, SEVEN_TAG_ROSTER, roster_default};
use games::{AnyMove, AnyPosition, Color};
use makruk::Letters;
use std::io::{self, Write};

/// The longest movetext line written by default.
pub const DEFAULT_WIDTH: usize = 79;

/// How to write games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Makruk piece letters: Fairy-Stockfish (`M`, `S`, `c6=M`) or
    /// SchemingMind (`Q`, `B`, promotion with no suffix).
    pub letters: Letters,
    /// How Mak-hot moves are written.
    pub squares: SquareStyle,
    /// The longest movetext line, in characters (a single token longer
    /// than this gets a line of its own).
    pub width: usize,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            letters: Letters::Fsf,
            squares: SquareStyle::Numeric,
            width: DEFAULT_WIDTH,
        }
    }
}

impl WriteOptions {
    /// The defaults with Makruk letters `letters`.
    pub fn with_letters(letters: Letters) -> WriteOptions {
        WriteOptions {
            letters,
            ..WriteOptions::default()
        }
    }
}

/// Fills movetext lines up to the width.
struct Filler {
    out: String,
    line_chars: usize,
    width: usize,
    glue_next: bool,
    break_next: bool,
}

impl Filler {
    /// Adds a token. `glue` asks for no space before it; `keep` forbids a
    /// line break before it.
    fn token(&mut self, tok: &str, glue: bool, keep: bool) {
        let n = tok.chars().count();
        let glue = glue || self.glue_next;
        self.glue_next = false;
        if self.line_chars == 0 {
        } else if self.break_next
            || (!keep && self.line_chars + usize::from(!glue) + n > self.width)
        {
            self.out.push('\n');
            self.line_chars = 0;
        } else if !glue {
            self.out.push(' ');
            self.line_chars += 1;
        }
        self.break_next = false;
        self.out.push_str(tok);
        self.line_chars += n;
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // A brace comment cannot hold `}`: a rest-of-line comment can.
            self.token(&format!("; {text}"), false, false);
            self.break_next = true;
            return;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            self.token("{}", false, false);
            return;
        }
        let last = words.len() - 1;
        for (i, w) in words.iter().enumerate() {
            let mut t = String::with_capacity(w.len() + 2);
            if i == 0 {
                t.push('{');
            }
            t.push_str(w);
            if i == last {
                t.push('}');
            }
            // A comment line starting with `[` could read as the next
            // game's tag line: never break before such a word.
            self.token(&t, false, i > 0 && w.starts_with('['));
        }
    }
}

fn write_line(f: &mut Filler, line: &Line, start: &AnyPosition, opts: &WriteOptions) {
    for c in &line.comments {
        f.comment(c);
    }
    let mut board = start.clone();
    let mut need_number = true;
    let mut legal = true;
    for node in &line.nodes {
        if board.turn() == Color::White || need_number {
            f.token(&move_number_text(&board), false, false);
        }
        legal = legal && board.is_legal(&node.mv);
        let text = if legal {
            move_text(
                &board,
                &node.mv,
                opts.letters,
                opts.squares,
                node.draw_offer,
            )
        } else {
            match &node.mv {
                AnyMove::Makruk(m) => m.to_uci(),
                AnyMove::Makhos(m) => m.to_algebraic(),
            }
        };
        f.token(&text, false, false);
        for nag in &node.nags {
            f.token(&format!("${nag}"), false, false);
        }
        for c in &node.comments {
            f.comment(c);
        }
        for v in &node.variations {
            f.token("(", false, false);
            f.glue_next = true;
            write_line(f, v, &board, opts);
            f.token(")", true, false);
        }
        need_number = !node.comments.is_empty() || !node.variations.is_empty();
        if legal {
            board.play_unchecked(&node.mv);
        }
    }
}

fn valid_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// The game in export format, ending with a blank line.
///
/// Tags come as stored, the Seven Tag Roster first (its missing tags with
/// their default values); tags whose names are not PGN symbols are left
/// out. A start that is not the standard one gets `[SetUp "1"]` and `[FEN]`
/// if the tags lack them. Moves that are not legal (only possible in trees
/// built by hand) are written in UCI or algebraic form, as is the rest of
/// their line.
pub fn game_to_string(game: &Game, opts: &WriteOptions) -> String {
    let mut out = String::with_capacity(1024);
    for name in SEVEN_TAG_ROSTER {
        let value = game.tags.get(name).unwrap_or(roster_default(name));
        push_tag(&mut out, name, value);
    }
    for (name, value) in game.tags.iter() {
        if !SEVEN_TAG_ROSTER.contains(&name) && valid_tag_name(name) {
            push_tag(&mut out, name, value);
        }
    }
    if game.tags.get("FEN").is_none() && !game.start.is_standard_start() {
        if game.tags.get("SetUp").is_none() {
            push_tag(&mut out, "SetUp", "1");
        }
        push_tag(&mut out, "FEN", &game.start.fen());
    }
    out.push('\n');
    let mut f = Filler {
        out,
        line_chars: 0,
        width: opts.width.max(1),
        glue_next: false,
        break_next: false,
    };
    write_line(&mut f, &game.moves, &game.start, opts);
    f.token(game.result.as_str(), false, false);
    let mut out = f.out;
    out.push_str("\n\n");
    out
}

/// Writes the game in export format (see [`game_to_string`]).
pub fn write_game<W: Write>(out: &mut W, game: &Game, opts: &WriteOptions) -> io::Result<()> {
    out.write_all(game_to_string(game, opts).as_bytes())
}
