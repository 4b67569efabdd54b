//! Distance to win (DTW) of Mak-hot positions, exact under the 32-ply rule.
//!
//! The main tables ([`super::Stored`]) give the plies to the next zeroing move: what the
//! engine needs to make progress. A player also wants to know how far the *end* is: how
//! many plies until the loser cannot move. That distance is stored beside each table, in a
//! file of its own (`makhos-RULES-MATERIAL-dtw.thtb`, metric [`METRIC_DTW32`], two bytes
//! an entry), derived from the finished main tables ([`super::solve_dtw`]).
//!
//! # The metric
//!
//! The state is the position and the plies `r = 32 − c` the count leaves. For a position
//! won at `r` (stored win in `d ≤ r`) the winner plays to end the game soonest, the loser
//! to put it off longest, and the winner may only play moves that keep the win under the
//! count:
//!
//! - `W_r(p) = min` over the moves that keep the win of `1 + L_32(q)` (a zeroing move into
//!   `q`, lost at a fresh count) or `1 + L_{r−1}(q)` (a king move into `q`, stored loss
//!   in `D ≤ r − 1`);
//! - `L_r(p) = max` over every move of `1 + W_32(q)` (zeroing) or `1 + W_{r−1}(q)` (king
//!   move); a position with no move is lost in 0.
//!
//! More plies on the count can only widen the winner's choice, so `W_r` and `L_r` fall
//! (or stay) as `r` grows, and each position *settles* at some `r*`: from there on its
//! distance is the fresh-count one. The file stores, per position, the fresh-count
//! distance `V_32` (12 bits) and the *slack* `r* − z`, where `z` is the stored
//! zeroing distance (4 bits, [`DtwEntry`]; 15 means "15 or more"). A probe with `r` plies
//! left reads the distance straight from the file when `r ≥ z + slack`; closer to the
//! count's end it searches the phase (king moves only, down to the next zeroing move,
//! whose position is read at a fresh count), exactly, with the stored distances as lower
//! bounds ([`super::MakhosTables::distance_to_win`]).
//!
//! # Worked example
//!
//! `W:Wb6,Kc7:Bb8` (White: a man on b6 and a king on c7; Black: a man on b8; White to
//! move). Every White move keeps the win, and the next zeroing move is 1 ply away (stored
//! *win in 1*: whatever White does, Black's man must move next). With a fresh count the
//! game ends soonest by `c7-d6`: 3 plies. With 31 plies on the count (1 left) a king move
//! lets the count run out, so only the man's `b6-a7` wins, and the end is 11 plies away.
//! The file stores 3 with slack 1: the distance is 3 from 2 plies left on (`r* = 2`), and
//! a probe at count 31 searches. `thaiboard tb probe --variant makhos --fen W:Wb6,Kc7:Bb8
//! --count 31` prints 11 plies to the end and `b6-a7` as the only winning move. The
//! longest distance of the three-piece tables is 25 plies (`B:Wc1,e1:BKh4`, whose next
//! zeroing move is 2 plies away).

/// The header's metric code of a distance-to-win file.
pub const METRIC_DTW32: u32 = 2;
/// The longest distance a file can hold (12 bits).
pub const MAX_DTW: u32 = (1 << 12) - 1;
/// The slack that means "this many or more": a probe then always searches below 32 plies.
pub const SLACK_UNKNOWN: u8 = 15;

/// One position's entry in a distance-to-win file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DtwEntry {
    /// Plies to the end of the game with a fresh count (0 for draws and for a side that
    /// cannot move).
    pub plies: u16,
    /// Plies past the zeroing distance from which the distance is the fresh-count one
    /// ([`SLACK_UNKNOWN`]: not known to settle before 32).
    pub slack: u8,
}

impl DtwEntry {
    /// The two bytes stored (little-endian in the file).
    pub const fn to_u16(self) -> u16 {
        self.plies | (self.slack as u16) << 12
    }

    /// The entry of a stored value.
    pub const fn from_u16(v: u16) -> DtwEntry {
        DtwEntry {
            plies: v & MAX_DTW as u16,
            slack: (v >> 12) as u8,
        }
    }

    /// Whether, with `left` plies on the count and the zeroing distance `zeroing`, the
    /// distance is the stored fresh-count one.
    pub fn settled(self, zeroing: u32, left: u32) -> bool {
        left >= super::NO_PROGRESS_LIMIT
            || (self.slack < SLACK_UNKNOWN && left >= zeroing + u32::from(self.slack))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_two_bytes() {
        for plies in [0u16, 1, 9, 255, 4095] {
            for slack in 0..=SLACK_UNKNOWN {
                let e = DtwEntry { plies, slack };
                assert_eq!(DtwEntry::from_u16(e.to_u16()), e);
            }
        }
    }

    #[test]
    fn an_entry_settles_only_from_its_slack_on() {
        let e = DtwEntry { plies: 9, slack: 3 };
        assert!(!e.settled(4, 6));
        assert!(e.settled(4, 7));
        let unknown = DtwEntry {
            plies: 9,
            slack: SLACK_UNKNOWN,
        };
        assert!(!unknown.settled(4, 31));
        assert!(unknown.settled(4, 32));
    }
}
