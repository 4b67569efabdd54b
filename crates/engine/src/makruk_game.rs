//! Makruk and Ouk Chatrang as a [`Game`].

use crate::eval::nnue::{Network, Nnue};
use crate::eval::{Classical, MakrukEvaluator, MakrukWeights};
use crate::game::{Game, StandPat};
use makruk::{Bitboard, Move, Position, Role, attack};

/// A Makruk or Ouk Chatrang position for the search, with the evaluation
/// it is scored with: the classical sum ([`Classical`], the type's default)
/// or a network ([`Nnue`]), and the weights of the rules' corrections. (The
/// engine plays with the shipped network by default:
/// [`crate::eval::nnue::on_by_default`].)
#[derive(Clone, Debug)]
pub struct MakrukGame<E: MakrukEvaluator = Classical> {
    /// The position.
    pub pos: Position,
    weights: &'static MakrukWeights,
    eval: E,
}

impl MakrukGame {
    /// Wraps a position (evaluated with [`MakrukWeights::DEFAULT`]).
    pub fn new(pos: Position) -> MakrukGame {
        MakrukGame::with_weights(pos, &MakrukWeights::DEFAULT)
    }

    /// Wraps a position evaluated with other weights (tuning, self-play
    /// comparisons).
    pub fn with_weights(pos: Position, weights: &'static MakrukWeights) -> MakrukGame {
        MakrukGame {
            pos,
            weights,
            eval: Classical,
        }
    }

    /// The search keys ([`Game::key`]) of the positions a game passed
    /// through before its current one, oldest first, from its `start` and
    /// its `moves` (legal in turn): the history a search needs to see
    /// repetitions, as a UCI `position ... moves` gives it. Counts declared
    /// between moves are not in `moves`, so positions under such a count
    /// get other keys than the search's: a repetition missed, never one
    /// made up.
    pub fn history_keys(start: &Position, moves: &[Move]) -> Vec<u64> {
        let mut pos = start.clone();
        let mut keys = Vec::with_capacity(moves.len());
        for &m in moves {
            keys.push(search_key(&pos));
            pos.play_unchecked(m);
        }
        keys
    }

    /// The same position evaluated by the network `net` (the rules'
    /// corrections keep this game's weights).
    pub fn with_network(&self, net: &'static Network) -> MakrukGame<Nnue> {
        MakrukGame {
            eval: Nnue::new(net, &self.pos),
            pos: self.pos.clone(),
            weights: self.weights,
        }
    }
}

/// Runs `$body` with `$g` bound to `&` the Makruk position `$pos` as the
/// engine plays it by default: scored by the shipped network when it is on
/// by default ([`crate::eval::nnue::on_by_default`]), else by the classical
/// sum. The two are different types, hence a macro (Mak-hot's one type has
/// [`crate::MakhosGame::played_by_default`]).
///
/// ```
/// use engine::{Game, with_makruk_played_by_default};
/// let pos = makruk::Position::new(makruk::Variant::Makruk);
/// let score = with_makruk_played_by_default!(pos, |g| g.evaluate());
/// # let _ = score;
/// ```
#[macro_export]
macro_rules! with_makruk_played_by_default {
    ($pos:expr, |$g:ident| $body:expr) => {{
        let root = $crate::MakrukGame::new($pos);
        match $crate::eval::nnue::default_network($crate::eval::nnue::Layout::Makruk) {
            Some(net) => {
                let $g = &root.with_network(net);
                $body
            }
            None => {
                let $g = &root;
                $body
            }
        }
    }};
}

impl<E: MakrukEvaluator> MakrukGame<E> {
    /// The evaluator's state (the network's accumulators for NNUE).
    pub fn evaluator(&self) -> &E {
        &self.eval
    }
}

/// The search's key of a position: its Zobrist key and its count.
fn search_key(pos: &Position) -> u64 {
    pos.zobrist() ^ count_key(pos)
}

