//! Static evaluation of both games. Every weight lives in [`MakrukWeights`]
//! and [`MakhosWeights`] (their `DEFAULT` constants are what the engine
//! uses), so a tuner can change them in one place.

use makruk::{Bitboard, Color, Position, Role, Square, attack};

/// The weights of the Makruk evaluation, in centipawns (a bia is about 100).
#[derive(Clone, Debug, PartialEq)]
pub struct MakrukWeights {
    /// Material by role in [`Role::ALL`] order: bia, met, khon, ma, ruea, khun.
    pub material: [i32; 6],
    /// Extra value of a promoted bia over a met (usually negative or 0).
    pub promoted_met: i32,
    /// Bonus per step toward the centre (0 to 6 steps), by role.
    pub centre: [i32; 6],
    /// Bia bonus by relative rank (0 = own back rank).
    pub bia_rank: [i32; 8],
    /// Khun bonus for staying on its first two ranks while the opponent has a
    /// ruea or two other pieces.
    pub khun_shelter: i32,
    /// Khun centralisation per step in the ending.
    pub khun_centre_ending: i32,
    /// Mop-up: bonus per step the weaker khun is from the centre, when the
    /// other side has a mating advantage.
    pub mop_edge: i32,
    /// Mop-up: bonus per step the khuns are closer together.
    pub mop_close: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Bonus per square a piece attacks that holds no own piece and no
    /// enemy bia guards (mobility), by role (bia and khun unused).
    pub mobility: [i32; 6],
    /// Ruea on a file without bias.
    pub ruea_open_file: i32,
    /// Ruea on a file without own bias (enemy bias on it).
    pub ruea_half_open_file: i32,
    /// Bonus per own met, khon, ma or ruea attacking the enemy khun or a
    /// square next to it (pressure on the khun).
    pub khun_attackers: i32,
    /// A running count pulls the score toward 0 over this many final plies.
    pub count_fade_plies: i32,
    /// Divisor of the score of a side whose material cannot mate.
    pub no_mate_divisor: i32,
}

impl MakrukWeights {
    /// The weights the engine plays with (hand-set). Mobility, ruea files
    /// and khun pressure scored +35 =146 -19 (54.0%) over 200 games at
    /// 3,000 nodes a move against the same weights without them.
    pub const DEFAULT: MakrukWeights = MakrukWeights {
        material: [100, 190, 280, 320, 560, 0],
        promoted_met: -10,
        centre: [0, 4, 4, 8, 2, 0],
        bia_rank: [0, 0, 0, 4, 12, 24, 0, 0],
        khun_shelter: 20,
        khun_centre_ending: 8,
        mop_edge: 12,
        mop_close: 6,
        tempo: 10,
        mobility: [0, 2, 2, 4, 3, 0],
        ruea_open_file: 20,
        ruea_half_open_file: 10,
        khun_attackers: 12,
        count_fade_plies: 40,
        no_mate_divisor: 16,
    };
}

impl Default for MakrukWeights {
    fn default() -> MakrukWeights {
        MakrukWeights::DEFAULT
    }
}

/// The weights of the Mak-hot evaluation, in centi-men (a man is 100).
#[derive(Clone, Debug, PartialEq)]
pub struct MakhosWeights {
    /// Value of a man.
    pub man: i32,
    /// Value of a king.
    pub king: i32,
    /// Man bonus by relative rank (0 = own back rank).
    pub man_rank: [i32; 8],
    /// Bonus per man still on its own back rank while the opponent has men.
    pub back_rank: i32,
    /// Bonus per free forward step of a man (mobility).
    pub man_mobility: i32,
    /// Bonus per square a king can slide to (mobility).
    pub king_mobility: i32,
    /// Bonus for a king on the long diagonal a1-h8.
    pub king_long_diagonal: i32,
    /// Bonus for the side to move (tempo).
    pub tempo: i32,
    /// Extra bonus, per man-equivalent ahead, as material comes off (trade
    /// down when ahead).
    pub trade_down: i32,
}

