//! The position a UCI `position` command sets up, in the engine's form.

use super::{Command, Setup, echo};
use crate::{Game, MakhosGame, MakrukGame};
use games::{AnyPosition, GameKind};

/// The engine's form of the position to search (an engine game built from an
/// [`AnyPosition`]) with the keys of the positions before it, oldest first
/// (for repetitions).
#[derive(Clone)]
pub enum Board {
    /// Makruk or Ouk Chatrang.
    Makruk(MakrukGame, Vec<u64>),
    /// Mak-hot.
    Makhos(MakhosGame, Vec<u64>),
}

impl Board {
    /// A position with no history.
    pub fn of(pos: AnyPosition) -> Board {
        match pos {
            AnyPosition::Makruk(p) => Board::Makruk(MakrukGame::new(p), Vec::new()),
            AnyPosition::Makhos {
                position, rules, ..
            } => Board::Makhos(MakhosGame::new(position, rules, 0), Vec::new()),
        }
    }

    /// The start position of `kind`.
    pub fn start(kind: GameKind) -> Board {
        Board::of(AnyPosition::start(kind))
    }

    /// The position `setup` and `moves` give in game `kind`; an error names
    /// the bad FEN or the first bad move (by its number) and why.
    pub fn set_up(kind: GameKind, setup: &Setup, moves: &[String]) -> Result<Board, String> {
        let mut board = match setup {
            Setup::StartPos => Board::start(kind),
            Setup::Fen(text) => {
                let what = if kind.is_makruk() {
                    "FEN"
                } else {
                    "position text"
                };
                AnyPosition::from_fen(kind, text)
                    .map(Board::of)
                    .map_err(|e| format!("bad {what} '{}': {e}", echo(text)))?
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let bad = |e: String| format!("move {} '{}': {e}", i + 1, echo(text));
            match &mut board {
                Board::Makruk(g, hist) => {
                    let m = g.pos.parse_uci(text).map_err(|e| bad(e.to_string()))?;
                    hist.push(g.key());
                    *g = g.play(m);
                }
                Board::Makhos(g, hist) => {
                    let m = g
                        .pos
                        .parse_move(g.rules, text)
                        .map_err(|e| bad(e.to_string()))?;
                    hist.push(g.key());
                    *g = g.play(m);
                }
            }
        }
        Ok(board)
    }

    /// The position of a `position` command in game `kind` (`None` for any
    /// other command).
    pub fn from_command(kind: GameKind, command: &Command) -> Option<Result<Board, String>> {
        match command {
            Command::Position { setup, moves } => Some(Board::set_up(kind, setup, moves)),
            _ => None,
        }
    }

    /// The board drawn as Fairy-Stockfish's `d` command draws it, with the
    /// game `kind`, the position's text and its key (and Makruk's checkers or
    /// Mak-hot's no-progress count).
    pub fn diagram(&self, kind: GameKind) -> String {
        const RULE: &str = "\n +---+---+---+---+---+---+---+---+\n";
        let mut text = String::from(RULE);
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let c = match self {
                    Board::Makruk(g, _) => makruk::Square::from_coords(file, rank)
                        .and_then(|sq| g.pos.piece_at(sq))
                        .map_or(' ', |p| p.char()),
                    Board::Makhos(g, _) => makhos_char(&g.pos, file, rank),
                };
                text.push_str(&format!(" | {c}"));
            }
            text.push_str(&format!(" | {}{RULE}", rank + 1));
        }
        text.push_str("   a   b   c   d   e   f   g   h\n\n");
        match self {
            Board::Makruk(g, _) => {
                text.push_str(&format!("Variant: {}\n", kind.variant_name()));
                text.push_str(&format!("Fen: {}\n", g.pos.fen()));
                text.push_str(&format!("Key: {:016X}\n", g.key()));
                let checkers: Vec<String> = g.pos.checkers().map(|s| s.to_string()).collect();
                text.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
            }
            Board::Makhos(g, _) => {
                text.push_str(&format!("Variant: makhos ({} rules)\n", g.rules.name()));
                text.push_str(&format!("Fen: {}\n", g.pos));
                text.push_str(&format!("Key: {:016X}\n", g.key()));
                text.push_str(&format!("No-progress plies: {}\n", g.no_progress));
            }
        }
        text
    }

    /// The position's text: a FEN (Makruk) or Mak-hot position text.
    pub fn fen(&self) -> String {
        match self {
            Board::Makruk(g, _) => g.pos.fen(),
            Board::Makhos(g, _) => g.pos.to_string(),
        }
    }
}

/// A Mak-hot square of the diagram: blank for a light square, `.` for an empty
/// dark one, `w`/`b` for a man and `W`/`B` for a king.
fn makhos_char(pos: &makhos::Position, file: u8, rank: u8) -> char {
    let Some(sq) = makhos::Square::from_coords(file, rank) else {
        return ' ';
    };
    match pos.piece_at(sq) {
        None => '.',
        Some(p) => {
            let c = if p.color == makhos::Color::White {
                'w'
            } else {
                'b'
            };
            if p.role == makhos::Role::King {
                c.to_ascii_uppercase()
            } else {
                c
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_set_up_and_bad_ones_say_where() {
        let setup = Setup::Fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1".into());
        let b = Board::set_up(GameKind::MAKRUK, &setup, &["a1a8".into()]).unwrap();
        let Board::Makruk(g, hist) = &b else {
            panic!("not makruk")
        };
        assert_eq!(hist.len(), 1);
        assert!(g.pos.fen().starts_with("R3k3/8/8/8/8/8/8/4K3 b"));
        let e = Board::set_up(GameKind::MAKRUK, &setup, &["a1a8".into(), "a8a1".into()])
            .err()
            .unwrap();
        assert!(e.starts_with("move 2 'a8a1'"), "{e}");
        let e = Board::set_up(GameKind::MAKRUK, &Setup::Fen("9/8 w".into()), &[])
            .err()
            .unwrap();
        assert!(e.starts_with("bad FEN '9/8 w'"), "{e}");
        let start = Board::start(GameKind::Makhos(makhos::Rules::Default));
        assert_eq!(start.fen(), makhos::Position::start().to_string());
    }
}
