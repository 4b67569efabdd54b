//! Puzzles for Makruk, Ouk Chatrang and Mak-hot: which positions make a
//! puzzle, the themes and starting rating of a solution, and self-play games
//! to mine. Pure: no files; `thaiboard puzzles` does the reading and writing.
//!
//! - [`judge`]: the rule of a puzzle step, "one move wins clearly and every
//!   other move does not", by a search at a fixed depth (MultiPV 2, a fresh
//!   table each time, so a check repeats the miner's verdict) or by endgame
//!   tables; [`Judge::solve`] builds the unique line to a decided position
//!   and [`Judge::check`] re-checks one.
//! - [`themes`]: themes, the starting rating and the stable id.
//! - [`material`]: the material the rules above count.
//! - [`selfplay`]: varied engine games to mine.
//!
//! A puzzle found is a [`records::puzzle::Puzzle`] (the set's line format):
//! [`make_puzzle`] fills one from a solved line.

pub mod judge;
pub mod material;
pub mod selfplay;
pub mod themes;

pub use judge::{Judge, Line, Tables, Verdict};

use games::AnyPosition;
use records::puzzle::Puzzle;

/// The puzzle of a solved `line` from `start`: its id, themes and rating.
pub fn make_puzzle(start: &AnyPosition, line: &Line, source: &str) -> Puzzle {
    let themes = themes::themes(start, line);
    Puzzle {
        id: themes::puzzle_id(start, &line.moves),
        kind: start.kind(),
        fen: start.fen(),
        solution: line.moves.clone(),
        rating: themes::rating(start, line, &themes),
        themes,
        source: source.to_string(),
    }
}
