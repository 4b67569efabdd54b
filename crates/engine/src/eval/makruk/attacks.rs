//! The Makruk evaluation terms that weigh one side's attacks against the
//! other's, and the terms added with them: safe checks by role, threats by
//! minor pieces and rueas, outposts of ma and khon, the khuns' distance to
//! passed bias, blocked bias, bia chains by rank, material balance against
//! the bias on the board, space and tropism.
//!
//! (A danger table by "danger units" of attackers, weak khun-zone squares
//! and safe checks was tried and fitted to nothing on 133k scored
//! positions: the attacker table of the trace already carries it.)
//!
//! The feature trace ([`super::trace::trace`]) and the fast sum
//! ([`super::sum`]) both call [`attack_terms`], so these features
//! have one definition.

use super::shared::{Sink, chebyshev};
use super::terms as t;
use makruk::{Bitboard, Color, Position, Role, Square, attack};

/// The roles that give safe checks, in the order of [`t::SAFE_CHECK`].
const CHECKERS: [Role; 4] = [Role::Met, Role::Khon, Role::Knight, Role::Rook];

/// What each side attacks, by role and in all.
struct Attacks {
    /// Squares attacked by each side's pieces of each role.
    by_role: [[u64; 6]; 2],
    /// Squares attacked by each side.
    all: [u64; 2],
    /// Squares attacked by at least two pieces of each side.
    twice: [u64; 2],
}

/// The squares a piece of `role` and `color` on `sq` attacks.
#[inline(always)]
fn piece_attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attack::pawn_attacks(color, sq),
        Role::Met => attack::met_attacks(sq),
        Role::Khon => attack::khon_attacks(color, sq),
        Role::Knight => attack::knight_attacks(sq),
        Role::Rook => attack::rook_attacks(sq, occupied),
        Role::King => attack::king_attacks(sq),
    }
}

impl Attacks {
    fn of(pos: &Position) -> Attacks {
        let occupied = pos.occupied();
        let mut a = Attacks {
            by_role: [[0; 6]; 2],
            all: [0; 2],
            twice: [0; 2],
        };
        for color in Color::ALL {
            let ci = color.index();
            // Bias in bulk: a square both diagonals reach is hit twice.
            let (left, right) = pos.pieces(color, Role::Pawn).bia_attacks_towards(color);
            let (left, right) = (left.0, right.0);
            a.twice[ci] = left & right;
            a.all[ci] = left | right;
            a.by_role[ci][Role::Pawn.index()] = left | right;
            for role in Role::ALL.into_iter().skip(1) {
                let mut set = 0;
                for sq in pos.pieces(color, role) {
                    let att = piece_attacks(role, color, sq, occupied).0;
                    a.twice[ci] |= a.all[ci] & att;
                    a.all[ci] |= att;
                    set |= att;
                }
                a.by_role[ci][role.index()] = set;
            }
        }
        a
    }

    /// Squares attacked by `color`'s met, khon and ma.
    fn minors(&self, color: Color) -> u64 {
        let r = &self.by_role[color.index()];
        r[Role::Met.index()] | r[Role::Khon.index()] | r[Role::Knight.index()]
    }
}

/// Squares strictly ahead of `sq` from `color`'s side on the neighbouring
/// files: where an enemy bia could come from to attack `sq`.
#[inline]
fn bia_approach(color: Color, sq: Square) -> u64 {
    (Bitboard::file(sq.file()).sideways() & Bitboard::ranks_ahead(color, sq.rank())).0
}

/// `color`'s passed bias: no enemy bia ahead on the own or a neighbouring
/// file.
#[inline]
fn passed_bias(pos: &Position, color: Color) -> u64 {
    let blocked = pos.pieces(color.other(), Role::Pawn).span_behind(color);
    (pos.pieces(color, Role::Pawn) & !(blocked | blocked.sideways())).0
}

