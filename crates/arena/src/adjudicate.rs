//! Adjudication: by engine scores (off unless asked for), as cutechess-cli
//! does it, where both engines must agree for the given number of
//! consecutive moves; by a move cap; and, for Makruk, by repetition.

use std::collections::HashMap;

/// `--resign movecount=N score=S`: a side loses when its own scores were at
/// most `-S` and its opponent's at least `S` for `N` moves in a row each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub move_count: usize,
    /// Centipawns.
    pub score: i32,
}

/// `--draw movenumber=M movecount=N score=S`: from move `M` on, a draw when
/// both sides' scores stayed within `±S` for `N` moves in a row each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move number at which the rule applies.
    pub move_number: u32,
    /// Consecutive moves of each side.
    pub move_count: usize,
    /// Centipawns.
    pub score: i32,
}

/// Every adjudication rule of a match.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resignation by scores.
    pub resign: Option<ResignRule>,
    /// Draw by scores.
    pub draw: Option<DrawRule>,
    /// A draw after this many full moves (book moves included).
    pub max_moves: Option<u32>,
    /// Makruk: a draw when one position has occurred this many times (see
    /// [`Repetitions`]); `None`: never.
    pub repetition: Option<u32>,
}

/// The default of `--repetition`: a Makruk game is drawn at a position's
/// third occurrence.
pub const DEFAULT_REPETITION: u32 = 3;

/// Counts the positions of a Makruk game for repetition adjudication.
///
/// Makruk's rules have no repetition rule: the counting rules end long
/// games, but not while an unpromoted bia stays on the board. A side that
/// is ahead yet cannot mate (its mets all on one colour, say) and never
/// promotes its last bia can then move forever, and a match never ends.
/// Fairy-Stockfish, pychess and both engines' searches treat a threefold
/// repetition as a draw; the match runner adjudicates it the same way.
/// A position is its board, side to move, first-move rights and count:
/// while a count runs its ply is part of the position, so a count's
/// positions never repeat (the count itself ends those games).
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    seen: HashMap<String, u32>,
}

impl Repetitions {
    /// Records the position of a Makruk `fen`; returns how many times it
    /// has now occurred.
    pub fn record(&mut self, fen: &str) -> u32 {
        let n = self.seen.entry(position_key(fen)).or_default();
        *n += 1;
        *n
    }
}

/// The FEN fields that make a Makruk position: board, side to move,
/// first-move rights and count limit, and the count's ply when a count
/// runs (field 4 is `-` otherwise, and field 5 is then the halfmove clock,
/// which has no rule effect).
fn position_key(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let counting = fields.get(3).is_some_and(|f| *f != "-");
    let kept = if counting { 5 } else { 4 };
    fields[..kept.min(fields.len())].join(" ")
}

/// Reads `key=value` words into `(key, number)` pairs, checking each key is
/// one of `keys`, each is present, and each value is a number.
pub fn parse_numbers<S: AsRef<str>>(
    what: &str,
    words: &[S],
    keys: &[&str],
) -> Result<Vec<f64>, String> {
    let mut values: Vec<Option<f64>> = vec![None; keys.len()];
    for w in words {
        let w = w.as_ref();
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("{what}: '{w}' is not key=value (keys: {})", keys.join(", ")))?;
        let i = keys
            .iter()
            .position(|key| *key == k)
            .ok_or_else(|| format!("{what}: unknown key '{k}' (keys: {})", keys.join(", ")))?;
        let n: f64 = v
            .parse()
            .ok()
            .filter(|n: &f64| n.is_finite())
            .ok_or_else(|| format!("{what}: {k}={v} is not a number"))?;
        values[i] = Some(n);
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("{what}: {k}= is missing")))
        .collect()
}

fn count(what: &str, key: &str, v: f64) -> Result<usize, String> {
    if v >= 1.0 && v.fract() == 0.0 && v <= 10_000.0 {
        Ok(v as usize)
    } else {
        Err(format!("{what}: {key} must be a whole number from 1"))
    }
}

fn centipawns(what: &str, v: f64) -> Result<i32, String> {
    if (0.0..=100_000.0).contains(&v) {
        Ok(v.round() as i32)
    } else {
        Err(format!("{what}: score must be from 0 to 100000 centipawns"))
    }
}

