//! The corrections of the Makruk evaluation that follow from the rules and
//! are not fitted: mop-up of a bare khun, material that cannot mate, and the
//! counting fade; and the whole classical evaluation ([`evaluate_makruk`]).

use super::shared::chebyshev;
use super::trace::linear_white;
use super::weights::MakrukWeights;
use makruk::{Color, Position, Role, Square};

/// Steps from the centre (0 to 6) of a Makruk square.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// Whether `color`'s material (khun aside) can never mate: no ruea and at
/// most one other piece or bia (a bia only becomes a met), or mets alone,
/// all on squares of one colour. A met steps diagonally, so such mets
/// attack only squares of their own colour: they never check a khun on the
/// other colour, and a khun they check has four neighbours of the other
/// colour, which the own khun alone cannot all cover.
pub fn makruk_cannot_mate(pos: &Position, color: Color) -> bool {
    if pos.pieces(color, Role::Rook).any() {
        return false;
    }
    let others = pos.by_color(color).count() - 1;
    if others <= 1 {
        return true;
    }
    let mets = pos.pieces(color, Role::Met);
    if mets.count() != others {
        return false;
    }
    let colour = |s: Square| (s.file() + s.rank()) % 2;
    let mut squares = mets;
    let first = squares.next().map(colour);
    squares.all(|s| Some(colour(s)) == first)
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
