//! The feature walk of the Makruk evaluation ([`trace`]), generic over a
//! [`Sink`] so the engine sums weights while the tuner records which
//! features fired, and the tapered sum of the fitted weights
//! ([`linear_white`]).

use super::shared::{Sink, TermWeights};
use super::terms as t;
use makruk::{Bitboard, Color, Position, Role, Square, attack};

/// Records features as (index, White-minus-Black count) pairs, for the tuner.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Features that fired, with their net count from White's view.
    pub features: Vec<(u16, i16)>,
}

impl Sink for Trace {
    fn add(&mut self, color: Color, feature: usize, count: i32) {
        let n = color.fold(count, -count) as i16;
        if let Some(e) = self
            .features
            .iter_mut()
            .find(|(f, _)| *f as usize == feature)
        {
            e.1 += n;
        } else {
            self.features.push((feature as u16, n));
        }
    }
}

impl Trace {
    /// Drops features whose White and Black counts cancelled out.
    pub fn compact(&mut self) {
        self.features.retain(|&(_, n)| n != 0);
    }
}

/// The game phase: [`t::PHASE_MAX`] with all pieces on the board, 0 with
/// none but khuns and bias.
pub fn phase(pos: &Position) -> i32 {
    let n = |r: Role| pos.by_role(r).count() as i32;
    (6 * n(Role::Rook) + 3 * (n(Role::Knight) + n(Role::Khon)) + n(Role::Met)).min(t::PHASE_MAX)
}

/// The square `sq` as `color` sees it: Black's squares turned 180 degrees
/// (the two khuns start on d1 and e8, so the board is point-symmetric).
#[inline]
fn relative(color: Color, sq: Square) -> usize {
    color.fold(sq.index(), 63 - sq.index())
}

/// Whether a bia of `color` on `sq` is passed: no enemy bia ahead of it on
/// its own or a neighbouring file.
#[inline]
fn is_passed(pos: &Position, color: Color, sq: Square) -> bool {
    let span = (Bitboard::file(sq.file()) | Bitboard::file(sq.file()).sideways())
        & Bitboard::ranks_ahead(color, sq.rank());
    (span & pos.pieces(color.other(), Role::Pawn)).is_empty()
}

/// Walks the features of `pos`, feeding them to `sink`. The tempo feature
/// is fed for the side to move.
pub fn trace(pos: &Position, sink: &mut impl Sink) {
    let occupied = pos.occupied();
    let promoted = pos.promoted();
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut bia_attacks = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        for sq in pos.pieces(color, Role::Pawn) {
            bia_attacks[color.index()] |= attack::pawn_attacks(color, sq);
        }
        attacked[color.index()] =
            bia_attacks[color.index()] | attack::king_attacks(pos.king_of(color));
    }
    for color in Color::ALL {
        let ci = color.index();
        let them = color.other();
        let area = !(pos.by_color(color) | bia_attacks[them.index()]);
        let their_khun = pos.king_of(them);
        let zone = attack::king_attacks(their_khun).with(their_khun);
        let mut attackers = 0;
        for role in Role::ALL {
            let ri = role.index();
            for sq in pos.pieces(color, role) {
                let is_promoted = promoted.contains(sq);
                sink.add(color, t::MATERIAL + if is_promoted { 6 } else { ri }, 1);
                sink.add(color, t::PSQT + 64 * ri + relative(color, sq), 1);
                let att = match role {
                    Role::Pawn | Role::King => continue,
                    Role::Met => attack::met_attacks(sq),
                    Role::Khon => attack::khon_attacks(color, sq),
                    Role::Knight => attack::knight_attacks(sq),
                    Role::Rook => attack::rook_attacks(sq, occupied),
                };
                attacked[ci] |= att;
                let mobility = (att & area).count() as usize;
                let base = match role {
                    Role::Met => t::MOB_MET,
                    Role::Khon => t::MOB_KHON,
                    Role::Knight => t::MOB_MA,
                    _ => t::MOB_RUEA,
                };
                sink.add(color, base + mobility, 1);
                if (att & zone).any() {
                    attackers += 1;
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & pos.by_role(Role::Pawn)).is_empty() {
                        sink.add(color, t::RUEA_OPEN, 1);
                    } else if (file & pos.pieces(color, Role::Pawn)).is_empty() {
                        sink.add(color, t::RUEA_HALF_OPEN, 1);
                    }
                }
            }
        }
        sink.add(color, t::KHUN_ATTACKERS + attackers.min(7), 1);
        // Bia structure.
        let own_bias = pos.pieces(color, Role::Pawn);
        for sq in own_bias {
            let file = Bitboard::file(sq.file());
            let neighbours = Bitboard::file(sq.file()).sideways();
            if (file & own_bias).more_than_one() && !is_front_most(color, sq, file & own_bias) {
                sink.add(color, t::BIA_DOUBLED, 1);
            }
            if (neighbours & own_bias).is_empty() {
                sink.add(color, t::BIA_ISOLATED, 1);
            }
            if (neighbours & Bitboard::rank(sq.rank()) & own_bias).any() {
                sink.add(color, t::BIA_PHALANX, 1);
            }
            if bia_attacks[ci].contains(sq) {
                sink.add(color, t::BIA_PROTECTED, 1);
            }
            if is_passed(pos, color, sq) {
                sink.add(color, t::BIA_PASSED + sq.relative_rank(color) as usize, 1);
            }
        }
        // Khun shelter: own bias on the three files around the khun, one or
        // two ranks ahead of it.
        let ksq = pos.king_of(color);
        let mut shelter = 0;
        for df in -1..=1 {
            for dr in 1..=2 {
                if let Some(s) = ksq.offset(df, color.fold(dr, -dr)) {
                    if own_bias.contains(s) {
                        shelter += 1;
                        break;
                    }
                }
            }
        }
        sink.add(color, t::KHUN_SHELTER + shelter, 1);
    }
    // Threats: pieces attacked by an enemy bia, and pieces left hanging.
    for color in Color::ALL {
        let them = color.other().index();
        for role in [Role::Pawn, Role::Met, Role::Khon, Role::Knight, Role::Rook] {
            for sq in pos.pieces(color, role) {
                if role != Role::Pawn && bia_attacks[them].contains(sq) {
                    sink.add(color, t::THREAT_BY_BIA + role.index(), 1);
                }
                if attacked[them].contains(sq) && !attacked[color.index()].contains(sq) {
                    sink.add(color, t::HANGING + role.index(), 1);
                }
            }
        }
    }
    sink.add(pos.turn(), t::TEMPO, 1);
    super::attacks::attack_terms(pos, sink);
}

/// Whether `sq` is the most advanced of `color`'s bias in `set` (its file).
#[inline]
fn is_front_most(color: Color, sq: Square, set: Bitboard) -> bool {
    (set & Bitboard::ranks_ahead(color, sq.rank())).is_empty()
}

/// The tapered feature sum from White's view: middlegame and endgame sums
/// blended by [`phase`]. The sums come from the fast path (`sum.rs`), which equals
/// summing the [`trace`] with `w` exactly.
pub fn linear_white(pos: &Position, w: &TermWeights) -> i32 {
    let s = super::sum::sums(pos, w);
    (s.mg * s.phase + s.eg * (t::PHASE_MAX - s.phase)) / t::PHASE_MAX
}
