//! Material as the puzzle rules count it (not the engine's tuned values):
//! Makruk and Ouk Chatrang bia 100, met 200 (a promoted bia too), khon 300,
//! ma 300, ruea 500; Mak-hot man 100, king 300. Khuns are not counted.

use games::{AnyPosition, Color};

/// The value of a Makruk role.
pub fn makruk_value(role: makruk::Role) -> i32 {
    match role {
        makruk::Role::Pawn => 100,
        makruk::Role::Met => 200,
        makruk::Role::Khon | makruk::Role::Knight => 300,
        makruk::Role::Rook => 500,
        makruk::Role::King => 0,
    }
}

/// The material of `color` in `pos`.
pub fn material(pos: &AnyPosition, color: Color) -> i32 {
    match pos {
        AnyPosition::Makruk(p) => makruk::Role::ALL
            .iter()
            .map(|&r| makruk_value(r) * p.pieces(color.into(), r).count() as i32)
            .sum(),
        AnyPosition::Makhos { position, .. } => {
            let c: makhos::Color = color.into();
            100 * position.men(c).count() as i32 + 300 * position.kings(c).count() as i32
        }
    }
}

/// The material of `color` minus its opponent's.
pub fn balance(pos: &AnyPosition, color: Color) -> i32 {
    material(pos, color) - material(pos, color.other())
}

/// Pieces on the board, kings and khuns included.
pub fn piece_count(pos: &AnyPosition) -> u32 {
    match pos {
        AnyPosition::Makruk(p) => p.occupied().count(),
        AnyPosition::Makhos { position, .. } => position.occupied().count(),
    }
}

/// Whether the engine's centipawn scores cannot judge `pos` alone, so only a
/// mate score or the tables may: Makruk with 5 pieces or fewer (the tables'
/// reach) or a count running (a material edge may not win within it), Mak-hot
/// with 4 pieces or fewer.
pub fn needs_tables(pos: &AnyPosition) -> bool {
    match pos {
        AnyPosition::Makruk(p) => p.occupied().count() <= 5 || p.counting().is_some(),
        AnyPosition::Makhos { position, .. } => position.occupied().count() <= 4,
    }
}

/// Whether `pos` is an endgame by material: Makruk, at most 2,000 of material
/// on the board (both sides; the start has 6,400); Mak-hot, at most 6 pieces
/// (the start has 16).
pub fn is_endgame(pos: &AnyPosition) -> bool {
    match pos {
        AnyPosition::Makruk(_) => material(pos, Color::White) + material(pos, Color::Black) <= 2000,
        AnyPosition::Makhos { position, .. } => position.occupied().count() <= 6,
    }
}