/// The part of the search key that the position's Zobrist key leaves out:
/// the running count (its limit and ply), since the same placement with a
/// different count can have a different result (a draw at the limit).
fn count_key(pos: &Position) -> u64 {
    match pos.counting() {
        None => 0,
        Some(c) => {
            // SplitMix64 finaliser of (limit, ply): distinct counts give
            // unrelated keys.
            mix((u64::from(c.limit) << 32 | u64::from(c.ply)) ^ 0x9E37_79B9_7F4A_7C15)
        }
    }
}

/// SplitMix64's finaliser: every input bit reaches every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Ordering values of roles as victims and attackers.
const ORDER_VALUE: [i32; 6] = [1, 2, 3, 4, 6, 10];

/// Exchange values of the roles (the khun's is high enough that it only
/// ever takes last).
const SEE_VALUE: [i32; 6] = [100, 190, 280, 320, 560, 20000];

/// Static exchange evaluation of a capture on `m.to()`: the material the
/// mover wins (negative: loses) when both sides keep recapturing there
/// with their least valuable piece and may stop at any point. Pins and
/// promotions are ignored; ruea x-rays are seen (attackers are recomputed
/// with the taken pieces removed).
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let value = |r: Option<Role>| r.map_or(0, |r| SEE_VALUE[r.index()]);
    let mut gain = [0i32; 32];
    gain[0] = value(pos.role_at(to));
    let mut on_square = value(pos.role_at(m.from()));
    let mut occupied = pos.occupied().without(m.from());
    let mut side = pos.turn().other();
    let mut d = 0;
    loop {
        let attackers = pos.attackers(to, side, occupied) & occupied;
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (attackers & pos.pieces(side, r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        // A khun may not take into a square the other side still attacks.
        if role == Role::King
            && (pos.attackers(to, side.other(), occupied.without(sq)) & occupied).any()
        {
            break;
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        on_square = SEE_VALUE[role.index()];
        occupied = occupied.without(sq);
        side = side.other();
        if d == gain.len() - 1 {
            break;
        }
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the legal move `m` checks the opponent's khun: directly from
/// its destination (as a met when it promotes), or by uncovering a ruea.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let khun = pos.king_of(us.other());
    let (from, to) = (m.from(), m.to());
    let occupied = pos.occupied().without(from).with(to);
    let role = m
        .promotion_role()
        .or_else(|| pos.role_at(from))
        .unwrap_or(Role::Pawn);
    let direct = match role {
        Role::Pawn => attack::pawn_attacks(us, to),
        Role::Met => attack::met_attacks(to),
        Role::Khon => attack::khon_attacks(us, to),
        Role::Knight => attack::knight_attacks(to),
        Role::Rook => attack::rook_attacks(to, occupied),
        Role::King => Bitboard::EMPTY,
    };
    if direct.contains(khun) {
        return true;
    }
    let rueas = pos.pieces(us, Role::Rook).without(from);
    (attack::rook_attacks(khun, occupied) & rueas).any()
}

impl<E: MakrukEvaluator> Game for MakrukGame<E> {
    type Move = Move;

    fn white_to_move(&self) -> bool {
        self.pos.turn() == makruk::Color::White
    }

    fn key(&self) -> u64 {
        search_key(&self.pos)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.pos.extend_legal_moves(out);
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) -> StandPat {
        if self.pos.is_check() {
            self.pos.extend_legal_moves(out);
            return StandPat::Forbidden;
        }
        self.pos.extend_noisy_moves(out);
        StandPat::Allowed
    }

    fn play(&self, m: Move) -> MakrukGame<E> {
        let pos = self.pos.played(m);
        MakrukGame {
            eval: self.eval.played(&self.pos, m, &pos),
            pos,
            weights: self.weights,
        }
    }

    fn play_null(&self) -> Option<MakrukGame<E>> {
        // The board is unchanged: so is the evaluator's state.
        self.pos.null_move().map(|pos| MakrukGame {
            pos,
            weights: self.weights,
            eval: self.eval.clone(),
        })
    }

    fn null_move_safe(&self) -> bool {
        // Zugzwang is real in Makruk endings: only with a ruea or ma and at
        // least three pieces besides the khun and bias, and no count running.
        let us = self.pos.turn();
        let pos = &self.pos;
        let strong = pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Knight);
        let pieces = pos.by_color(us).count() - 1 - pos.pieces(us, Role::Pawn).count();
        strong.any() && pieces >= 3 && pos.counting().is_none()
    }

    fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    fn quiet(&self) -> bool {
        !self.pos.is_check()
    }

    fn rule_draw(&self) -> bool {
        if self.pos.is_insufficient_material() {
            return true;
        }
        match self.pos.counting() {
            Some(c) if c.expired() => !(self.pos.is_check() && self.pos.count_legal_moves() == 0),
            _ => false,
        }
    }

    fn no_moves_loses(&self) -> bool {
        self.pos.is_check()
    }

    fn evaluate(&self) -> i32 {
        self.eval.evaluate(&self.pos, self.weights)
    }

    fn correction_key(&self) -> Option<u64> {
        // Both sides' bias, mixed (SplitMix64's finaliser) so that the
        // table's low bits see every square.
        let white = self.pos.pieces(makruk::Color::White, Role::Pawn).0;
        let black = self.pos.pieces(makruk::Color::Black, Role::Pawn).0;
        Some(mix(
            white ^ black.rotate_left(32).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ))
    }

    fn is_tactical(&self, m: Move) -> bool {
        m.is_promotion() || self.pos.is_capture(m)
    }

    fn tactical_order(&self, m: Move) -> i32 {
        let victim = self
            .pos
            .role_at(m.to())
            .map_or(0, |r| ORDER_VALUE[r.index()]);
        let attacker = self
            .pos
            .role_at(m.from())
            .map_or(0, |r| ORDER_VALUE[r.index()]);
        victim * 16 - attacker + if m.is_promotion() { 8 } else { 0 }
    }

    fn victim(&self, m: Move) -> usize {
        self.pos.role_at(m.to()).map_or(0, |r| r.index() + 1)
    }

    fn losing_capture(&self, m: Move) -> bool {
        let (Some(victim), Some(attacker)) = (self.pos.role_at(m.to()), self.pos.role_at(m.from()))
        else {
            return false;
        };
        // Taking a piece worth at least the taker never loses material.
        SEE_VALUE[victim.index()] < SEE_VALUE[attacker.index()] && see(&self.pos, m) < 0
    }

    fn encode(m: Move) -> u64 {
        1 + ((m.from().index() as u64) << 1 | (m.to().index() as u64) << 7)
            + ((m.is_promotion() as u64) << 13)
    }

    fn history_index(m: Move) -> usize {
        m.from().index() * 64 + m.to().index()
    }

    const PIECE_TO: usize = 12 * 64;

    fn piece_to(&self, m: Move) -> usize {
        let role = self.pos.role_at(m.from()).map_or(0, |r| r.index());
        let colour = self.pos.turn().index();
        (colour * 6 + role) * 64 + m.to().index()
    }

    fn forcing(&self, m: Move) -> bool {
        gives_check(&self.pos, m)
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see(&self.pos, m) >= threshold
    }

    fn move_text(m: Move) -> String {
        m.to_uci()
    }

    /// Makruk has no repetition rule, but the search scores a repeated
    /// position as a draw, as Fairy-Stockfish does (and as `thaiboard
    /// match` adjudicates a threefold repetition): a line that returns to
    /// where it was makes no progress, so a side that is ahead looks for one
    /// that does instead of shuffling. Positions before the last capture or
    /// bia move cannot recur; every one since is looked at (a cap of 100
    /// plies let a winning side walk back into a position 104 plies old).
    fn repetition_window(&self) -> u32 {
        self.pos.halfmoves()
    }
}
