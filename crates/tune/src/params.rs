//! The evaluation weights as flat parameter vectors, for the tuner.

use engine::eval::makruk::terms;
use engine::eval::{MakhosWeights, MakrukWeights, TermWeights, evaluate_makhos, evaluate_makruk};

/// Evaluation weights the tuner can fit: a flat vector of integers with a
/// name per entry, some entries frozen (scale anchors, squares a piece can
/// never stand on, structural constants).
pub trait Tunable: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// A position of the game, as the dataset holds it.
    type Position: Send + Sync;

    /// The weights as a vector, in [`Tunable::names`] order.
    fn to_vec(&self) -> Vec<i32>;
    /// The weights from a vector in [`Tunable::names`] order; `None` when
    /// the length is wrong.
    fn from_slice(v: &[i32]) -> Option<Self>;
    /// The name of each vector entry (`material[3]`, `tempo`...).
    fn names() -> Vec<String>;
    /// Whether each vector entry may be changed by the tuner.
    fn tunable() -> Vec<bool>;
    /// The evaluation of `pos` from White's view with these weights.
    fn white_eval(&self, pos: &Self::Position) -> i32;
    /// Parses a position of the dataset.
    fn parse_position(text: &str) -> Result<Self::Position, String>;
    /// The weights as Rust source, ready to paste into `eval.rs`.
    fn to_rust(&self) -> String;
}

fn indexed(name: &str, n: usize) -> impl Iterator<Item = String> + '_ {
    (0..n).map(move |i| format!("{name}[{i}]"))
}

/// The Makruk scalars after the feature weights: mop-up edge and closeness,
/// counting fade, cannot-mate divisor.
const MAKRUK_SCALARS: usize = 4;

impl Tunable for MakrukWeights {
    type Position = makruk::Position;

    fn to_vec(&self) -> Vec<i32> {
        let mut v: Vec<i32> = self.terms.mg.iter().map(|&x| x as i32).collect();
        v.extend(self.terms.eg.iter().map(|&x| x as i32));
        v.extend_from_slice(&[
            self.mop_edge,
            self.mop_close,
            self.count_fade_plies,
            self.no_mate_divisor,
        ]);
        v
    }

    fn from_slice(v: &[i32]) -> Option<MakrukWeights> {
        let n = terms::COUNT;
        if v.len() != 2 * n + MAKRUK_SCALARS {
            return None;
        }
        let mut w = MakrukWeights::DEFAULT;
        for i in 0..n {
            w.terms.mg[i] = v[i].clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            w.terms.eg[i] = v[n + i].clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        }
        w.mop_edge = v[2 * n];
        w.mop_close = v[2 * n + 1];
        w.count_fade_plies = v[2 * n + 2];
        w.no_mate_divisor = v[2 * n + 3];
        Some(w)
    }

    fn names() -> Vec<String> {
        let mut n: Vec<String> = (0..terms::COUNT)
            .map(|i| format!("mg.{}", terms::name(i)))
            .collect();
        n.extend((0..terms::COUNT).map(|i| format!("eg.{}", terms::name(i))));
        for s in [
            "mop_edge",
            "mop_close",
            "count_fade_plies",
            "no_mate_divisor",
        ] {
            n.push(s.into());
        }
        n
    }

    fn tunable() -> Vec<bool> {
        let n = terms::COUNT;
        let mut t = vec![true; 2 * n + MAKRUK_SCALARS];
        for phase in [0, n] {
            // The bia's value is the unit; the khun has no material value.
            t[phase + terms::MATERIAL] = false;
            t[phase + terms::MATERIAL + 5] = false;
            // Bias never stand on their own first two ranks or beyond the
            // promotion rank.
            for sq in (0..16).chain(48..64) {
                t[phase + terms::PSQT + sq] = false;
            }
            // Threat and hanging slots no role uses.
            for k in [
                terms::THREAT_BY_BIA,
                terms::THREAT_BY_BIA + 5,
                terms::HANGING + 5,
            ] {
                t[phase + k] = false;
            }
        }
        // Counting fade and the cannot-mate divisor are rules, not weights.
        t[2 * n + 2] = false;
        t[2 * n + 3] = false;
        t
    }

    fn white_eval(&self, pos: &makruk::Position) -> i32 {
        let s = evaluate_makruk(pos, self);
        pos.turn().fold(s, -s)
    }

    fn parse_position(text: &str) -> Result<makruk::Position, String> {
        makruk::Position::from_fen(makruk::Variant::Makruk, text).map_err(|e| e.to_string())
    }

    /// The feature tables as the source of `eval/makruk/fitted_weights.rs`, then
    /// the scalars as a comment (they live in `MakrukWeights::DEFAULT`).
    fn to_rust(&self) -> String {
        format!(
            "{}// mop_edge: {}, mop_close: {}, count_fade_plies: {}, no_mate_divisor: {}\n",
            makruk_weights_source(&self.terms),
            self.mop_edge,
            self.mop_close,
            self.count_fade_plies,
            self.no_mate_divisor
        )
    }
}

