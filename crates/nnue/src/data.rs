//! Training positions: shards of fixed-size binary records, of Makruk
//! ([`Record`]) or Mak-hot ([`crate::makhos_data::MakhosRecord`]), both
//! [`Sample`]s.
//!
//! A shard file is 8 bytes of magic (`THNNDATA` for Makruk, see
//! [`Sample::MAGIC`]), a format version (u32, 1), then records of
//! [`Sample::BYTES`] bytes each (all numbers little-endian). A Makruk
//! record:
//!
//! | bytes | field |
//! |---|---|
//! | 32 | the board, a nibble per square a1, b1, ..., h8 (low nibble first): 0 empty, 1-6 a White bia, met, khon, ma, ruea, khun, 9-14 the same for Black |
//! | 1 | side to move (0 White, 1 Black) |
//! | 1 | the game's result (0 Black won, 1 draw, 2 White won) |
//! | 2 | the search score, centipawns from the side to move's view (i16) |
//! | 4 | the game's number within its shard (u32) |
//!
//! Shards are written whole to a temporary name and renamed, so a shard
//! that exists is complete; a shard of the wrong length is refused.

use engine::eval::MakrukWeights;
use engine::eval::nnue::{Base, Layout, View, output_bucket};
use makruk::{Color, Piece, Position, Role, Setup, Square, Variant};
use std::path::{Path, PathBuf};

/// The shard format version.
pub const VERSION: u32 = 1;
/// Bytes of one Makruk record.
pub const RECORD_BYTES: usize = 40;
/// Bytes before the first record.
pub const HEADER_BYTES: usize = 12;
/// Search scores are stored clamped to this many centipawns.
pub const MAX_SCORE: i32 = 4000;

/// A score in centipawns as a record stores it: clamped to [`MAX_SCORE`].
pub fn stored_score(cp: i32) -> i16 {
    cp.clamp(-MAX_SCORE, MAX_SCORE) as i16
}

/// A training position of one game, as shards store it and the trainer
/// reads it.
pub trait Sample: Sized + Clone + Send + Sync + std::fmt::Debug {
    /// The layout of the networks it trains.
    const LAYOUT: Layout;
    /// The first bytes of its shards.
    const MAGIC: &'static [u8; 8];
    /// Bytes of one record.
    const BYTES: usize;
    /// Appends the record's bytes to `out`.
    fn write(&self, out: &mut Vec<u8>);
    /// A record from its bytes; `None` when a field is out of range.
    fn read(b: &[u8]) -> Option<Self>;
    /// The features on from the side to move's view and the other side's,
    /// and the output bucket: the network's inputs for this position.
    fn inputs(&self, us: &mut Vec<u16>, them: &mut Vec<u16>) -> usize;
    /// The search score in centipawns, side to move's view.
    fn score(&self) -> i16;
    /// The game's result from the side to move's view: 1 won, 0.5 drawn,
    /// 0 lost.
    fn result_for_mover(&self) -> f32;
    /// The game's number within its shard.
    fn game(&self) -> u32;
    /// The score of `base` for the record, in centipawns from the side to
    /// move's view.
    fn base_score(&self, base: Base) -> i32;
    /// The classical static evaluation of the position with the weights
    /// the engine plays with, side to move's view (`None` for a board the
    /// rules refuse).
    fn classical(&self) -> Option<i32>;
}

