//! Mak-hot as a [`Game`].

use crate::eval::nnue::{Network, makhos as net};
use crate::eval::{MakhosWeights, evaluate_makhos};
use crate::game::{Game, StandPat};
use makhos::{Move, NO_PROGRESS_LIMIT, Position, Rules};

/// A Mak-hot position for the search, with the rule option, the no-progress
/// count (plies without capture or man move), the Zobrist key and what
/// evaluates it (the classical weights, or a network).
#[derive(Clone, Debug)]
pub struct MakhosGame {
    /// The position.
    pub pos: Position,
    /// The rule option.
    pub rules: Rules,
    /// Plies in a row without a capture or a man move.
    pub no_progress: u32,
    key: u64,
    weights: &'static MakhosWeights,
    network: Option<&'static Network>,
}

impl MakhosGame {
    /// Wraps a position with its rules and no-progress count.
    /// The evaluation uses [`MakhosWeights::DEFAULT`].
    pub fn new(pos: Position, rules: Rules, no_progress: u32) -> MakhosGame {
        MakhosGame::with_weights(pos, rules, no_progress, &MakhosWeights::DEFAULT)
    }

    /// Wraps a position evaluated with other weights (tuning, self-play
    /// comparisons).
    pub fn with_weights(
        pos: Position,
        rules: Rules,
        no_progress: u32,
        weights: &'static MakhosWeights,
    ) -> MakhosGame {
        let key = pos.zobrist();
        MakhosGame {
            pos,
            rules,
            no_progress,
            key,
            weights,
            network: None,
        }
    }

    /// The position evaluated as the engine plays by default: by the
    /// shipped Mak-hot network when it is on by default
    /// ([`crate::eval::nnue::on_by_default`]), else by the classical
    /// weights.
    pub fn played_by_default(pos: Position, rules: Rules, no_progress: u32) -> MakhosGame {
        let g = MakhosGame::new(pos, rules, no_progress);
        match crate::eval::nnue::default_network(crate::eval::nnue::Layout::Makhos) {
            Some(net) => g.with_network(net),
            None => g,
        }
    }

    /// The same position evaluated by the Mak-hot network `net` (the
    /// caller checked its layout, [`Network::check_layout`]).
    pub fn with_network(&self, net: &'static Network) -> MakhosGame {
        MakhosGame {
            network: Some(net),
            ..self.clone()
        }
    }
}

impl Game for MakhosGame {
    type Move = Move;

    fn white_to_move(&self) -> bool {
        self.pos.turn() == makhos::Color::White
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// The key with the no-progress count mixed in: the tables' answer depends on it
    /// (the same placement can be won with a fresh count and drawn near its end).
    fn table_key(&self) -> u64 {
        // SplitMix64 finaliser of the count: distinct counts give unrelated keys.
        let mut z = u64::from(self.no_progress) ^ 0x9E37_79B9_7F4A_7C15;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.key ^ z ^ (z >> 31)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        makhos::generate_legal_moves(&self.pos, self.rules, out);
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) -> StandPat {
        if self.pos.has_capture() {
            makhos::generate_legal_moves(&self.pos, self.rules, out);
            StandPat::Forbidden
        } else {
            StandPat::Allowed
        }
    }

    fn play(&self, m: Move) -> MakhosGame {
        let progress = m.is_capture() || self.pos.is_man_move(&m);
        MakhosGame {
            key: self.pos.zobrist_after(self.key, &m),
            pos: self.pos.played(&m),
            rules: self.rules,
            no_progress: if progress { 0 } else { self.no_progress + 1 },
            weights: self.weights,
            network: self.network,
        }
    }

    fn play_null(&self) -> Option<MakhosGame> {
        None
    }

    fn null_move_safe(&self) -> bool {
        false
    }

    fn in_check(&self) -> bool {
        false
    }

    fn quiet(&self) -> bool {
        !self.pos.has_capture()
    }

    fn rule_draw(&self) -> bool {
        (self.pos.is_kings_only_draw() || self.no_progress >= NO_PROGRESS_LIMIT)
            && self.pos.count_legal_moves(self.rules) > 0
    }

    fn no_moves_loses(&self) -> bool {
        true
    }

    fn evaluate(&self) -> i32 {
        match self.network {
            Some(n) => net::evaluate(n, &self.pos),
            None => evaluate_makhos(&self.pos, self.weights),
        }
    }

    fn is_tactical(&self, m: Move) -> bool {
        m.is_capture()
    }

    fn tactical_order(&self, m: Move) -> i32 {
        let kings = (m.captured().0 & self.pos.kings(self.pos.turn().other()).0).count_ones();
        (m.capture_count() + 2 * kings) as i32
    }

    fn encode(m: Move) -> u64 {
        (m.from().index() as u64)
            | (m.to().index() as u64) << 5
            | (m.captured().0 as u64) << 10
            | 1 << 42
    }

    fn history_index(m: Move) -> usize {
        m.from().index() * 32 + m.to().index()
    }

    const PIECE_TO: usize = 4 * 32;

    fn piece_to(&self, m: Move) -> usize {
        let king = usize::from(!self.pos.is_man_move(&m));
        (self.pos.turn().index() * 2 + king) * 32 + m.to().index()
    }

    fn move_text(m: Move) -> String {
        m.to_engine()
    }

    fn repetition_window(&self) -> u32 {
        self.no_progress
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables' answer depends on the no-progress count, so the probe cache's key must
    /// tell counts apart, while the position's own key (repetitions) does not.
    #[test]
    fn the_table_key_tells_no_progress_counts_apart() {
        let pos: Position = "W:WKd2,Ke3:Bh2".parse().unwrap();
        let keys: Vec<u64> = (0..=NO_PROGRESS_LIMIT)
            .map(|n| MakhosGame::new(pos, Rules::Default, n).table_key())
            .collect();
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len());
        assert_eq!(
            MakhosGame::new(pos, Rules::Default, 0).key(),
            MakhosGame::new(pos, Rules::Default, 9).key()
        );
    }
}
