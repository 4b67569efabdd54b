//! Openings written in the forms other tools read: cutechess-cli and
//! Fairy-Stockfish (and everything built on it: pyffish, pychess).
//!
//! Both read a Makruk or Ouk Chatrang FEN whose field 4 is a number: the
//! counting limit in plies, `0` when no count runs. cutechess reads a `-`
//! there as chess's en-passant field and then plays the 50-move rule
//! instead of the counting rules, and it refuses whole EPD files with `#`
//! comment lines. So both forms written here hold FENs with a number in
//! field 4 and no comments:
//!
//! - [`Format::Epd`]: one FEN per line (6 fields). cutechess reads the
//!   first four as an EPD position and restarts the move counters at
//!   `0 1` (no rule of either game reads them); Fairy-Stockfish and
//!   pyffish read the whole line as a FEN.
//! - [`Format::Pgn`]: one game per opening with the `Variant`, `SetUp` and
//!   `FEN` tags and no moves, for tools that take openings as PGN.
//!
//! `thaiboard match` reads both (see [`crate::parse_openings`]).

use crate::openings::Opening;
use games::{AnyPosition, GameKind};

/// A form of openings file for other tools.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// One FEN per line, no comments.
    Epd,
    /// PGN games with `Variant`, `SetUp` and `FEN` tags and no moves.
    Pgn,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "epd" => Ok(Format::Epd),
            "pgn" => Ok(Format::Pgn),
            _ => Err(format!("unknown format '{s}' (epd, pgn)")),
        }
    }
}

/// `fen` (a Makruk or Ouk Chatrang FEN as the rules crate writes it) with
/// field 4 a number: `-` becomes `0` (no count runs).
pub fn portable_fen(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.get(3) == Some(&"-") {
        fields[3] = "0";
    }
    fields.join(" ")
}

/// The position an opening reaches: its start after its book moves.
fn reached(o: &Opening) -> Result<AnyPosition, String> {
    let mut pos = o.start.clone();
    for m in &o.moves {
        pos.play(m).map_err(|e| e.to_string())?;
    }
    Ok(pos)
}

/// `openings` of game `kind` written in `format`, each as the position its
/// book moves reach. Mak-hot has no such form (neither cutechess nor
/// Fairy-Stockfish plays it): an error says so.
pub fn write(kind: GameKind, openings: &[Opening], format: Format) -> Result<String, String> {
    if !kind.is_makruk() {
        return Err(format!(
            "{} openings have no form for cutechess or Fairy-Stockfish (neither plays it)",
            kind.variant_name()
        ));
    }
    let mut out = String::new();
    for (i, o) in openings.iter().enumerate() {
        let fen = portable_fen(
            &reached(o)
                .map_err(|e| format!("opening {}: {e}", i + 1))?
                .fen(),
        );
        match format {
            Format::Epd => {
                out.push_str(&fen);
                out.push('\n');
            }
            Format::Pgn => {
                out.push_str(&format!(
                    "[Event \"opening {}\"]\n[Variant \"{}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"*\"]\n\n*\n\n",
                    i + 1,
                    kind.variant_name()
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_openings;

    const SHIPPED: [(GameKind, &str, &str, &str); 2] = [
        (
            GameKind::MAKRUK,
            include_str!("../../../data/openings/makruk.epd"),
            include_str!("../../../data/openings/makruk-portable.epd"),
            include_str!("../../../data/openings/makruk-portable.pgn"),
        ),
        (
            GameKind::Makruk(makruk::Variant::Cambodian),
            include_str!("../../../data/openings/cambodian.epd"),
            include_str!("../../../data/openings/cambodian-portable.epd"),
            include_str!("../../../data/openings/cambodian-portable.pgn"),
        ),
    ];

    #[test]
    fn field_4_becomes_a_number_and_counts_are_kept() {
        assert_eq!(
            portable_fen("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 2 5"),
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 0 2 5"
        );
        assert_eq!(
            portable_fen("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1"),
            "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1"
        );
    }

    /// The shipped portable files are the openings of our own files, in the
    /// same order, without a comment line, and `thaiboard match` reads them.
    #[test]
    fn the_shipped_portable_files_are_our_openings() {
        for (kind, ours, epd, pgn) in SHIPPED {
            let openings = parse_openings(kind, ours, None).unwrap();
            assert_eq!(write(kind, &openings, Format::Epd).unwrap(), epd);
            assert_eq!(write(kind, &openings, Format::Pgn).unwrap(), pgn);
            for text in [epd, pgn] {
                assert!(!text.lines().any(|l| l.starts_with('#')));
                let read = parse_openings(kind, text, None).unwrap();
                let starts: Vec<String> = read.iter().map(|o| o.start.fen()).collect();
                let expected: Vec<String> = openings.iter().map(|o| o.start.fen()).collect();
                assert_eq!(starts, expected);
            }
            // Field 4 is a number on every line (cutechess reads '-' as chess).
            for line in epd.lines() {
                let field = line.split_whitespace().nth(3).unwrap();
                assert!(field.parse::<u32>().is_ok(), "{line}");
            }
        }
    }

    #[test]
    fn book_moves_are_played_and_makhos_is_refused() {
        let o =
            parse_openings(GameKind::MAKRUK, "[Variant \"makruk\"]\n\n1. e4 *\n", None).unwrap();
        assert_eq!(
            write(GameKind::MAKRUK, &o, Format::Epd).unwrap(),
            "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - 0 0 1\n"
        );
        let start = [Opening::start(GameKind::MAKHOS)];
        let e = write(GameKind::MAKHOS, &start, Format::Pgn).unwrap_err();
        assert!(e.contains("makhos"), "{e}");
    }
}