/// The game's result for White (0 lost, 1 draw, 2 won) from the side to
/// move's view: 1 won, 0.5 drawn, 0 lost.
pub fn result_for(result: u8, white_to_move: bool) -> f32 {
    let white = f32::from(result) / 2.0;
    if white_to_move { white } else { 1.0 - white }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Nibble-packed board (see the module's table).
    pub board: [u8; 32],
    /// Whether White is to move.
    pub white_to_move: bool,
    /// The game's result for White: 0 lost, 1 draw, 2 won.
    pub result: u8,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// The game's number within its shard.
    pub game: u32,
}

impl Record {
    /// The record of `pos` with its search `score` (clamped to
    /// [`MAX_SCORE`]) and its game's `result` and number.
    pub fn new(pos: &Position, score: i32, result: u8, game: u32) -> Record {
        let mut board = [0u8; 32];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    let code = 1 + role.index() as u8 + color.fold(0, 8);
                    board[sq.index() / 2] |= code << (4 * (sq.index() % 2));
                }
            }
        }
        Record {
            board,
            white_to_move: pos.turn() == Color::White,
            result,
            score: stored_score(score),
            game,
        }
    }

    /// The position of the record (a promoted bia comes back as a met,
    /// and no count runs: the network sees it so too); `None` for a board
    /// the rules refuse.
    pub fn position(&self) -> Option<Position> {
        let mut setup = Setup::empty();
        for (sq, slot) in setup.board.iter_mut().enumerate() {
            *slot = self.piece(sq).map(|(color, role)| Piece { color, role });
        }
        setup.turn = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        Position::from_setup(Variant::Makruk, &setup).ok()
    }

    /// The piece on square index `sq`, if any.
    pub fn piece(&self, sq: usize) -> Option<(Color, Role)> {
        let code = (self.board[sq / 2] >> (4 * (sq % 2))) & 15;
        let role = *Role::ALL.get(usize::from(code & 7).checked_sub(1)?)?;
        Some((
            if code & 8 == 0 {
                Color::White
            } else {
                Color::Black
            },
            role,
        ))
    }

    /// The record as bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[..32].copy_from_slice(&self.board);
        out[32] = u8::from(!self.white_to_move);
        out[33] = self.result;
        out[34..36].copy_from_slice(&self.score.to_le_bytes());
        out[36..40].copy_from_slice(&self.game.to_le_bytes());
        out
    }

    /// A record from its bytes; `None` when a field is out of range.
    pub fn from_bytes(b: &[u8]) -> Option<Record> {
        if b.len() != RECORD_BYTES || b[32] > 1 || b[33] > 2 {
            return None;
        }
        let r = Record {
            board: b[..32].try_into().ok()?,
            white_to_move: b[32] == 0,
            result: b[33],
            score: i16::from_le_bytes([b[34], b[35]]),
            game: u32::from_le_bytes(b[36..40].try_into().ok()?),
        };
        // Exactly one khun a side, and no unknown piece codes.
        let mut khuns = [0; 2];
        for sq in 0..64 {
            let code = (r.board[sq / 2] >> (4 * (sq % 2))) & 15;
            if code != 0 && !(1..=6).contains(&(code & 7)) {
                return None;
            }
            if let Some((c, Role::King)) = r.piece(sq) {
                khuns[c.index()] += 1;
            }
        }
        (khuns == [1, 1]).then_some(r)
    }
}

impl Sample for Record {
    const LAYOUT: Layout = Layout::Makruk;
    const MAGIC: &'static [u8; 8] = b"THNNDATA";
    const BYTES: usize = RECORD_BYTES;

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bytes());
    }

    fn read(b: &[u8]) -> Option<Record> {
        Record::from_bytes(b)
    }

    fn inputs(&self, us: &mut Vec<u16>, them: &mut Vec<u16>) -> usize {
        us.clear();
        them.clear();
        let mut khun = [Square::new(0).expect("a1"); 2];
        let mut pieces = 0;
        for sq in 0..64 {
            if let Some((c, role)) = self.piece(sq) {
                pieces += 1;
                if role == Role::King {
                    khun[c.index()] = Square::new(sq as u8).expect("square");
                }
            }
        }
        let mover = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let views = [View::new(mover, khun[mover.index()]), {
            let other = mover.other();
            View::new(other, khun[other.index()])
        }];
        for sq in 0..64 {
            if let Some((c, role)) = self.piece(sq) {
                let s = Square::new(sq as u8).expect("square");
                us.push(views[0].feature(c, role, s) as u16);
                them.push(views[1].feature(c, role, s) as u16);
            }
        }
        output_bucket(pieces)
    }

    fn score(&self) -> i16 {
        self.score
    }

    fn result_for_mover(&self) -> f32 {
        result_for(self.result, self.white_to_move)
    }

    fn game(&self) -> u32 {
        self.game
    }

    /// With the weights the engine plays with (0 for a board the rules
    /// refuse).
    fn base_score(&self, base: Base) -> i32 {
        match base {
            Base::Zero => 0,
            _ => self
                .position()
                .map_or(0, |pos| base.relative(&pos, &MakrukWeights::DEFAULT)),
        }
    }

    fn classical(&self) -> Option<i32> {
        let pos = self.position()?;
        Some(engine::eval::evaluate_makruk(&pos, &MakrukWeights::DEFAULT))
    }
}

/// The path of shard number `n` in `dir`.
pub fn shard_path(dir: &Path, n: u64) -> PathBuf {
    dir.join(format!("shard-{n:05}.bin"))
}

