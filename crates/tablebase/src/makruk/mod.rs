//! Counting-aware Makruk and Ouk Chatrang tables: the design, the count arithmetic every
//! table kind shares, and the tables of three and four pieces (khuns included): every
//! material of ruea, ma, khon, met (a promoted bia is a met) and bia, both sides; and of
//! five pieces the endings without khon or bia (three of ruea, ma and met against a bare
//! khun, or two against one) in an index folded by the board's symmetries ([`index`]);
//! solved by retrograde analysis ([`solve`]: a forward pass values each position's exits,
//! then un-moves spread the results backward), proved consistent move by move
//! ([`consistency`]), stored for the canonical colouring of each material
//! ([`material`]) and read back by [`MakrukTables`]. [`BareTable`], the first generator
//! (three pieces, forward rounds over lists of children), stays as an independent check:
//! the retrograde generator must give its tables byte for byte.
//!
//! # The clock a table answers against
//!
//! RULES.md section 1 draws a game when `counting_ply > counting_limit` and the side to
//! move is not checkmated. So the move that decides a count phase — the mate, or the
//! capture that starts a new count — can be made from any state with `counting_ply ≤
//! counting_limit`: from a position with the count at `ply`, the deciding move must be
//! the `k`-th ply from now with `k ≤ limit − ply + 1` ([`plies_left`]). Each table stores
//! a distance in plies to the end of its phase with best play (the winner shortest, the
//! loser longest), and a probe compares it with [`plies_left`] of the position's
//! counting fields. A distance longer than every count of the variant leaves is stored
//! as it is (a draw under any count, a win or loss only without one): Ouk Chatrang's
//! `KRvKN` holds wins of up to 135 plies against a board's-honour count of 126. An entry
//! is one byte, or two in the tables with a distance past a byte ([`entry`]).
//!
//! # The three phases, each with its metric
//!
//! **Pieces' honour** (one side has a bare khun, no unpromoted bia in Makruk). The count
//! is fixed when the khun becomes bare (limit by the other side's material, start at
//! twice the pieces on the board), and a capture by the bare khun does not restart it.
//! Nothing else can change it, so the metric is plain **distance to mate (DTM)**, across
//! the bare khun's captures too (the smaller table's DTM is compared with the same
//! clock). A position is won iff `DTM ≤ limit − ply + 1`.
//!
//! *Worked example (the rule book's).* Two rueas and a ma against a bare khun, five pieces
//! on the board: `limit = 2·8 = 16` plies, the count starts at `2·5 = 10` with the bare
//! khun to move, so [`plies_left`] is `16 − 10 + 1 = 7`: the stronger side must mate
//! with a DTM of 2, 4 or 6 plies — its 1st, 2nd or 3rd move, the rule book's "mate within
//! 8 − 5 = 3 moves". A DTM-8 mate (a fourth move) is a draw.
//!
//! **Board's honour** (no bare khun, no unpromoted bia in Makruk; in Ouk Chatrang a side
//! with two or three pieces even with bias on the board). One count runs through captures
//! that leave both sides more than a khun; a capture that leaves a bare khun replaces it
//! with a fresh pieces'-honour count, whose value at its start is a fixed win or draw
//! read from the pieces'-honour table. The metric is **distance to conversion**: plies to
//! mate, or to a capture into a pieces'-honour position won at its starting count. Won
//! iff the distance is `≤ limit − ply + 1` of the running board's-honour count.
//!
//! *Worked example.* Ruea and ma against met (`K R N v K M`, 5 pieces, Makruk): the count
//! is board's honour, 64 moves, `limit = 128`. A capture of the met leaves `K R N v K`
//! (4 pieces): the new count has `limit = 2·16 = 32` and starts at `2·4 = 8`, so that
//! capture wins iff the ruea-and-ma table's DTM there is `≤ 32 − 8 + 1 = 25`. The
//! table's longest win, `8/8/8/8/3mR3/2Nk4/8/K7 w`, stores 41: mate, or such a capture,
//! on the 41st ply with best defence. So it is won with the running count at any
//! `ply ≤ 128 − 41 + 1 = 88` (`tb probe` at ply 88: "win (DTC +41); the count leaves 41
//! plies") and drawn from ply 89 ("the count leaves 40 plies").
//!
//! **Bias on the board** (Makruk). No count runs, and there is no repetition rule, so
//! positions not won by force are draws. A promotion of the last bia, or its capture,
//! starts a count whose state is fixed by the position (board's honour from ply 0, or
//! pieces' honour from twice the pieces), so such a move is valued from the next
//! phase's table at that starting count. The metric is **distance to mate or to the
//! move that starts the count into a won position**, stored for information only (no
//! clock to compare with).
//!
//! *Worked example.* `K P v K` (Makruk): nobody counts while the bia stands. When it
//! promotes, the khun left alone counts pieces' honour ("otherwise 64" moves: `limit =
//! 128`) from `2·3 = 6`, so the promotion wins iff the `K M v K` table's DTM of the
//! position after it is `≤ 128 − 6 + 1 = 123`; the `K P v K` entry stores the plies to
//! that promotion (or to a mate before it).
//!
//! Ouk Chatrang uses the same three phases with its own limits
//! ([`makruk::CountingRules::of`]), and its board's honour may run with bias on the board;
//! tables therefore carry their variant.

