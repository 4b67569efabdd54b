//! The Makruk evaluation: a tapered sum of features (material, piece-square
//! tables, mobility, bia structure, ruea files, khun safety, threats), each
//! with a middlegame and an endgame weight fitted by `thaiboard tune fit`,
//! followed by the rules-driven corrections that are not fitted: mop-up of a
//! bare khun, material that cannot mate, and the counting fade.
//!
//! The feature walk ([`trace`]) is generic over a [`Sink`], so the engine
//! sums weights while the tuner records which features fired.

use super::makruk_shared::{Sink, TermWeights, chebyshev};
use super::makruk_terms as t;
use makruk::{Bitboard, Color, Position, Role, Square, attack};

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
    /// [`super::makruk_weights`].
    pub const DEFAULT: MakrukWeights = MakrukWeights {
        terms: TermWeights {
            mg: super::makruk_weights::MG,
            eg: super::makruk_weights::EG,
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
    super::makruk_attacks::attack_terms(pos, sink);
}

/// Whether `sq` is the most advanced of `color`'s bias in `set` (its file).
#[inline]
fn is_front_most(color: Color, sq: Square, set: Bitboard) -> bool {
    (set & Bitboard::ranks_ahead(color, sq.rank())).is_empty()
}

/// The tapered feature sum from White's view: middlegame and endgame sums
/// blended by [`phase`]. The sums come from the fast path ([`super::makruk_sum`]), which equals
/// summing the [`trace`] with `w` exactly.
pub fn linear_white(pos: &Position, w: &TermWeights) -> i32 {
    let s = super::makruk_sum::sums(pos, w);
    (s.mg * s.phase + s.eg * (t::PHASE_MAX - s.phase)) / t::PHASE_MAX
}

/// Steps from the centre (0 to 6) of a Makruk square.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// Whether `color`'s material (khun aside) can never mate: no ruea and at
/// most one other piece or bia (a bia only becomes a met), or two mets on
/// squares of one colour.
pub fn makruk_cannot_mate(pos: &Position, color: Color) -> bool {
    if pos.pieces(color, Role::Rook).any() {
        return false;
    }
    let others = pos.by_color(color).count() - 1;
    if others <= 1 {
        return true;
    }
    let mets = pos.pieces(color, Role::Met) | pos.pieces(color, Role::Pawn);
    if mets.count() == others && others == 2 {
        let dark = |s: Square| (s.file() + s.rank()) % 2;
        let mut it = mets;
        if let (Some(a), Some(b)) = (it.next(), it.next()) {
            return pos.pieces(color, Role::Pawn).is_empty() && dark(a) == dark(b);
        }
    }
    false
}

/// The Makruk evaluation from White's view, before the side-to-move flip
/// and the counting fade.
pub fn makruk_white(pos: &Position, w: &MakrukWeights) -> i32 {
    rules_white(pos, w, linear_white(pos, &w.terms))
}

/// The corrections the rules call for, applied to a White-view score
/// `total` (the fitted sum or a network's output): mop-up of a (nearly)
/// bare khun, and material that cannot mate scored close to a draw. They
/// stay explicit, outside anything fitted, because they follow from the
/// rules (`RULES.md`, the end of the game) rather than from play.
pub fn rules_white(pos: &Position, w: &MakrukWeights, total: i32) -> i32 {
    let mut total = total;
    // Mop-up: drive a (nearly) bare khun to the edge, bring the own khun near.
    for color in Color::ALL {
        let them = color.other();
        let ahead = color.fold(total, -total);
        if pos.by_color(them).count() <= 2
            && ahead >= 300
            && !makruk_cannot_mate(pos, color)
            && pos.pieces(them, Role::Pawn).is_empty()
        {
            let weak = pos.king_of(them);
            let strong = pos.king_of(color);
            let bonus =
                w.mop_edge * centre_distance(weak) + w.mop_close * (7 - chebyshev(weak, strong));
            total += color.fold(bonus, -bonus);
        }
    }
    // Material that cannot mate scores (close to) a draw for that side.
    if (total > 0 && makruk_cannot_mate(pos, Color::White))
        || (total < 0 && makruk_cannot_mate(pos, Color::Black))
    {
        total /= w.no_mate_divisor;
    }
    total
}

/// The Makruk evaluation in centipawns from the side to move's view, with
/// the counting rules applied (see [`count_fade`]).
pub fn evaluate_makruk(pos: &Position, w: &MakrukWeights) -> i32 {
    let white = makruk_white(pos, w);
    count_fade(pos, w, pos.turn().fold(white, -white))
}

/// The counting rules applied to a score (any evaluation's, side to move's
/// view): a running count pulls the score toward 0 over its last
/// `count_fade_plies` plies (or the last half of a shorter count), so the
/// stronger side hurries to convert and the weaker side values reaching the
/// limit. A fresh count is never faded, so capturing the weaker side's last
/// piece (which starts a pieces'-honour count) is not shunned.
///
/// Against a bare khun, the stronger side's own bias keep any count from
/// starting until the last one promotes, so holding one back looks free,
/// and a side whose evaluation likes its bia better than the met it would
/// become can shuffle for ever (a game of hybrid 3 did, for 27,000 plies).
/// Such a position is faded as if the count its last promotion starts were
/// running, advanced by the plies since the last capture or bia move
/// ([`stalled_count`]): stalling runs it down as a real count would, and
/// advancing a bia or promoting restores the score.
pub fn count_fade(pos: &Position, w: &MakrukWeights, score: i32) -> i32 {
    let (limit, ply) = match pos.counting() {
        Some(count) => (count.limit as i32, count.ply as i32),
        None => match stalled_count(pos) {
            Some(stalled) => stalled,
            None => return score,
        },
    };
    let left = limit - ply;
    let fade = w.count_fade_plies.min(limit / 2).max(1);
    if left < fade {
        score * left.max(0) / fade
    } else {
        score
    }
}

/// `(limit, ply)` in plies of the count a bare khun would run if the other
/// side's last bia promoted now, its ply advanced by the plies since the
/// last capture or bia move; `None` unless one side has a bare khun and the
/// other still has bias (no count can run then).
pub fn stalled_count(pos: &Position) -> Option<(i32, i32)> {
    if pos.by_role(Role::Pawn).is_empty() {
        return None;
    }
    let strong = Color::ALL
        .into_iter()
        .find(|&c| pos.by_color(c.other()).count() == 1)?;
    let limit = 2 * pos.pieces_honour_limit_against(strong) as i32;
    if limit == 0 {
        return None;
    }
    let start = 2 * pos.occupied().count() as i32;
    Some((limit, start + pos.halfmoves() as i32))
}
