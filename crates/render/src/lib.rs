//! Board pictures for thaiboard: still PNGs of a position and animated GIFs
//! of a game, drawn with our own piece images (`web/pieces/*.svg`, the files
//! the web board serves).
//!
//! - [`Scene`]: what a picture shows (board kind, pieces, highlighted
//!   squares, orientation), from a [`makruk::Position`] or a
//!   [`makhos::Position`], and [`makruk_scenes`] / [`makhos_scenes`] for every
//!   position of a game.
//! - [`Renderer`]: rasterises the board and the pieces once (resvg), then
//!   draws each scene by blitting (tiny-skia).
//! - [`encode_png`] for a still, [`encode_gif`] for an animation (a fixed
//!   palette of our colours; each frame stores only what changed).
//!
//! ```
//! let game = {
//!     let mut g = makruk::Game::new(makruk::Variant::Makruk);
//!     g.play_uci("e3e4").unwrap();
//!     g
//! };
//! let renderer = render::Renderer::new(32);
//! let gif = render::encode_gif(&renderer, &render::makruk_scenes(&game, false), render::Timing::default()).unwrap();
//! assert!(gif.starts_with(b"GIF89a"));
//! let png = render::encode_png(&renderer, &render::Scene::makruk(game.position()));
//! assert!(png.starts_with(b"\x89PNG"));
//! ```

mod animation;
mod canvas;
mod game;
mod scene;
mod sprites;

pub use animation::{GifError, Palette, Timing, encode_gif};
pub use canvas::{Renderer, SQUARE_SIZES, palette};
pub use game::{makhos_scenes, makruk_scenes};
/// The 2D library the pictures are drawn with (for decoding and comparing them).
pub use resvg::tiny_skia;
pub use scene::{BoardKind, Cell, Scene, Sprite, makhos_cell, makruk_cell};
pub use sprites::{all_sprites, rasterise, svg_source};

/// Draws a scene and encodes it as a PNG file.
pub fn encode_png(renderer: &Renderer, scene: &Scene) -> Vec<u8> {
    renderer
        .draw(scene)
        .encode_png()
        .expect("PNG encoding of an in-memory picture does not fail")
}