impl MakhosWeights {
    /// The weights the engine plays with: Texel-tuned (`thaiboard tune run
    /// --game makhos`) on 177,026 quiet positions of 3,500 self-play games
    /// at 2,000 nodes a move (K 0.725, error 0.1178 -> 0.1096); against the
    /// earlier hand-set weights they scored 59% in 600 games at 2,000 to
    /// 5,000 nodes a move (`thaiboard tune match`). The Makruk weights stay
    /// hand-set: every tuned Makruk set so far lost its check.
    pub const DEFAULT: MakhosWeights = MakhosWeights {
        man: 100,
        king: 449,
        man_rank: [0, 60, 51, 49, 65, 94, 169, 0],
        back_rank: 88,
        man_mobility: 29,
        king_mobility: 1,
        king_long_diagonal: 2,
        tempo: 1,
        trade_down: -4,
    };
}

impl Default for MakhosWeights {
    fn default() -> MakhosWeights {
        MakhosWeights::DEFAULT
    }
}

/// Steps from the centre (0 to 6) of a Makruk square.
fn makruk_centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Whether `color`'s material (khun aside) can never mate: no ruea and at
/// most one other piece or bia (a bia only becomes a met).
pub fn makruk_cannot_mate(pos: &Position, color: Color) -> bool {
    if pos.pieces(color, Role::Rook).any() {
        return false;
    }
    let others = pos.by_color(color).count() - 1;
    if others <= 1 {
        return true;
    }
    // Only mets (promoted or not) and bias that can only become mets: mets
    // move on one colour of square, so two mets on one colour cannot mate.
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

/// The Makruk evaluation from White's view, before the side-to-move flip.
fn makruk_white(pos: &Position, w: &MakrukWeights) -> i32 {
    let mut score = [0i32; 2];
    let mut phase_material = [0i32; 2];
    for color in Color::ALL {
        let ci = color.index();
        for role in Role::ALL {
            let ri = role.index();
            for sq in pos.pieces(color, role) {
                score[ci] += w.material[ri];
                score[ci] += w.centre[ri] * (6 - makruk_centre_distance(sq));
                if role == Role::Pawn {
                    score[ci] += w.bia_rank[sq.relative_rank(color) as usize];
                }
                if role != Role::King && role != Role::Pawn {
                    phase_material[ci] += w.material[ri];
                }
            }
        }
        score[ci] += w.promoted_met * (pos.promoted() & pos.by_color(color)).count() as i32;
    }
    // Mobility, ruea files and pressure on the khun.
    let occupied = pos.occupied();
    let bias = pos.by_role(Role::Pawn);
    for color in Color::ALL {
        let ci = color.index();
        let them = color.other();
        let mut guarded = Bitboard::EMPTY;
        for sq in pos.pieces(them, Role::Pawn) {
            guarded |= attack::pawn_attacks(them, sq);
        }
        let area = !(pos.by_color(color) | guarded);
        let their_khun = pos.king_of(them);
        let zone = attack::king_attacks(their_khun).with(their_khun);
        let mut attackers = 0;
        for role in [Role::Met, Role::Khon, Role::Knight, Role::Rook] {
            for sq in pos.pieces(color, role) {
                let att = match role {
                    Role::Met => attack::met_attacks(sq),
                    Role::Khon => attack::khon_attacks(color, sq),
                    Role::Knight => attack::knight_attacks(sq),
                    _ => attack::rook_attacks(sq, occupied),
                };
                score[ci] += w.mobility[role.index()] * (att & area).count() as i32;
                if (att & zone).any() {
                    attackers += 1;
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & bias).is_empty() {
                        score[ci] += w.ruea_open_file;
                    } else if (file & pos.pieces(color, Role::Pawn)).is_empty() {
                        score[ci] += w.ruea_half_open_file;
                    }
                }
            }
        }
        score[ci] += w.khun_attackers * attackers;
    }
    // Khun placement: sheltered while the opponent has attacking force,
    // central in the ending.
    for color in Color::ALL {
        let ci = color.index();
        let ksq = pos.king_of(color);
        let their = phase_material[1 - ci];
        if their >= w.material[Role::Rook.index()] + w.material[Role::Knight.index()] {
            if ksq.relative_rank(color) <= 1 {
                score[ci] += w.khun_shelter;
            }
        } else {
            score[ci] += w.khun_centre_ending * (6 - makruk_centre_distance(ksq));
        }
    }
    let mut total = score[0] - score[1];
    // Mop-up: drive a (nearly) bare khun to the edge, bring the own khun near.
    for color in Color::ALL {
        let them = color.other();
        let ci = color.index();
        let ahead = score[ci] - score[them.index()];
        if pos.by_color(them).count() <= 2
            && ahead >= 300
            && !makruk_cannot_mate(pos, color)
            && pos.pieces(them, Role::Pawn).is_empty()
        {
            let weak = pos.king_of(them);
            let strong = pos.king_of(color);
            let bonus = w.mop_edge * makruk_centre_distance(weak)
                + w.mop_close * (7 - chebyshev(weak, strong));
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
/// the counting rules applied: a running count pulls the score toward 0 over
/// its last `count_fade_plies` plies (or the last half of a shorter count),
/// so the stronger side hurries to convert and the weaker side values
/// reaching the limit. A fresh count is never faded, so capturing the
/// weaker side's last piece (which starts a pieces'-honour count) is not
/// shunned.
pub fn evaluate_makruk(pos: &Position, w: &MakrukWeights) -> i32 {
    let white = makruk_white(pos, w);
    let mut score = pos.turn().fold(white, -white) + w.tempo;
    if let Some(count) = pos.counting() {
        let left = count.limit as i32 - count.ply as i32;
        let fade = w.count_fade_plies.min(count.limit as i32 / 2).max(1);
        if left < fade {
            score = score * left.max(0) / fade;
        }
    }
    score
}

/// The Mak-hot evaluation in centi-men from the side to move's view.
pub fn evaluate_makhos(pos: &makhos::Position, w: &MakhosWeights) -> i32 {
    use makhos::Color as C;
    let occupied = pos.occupied().0;
    let mut score = [0i32; 2];
    let mut material = [0i32; 2];
    for color in [C::White, C::Black] {
        let ci = color.index();
        let men = pos.men(color);
        let kings = pos.kings(color);
        let their_men = pos.men(color.other()).count();
        material[ci] = men.count() as i32 * w.man + kings.count() as i32 * w.king;
        score[ci] += material[ci];
        for sq in men.squares() {
            let rel = if color == C::White {
                sq.rank()
            } else {
                7 - sq.rank()
            } as usize;
            score[ci] += w.man_rank[rel];
            if rel == 0 && their_men > 0 {
                score[ci] += w.back_rank;
            }
            let dr: i8 = if color == C::White { 1 } else { -1 };
            for df in [-1i8, 1] {
                let f = sq.file() as i8 + df;
                let r = sq.rank() as i8 + dr;
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    if let Some(t) = makhos::Square::from_coords(f as u8, r as u8) {
                        if occupied & t.bit() == 0 {
                            score[ci] += w.man_mobility;
                        }
                    }
                }
            }
        }
        for sq in kings.squares() {
            if sq.file() == sq.rank() {
                score[ci] += w.king_long_diagonal;
            }
            let mut reach = 0;
            for (df, dr) in [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)] {
                let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
                while (0..8).contains(&f) && (0..8).contains(&r) {
                    let t = makhos::Square::from_coords(f as u8, r as u8).expect("dark square");
                    if occupied & t.bit() != 0 {
                        break;
                    }
                    reach += 1;
                    f += df;
                    r += dr;
                }
            }
            score[ci] += w.king_mobility * reach;
        }
    }
    let mut white = score[0] - score[1];
    // Trading down when ahead: the fewer pieces left, the more the lead counts.
    let lead = (material[0] - material[1]) / w.man;
    let pieces_left = pos.occupied().count() as i32;
    white += lead * w.trade_down * (16 - pieces_left).max(0);
    let us = pos.turn();
    (if us == C::White { white } else { -white }) + w.tempo
}
