//! The weights of the Makruk evaluation: the fitted feature weights
//! ([`super::fitted_weights`]) and the rules' corrections' own.

use super::shared::TermWeights;

/// The weights of the Makruk evaluation, in centipawns (a bia is about 100).
#[derive(Clone, Debug, PartialEq)]
pub struct MakrukWeights {
    /// The fitted feature weights.
    pub terms: TermWeights,
    /// Mop-up: bonus per step the weaker khun is from the centre, when the
    /// other side has a mating advantage.
    pub mop_edge: i32,
    /// Mop-up: bonus per step the khuns are closer together.
    pub mop_close: i32,
    /// A running count pulls the score toward 0 over this many final plies.
    pub count_fade_plies: i32,
    /// Divisor of the score of a side whose material cannot mate.
    pub no_mate_divisor: i32,
}

impl MakrukWeights {
    /// The weights the engine plays with; the feature weights come from
    /// [`super::fitted_weights`].
    pub const DEFAULT: MakrukWeights = MakrukWeights {
        terms: TermWeights {
            mg: super::fitted_weights::MG,
            eg: super::fitted_weights::EG,
        },
        mop_edge: 12,
        mop_close: 6,
        count_fade_plies: 40,
        no_mate_divisor: 16,
    };
}

impl Default for MakrukWeights {
    fn default() -> MakrukWeights {
        MakrukWeights::DEFAULT
    }
}
