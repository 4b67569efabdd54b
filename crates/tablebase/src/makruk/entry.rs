//! A Makruk or Ouk Chatrang table entry: the one-byte encoding of the first tables
//! ([`super::METRIC_PHASE_DISTANCE`]) and the two-byte one
//! ([`super::METRIC_PHASE_DISTANCE_WIDE`]) of a table with a distance too long for a
//! byte. Generation works in two-byte entries; a table is written with one byte per
//! entry whenever every entry fits ([`narrow`]), so only the tables that need it are
//! twice the size.
//!
//! | value | one byte | two bytes (`u16`) |
//! |---|---|---|
//! | draw | 0 | 0 |
//! | win in `d` plies | `d`, 1 ..= 127 | `d`, 1 ..= 32767 |
//! | loss in `d` plies | `128 + d`, `d` ≤ 125 | `32768 + d`, `d` ≤ 32765 |
//! | not decided (generation only) | 254 | 65534 |
//! | no legal position | 255 | 65535 |

use super::bare::{Dtm, INVALID, LOSS_BASE, UNDECIDED};

/// Two-byte entry of a loss in `d` plies: `WIDE_LOSS_BASE + d`.
pub const WIDE_LOSS_BASE: u16 = 0x8000;
/// Two-byte entry that holds no legal position.
pub const WIDE_INVALID: u16 = 0xFFFF;
/// Two-byte entry not decided yet (only during generation).
pub const WIDE_UNDECIDED: u16 = 0xFFFE;
/// The longest win a two-byte entry holds, in plies.
pub const MAX_WIDE_WIN: u16 = WIDE_LOSS_BASE - 1;
/// The longest loss a two-byte entry holds, in plies.
pub const MAX_WIDE_LOSS: u16 = WIDE_UNDECIDED - 1 - WIDE_LOSS_BASE;

/// The two-byte entry of a value (the inverse of [`Dtm::from_wide`]), `None` for a
/// distance past [`MAX_WIDE_WIN`] or [`MAX_WIDE_LOSS`].
pub const fn wide(d: Dtm) -> Option<u16> {
    match d {
        Dtm::Draw => Some(0),
        Dtm::Win(d) if d >= 1 && d <= MAX_WIDE_WIN => Some(d),
        Dtm::Loss(d) if d <= MAX_WIDE_LOSS => Some(WIDE_LOSS_BASE + d),
        _ => None,
    }
}

impl Dtm {
    /// The value of a two-byte entry (`None`: no legal position, or not decided).
    pub const fn from_wide(w: u16) -> Option<Dtm> {
        match w {
            0 => Some(Dtm::Draw),
            1..WIDE_LOSS_BASE => Some(Dtm::Win(w)),
            WIDE_LOSS_BASE..WIDE_UNDECIDED => Some(Dtm::Loss(w - WIDE_LOSS_BASE)),
            _ => None,
        }
    }
}

/// The two-byte entry of a one-byte entry (every byte has one).
pub const fn widen(b: u8) -> u16 {
    match b {
        INVALID => WIDE_INVALID,
        UNDECIDED => WIDE_UNDECIDED,
        LOSS_BASE..UNDECIDED => WIDE_LOSS_BASE + (b - LOSS_BASE) as u16,
        _ => b as u16,
    }
}

/// The one-byte entry of a two-byte entry, `None` when its distance does not fit a byte.
pub const fn narrow(w: u16) -> Option<u8> {
    match w {
        WIDE_INVALID => Some(INVALID),
        WIDE_UNDECIDED => Some(UNDECIDED),
        0..WIDE_LOSS_BASE if w < LOSS_BASE as u16 => Some(w as u8),
        WIDE_LOSS_BASE..WIDE_UNDECIDED if w - WIDE_LOSS_BASE < (UNDECIDED - LOSS_BASE) as u16 => {
            Some(LOSS_BASE + (w - WIDE_LOSS_BASE) as u8)
        }
        _ => None,
    }
}

/// The file bytes of a solved table: one byte per entry when every entry fits
/// (`false`), else two little-endian bytes per entry (`true`).
pub fn file_bytes(values: &[u16]) -> (Vec<u8>, bool) {
    let narrowed: Option<Vec<u8>> = values.iter().map(|&w| narrow(w)).collect();
    match narrowed {
        Some(bytes) => (bytes, false),
        None => (values.iter().flat_map(|w| w.to_le_bytes()).collect(), true),
    }
}

/// The two-byte entries of a file's bytes (as [`file_bytes`] wrote them).
pub fn from_file_bytes(bytes: &[u8], wide: bool) -> Vec<u16> {
    if wide {
        bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    } else {
        bytes.iter().map(|&b| widen(b)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_widens_and_narrows_back() {
        for b in 0..=255u8 {
            assert_eq!(narrow(widen(b)), Some(b), "byte {b}");
            assert_eq!(
                Dtm::from_byte(b),
                Dtm::from_wide(widen(b)),
                "byte {b} means the same widened"
            );
        }
    }

    #[test]
    fn distances_past_a_byte_need_two() {
        // The longest of a byte, then one more.
        assert_eq!(narrow(wide(Dtm::Win(127)).unwrap()), Some(127));
        assert_eq!(narrow(wide(Dtm::Win(128)).unwrap()), None);
        assert_eq!(narrow(wide(Dtm::Loss(125)).unwrap()), Some(253));
        assert_eq!(narrow(wide(Dtm::Loss(126)).unwrap()), None);
        for d in [
            Dtm::Draw,
            Dtm::Win(1),
            Dtm::Win(200),
            Dtm::Win(MAX_WIDE_WIN),
            Dtm::Loss(0),
            Dtm::Loss(126),
            Dtm::Loss(MAX_WIDE_LOSS),
        ] {
            assert_eq!(Dtm::from_wide(wide(d).unwrap()), Some(d));
        }
        assert_eq!(wide(Dtm::Win(0)), None);
        assert_eq!(wide(Dtm::Win(MAX_WIDE_WIN + 1)), None);
        assert_eq!(wide(Dtm::Loss(MAX_WIDE_LOSS + 1)), None);
        assert_eq!(Dtm::from_wide(WIDE_INVALID), None);
        assert_eq!(Dtm::from_wide(WIDE_UNDECIDED), None);
    }

    #[test]
    fn a_table_is_written_wide_only_when_it_must() {
        let short = [0, 5, widen(INVALID), wide(Dtm::Loss(125)).unwrap()];
        let (bytes, is_wide) = file_bytes(&short);
        assert!(!is_wide);
        assert_eq!(bytes, [0, 5, 255, 253]);
        assert_eq!(from_file_bytes(&bytes, false), short);
        let long = [0, 5, WIDE_INVALID, wide(Dtm::Loss(126)).unwrap()];
        let (bytes, is_wide) = file_bytes(&long);
        assert!(is_wide);
        assert_eq!(bytes.len(), 8);
        assert_eq!(from_file_bytes(&bytes, true), long);
    }
}
