//! The Mak-hot evaluation: material, man advancement and mobility, king
//! mobility, trading down when ahead; every weight in [`MakhosWeights`].

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
    /// 5,000 nodes a move (`thaiboard tune match`). They are the classical
    /// evaluation: the shipped Mak-hot network plays by default (`Use NNUE
    /// Makhos`).
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
