//! Openings: start positions (FEN / EPD lines, Mak-hot position texts) or
//! the first moves of recorded games (PGN / PDN through `records`).

use crate::referee;
use games::{AnyGame, AnyMove, AnyPosition, GameKind};
use records::Reader;

/// An opening: a start position and moves played from it before the
/// engines take over (book moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: AnyPosition,
    /// The book moves, legal from `start`.
    pub moves: Vec<AnyMove>,
}

impl Opening {
    /// The standard start of a game, no book moves.
    pub fn start(kind: GameKind) -> Opening {
        Opening {
            start: AnyPosition::start(kind),
            moves: Vec::new(),
        }
    }
}

/// Shuffles openings reproducibly: the same seed gives the same order.
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    openings.shuffle(&mut rng);
}

/// Whether `text` looks like PGN / PDN rather than a list of positions.
fn looks_like_pgn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('['))
}

/// Reads one position line: a whole FEN or position text, or an EPD line
/// (the first four fields, then operations after them).
fn parse_position_line(kind: GameKind, line: &str) -> Result<AnyPosition, String> {
    let line = line.split(';').next().unwrap_or("").trim();
    match AnyPosition::from_fen(kind, line) {
        Ok(b) => Ok(b),
        Err(full_err) => {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if matches!(kind, GameKind::Makruk(_)) && fields.len() > 4 {
                let epd = format!("{} 0 1", fields[..4].join(" "));
                if let Ok(b) = AnyPosition::from_fen(kind, &epd) {
                    return Ok(b);
                }
            }
            Err(full_err.to_string())
        }
    }
}

/// Reads openings for `kind` from the text of a file.
///
/// - PGN / PDN (the first non-blank line starts with `[`): each game's
///   start and at most `plies` of its main line (all of it if `None`).
/// - Otherwise one position per line (FEN or EPD for Makruk, position text
///   such as `W:Wa3,c3:Bb6` for Mak-hot); blank lines and lines starting
///   with `#` are skipped.
///
/// Errors name the line (positions) or game (records) that is broken, or
/// say that the file holds no opening.
pub fn parse_openings(
    kind: GameKind,
    text: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    if looks_like_pgn(text) {
        for (i, game) in Reader::new(text.as_bytes()).enumerate() {
            let game = game.map_err(|e| format!("opening game {}: {e}", i + 1))?;
            if !same_game(game.kind(), kind) {
                return Err(format!(
                    "opening game {} is {} but the match is {}",
                    i + 1,
                    game.kind().variant_name(),
                    kind.variant_name()
                ));
            }
            let start = match (&game.start, kind) {
                (AnyPosition::Makhos { position, .. }, GameKind::Makhos(rules)) => {
                    AnyPosition::Makhos {
                        position: *position,
                        rules,
                        fullmove: 1,
                    }
                }
                (b, _) => b.clone(),
            };
            let moves: Vec<AnyMove> = game.mainline().take(plies.unwrap_or(usize::MAX)).collect();
            out.push(checked(
                Opening { start, moves },
                &format!("opening game {}", i + 1),
            )?);
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let start = parse_position_line(kind, line)
                .map_err(|e| format!("openings line {}: {e}", i + 1))?;
            out.push(checked(
                Opening {
                    start,
                    moves: Vec::new(),
                },
                &format!("openings line {}", i + 1),
            )?);
        }
    }
    if out.is_empty() {
        return Err("the openings file holds no opening".to_string());
    }
    Ok(out)
}

/// Same game and, for Makruk, same variant (Mak-hot rules come from the
/// match).
fn same_game(a: GameKind, b: GameKind) -> bool {
    match (a, b) {
        (GameKind::Makruk(x), GameKind::Makruk(y)) => x == y,
        (GameKind::Makhos(_), GameKind::Makhos(_)) => true,
        _ => false,
    }
}

