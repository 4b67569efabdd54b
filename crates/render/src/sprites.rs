//! Our piece images, drawn once per picture size.
//!
//! The SVG files in `web/pieces/` are the single source: the web board serves
//! them, and this module compiles them in and rasterises them with resvg.

use crate::scene::Sprite;
use makruk::Role;
use resvg::tiny_skia::{Pixmap, Transform};

/// The SVG text of a piece image.
pub fn svg_source(sprite: Sprite) -> &'static str {
    macro_rules! piece {
        ($name:literal) => {
            include_str!(concat!("../../../web/pieces/", $name, ".svg"))
        };
    }
    match sprite {
        Sprite::Makruk {
            white,
            role,
            promoted,
        } => match (white, role, promoted) {
            (true, Role::King, _) => piece!("white-k"),
            (true, Role::Met, false) => piece!("white-m"),
            (true, Role::Met, true) => piece!("white-mp"),
            (true, Role::Khon, _) => piece!("white-s"),
            (true, Role::Knight, _) => piece!("white-n"),
            (true, Role::Rook, _) => piece!("white-r"),
            (true, Role::Pawn, _) => piece!("white-p"),
            (false, Role::King, _) => piece!("black-k"),
            (false, Role::Met, false) => piece!("black-m"),
            (false, Role::Met, true) => piece!("black-mp"),
            (false, Role::Khon, _) => piece!("black-s"),
            (false, Role::Knight, _) => piece!("black-n"),
            (false, Role::Rook, _) => piece!("black-r"),
            (false, Role::Pawn, _) => piece!("black-p"),
        },
        Sprite::Makhos { white, king } => match (white, king) {
            (true, false) => piece!("white-makhos-man"),
            (true, true) => piece!("white-makhos-king"),
            (false, false) => piece!("black-makhos-man"),
            (false, true) => piece!("black-makhos-king"),
        },
    }
}

/// Every piece image there is.
pub fn all_sprites() -> Vec<Sprite> {
    let mut all = Vec::new();
    for white in [true, false] {
        for role in Role::ALL {
            all.push(Sprite::Makruk {
                white,
                role,
                promoted: false,
            });
        }
        all.push(Sprite::Makruk {
            white,
            role: Role::Met,
            promoted: true,
        });
        for king in [false, true] {
            all.push(Sprite::Makhos { white, king });
        }
    }
    all
}

/// Rasterises a piece image into a `size` × `size` pixmap (premultiplied
/// RGBA, transparent around the piece).
pub fn rasterise(sprite: Sprite, size: u32) -> Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg_source(sprite), &resvg::usvg::Options::default())
        .expect("our piece images are valid SVG (tested)");
    let mut pixmap = Pixmap::new(size, size).expect("a non-zero sprite size");
    let scale = size as f32 / tree.size().width();
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_image_parses_and_draws_something() {
        for sprite in all_sprites() {
            let p = rasterise(sprite, 48);
            let opaque = p.pixels().iter().filter(|c| c.alpha() == 255).count();
            // A piece covers a fair part of its square but not all of it.
            assert!(opaque > 48 * 48 / 10, "{sprite:?}: {opaque} opaque pixels");
            assert!(
                opaque < 48 * 48 * 9 / 10,
                "{sprite:?}: {opaque} opaque pixels"
            );
        }
    }

    #[test]
    fn the_colours_differ() {
        let fill = |white| {
            let p = rasterise(
                Sprite::Makruk {
                    white,
                    role: Role::Rook,
                    promoted: false,
                },
                64,
            );
            // The middle of the cabin is filled with the piece's body colour.
            p.pixel(50 * 64 / 100, 53 * 64 / 100).unwrap().demultiply()
        };
        let (w, b) = (fill(true), fill(false));
        assert!(w.red() > 200 && b.red() < 80, "{w:?} {b:?}");
    }
}
