//! Endgame tables as the search sees them: a [`Tablebase`] answers a position with its
//! exact value under the game's rules (the counting fields of Makruk, the no-progress
//! count of Mak-hot), and the search scores the answer so that it prefers the fastest
//! win the rules allow and the longest resistance.
//!
//! The engine does not read table files itself: the tables live in the
//! `thaiboard-tablebase` crate, beside this one, and the program that has both
//! (`thaiboard uci`) implements this trait over them.

/// The exact value of a table position for the side to move, under its counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableValue {
    /// The side to move mates in exactly this many plies with best play, within the
    /// count (Makruk's distance to mate, already compared with the counting fields).
    Mates(u32),
    /// The side to move is mated in exactly this many plies with best play.
    Mated(u32),
    /// Won, but the table knows no mate distance: the number is the plies to the next
    /// milestone of the win (Mak-hot: the next capture or man move), fewer is better.
    Wins(u32),
    /// Lost, with the plies the loser holds out before the next milestone.
    Loses(u32),
    /// Drawn with best play (including a win the count does not leave time for).
    Draw,
}

/// Endgame tables for the positions of one game. [`Tablebase::probe`] is called at
/// every node of the search below the root, so it must answer `None` quickly for
/// positions outside the tables (more pieces than the tables hold, say).
pub trait Tablebase<G>: Sync {
    /// The exact value of `g`, or `None` when the tables do not hold it.
    fn probe(&self, g: &G) -> Option<TableValue>;
}
