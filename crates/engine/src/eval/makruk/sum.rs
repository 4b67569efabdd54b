//! The fast path of the Makruk feature sum: the same middlegame and endgame
//! totals as feeding [`super::trace::trace`] to a weight-summing sink, but
//! with set operations where a feature only counts squares (material, bia
//! structure, threats, hanging pieces) instead of one call per square.
//!
//! It must stay exactly equal to the trace for every position and every
//! weight set: the tests below compare the two on random games and random
//! weights. A feature added to the trace must be added here too.

use super::shared::{Summer, TermWeights};
use super::terms as t;
use makruk::{Bitboard, Color, Position, Role, Square, attack};

/// Middlegame and endgame sums of one side's features, and its share of
/// the game phase.
#[derive(Default)]
struct Acc {
    mg: i32,
    eg: i32,
    phase: i32,
}

/// For each colour and khun square, the squares one and two ranks ahead of
/// the khun (from that colour's side) on its own and each neighbouring
/// file, one mask per file (empty off the board).
const SHELTER: [[[u64; 3]; 64]; 2] = {
    let mut t = [[[0u64; 3]; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut df = -1;
            while df <= 1 {
                let mut dr = 1;
                while dr <= 2 {
                    let (ff, rr) = (f + df, if c == 0 { r + dr } else { r - dr });
                    if ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
                        t[c][sq][(df + 1) as usize] |= 1u64 << (rr * 8 + ff);
                    }
                    dr += 1;
                }
                df += 1;
            }
            sq += 1;
        }
        c += 1;
    }
    t
};

/// What each role adds to the game phase (as in [`super::trace::phase`]).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 3, 3, 6, 0];

impl Acc {
    /// Adds feature `f` fired `n` times (nothing, not even a weight
    /// lookup, when `n` is 0, the common case of most counted features).
    #[inline(always)]
    fn add(&mut self, w: &TermWeights, f: usize, n: i32) {
        if n != 0 {
            self.mg += w.mg[f] as i32 * n;
            self.eg += w.eg[f] as i32 * n;
        }
    }

    /// Adds feature `f` fired once.
    #[inline(always)]
    fn one(&mut self, w: &TermWeights, f: usize) {
        self.mg += w.mg[f] as i32;
        self.eg += w.eg[f] as i32;
    }
}

/// What a side's piece attacks are measured against.
struct View {
    /// The side.
    color: Color,
    /// Squares that count for mobility: not own, not attacked by an enemy bia.
    area: Bitboard,
    /// The enemy khun's square and its neighbours.
    zone: Bitboard,
}

impl Acc {
    /// Adds the piece-square features of `color`'s pieces of `role` on `set`.
    #[inline(always)]
    fn squares(&mut self, w: &TermWeights, color: Color, role: Role, set: Bitboard) {
        let psqt = t::PSQT + 64 * role.index();
        for sq in set {
            self.one(w, psqt + relative(color, sq));
        }
    }

    /// Adds the piece-square and mobility features of the side's pieces of
    /// `role` (met, khon, ma or ruea), whose attacks `attacks` gives, and
    /// adds those attacks to `attacked`. Returns how many of them bear on
    /// the enemy khun's zone.
    #[inline(always)]
    fn mobile(
        &mut self,
        w: &TermWeights,
        view: &View,
        role: Role,
        pos: &Position,
        attacked: &mut u64,
        attacks: impl Fn(Square) -> Bitboard,
    ) -> usize {
        let base = match role {
            Role::Met => t::MOB_MET,
            Role::Khon => t::MOB_KHON,
            Role::Knight => t::MOB_MA,
            _ => t::MOB_RUEA,
        };
        let psqt = t::PSQT + 64 * role.index();
        let mut attackers = 0;
        for sq in pos.pieces(view.color, role) {
            self.one(w, psqt + relative(view.color, sq));
            let att = attacks(sq);
            *attacked |= att.0;
            self.one(w, base + (att & view.area).count() as usize);
            attackers += (att & view.zone).any() as usize;
        }
        attackers
    }
}

/// The number of squares of `set`, skipping the (software) bit count
/// when the set is empty, as most sets counted here are.
#[inline(always)]
fn count(set: u64) -> i32 {
    if set == 0 { 0 } else { set.count_ones() as i32 }
}

/// The square `sq` as `color` sees it (as in the trace).
#[inline(always)]
fn relative(color: Color, sq: Square) -> usize {
    color.fold(sq.index(), 63 - sq.index()) & 63
}

