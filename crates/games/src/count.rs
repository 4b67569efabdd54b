//! Makruk and Ouk Chatrang counts as players say them aloud.
//!
//! The rules keep a count in plies (`counting_ply` of `counting_limit`,
//! RULES.md, "Counting rules"). Over the board the fleeing side counts its
//! own moves aloud: board's honour from 1 to 64, pieces' honour from the
//! number of pieces on the board plus one up to the limit. This is the one
//! place that turns the first into the second.

/// A running count as players say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpokenCount {
    /// The number the counting side says on its next move when it is to
    /// move, or the one it said last when the other side is to move (1 when
    /// it has said none yet).
    pub count: u32,
    /// The last number it may say: the game is drawn when it would say the
    /// next one without having been mated.
    pub limit: u32,
}

/// The count said aloud for a count at `ply` of `limit` plies (both as the
/// rules and the FEN keep them). `counter_to_move`: whether the counting
/// side is to move; `None` when the counting side is unknown (a count the
/// rules started by themselves, which starts with its side to move at an
/// even ply).
pub fn spoken_count(ply: u32, limit: u32, counter_to_move: Option<bool>) -> SpokenCount {
    let counter_to_move = counter_to_move.unwrap_or(ply % 2 == 0);
    // The counting side moved first from ply 0 when it is to move at even plies.
    let first = counter_to_move == (ply % 2 == 0);
    let said = if first { ply.div_ceil(2) } else { ply / 2 };
    let limit = limit / 2;
    SpokenCount {
        count: (said + u32::from(counter_to_move)).clamp(1, limit.max(1)),
        limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_honour_starts_after_the_pieces_on_the_board() {
        // RULES.md: two rueas and a ma against a bare khun, 5 pieces: the
        // count starts at 2 * 5 plies of 2 * 8; the bare khun says 6, 7, 8.
        let spoken = |ply, to_move| spoken_count(ply, 16, Some(to_move));
        assert_eq!(spoken(10, true), SpokenCount { count: 6, limit: 8 });
        assert_eq!(spoken(11, false).count, 6);
        assert_eq!(spoken(12, true).count, 7);
        assert_eq!(spoken(13, false).count, 7);
        assert_eq!(spoken(14, true).count, 8);
        assert_eq!(spoken(15, false).count, 8);
        // Three moves of the stronger side (plies 11, 13, 15) to mate: 8 - 5.
        // RULES.md: khon, two mets and a bia, 6 pieces: from 7 to 44.
        assert_eq!(
            spoken_count(12, 88, Some(true)),
            SpokenCount {
                count: 7,
                limit: 44
            }
        );
        // RULES.md's FEN `8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1`: four pieces,
        // the bare khun (Black) to move says 5 of 44.
        assert_eq!(
            spoken_count(8, 88, Some(true)),
            SpokenCount {
                count: 5,
                limit: 44
            }
        );
        // The count a nobody-declared automatic count shows the same.
        assert_eq!(spoken_count(8, 88, None).count, 5);
        assert_eq!(spoken_count(10, 88, None).count, 6);
    }

    #[test]
    fn boards_honour_counts_from_one_to_sixty_four() {
        assert_eq!(
            spoken_count(0, 128, Some(true)),
            SpokenCount {
                count: 1,
                limit: 64
            }
        );
        assert_eq!(spoken_count(1, 128, Some(false)).count, 1);
        assert_eq!(spoken_count(2, 128, Some(true)).count, 2);
        assert_eq!(spoken_count(126, 128, Some(true)).count, 64);
        assert_eq!(spoken_count(127, 128, Some(false)).count, 64);
        // Its next move would be the 65th: shown as the last, 64.
        assert_eq!(spoken_count(128, 128, Some(true)).count, 64);
        // Ouk Chatrang's board's honour runs to 63.
        assert_eq!(spoken_count(0, 126, Some(true)).limit, 63);
    }

    #[test]
    fn a_count_declared_by_the_side_not_to_move_starts_at_its_next_move() {
        // Declared after its own move: the other side moves first (ply 0 -> 1).
        assert_eq!(spoken_count(0, 128, Some(false)).count, 1);
        assert_eq!(spoken_count(1, 128, Some(true)).count, 1);
        assert_eq!(spoken_count(2, 128, Some(false)).count, 1);
        assert_eq!(spoken_count(3, 128, Some(true)).count, 2);
        assert_eq!(spoken_count(127, 128, Some(true)).count, 64);
    }
}
