//! What a network's output is added to.
//!
//! A network trained from a few million positions learns less than the
//! hand-fitted sum already knows. So a network may instead learn a
//! correction: the engine adds its output to the classical feature sum
//! (before the rules' corrections), and the trainer fits the output to the
//! search score less that sum. Both use [`Base::white`], so the sum the
//! network was trained on is the one it plays with.

use crate::eval::makruk::{MakrukWeights, linear_white};
use makruk::Position;

/// What the network's output is added to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    #[default]
    Zero,
    /// The classical feature sum ([`linear_white`] with the weights the
    /// engine plays with).
    Classical,
}

impl Base {
    /// Every base, in the order of their codes.
    pub const ALL: [Base; 2] = [Base::Zero, Base::Classical];

    /// The base's code in a network file or checkpoint.
    pub fn code(self) -> u32 {
        match self {
            Base::Zero => 0,
            Base::Classical => 1,
        }
    }

    /// The base of a code, if there is one.
    pub fn from_code(code: u32) -> Option<Base> {
        Base::ALL.into_iter().find(|b| b.code() == code)
    }

    /// The name used on the command line and in descriptions.
    pub fn name(self) -> &'static str {
        match self {
            Base::Zero => "zero",
            Base::Classical => "classical",
        }
    }

    /// The base of a name (see [`Base::name`]).
    pub fn from_name(name: &str) -> Option<Base> {
        Base::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The base's score of `pos` in centipawns from White's view.
    #[inline]
    pub fn white(self, pos: &Position, w: &MakrukWeights) -> i32 {
        match self {
            Base::Zero => 0,
            Base::Classical => linear_white(pos, &w.terms),
        }
    }

    /// The base's score of `pos` in centipawns from the side to move's
    /// view.
    #[inline]
    pub fn relative(self, pos: &Position, w: &MakrukWeights) -> i32 {
        let white = self.white(pos, w);
        pos.turn().fold(white, -white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_go_both_ways() {
        for b in Base::ALL {
            assert_eq!(Base::from_code(b.code()), Some(b));
            assert_eq!(Base::from_name(b.name()), Some(b));
        }
        assert_eq!(Base::from_code(7), None);
        assert_eq!(Base::from_name("fsf"), None);
    }

    #[test]
    fn the_classical_base_is_the_feature_sum_from_the_movers_view() {
        let w = MakrukWeights::DEFAULT;
        let pos = Position::from_fen(
            makruk::Variant::Makruk,
            "rnsmks1r/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1",
        )
        .unwrap();
        let white = linear_white(&pos, &w.terms);
        assert!(white > 200, "White is a ma up: {white}");
        assert_eq!(Base::Classical.white(&pos, &w), white);
        assert_eq!(Base::Classical.relative(&pos, &w), -white);
        assert_eq!(Base::Zero.relative(&pos, &w), 0);
    }
}