impl ResignRule {
    /// From `movecount=N score=S`.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<ResignRule, String> {
        let v = parse_numbers("--resign", words, &["movecount", "score"])?;
        Ok(ResignRule {
            move_count: count("--resign", "movecount", v[0])?,
            score: centipawns("--resign", v[1])?,
        })
    }
}

impl DrawRule {
    /// From `movenumber=M movecount=N score=S`.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<DrawRule, String> {
        let v = parse_numbers("--draw", words, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            move_number: count("--draw", "movenumber", v[0])? as u32,
            move_count: count("--draw", "movecount", v[1])?,
            score: centipawns("--draw", v[2])?,
        })
    }
}

/// The last `n` entries, if there are that many.
fn last(scores: &[i32], n: usize) -> Option<&[i32]> {
    scores.len().checked_sub(n).map(|i| &scores[i..])
}

impl Adjudication {
    /// Whether the side whose scores are `loser` (its own point of view)
    /// should be declared lost, its opponent's being `winner`.
    pub fn resigns(&self, loser: &[i32], winner: &[i32]) -> bool {
        let Some(r) = self.resign else { return false };
        match (last(loser, r.move_count), last(winner, r.move_count)) {
            (Some(l), Some(w)) => {
                l.iter().all(|&s| s <= -r.score) && w.iter().all(|&s| s >= r.score)
            }
            _ => false,
        }
    }

    /// Whether the game should be drawn at full move `move_number`.
    pub fn draws(&self, move_number: u32, white: &[i32], black: &[i32]) -> bool {
        let Some(d) = self.draw else { return false };
        if move_number < d.move_number {
            return false;
        }
        match (last(white, d.move_count), last(black, d.move_count)) {
            (Some(w), Some(b)) => w.iter().chain(b).all(|s| s.abs() <= d.score),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules() {
        assert_eq!(
            ResignRule::parse(&["movecount=3", "score=600"]).unwrap(),
            ResignRule {
                move_count: 3,
                score: 600
            }
        );
        assert_eq!(
            DrawRule::parse(&["score=10", "movenumber=40", "movecount=8"]).unwrap(),
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
        for (words, needle) in [
            (vec!["movecount=3"], "score= is missing"),
            (vec!["movecount=3", "score=x"], "not a number"),
            (vec!["movecount=0", "score=5"], "whole number"),
            (vec!["moves=3", "score=5"], "unknown key"),
            (vec!["movecount=3", "score=-5"], "from 0"),
            (vec!["3"], "not key=value"),
        ] {
            let e = ResignRule::parse(&words).unwrap_err();
            assert!(e.contains(needle), "{words:?}: {e}");
        }
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let a = Adjudication {
            resign: Some(ResignRule {
                move_count: 2,
                score: 600,
            }),
            ..Adjudication::default()
        };
        assert!(a.resigns(&[0, -700, -650], &[700, 800]));
        assert!(!a.resigns(&[-700, -500], &[700, 800]));
        assert!(!a.resigns(&[-700, -650], &[700, 100]));
        assert!(!a.resigns(&[-700], &[700, 800]));
        assert!(!Adjudication::default().resigns(&[-9999; 5], &[9999; 5]));
    }

    #[test]
    fn repetitions_count_positions_not_clocks() {
        let mut r = Repetitions::default();
        let start = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";
        assert_eq!(r.record(start), 1);
        // The halfmove clock and move number do not make a new position.
        assert_eq!(
            r.record("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 4 3"),
            2
        );
        // The other side to move does.
        assert_eq!(
            r.record("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 4 3"),
            1
        );
        assert_eq!(r.record(start), 3);
        // Under a count, the count's ply is part of the position.
        let counted = |ply: u32| format!("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 {ply} 40");
        assert_eq!(r.record(&counted(8)), 1);
        assert_eq!(r.record(&counted(12)), 1);
        assert_eq!(r.record(&counted(8)), 2);
    }

    #[test]
    fn draw_needs_quiet_scores_late_enough() {
        let a = Adjudication {
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 10,
            }),
            ..Adjudication::default()
        };
        assert!(a.draws(10, &[50, 5, -5], &[0, 10]));
        assert!(!a.draws(9, &[5, -5], &[0, 10]));
        assert!(!a.draws(12, &[5, -15], &[0, 10]));
        assert!(!a.draws(12, &[5], &[0, 10]));
    }
}