/// `eval/makruk/fitted_weights.rs` holding `terms`.
pub fn makruk_weights_source(terms: &TermWeights) -> String {
    let table = |v: &[i16]| -> String {
        v.chunks(16)
            .map(|c| {
                let row: Vec<String> = c.iter().map(|x| x.to_string()).collect();
                format!("    {},\n", row.join(", "))
            })
            .collect()
    };
    format!(
        "//! The fitted Makruk feature weights (layout in [`super::terms`]).
//! Written by `thaiboard tune fit`; do not edit by hand.

use super::terms::COUNT;

/// Middlegame weights.
pub const MG: [i16; COUNT] = [
{}];

/// Endgame weights.
pub const EG: [i16; COUNT] = [
{}];
",
        table(&terms.mg),
        table(&terms.eg)
    )
}

impl Tunable for MakhosWeights {
    type Position = makhos::Position;

    fn to_vec(&self) -> Vec<i32> {
        let mut v = vec![self.man, self.king];
        v.extend_from_slice(&self.man_rank);
        v.extend_from_slice(&[
            self.back_rank,
            self.man_mobility,
            self.king_mobility,
            self.king_long_diagonal,
            self.tempo,
            self.trade_down,
        ]);
        v
    }

    fn from_slice(v: &[i32]) -> Option<MakhosWeights> {
        if v.len() != 16 {
            return None;
        }
        Some(MakhosWeights {
            man: v[0],
            king: v[1],
            man_rank: v[2..10].try_into().expect("8 entries"),
            back_rank: v[10],
            man_mobility: v[11],
            king_mobility: v[12],
            king_long_diagonal: v[13],
            tempo: v[14],
            trade_down: v[15],
        })
    }

    fn names() -> Vec<String> {
        let mut n = vec!["man".to_string(), "king".to_string()];
        n.extend(indexed("man_rank", 8));
        for s in [
            "back_rank",
            "man_mobility",
            "king_mobility",
            "king_long_diagonal",
            "tempo",
            "trade_down",
        ] {
            n.push(s.into());
        }
        n
    }

    fn tunable() -> Vec<bool> {
        let mut t = vec![true; 16];
        // The man is the unit; a man on the back rank is `back_rank`'s job;
        // a man reaching the last rank is crowned at once.
        t[0] = false;
        t[2] = false;
        t[9] = false;
        t
    }

    fn white_eval(&self, pos: &makhos::Position) -> i32 {
        let s = evaluate_makhos(pos, self);
        if pos.turn() == makhos::Color::White {
            s
        } else {
            -s
        }
    }

    fn parse_position(text: &str) -> Result<makhos::Position, String> {
        text.parse::<makhos::Position>().map_err(|e| e.to_string())
    }

    fn to_rust(&self) -> String {
        format!(
            "    pub const DEFAULT: MakhosWeights = MakhosWeights {{
        man: {},
        king: {},
        man_rank: {:?},
        back_rank: {},
        man_mobility: {},
        king_mobility: {},
        king_long_diagonal: {},
        tempo: {},
        trade_down: {},
    }};
",
            self.man,
            self.king,
            self.man_rank,
            self.back_rank,
            self.man_mobility,
            self.king_mobility,
            self.king_long_diagonal,
            self.tempo,
            self.trade_down
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<W: Tunable>(w: &W) {
        let v = w.to_vec();
        assert_eq!(v.len(), W::names().len());
        assert_eq!(v.len(), W::tunable().len());
        assert_eq!(W::from_slice(&v).as_ref(), Some(w));
        assert_eq!(W::from_slice(&v[1..]), None);
        // Every entry lands in its own field.
        for i in 0..v.len() {
            let mut u = v.clone();
            u[i] += 1;
            assert_eq!(W::from_slice(&u).unwrap().to_vec(), u, "{}", W::names()[i]);
        }
    }

    #[test]
    fn weights_round_trip_through_vectors() {
        round_trip(&MakrukWeights::DEFAULT);
        round_trip(&MakhosWeights::DEFAULT);
    }

    #[test]
    fn rust_source_names_every_field() {
        let src = MakrukWeights::DEFAULT.to_rust();
        assert!(src.contains("pub const MG: [i16; COUNT] = [\n    100, "));
        assert!(src.contains("pub const EG: [i16; COUNT]"));
        assert!(src.contains("no_mate_divisor: 16"));
        let src = MakhosWeights::DEFAULT.to_rust();
        assert!(src.contains("man: 100,"));
        assert!(src.contains("trade_down: "));
    }

    #[test]
    fn white_eval_is_the_same_for_both_sides_to_move() {
        // A mirrored material edge: White up a ruea, scored positive
        // whichever side is to move.
        let w =
            makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
                .unwrap();
        let b =
            makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
                .unwrap();
        assert!(MakrukWeights::DEFAULT.white_eval(&w) > 300);
        assert!(MakrukWeights::DEFAULT.white_eval(&b) > 300);
        let p = MakhosWeights::parse_position("B:Wa1,c1,e1:Bh8").unwrap();
        assert!(MakhosWeights::DEFAULT.white_eval(&p) > 150);
    }
}