/// The features of `color` that need no knowledge of what the other side
/// attacks: material, piece squares, mobility, khun pressure, ruea files,
/// bia structure and shelter. Adds the squares its pieces attack to
/// `attacked`.
#[inline(always)]
fn side(
    pos: &Position,
    w: &TermWeights,
    color: Color,
    bia_attacks: &[u64; 2],
    attacked: &mut u64,
) -> Acc {
    let mut acc = Acc::default();
    let us = pos.by_color(color).0;
    let them = color.other();
    let occupied = pos.occupied();
    let promoted = pos.promoted().0;
    let all_pawns = pos.by_role(Role::Pawn).0;
    let own_bias = pos.pieces(color, Role::Pawn).0;
    let their_bias = pos.pieces(them, Role::Pawn).0;
    let area = Bitboard(!(us | bia_attacks[them.index()]));
    let their_khun = pos.king_of(them);
    let zone = attack::king_attacks(their_khun).with(their_khun);

    // Material and the game phase.
    for role in Role::ALL {
        let ri = role.index();
        let set = pos.pieces(color, role).0;
        // Promoted mets have their own value.
        let plain = count(set & !promoted);
        let raised = count(set & promoted);
        acc.add(w, t::MATERIAL + ri, plain);
        acc.add(w, t::MATERIAL + 6, raised);
        acc.phase += PHASE_WEIGHT[ri] * (plain + raised);
    }
    // Piece squares, mobility and pressure on the enemy khun, role by role
    // (each call is specialised, so its table offsets are constants).
    let view = View { color, area, zone };
    acc.squares(w, color, Role::Pawn, pos.pieces(color, Role::Pawn));
    acc.squares(w, color, Role::King, pos.pieces(color, Role::King));
    let mut attackers = 0;
    attackers += acc.mobile(w, &view, Role::Met, pos, attacked, attack::met_attacks);
    attackers += acc.mobile(w, &view, Role::Khon, pos, attacked, |sq| {
        attack::khon_attacks(color, sq)
    });
    attackers += acc.mobile(
        w,
        &view,
        Role::Knight,
        pos,
        attacked,
        attack::knight_attacks,
    );
    let rooks = pos.pieces(color, Role::Rook);
    attackers += acc.mobile(w, &view, Role::Rook, pos, attacked, |sq| {
        attack::rook_attacks(sq, occupied)
    });
    for sq in rooks {
        let file = Bitboard::file(sq.file()).0;
        if file & all_pawns == 0 {
            acc.one(w, t::RUEA_OPEN);
        } else if file & own_bias == 0 {
            acc.one(w, t::RUEA_HALF_OPEN);
        }
    }
    acc.one(w, t::KHUN_ATTACKERS + attackers.min(7));

    // Bia structure.
    acc.add(
        w,
        t::BIA_DOUBLED,
        count(own_bias & Bitboard(own_bias).span_behind(color).0),
    );
    acc.add(
        w,
        t::BIA_ISOLATED,
        count(own_bias & !Bitboard(own_bias).sideways().file_fill().0),
    );
    acc.add(
        w,
        t::BIA_PHALANX,
        count(own_bias & Bitboard(own_bias).sideways().0),
    );
    acc.add(
        w,
        t::BIA_PROTECTED,
        count(own_bias & bia_attacks[color.index()]),
    );
    // Passed: no enemy bia ahead on the own or a neighbouring file.
    let blocked = Bitboard(their_bias).span_behind(color);
    let passed = own_bias & !(blocked | blocked.sideways()).0;
    for sq in Bitboard(passed) {
        acc.one(w, t::BIA_PASSED + sq.relative_rank(color) as usize);
    }

    // Khun shelter: own bias on the three files around the khun, one or two
    // ranks ahead of it (one per file at most).
    let ksq = pos.king_of(color);
    let shelter = SHELTER[color.index()][ksq.index() & 63]
        .iter()
        .filter(|&&m| m & own_bias != 0)
        .count();
    acc.one(w, t::KHUN_SHELTER + shelter);
    acc
}

/// Threats to `color`'s pieces: those attacked by an enemy bia, and those
/// attacked and not defended.
#[inline(always)]
fn threats(pos: &Position, w: &TermWeights, color: Color, acc: &mut Acc, by_bia: u64, hang: u64) {
    for role in [Role::Pawn, Role::Met, Role::Khon, Role::Knight, Role::Rook] {
        let set = pos.pieces(color, role).0;
        if role != Role::Pawn {
            acc.add(w, t::THREAT_BY_BIA + role.index(), count(set & by_bia));
        }
        acc.add(w, t::HANGING + role.index(), count(set & hang));
    }
}

/// The feature sums of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sums {
    /// The middlegame sum from White's view.
    pub mg: i32,
    /// The endgame sum from White's view.
    pub eg: i32,
    /// The game phase, as [`super::trace::phase`] gives it.
    pub phase: i32,
}

/// The middlegame and endgame feature sums of `pos` from White's view
/// (exactly what [`super::trace::trace`] gives summed with `w`), and the
/// game phase.
pub(super) fn sums(pos: &Position, w: &TermWeights) -> Sums {
    let wp = pos.pieces(Color::White, Role::Pawn).0;
    let bp = pos.pieces(Color::Black, Role::Pawn).0;
    let bia_attacks = [
        Bitboard(wp).bia_attacks(Color::White).0,
        Bitboard(bp).bia_attacks(Color::Black).0,
    ];
    let mut attacked = [
        bia_attacks[0] | attack::king_attacks(pos.king_of(Color::White)).0,
        bia_attacks[1] | attack::king_attacks(pos.king_of(Color::Black)).0,
    ];
    let (a, b) = attacked.split_at_mut(1);
    let mut white = side(pos, w, Color::White, &bia_attacks, &mut a[0]);
    let mut black = side(pos, w, Color::Black, &bia_attacks, &mut b[0]);
    threats(
        pos,
        w,
        Color::White,
        &mut white,
        bia_attacks[1],
        attacked[1] & !attacked[0],
    );
    threats(
        pos,
        w,
        Color::Black,
        &mut black,
        bia_attacks[0],
        attacked[0] & !attacked[1],
    );
    match pos.turn() {
        Color::White => white.one(w, t::TEMPO),
        Color::Black => black.one(w, t::TEMPO),
    }
    let mut attack_sums = Summer { w, mg: 0, eg: 0 };
    super::attacks::attack_terms(pos, &mut attack_sums);
    Sums {
        mg: white.mg - black.mg + attack_sums.mg,
        eg: white.eg - black.eg + attack_sums.eg,
        phase: (white.phase + black.phase).min(t::PHASE_MAX),
    }
}
