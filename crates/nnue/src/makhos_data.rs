//! Mak-hot training positions: shards (see [`crate::data`]) of `THNNMKHS`
//! records of [`MAKHOS_RECORD_BYTES`] bytes (numbers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | White's pieces: bit `i` for the dark square of index `i` (b8 is 0, g1 is 31) |
//! | 4 | Black's pieces, the same way |
//! | 4 | the kings among them |
//! | 1 | side to move (0 White, 1 Black) |
//! | 1 | the game's result (0 Black won, 1 draw, 2 White won) |
//! | 2 | the search score, centi-men from the side to move's view (i16) |
//! | 4 | the game's number within its shard (u32) |

use crate::data::{Sample, result_for, stored_score};
use engine::eval::nnue::{Base, Layout, makhos as net};
use engine::eval::{MakhosWeights, evaluate_makhos};
use makhos::{Bitboard, Color, Position};

/// Bytes of one Mak-hot record.
pub const MAKHOS_RECORD_BYTES: usize = 20;

/// One Mak-hot training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MakhosRecord {
    /// The position (side to move included).
    pub pos: Position,
    /// The game's result for White: 0 lost, 1 draw, 2 won.
    pub result: u8,
    /// The search score in centi-men, side to move's view.
    pub score: i16,
    /// The game's number within its shard.
    pub game: u32,
}

impl MakhosRecord {
    /// The record of `pos` with its search `score` (clamped to
    /// [`crate::data::MAX_SCORE`]) and its game's `result` and number.
    pub fn new(pos: &Position, score: i32, result: u8, game: u32) -> MakhosRecord {
        MakhosRecord {
            pos: *pos,
            result,
            score: stored_score(score),
            game,
        }
    }
}

impl Sample for MakhosRecord {
    const LAYOUT: Layout = Layout::Makhos;
    const MAGIC: &'static [u8; 8] = b"THNNMKHS";
    const BYTES: usize = MAKHOS_RECORD_BYTES;

    fn write(&self, out: &mut Vec<u8>) {
        let p = &self.pos;
        for bits in [
            p.pieces(Color::White).0,
            p.pieces(Color::Black).0,
            p.kings(Color::White).0 | p.kings(Color::Black).0,
        ] {
            out.extend_from_slice(&bits.to_le_bytes());
        }
        out.push(u8::from(p.turn() == Color::Black));
        out.push(self.result);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
    }

    fn read(b: &[u8]) -> Option<MakhosRecord> {
        if b.len() != MAKHOS_RECORD_BYTES || b[12] > 1 || b[13] > 2 {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let (white, black, kings) = (u32_at(0), u32_at(4), u32_at(8));
        if kings & !(white | black) != 0 || white | black == 0 {
            return None;
        }
        let turn = if b[12] == 0 {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::from_bitboards(Bitboard(white), Bitboard(black), Bitboard(kings), turn)
            .ok()?;
        Some(MakhosRecord {
            pos,
            result: b[13],
            score: i16::from_le_bytes([b[14], b[15]]),
            game: u32_at(16),
        })
    }

    fn inputs(&self, us: &mut Vec<u16>, them: &mut Vec<u16>) -> usize {
        us.clear();
        them.clear();
        let mover = self.pos.turn();
        net::each_active(&self.pos, mover, |f| us.push(f as u16));
        net::each_active(&self.pos, mover.other(), |f| them.push(f as u16));
        net::output_bucket(self.pos.occupied().count())
    }

    fn score(&self) -> i16 {
        self.score
    }

    fn result_for_mover(&self) -> f32 {
        result_for(self.result, self.pos.turn() == Color::White)
    }

    fn game(&self) -> u32 {
        self.game
    }

    /// Mak-hot networks add to nothing.
    fn base_score(&self, _base: Base) -> i32 {
        0
    }

    fn classical(&self) -> Option<i32> {
        Some(evaluate_makhos(&self.pos, &MakhosWeights::DEFAULT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::MAX_SCORE;

    fn sample() -> MakhosRecord {
        let pos: Position = "W:WKd4,a3,c3,e3:Bb8,d8,Kg1"
            .parse()
            .expect("a Mak-hot position");
        MakhosRecord::new(&pos, -5000, 2, 9)
    }

    #[test]
    fn a_record_keeps_its_position_and_labels() {
        let r = sample();
        let mut bytes = Vec::new();
        r.write(&mut bytes);
        assert_eq!(bytes.len(), MAKHOS_RECORD_BYTES);
        let back = MakhosRecord::read(&bytes).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.score, -MAX_SCORE as i16);
        assert_eq!(back.result_for_mover(), 1.0);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let bucket = back.inputs(&mut us, &mut them);
        assert_eq!((us.len(), them.len(), bucket), (7, 7, 1));
    }

    #[test]
    fn damaged_records_are_refused() {
        let mut good = Vec::new();
        sample().write(&mut good);
        let mut overlap = good.clone();
        overlap[4..8].copy_from_slice(&good[0..4]);
        assert!(MakhosRecord::read(&overlap).is_none());
        let mut stray_king = good.clone();
        stray_king[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(MakhosRecord::read(&stray_king).is_none());
        let mut bad_turn = good.clone();
        bad_turn[12] = 2;
        assert!(MakhosRecord::read(&bad_turn).is_none());
        assert!(MakhosRecord::read(&good[..19]).is_none());
    }
}
