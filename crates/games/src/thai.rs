//! Moves of either game in Thai notation, for the clients: Makruk and Ouk
//! Chatrang in Fairy-Stockfish's two Thai forms (from the rules crate),
//! Mak-hot in its own form with Thai squares (`c3-d4` is `ค๓-ง๔`). Reading
//! Thai text is [`AnyPosition::parse_text`]'s job.

use crate::{AnyMove, AnyPosition, GameError};

/// A move's two Thai forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThaiForms {
    /// The short form: Fairy-Stockfish's `NOTATION_THAI_SAN` (`จ๔`, `ม-ง๗`).
    pub short: String,
    /// The long form, the book form: Fairy-Stockfish's `NOTATION_THAI_LAN`
    /// (`บ จ๓-จ๔`); never ambiguous.
    pub long: String,
}

/// Algebraic squares in a text (`c3xe5`) written in Thai (`ค๓xจ๕`); the
/// other characters kept.
pub fn squares_to_thai(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() * 3);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if let (Some(f @ 'a'..='h'), Some(r @ '1'..='8')) = (Some(c), next) {
            let sq = makruk::Square::from_coords(f as u8 - b'a', r as u8 - b'1').expect("a1 to h8");
            out.push_str(&makruk::thai_square(sq));
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Thai files and digits in a text back to algebraic (`ค๓-ง๔` is
/// `c3-d4`); the other characters kept.
fn thai_squares_to_latin(text: &str) -> String {
    const FILES: [char; 8] = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
    const RANKS: [char; 8] = ['๑', '๒', '๓', '๔', '๕', '๖', '๗', '๘'];
    text.chars()
        .map(|c| {
            if let Some(f) = FILES.iter().position(|&x| x == c) {
                (b'a' + f as u8) as char
            } else if let Some(r) = RANKS.iter().position(|&x| x == c) {
                (b'1' + r as u8) as char
            } else {
                c
            }
        })
        .collect()
}

impl AnyPosition {
    /// A legal move's Thai forms.
    pub fn thai_forms(&self, mv: &AnyMove) -> ThaiForms {
        match (self, mv) {
            (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => ThaiForms {
                short: p.thai_san(*m),
                long: p.thai_lan(*m),
            },
            (_, mv) => {
                let text = squares_to_thai(&self.display_move(mv));
                ThaiForms {
                    short: text.clone(),
                    long: text,
                }
            }
        }
    }

    /// Reads a move written in Thai notation: either Thai form of the rules
    /// crate for Makruk (see `makruk::Position::parse_thai`), Thai squares
    /// in any accepted Mak-hot form (`ค๓-ง๔`, `ค๓xจ๕xค๗`).
    pub(crate) fn parse_thai(&self, text: &str) -> Result<AnyMove, GameError> {
        match self {
            AnyPosition::Makruk(p) => p
                .parse_thai(text)
                .map(AnyMove::Makruk)
                .map_err(|e| GameError::Move(e.to_string())),
            AnyPosition::Makhos { .. } => {
                let latin: String = thai_squares_to_latin(text)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| if c == '×' { 'x' } else { c })
                    .collect();
                if makruk::has_thai(&latin) {
                    return Err(GameError::Move(format!(
                        "'{text}' is not a Mak-hot move: only squares (ก–ญ, ๑–๘) may be in Thai"
                    )));
                }
                self.parse_engine(&latin)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;

    #[test]
    fn thai_squares_both_ways() {
        assert_eq!(squares_to_thai("c3xe5xc7"), "ค๓xจ๕xค๗");
        assert_eq!(thai_squares_to_latin("ค๓xจ๕xค๗"), "c3xe5xc7");
        assert_eq!(squares_to_thai("Kh9 a"), "Kh9 a");
    }

    #[test]
    fn makruk_forms_come_from_the_rules_crate_and_read_back() {
        let pos = AnyPosition::start(GameKind::MAKRUK);
        let mv = pos.parse_text("e3e4").unwrap();
        let forms = pos.thai_forms(&mv);
        assert_eq!(forms.short, "จ๔");
        assert_eq!(forms.long, "บ จ๓-จ๔");
        assert_eq!(pos.parse_text("บ จ๓-จ๔").unwrap(), mv);
        assert_eq!(pos.parse_text("จ๔").unwrap(), mv);
        let err = pos.parse_text("บ จ๓-จ๙").unwrap_err().to_string();
        assert!(err.contains("at character 7, '๙'"), "{err}");
    }

    #[test]
    fn makhos_moves_in_thai_squares() {
        let pos = AnyPosition::start(GameKind::MAKHOS);
        let mv = pos.parse_text("b2-c3").unwrap();
        assert_eq!(pos.thai_forms(&mv).long, "ข๒-ค๓");
        assert_eq!(pos.parse_text("ข๒-ค๓").unwrap(), mv);
        assert!(pos.parse_text("ข๒-ค๙").is_err());
    }
}