/// The complete shards in `dir`, in order of their numbers.
pub fn shards(dir: &Path) -> Result<Vec<(u64, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(n) = name
            .strip_prefix("shard-")
            .and_then(|s| s.strip_suffix(".bin"))
            .and_then(|s| s.parse::<u64>().ok())
        {
            found.push((n, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// Writes a shard of `records` as `path`, whole or not at all (through a
/// temporary file renamed into place).
pub fn write_shard<R: Sample>(path: &Path, records: &[R]) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(HEADER_BYTES + records.len() * R::BYTES);
    bytes.extend_from_slice(R::MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    for r in records {
        r.write(&mut bytes);
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a shard; a file of another format, version or length, or with a
/// record out of range, is refused with the reason.
pub fn read_shard<R: Sample>(path: &Path) -> Result<Vec<R>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let at = |what: String| format!("{}: {what}", path.display());
    if bytes.len() < HEADER_BYTES || &bytes[..8] != R::MAGIC {
        let magic = String::from_utf8_lossy(R::MAGIC);
        let game = R::LAYOUT.name();
        return Err(at(format!(
            "not a {game} training shard (no {magic} header)"
        )));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(at(format!(
            "shard version {version}, this build reads {VERSION}"
        )));
    }
    let body = &bytes[HEADER_BYTES..];
    if body.len() % R::BYTES != 0 {
        return Err(at(format!(
            "cut short: {} bytes of records is not a whole number of {}-byte records",
            body.len(),
            R::BYTES
        )));
    }
    body.chunks_exact(R::BYTES)
        .enumerate()
        .map(|(i, c)| R::read(c).ok_or_else(|| at(format!("record {i} is damaged"))))
        .collect()
}

/// The records of several folders of shards, each with a number unique
/// across them: the shard's number for the first folder (so a run on one
/// folder splits as before), plus `i << 20` for the `i`-th (shard numbers
/// stay below 2^20; the validation split hashes the number shifted left
/// by 32, which keeps the folder's bits).
pub fn read_dirs<R: Sample>(dirs: &[impl AsRef<Path>]) -> Result<Vec<(u64, R)>, String> {
    let mut all = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        all.extend(
            read_dir(dir.as_ref())?
                .into_iter()
                .map(|(n, r)| (n + ((i as u64) << DIR_SHIFT), r)),
        );
    }
    Ok(all)
}

/// See [`read_dirs`].
const DIR_SHIFT: u32 = 20;

/// Every record of every shard in `dir`, with its shard's number.
pub fn read_dir<R: Sample>(dir: &Path) -> Result<Vec<(u64, R)>, String> {
    let mut all = Vec::new();
    for (n, path) in shards(dir)? {
        all.extend(read_shard(&path)?.into_iter().map(|r| (n, r)));
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_keeps_its_position_and_labels() {
        let pos = Position::from_fen(
            makruk::Variant::Makruk,
            "r1sm1s1r/4k3/p1pnpnpp/1p1p4/4P3/PPPP1PPP/4K3/RNSM1SNR b - - 0 8",
        )
        .unwrap();
        let r = Record::new(&pos, -123, 2, 77);
        let back = Record::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
        assert!(!back.white_to_move);
        assert_eq!(back.score, -123);
        assert_eq!(back.result_for_mover(), 0.0);
        for sq in 0..64 {
            let s = Square::new(sq as u8).unwrap();
            assert_eq!(back.piece(sq), pos.piece_at(s).map(|p| (p.color, p.role)));
        }
        // The same inputs as the engine's views of the position.
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let bucket = back.inputs(&mut us, &mut them);
        let mut want = Vec::new();
        View::of(&pos, Color::Black).active(&pos, &mut want);
        let mut got: Vec<usize> = us.iter().map(|&f| f as usize).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        assert_eq!(bucket, output_bucket(pos.occupied().count()));
    }

    #[test]
    fn damaged_records_are_refused() {
        let pos = Position::new(makruk::Variant::Makruk);
        let good = Record::new(&pos, 0, 1, 0).to_bytes();
        let mut bad = good;
        bad[33] = 3;
        assert!(Record::from_bytes(&bad).is_none());
        let mut no_khun = good;
        no_khun[0] = 0;
        no_khun[1] = 0;
        assert!(Record::from_bytes(&no_khun).is_none());
        let mut bad_code = good;
        bad_code[10] = 0x77;
        assert!(Record::from_bytes(&bad_code).is_none());
    }
}
