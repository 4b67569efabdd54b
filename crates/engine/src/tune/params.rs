//! The evaluation weights as flat parameter vectors, for the tuner.

use crate::eval::{MakhosWeights, MakrukWeights, evaluate_makhos, evaluate_makruk};

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

/// How many entries the Makruk weight vector has.
const LEN: usize = 37;

impl Tunable for MakrukWeights {
    type Position = makruk::Position;

    fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(LEN);
        v.extend_from_slice(&self.material);
        v.push(self.promoted_met);
        v.extend_from_slice(&self.centre);
        v.extend_from_slice(&self.bia_rank);
        v.extend_from_slice(&[
            self.khun_shelter,
            self.khun_centre_ending,
            self.mop_edge,
            self.mop_close,
            self.tempo,
        ]);
        v.extend_from_slice(&self.mobility);
        v.extend_from_slice(&[
            self.ruea_open_file,
            self.ruea_half_open_file,
            self.khun_attackers,
            self.count_fade_plies,
            self.no_mate_divisor,
        ]);
        v
    }

    fn from_slice(v: &[i32]) -> Option<MakrukWeights> {
        if v.len() != LEN {
            return None;
        }
        let arr6 = |a: usize| -> [i32; 6] { v[a..a + 6].try_into().expect("6 entries") };
        Some(MakrukWeights {
            material: arr6(0),
            promoted_met: v[6],
            centre: arr6(7),
            bia_rank: v[13..21].try_into().expect("8 entries"),
            khun_shelter: v[21],
            khun_centre_ending: v[22],
            mop_edge: v[23],
            mop_close: v[24],
            tempo: v[25],
            mobility: arr6(26),
            ruea_open_file: v[32],
            ruea_half_open_file: v[33],
            khun_attackers: v[34],
            count_fade_plies: v[35],
            no_mate_divisor: v[36],
        })
    }

    fn names() -> Vec<String> {
        let mut n: Vec<String> = indexed("material", 6).collect();
        n.push("promoted_met".into());
        n.extend(indexed("centre", 6));
        n.extend(indexed("bia_rank", 8));
        for s in [
            "khun_shelter",
            "khun_centre_ending",
            "mop_edge",
            "mop_close",
            "tempo",
        ] {
            n.push(s.into());
        }
        n.extend(indexed("mobility", 6));
        for s in [
            "ruea_open_file",
            "ruea_half_open_file",
            "khun_attackers",
            "count_fade_plies",
            "no_mate_divisor",
        ] {
            n.push(s.into());
        }
        n
    }

    fn tunable() -> Vec<bool> {
        let mut t = vec![true; LEN];
        // The bia's value is the unit; the khun has no material value.
        t[0] = false;
        t[5] = false;
        // Bias start on the third rank and promote on the sixth: relative
        // ranks 0, 1, 6 and 7 never hold one.
        for r in [0, 1, 6, 7] {
            t[13 + r] = false;
        }
        // Bias and the khun have no mobility term.
        t[26] = false;
        t[31] = false;
        // Counting fade and the cannot-mate divisor are rules, not weights.
        t[35] = false;
        t[36] = false;
        t
    }

    fn white_eval(&self, pos: &makruk::Position) -> i32 {
        let s = evaluate_makruk(pos, self);
        pos.turn().fold(s, -s)
    }

    fn parse_position(text: &str) -> Result<makruk::Position, String> {
        makruk::Position::from_fen(makruk::Variant::Makruk, text).map_err(|e| e.to_string())
    }

    fn to_rust(&self) -> String {
        format!(
            "    pub const DEFAULT: MakrukWeights = MakrukWeights {{
        material: {:?},
        promoted_met: {},
        centre: {:?},
        bia_rank: {:?},
        khun_shelter: {},
        khun_centre_ending: {},
        mop_edge: {},
        mop_close: {},
        tempo: {},
        mobility: {:?},
        ruea_open_file: {},
        ruea_half_open_file: {},
        khun_attackers: {},
        count_fade_plies: {},
        no_mate_divisor: {},
    }};
",
            self.material,
            self.promoted_met,
            self.centre,
            self.bia_rank,
            self.khun_shelter,
            self.khun_centre_ending,
            self.mop_edge,
            self.mop_close,
            self.tempo,
            self.mobility,
            self.ruea_open_file,
            self.ruea_half_open_file,
            self.khun_attackers,
            self.count_fade_plies,
            self.no_mate_divisor
        )
    }
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
        assert!(src.contains("material: [100, "));
        assert!(src.contains("no_mate_divisor: 16,"));
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