/// Refuses an opening whose book moves are illegal or that is already over.
fn checked(o: Opening, what: &str) -> Result<Opening, String> {
    let mut r = AnyGame::from_position(o.start.clone());
    for (i, m) in o.moves.iter().enumerate() {
        if referee::ending(&r).is_some() {
            return Err(format!("{what}: the game is over before ply {}", i + 1));
        }
        referee::play(&mut r, &m.to_engine()).map_err(|e| format!("{what}: ply {}: {e}", i + 1))?;
    }
    if let Some(e) = referee::ending(&r) {
        return Err(format!("{what}: the game is already over ({})", e.reason));
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAKRUK: GameKind = GameKind::MAKRUK;
    const MAKHOS: GameKind = GameKind::MAKHOS;

    #[test]
    fn reads_fen_and_epd_lines() {
        let text = "# comment\n\
            rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1\n\
            \n\
            rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - id \"start\";\n";
        let o = parse_openings(MAKRUK, text, None).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].start.turn(), games::Color::Black);
        assert!(o[1].start.is_standard_start());
    }

    #[test]
    fn reads_makhos_position_texts() {
        let o = parse_openings(
            MAKHOS,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8\n",
            None,
        )
        .unwrap();
        assert_eq!(o.len(), 1);
        assert!(o[0].start.is_standard_start());
    }

    #[test]
    fn reads_pgn_games_cut_to_plies() {
        let pgn = "[Variant \"makruk\"]\n\n1. e4 e5 2. Ne2 * \n\n[Variant \"makruk\"]\n\n1. c4 *\n";
        let o = parse_openings(MAKRUK, pgn, Some(2)).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[0].moves[0].to_engine(), "e3e4");
        assert_eq!(o[1].moves.len(), 1);
    }

    /// The endgame files of `data/openings/` and the positions our engine
    /// let go read whole, Makruk counting fields kept.
    #[test]
    fn reads_the_endgame_openings_files() {
        for (makruk, count) in [
            (
                include_str!("../../../data/openings/makruk-endings.epd"),
                40,
            ),
            (
                include_str!("../../../data/openings/makruk-unconverted.epd"),
                49,
            ),
        ] {
            let o = parse_openings(MAKRUK, makruk, None).unwrap();
            assert_eq!(o.len(), count);
            for (opening, line) in o.iter().zip(
                makruk
                    .lines()
                    .filter(|l| !l.starts_with('#') && !l.trim().is_empty()),
            ) {
                let fen = line.split(';').next().unwrap().trim();
                assert_eq!(opening.start.fen(), fen);
            }
        }
        let makhos = include_str!("../../../data/openings/makhos-endings.txt");
        assert_eq!(parse_openings(MAKHOS, makhos, None).unwrap().len(), 40);
    }

    #[test]
    fn shuffles_reproducibly() {
        let text = "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8\n".repeat(5);
        let mut a = parse_openings(MAKHOS, &text, None).unwrap();
        // One odd opening out to follow.
        a[0].start = AnyPosition::from_fen(MAKHOS, "W:Wa1:Bh8").unwrap();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
    }

    #[test]
    fn reports_broken_openings() {
        let e = parse_openings(MAKRUK, "not a fen\n", None).unwrap_err();
        assert!(e.starts_with("openings line 1:"), "{e}");
        let e = parse_openings(MAKRUK, "# nothing\n\n", None).unwrap_err();
        assert!(e.contains("no opening"), "{e}");
        let e = parse_openings(MAKHOS, "[Variant \"makruk\"]\n\n1. e4 *\n", None).unwrap_err();
        assert!(e.contains("is makruk but the match is makhos"), "{e}");
        let e = parse_openings(MAKRUK, "[Variant \"makruk\"]\n\n1. e9 *\n", None).unwrap_err();
        assert!(e.starts_with("opening game 1"), "{e}");
        // Bare khuns: over before it starts.
        let e = parse_openings(MAKRUK, "7k/8/8/8/8/8/8/6K1 w - - 0 1\n", None).unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }
}