mod answer;
mod bare;
pub mod consistency;
pub mod entry;
pub mod index;
pub mod material;
pub mod solve;
mod tables;

pub use answer::{MakrukAnswer, MakrukMoveAnswer};
pub use bare::{BARE_ROLES, BareTable, Dtm, HonourReport};
pub use tables::{
    GenerateError, METRIC_PHASE_DISTANCE, METRIC_PHASE_DISTANCE_FOLDED,
    METRIC_PHASE_DISTANCE_FOLDED_WIDE, METRIC_PHASE_DISTANCE_WIDE, MakrukTables, Solved,
    TableProgress, Verdict, generate, generate_tables, material_phase, plan, table_file_name,
};

use makruk::{CountKind, Position};

/// Plies in which the phase's deciding move (mate, or the capture that starts a new
/// count) may still land: the `k`-th ply from now is in time iff `k ≤ plies_left`.
/// `None` when no count runs.
pub fn plies_left(pos: &Position) -> Option<u32> {
    let count = pos.counting()?;
    Some((count.limit + 1).saturating_sub(count.ply))
}

/// The phase a position is in, and so which metric its table stores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A bare khun: distance to mate against a fixed count.
    PiecesHonour,
    /// A running board's-honour count: distance to mate or to a won pieces'-honour start.
    BoardsHonour,
    /// No count (bias on the board): distance to mate or to a won counted position.
    NoCount,
}

/// The phase of `pos` under its counting fields (the automatic counting of RULES.md).
pub fn phase(pos: &Position) -> Phase {
    match pos.counting().map(|c| c.kind) {
        Some(CountKind::PiecesHonour) => Phase::PiecesHonour,
        Some(CountKind::BoardsHonour) => Phase::BoardsHonour,
        None => Phase::NoCount,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::Variant;

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(variant, fen).unwrap()
    }

    /// RULES.md: two rueas and a ma against a bare khun, 5 pieces: mate within 3 moves.
    #[test]
    fn two_rueas_and_a_ma_against_a_bare_khun_leave_three_moves() {
        // The count as it starts when the last black piece falls: limit 16, ply 10.
        let p = pos(Variant::Makruk, "4k3/8/8/8/8/8/8/RR1K2N1 b - 16 10 1");
        assert_eq!(phase(&p), Phase::PiecesHonour);
        let left = plies_left(&p).unwrap();
        assert_eq!(left, 7);
        // Black moves first: White's moves are plies 2, 4, 6, ... of which 3 are in time.
        assert_eq!((1..=left).filter(|k| k % 2 == 0).count(), 3);
    }

    #[test]
    fn a_bia_on_the_board_stops_every_makruk_count() {
        let p = pos(Variant::Makruk, "4k3/8/8/8/8/4P3/8/3K4 w - - 0 1");
        assert_eq!(phase(&p), Phase::NoCount);
        assert_eq!(plies_left(&p), None);
    }

    #[test]
    fn ouk_chatrang_counts_boards_honour_with_bias_on_the_board() {
        let p = pos(Variant::Cambodian, "4k3/8/4p3/8/8/8/8/R2K4 w - 126 0 1");
        assert_eq!(phase(&p), Phase::BoardsHonour);
        assert_eq!(plies_left(&p), Some(127));
    }
}
