//! The pure part of conditional moves: checking a player's lines against a
//! game (each move legal, replies agreeing) and following them after the
//! opponent's move. No I/O.

use crate::game::{GameView, ThaiText};
use games::AnyGame;

/// Most lines per player and game.
pub const MAX_LINES: usize = 16;
/// Most plies in a line.
pub const MAX_LINE_PLIES: usize = 20;

/// Lines of moves.
pub type Lines = Vec<Vec<String>>;

/// Lines checked: in engine form, in display form, in Thai notation.
pub type Checked = (Lines, Lines, Vec<Vec<ThaiText>>);

/// Replays a game's moves and then each line, normalising moves to engine
/// form; returns the lines and their display forms, or why one is refused.
pub fn check_lines(view: &GameView, lines: &[Vec<String>]) -> Result<Checked, String> {
    let mut current = AnyGame::new_declared(view.kind);
    for a in view.actions.iter().flatten() {
        a.replay(&mut current).map_err(|e| e.to_string())?;
    }
    let mut out = Vec::new();
    let mut display = Vec::new();
    let mut display_thai = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.is_empty() || line.len() > MAX_LINE_PLIES || line.len() % 2 != 0 {
            return Err(format!(
                "line {}: give pairs of moves (theirs, then your reply), 2 to {MAX_LINE_PLIES} moves",
                i + 1
            ));
        }
        let mut g = current.clone();
        let (mut norm, mut shown, mut thai) = (Vec::new(), Vec::new(), Vec::new());
        for (k, text) in line.iter().enumerate() {
            if g.outcome().is_some() {
                return Err(format!(
                    "line {}, move {}: the game is over before it",
                    i + 1,
                    k + 1
                ));
            }
            let m = g
                .parse_text(text)
                .map_err(|e| format!("line {}, move {} ({text:?}): {e}", i + 1, k + 1))?;
            shown.push(g.display_move(&m));
            thai.push(ThaiText::of(&g.position(), &m));
            g.play(&m).map_err(|e| e.to_string())?;
            norm.push(m.to_engine());
        }
        out.push(norm);
        display.push(shown);
        display_thai.push(thai);
    }
    // Lines that agree up to one of the opponent's moves must agree on the reply.
    for a in 0..out.len() {
        for b in a + 1..out.len() {
            let same = out[a]
                .iter()
                .zip(&out[b])
                .take_while(|(x, y)| x == y)
                .count();
            if same % 2 == 1 && same < out[a].len() && same < out[b].len() {
                return Err(format!(
                    "lines {} and {} answer the same move differently",
                    a + 1,
                    b + 1
                ));
            }
        }
    }
    Ok((out, display, display_thai))
}

/// Follows `lines`, stored when `base` moves were made, after the move
/// `last` (engine form; none if the change was no move) made the game's
/// move count `ply`: the reply of the first line that foresaw it and the
/// rest of every line that did, or none when no line applies any more.
pub fn follow(lines: Lines, base: u32, ply: u32, last: Option<&str>) -> Option<(String, Lines)> {
    let matching: Lines = match last {
        Some(mv) if ply == base + 1 => lines
            .into_iter()
            .filter(|l| l.first().map(String::as_str) == Some(mv))
            .map(|l| l[1..].to_vec())
            .collect(),
        _ => Vec::new(),
    };
    let reply = matching.first().and_then(|l| l.first()).cloned()?;
    let rest = matching.into_iter().map(|l| l[1..].to_vec()).collect();
    Some((reply, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&[&str]]) -> Lines {
        v.iter()
            .map(|l| l.iter().map(|m| m.to_string()).collect())
            .collect()
    }

    #[test]
    fn the_foreseen_move_gets_its_reply_and_keeps_the_rest() {
        let stored = lines(&[&["a", "b", "c", "d"], &["a", "b"], &["x", "y"]]);
        let (reply, rest) = follow(stored, 4, 5, Some("a")).unwrap();
        assert_eq!(reply, "b");
        assert_eq!(rest, lines(&[&["c", "d"], &[]]));
    }

    #[test]
    fn anything_else_cancels_the_lines() {
        let stored = lines(&[&["a", "b"]]);
        assert!(follow(stored.clone(), 4, 5, Some("z")).is_none());
        assert!(
            follow(stored.clone(), 4, 6, Some("a")).is_none(),
            "a later move"
        );
        assert!(follow(stored, 4, 5, None).is_none(), "no move");
    }
}
