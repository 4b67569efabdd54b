//! Mak-hot endgame databases under RULES.md section 2.
//!
//! # The rules the tables decide
//!
//! A player who cannot move loses (checked first, whatever the counts); one king against
//! one king is a draw; the game is drawn once 32 plies in a row have passed with no
//! capture and no man move (`no_progress ≥ 32` before a move). Threefold repetition is a
//! draw, so a position the winner cannot force is a draw.
//!
//! A capture or a man move is *zeroing*: it resets the count and can never be undone (men
//! only go forward, material only goes down). So the game between zeroing moves is a
//! race against the count, and the game as a whole is acyclic once the count is part of
//! the state: repetitions never matter to a forced win.
//!
//! # The metric: plies to the next zeroing move (DTZ), exact under the 32-ply rule
//!
//! Each position `p` (with its side to move) stores one byte ([`Stored`]):
//! - **win in `d`** (`1 ≤ d ≤ 32`): the side to move can force, within `d` plies, a zeroing
//!   move into a position lost for the opponent with a fresh count, or a position where
//!   the opponent cannot move; `d` is the least such number against the longest defence;
//! - **loss in `D`** (`0 ≤ D ≤ 32`): whatever the side to move does, within `D` plies it
//!   makes a zeroing move into a position the opponent wins with a fresh count, or the
//!   opponent wins as above; `D = 0` means it cannot move now;
//! - **draw** otherwise.
//!
//! With the count at `c` plies (`no_progress`), the position is won iff `d ≤ 32 − c`, lost
//! iff `D ≤ 32 − c`, and drawn otherwise. By induction on the plies left `r = 32 − c`:
//! a zeroing move resets the count, so it wins iff the position after it is lost at
//! count 0; a king move leaves `r − 1` plies to the opponent, so it wins iff the
//! opponent's `D ≤ r − 1`. Hence `d(p) = min over moves` of `1` (zeroing into a loss at
//! count 0) or `1 + D(p')` (king move), and `D(p) = max over moves` of `1` (zeroing into a
//! win at count 0) or `1 + d(p')` (king move); distances above 32 can never be met and are
//! stored as draws. The winner's line never repeats a position (its distance falls every
//! ply), so the repetition rule never saves the loser.
//!
//! Worked example: `W:WKb8,Kd8:BKh2` (two kings against one, White to move) is stored as
//! *win in 7*: `d8-b6` leaves Black a *loss in 6*, and within 7 plies White captures the
//! king. With 25 plies on the count (7 left) it is still won; with 26 (6 left) it is a
//! draw, because Black can keep away until the 32-ply rule ends the game.
//! `thaiboard tb probe --variant makhos --fen W:WKb8,Kd8:BKh2 --count 26` prints `draw`.
//!
//! # Generation
//!
//! [`generate`] solves the materials in [`Material::all_up_to`] order (captures and
//! promotions lead to tables already solved). Only one material of each colour-flipped
//! pair has a table ([`Material::is_canonical`]); [`resolve`] turns a position of the other
//! ([`makhos::Position::flipped`]), for generation and probing alike. Within a table,
//! layouts (placements of the men) are solved from the most advanced down (man moves lead
//! to solved layouts). Within a layout only king moves stay inside: a first pass values
//! every position's zeroing moves and counts its king moves, then round `n` finds the wins
//! in `n` and losses in `n`, `n = 1..=32`, going back from the positions decided in round
//! `n − 1` by sliding a king back.

mod api;
mod consistency;
mod dtw;
mod dtw_solve;
mod error;
mod generate;
mod index;
mod layout_moves;
mod probe;

pub use api::{Answer, MoveAnswer, answer};
pub use consistency::{Inconsistency, check_table};
pub use dtw::{DtwEntry, MAX_DTW, METRIC_DTW32, SLACK_UNKNOWN};
pub use dtw_solve::solve_dtw;
pub use error::GenerateError;
pub use generate::{GenerateProgress, generate, generate_table, leads_to};
pub use index::{Material, MaterialParseError, TableIndex};
pub use probe::{
    EXTENSION, Located, MakhosTables, MoveValue, Probe, ProbeError, Wdl, dtw_file_name, file_name,
    locate, resolve, rules_code,
};

/// The 32-ply no-progress limit of RULES.md section 2 (the same as `makhos::NO_PROGRESS_LIMIT`).
pub const NO_PROGRESS_LIMIT: u32 = makhos::NO_PROGRESS_LIMIT;
/// The header's metric code for this module's byte encoding.
pub const METRIC_DTZ32: u32 = 1;
/// Byte of a draw.
pub const DRAW: u8 = 0;
/// Byte of a loss in `D` plies: `LOSS_BASE + D`.
pub const LOSS_BASE: u8 = 64;
/// Byte of an entry that holds no position (men sharing a square).
pub const INVALID: u8 = 255;

/// A table entry: the value with a fresh count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Won: a zeroing move into a won position (or a blocked opponent) in this many plies.
    Win(u8),
    /// Lost: the opponent reaches that in at most this many plies.
    Loss(u8),
    /// Neither side can force anything before the count runs out.
    Draw,
}

impl Stored {
    /// The byte stored in a table.
    pub const fn to_byte(self) -> u8 {
        match self {
            Stored::Win(d) => d,
            Stored::Loss(d) => LOSS_BASE + d,
            Stored::Draw => DRAW,
        }
    }

    /// The value of a stored byte, or `None` for [`INVALID`] and bytes no table holds.
    pub const fn from_byte(b: u8) -> Option<Stored> {
        match b {
            DRAW => Some(Stored::Draw),
            1..=32 => Some(Stored::Win(b)),
            64..=96 => Some(Stored::Loss(b - LOSS_BASE)),
            _ => None,
        }
    }

    /// The value with `no_progress` plies already on the count.
    pub fn at_count(self, no_progress: u32) -> Wdl {
        let left = NO_PROGRESS_LIMIT.saturating_sub(no_progress);
        match self {
            Stored::Win(d) if d as u32 <= left => Wdl::Win,
            Stored::Loss(d) if d as u32 <= left => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }
}