/// Feeds the attack terms of `pos` to `sink`.
pub(super) fn attack_terms(pos: &Position, sink: &mut impl Sink) {
    let a = Attacks::of(pos);
    let occupied = pos.occupied();
    for color in Color::ALL {
        let ci = color.index();
        let them = color.other();
        let ti = them.index();
        let us = pos.by_color(color).0;

        // Safe checks against the enemy khun.
        let ksq = pos.king_of(them);
        let khun_guard = a.by_role[ti][Role::King.index()];
        // Squares defended by something other than the khun.
        let guarded = a.by_role[ti][..Role::King.index()]
            .iter()
            .fold(0, |g, r| g | r);
        // Safe squares to check from: not ours, not defended by anything
        // but the khun, and if the khun defends them, covered twice by us
        // (the checking piece and another).
        let safe = !us & !guarded & (!khun_guard | a.twice[ci]);
        for (k, &role) in CHECKERS.iter().enumerate() {
            let from = piece_attacks(role, them, ksq, occupied).0;
            if from & a.by_role[ci][role.index()] & safe != 0 {
                sink.add(color, t::SAFE_CHECK + k, 1);
            }
        }

        // Threats to our pieces by enemy minor pieces and rueas (bias only
        // when undefended).
        let minors = a.minors(them);
        let rueas = a.by_role[ti][Role::Rook.index()];
        for role in [Role::Pawn, Role::Met, Role::Khon, Role::Knight, Role::Rook] {
            let mut set = pos.pieces(color, role).0;
            if role == Role::Pawn {
                set &= !a.all[ci];
            }
            let by_minor = (set & minors).count_ones() as i32;
            if by_minor != 0 {
                sink.add(color, t::THREAT_BY_MINOR + role.index(), by_minor);
            }
            let by_ruea = (set & rueas).count_ones() as i32;
            if by_ruea != 0 {
                sink.add(color, t::THREAT_BY_RUEA + role.index(), by_ruea);
            }
        }

        // Outposts: a ma or khon on the 4th to 6th rank, defended by an own
        // bia, where no enemy bia can come to attack it.
        let own_bia_guard = a.by_role[ci][Role::Pawn.index()];
        let their_bias = pos.pieces(them, Role::Pawn).0;
        for (role, feature) in [(Role::Knight, t::MA_OUTPOST), (Role::Khon, t::KHON_OUTPOST)] {
            let mut n = 0;
            for sq in pos.pieces(color, role) {
                if (3..=5).contains(&sq.relative_rank(color))
                    && own_bia_guard & (1 << sq.index()) != 0
                    && bia_approach(color, sq) & their_bias == 0
                {
                    n += 1;
                }
            }
            if n != 0 {
                sink.add(color, feature, n);
            }
        }

        // Passed bias: the khuns' distance to the promotion square.
        let own_khun = pos.king_of(color);
        let (mut own_d, mut their_d) = (0, 0);
        let promotion_rank = color.fold(5, 2);
        for sq in Bitboard(passed_bias(pos, color)) {
            if let Some(target) = Square::from_coords(sq.file(), promotion_rank) {
                own_d += chebyshev(own_khun, target);
                their_d += chebyshev(ksq, target);
            }
        }
        if own_d != 0 {
            sink.add(color, t::PASSED_OWN_KHUN, own_d);
        }
        if their_d != 0 {
            sink.add(color, t::PASSED_THEIR_KHUN, their_d);
        }

        // Bias blocked by an enemy piece right in front.
        let own_bias = pos.pieces(color, Role::Pawn).0;
        let fronts = Bitboard(own_bias).forward(color).0;
        let blocked = (fronts & pos.by_color(them).0).count_ones() as i32;
        if blocked != 0 {
            sink.add(color, t::BIA_BLOCKED, blocked);
        }

        // Bia chains by rank.
        let guards = a.by_role[ci][Role::Pawn.index()];
        let beside = Bitboard(own_bias).sideways().0;
        let (protected, phalanx) = (own_bias & guards, own_bias & beside);
        if protected | phalanx != 0 {
            for rank in 0..8 {
                let mask = 0xffu64 << (8 * color.fold(rank, 7 - rank));
                let n = (protected & mask).count_ones() as i32;
                if n != 0 {
                    sink.add(color, t::BIA_PROTECTED_RANK + rank, n);
                }
                let n = (phalanx & mask).count_ones() as i32;
                if n != 0 {
                    sink.add(color, t::BIA_PHALANX_RANK + rank, n);
                }
            }
        }

        // Material balance against the bias on the board, space and
        // tropism, by role.
        let own_n = own_bias.count_ones() as i32;
        let their_n = their_bias.count_ones() as i32;
        let mut pieces = 0;
        for (k, role) in [Role::Met, Role::Khon, Role::Knight, Role::Rook]
            .into_iter()
            .enumerate()
        {
            let set = pos.pieces(color, role);
            let n = set.count() as i32;
            pieces += n;
            if n != 0 {
                sink.add(color, t::IMBALANCE_OWN_BIAS + k, n * own_n);
                sink.add(color, t::IMBALANCE_THEIR_BIAS + k, n * their_n);
                let steps: i32 = set.into_iter().map(|sq| chebyshev(sq, ksq)).sum();
                sink.add(color, t::TROPISM + k, steps);
            }
        }
        let centre = match color {
            Color::White => SPACE_WHITE,
            Color::Black => SPACE_WHITE.swap_bytes(),
        };
        let space = (centre & !own_bias & !a.by_role[ti][Role::Pawn.index()]).count_ones() as i32;
        if space * pieces != 0 {
            sink.add(color, t::SPACE, space * pieces);
        }
    }
}

/// Files c to f of ranks 2 to 4, White's space area.
const SPACE_WHITE: u64 = 0x3c3c_3c00;
