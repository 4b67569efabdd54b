//! King moves inside a layout (the men fixed), found by sliding kings, and the threads
//! the layout passes of generation share out over: what the main tables' generator and
//! the distance-to-win solver both use.

use super::index::LayoutIndex;
use makhos::{Bitboard, Color, king_slides};

/// Threads for the parts of generation that share out: one per core.
pub(super) fn worker_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Layouts with fewer entries than this are scanned on one thread (starting threads would
/// cost more than it saves).
pub(super) const PARALLEL_MIN_ENTRIES: usize = 1 << 14;

/// Calls `visit` with every entry of the layout from which a king move of the side that
/// just moved leads to entry `p`: that side's king on `s` came from a square `t` it can
/// slide back to (slides are symmetric), with that side to move. Whether the move was
/// legal there (no capture was compulsory) is the caller's [`QUIET`] check.
#[inline]
pub(super) fn predecessors(layout: &LayoutIndex, p: u32, mut visit: impl FnMut(usize)) {
    let (turn, wk, bk) = layout.kings_at(u64::from(p));
    let (white_men, black_men) = layout.men();
    let occupied = Bitboard(white_men.0 | black_men.0 | wk.0 | bk.0);
    let mover = turn.other();
    let kings = if mover == Color::White { wk } else { bk };
    for s in kings.squares() {
        for t in king_slides(s, occupied).squares() {
            let moved = Bitboard(kings.0 & !s.bit() | t.bit());
            let q = if mover == Color::White {
                layout.entry(mover, moved, bk)
            } else {
                layout.entry(mover, wk, moved)
            };
            visit(q as usize);
        }
    }
}

/// Calls `visit` with every entry a king move of the side to move at `p` leads to.
pub(super) fn successors(layout: &LayoutIndex, p: usize, mut visit: impl FnMut(usize)) {
    let (turn, wk, bk) = layout.kings_at(p as u64);
    let (white_men, black_men) = layout.men();
    let occupied = Bitboard(white_men.0 | black_men.0 | wk.0 | bk.0);
    let kings = if turn == Color::White { wk } else { bk };
    for s in kings.squares() {
        for t in king_slides(s, occupied).squares() {
            let moved = Bitboard(kings.0 & !s.bit() | t.bit());
            let q = if turn == Color::White {
                layout.entry(Color::Black, moved, bk)
            } else {
                layout.entry(Color::White, wk, moved)
            };
            visit(q as usize);
        }
    }
}
