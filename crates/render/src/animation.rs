//! Animated GIFs: one frame per scene, on a fixed palette built from the
//! pictures' own colours, each frame after the first stored as just the
//! rectangle that changed.

use crate::canvas::{Renderer, palette};
use crate::scene::{BoardKind, Cell, Scene, Sprite};
use resvg::tiny_skia::Pixmap;
use std::borrow::Cow;
use std::collections::HashMap;

/// How an animation is timed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// How long each position stays, in milliseconds.
    pub frame_ms: u32,
    /// How long the last position stays before the animation loops.
    pub final_ms: u32,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            frame_ms: 800,
            final_ms: 3000,
        }
    }
}

/// Why no GIF was made.
#[derive(Debug)]
pub enum GifError {
    /// There was nothing to draw.
    NoFrames,
    /// The encoder failed (it writes to memory, so this is not expected).
    Encode(gif::EncodingError),
}

impl std::fmt::Display for GifError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GifError::NoFrames => f.write_str("an animation needs at least one position"),
            GifError::Encode(e) => write!(f, "GIF encoding failed: {e}"),
        }
    }
}

impl std::error::Error for GifError {}

/// The 256-colour palette of our pictures and a cache from colours to its
/// entries.
///
/// Every pixel of a picture is a board, highlight or piece colour, or an
/// anti-aliased blend of two of them, so the palette holds those key
/// colours and three blends between each pair; a pixel maps to the nearest
/// entry.
pub struct Palette {
    colors: Vec<[u8; 3]>,
    /// Nearest entry for each 15-bit colour, `u16::MAX` until computed.
    nearest: Vec<u16>,
}

impl Palette {
    /// The palette of our board and piece colours.
    pub fn ours() -> Palette {
        let mut keys = vec![
            palette::MAKRUK_BOARD,
            palette::MAKRUK_LINE,
            palette::MAKHOS_LIGHT,
            palette::MAKHOS_DARK,
            palette::WHITE_FILL,
            palette::WHITE_STROKE,
            palette::BLACK_FILL,
            palette::BLACK_STROKE,
        ];
        for base in [
            palette::MAKRUK_BOARD,
            palette::MAKRUK_LINE,
            palette::MAKHOS_LIGHT,
            palette::MAKHOS_DARK,
        ] {
            keys.push(blend(base, palette::HIGHLIGHT, palette::HIGHLIGHT_ALPHA));
        }
        let mut colors = keys.clone();
        for i in 0..keys.len() {
            for j in i + 1..keys.len() {
                for t in [0.25, 0.5, 0.75] {
                    colors.push(blend(keys[i], keys[j], t));
                }
            }
        }
        colors.truncate(256);
        Palette {
            colors,
            nearest: vec![u16::MAX; 1 << 15],
        }
    }

    /// The palette as GIF wants it: `r g b` triples.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    /// Whether the palette is empty (never, for [`Palette::ours`]).
    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    /// The entry of a palette index.
    pub fn color(&self, index: u8) -> [u8; 3] {
        self.colors[usize::from(index)]
    }

    /// The index nearest to a colour.
    pub fn index_of(&mut self, [r, g, b]: [u8; 3]) -> u8 {
        let key = (usize::from(r >> 3) << 10) | (usize::from(g >> 3) << 5) | usize::from(b >> 3);
        if self.nearest[key] == u16::MAX {
            // Look up with the centre of the 15-bit cell.
            let probe = [r, g, b].map(|c| i32::from(c & 0xf8 | 4));
            let best = self
                .colors
                .iter()
                .enumerate()
                .min_by_key(|(_, c)| {
                    let d = |k: usize| probe[k] - i32::from(c[k]);
                    d(0) * d(0) + d(1) * d(1) + d(2) * d(2)
                })
                .map(|(i, _)| i as u16)
                .unwrap_or(0);
            self.nearest[key] = best;
        }
        self.nearest[key] as u8
    }

    /// A picture as palette indices, row by row.
    pub fn index_pixmap(&mut self, pixmap: &Pixmap) -> Vec<u8> {
        pixmap
            .pixels()
            .iter()
            .map(|p| {
                // Board pictures are opaque, so premultiplied equals straight colour.
                self.index_of([p.red(), p.green(), p.blue()])
            })
            .collect()
    }
}

fn blend(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    let mix = |x: u8, y: u8| (f32::from(x) * (1.0 - t) + f32::from(y) * t).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// What one screen square shows: board, highlight, piece.
type SquareLook = (BoardKind, bool, Option<Sprite>);

/// The 64 screen squares of a scene (row by row from the top-left).
fn looks(scene: &Scene) -> [SquareLook; 64] {
    let mut out = [(scene.board, false, None); 64];
    for (index, &sprite) in scene.squares.iter().enumerate() {
        let cell = Cell {
            file: (index % 8) as u8,
            rank: (index / 8) as u8,
        };
        let (col, row) = Renderer::screen_square(cell, scene.flipped);
        out[(row * 8 + col) as usize].2 = sprite;
    }
    for &cell in &scene.highlight {
        if cell.file < 8 && cell.rank < 8 {
            let (col, row) = Renderer::screen_square(cell, scene.flipped);
            out[(row * 8 + col) as usize].1 = true;
        }
    }
    out
}

/// Frames as palette indices, built square by square: each distinct square
/// (place, board, highlight, piece) is drawn and quantised once, and a
/// frame only redraws the squares that changed.
struct FrameBuilder<'a> {
    renderer: &'a Renderer,
    palette: Palette,
    tiles: HashMap<(usize, SquareLook), Vec<u8>>,
    indices: Vec<u8>,
    shown: Option<[SquareLook; 64]>,
}

impl FrameBuilder<'_> {
    /// Moves to the next scene; returns the changed region in pixels
    /// `(left, top, width, height)`, or `None` when nothing changed.
    fn next(&mut self, scene: &Scene) -> Option<(usize, usize, usize, usize)> {
        let square = self.renderer.square() as usize;
        let size = square * 8;
        let new = looks(scene);
        let (mut c0, mut r0, mut c1, mut r1) = (8, 8, 0, 0);
        for (i, look) in new.iter().enumerate() {
            if self.shown.is_some_and(|old| old[i] == *look) {
                continue;
            }
            let (col, row) = (i % 8, i / 8);
            (c0, r0, c1, r1) = (c0.min(col), r0.min(row), c1.max(col), r1.max(row));
            let key = (i, *look);
            if !self.tiles.contains_key(&key) {
                let pixmap =
                    self.renderer
                        .draw_square(look.0, (col as u32, row as u32), look.1, look.2);
                let tile = self.palette.index_pixmap(&pixmap);
                self.tiles.insert(key, tile);
            }
            let tile = &self.tiles[&key];
            for y in 0..square {
                let at = (row * square + y) * size + col * square;
                self.indices[at..at + square].copy_from_slice(&tile[y * square..(y + 1) * square]);
            }
        }
        self.shown = Some(new);
        (c0 <= c1).then(|| {
            (
                c0 * square,
                r0 * square,
                (c1 - c0 + 1) * square,
                (r1 - r0 + 1) * square,
            )
        })
    }
}

/// Encodes scenes as a looping animated GIF.
pub fn encode_gif(
    renderer: &Renderer,
    scenes: &[Scene],
    timing: Timing,
) -> Result<Vec<u8>, GifError> {
    if scenes.is_empty() {
        return Err(GifError::NoFrames);
    }
    let size = renderer.size() as usize;
    let side = renderer.size() as u16;
    let mut frames = FrameBuilder {
        renderer,
        palette: Palette::ours(),
        tiles: HashMap::new(),
        indices: vec![0; size * size],
        shown: None,
    };
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, side, side, &frames.palette.rgb_bytes())
            .map_err(GifError::Encode)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(GifError::Encode)?;
        for (i, scene) in scenes.iter().enumerate() {
            let last = i + 1 == scenes.len();
            let delay = (if last {
                timing.final_ms
            } else {
                timing.frame_ms
            } / 10)
                .min(u32::from(u16::MAX)) as u16;
            // An unchanged position still gets a frame (a 1×1 patch) so the timing holds.
            let (left, top, width, height) = frames.next(scene).unwrap_or((0, 0, 1, 1));
            let mut patch = Vec::with_capacity(width * height);
            for y in top..top + height {
                patch.extend_from_slice(&frames.indices[y * size + left..y * size + left + width]);
            }
            let frame = gif::Frame {
                left: left as u16,
                top: top as u16,
                width: width as u16,
                height: height as u16,
                delay,
                dispose: gif::DisposalMethod::Keep,
                buffer: Cow::Owned(patch),
                ..gif::Frame::default()
            };
            encoder.write_frame(&frame).map_err(GifError::Encode)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_maps_key_colours_to_themselves() {
        let mut p = Palette::ours();
        assert!(p.len() <= 256);
        for key in [
            palette::MAKRUK_BOARD,
            palette::WHITE_FILL,
            palette::BLACK_FILL,
            palette::MAKHOS_DARK,
        ] {
            let i = p.index_of(key);
            let c = p.color(i);
            for k in 0..3 {
                assert!(
                    (i32::from(c[k]) - i32::from(key[k])).abs() <= 4,
                    "{key:?} -> {c:?}"
                );
            }
        }
    }

    #[test]
    fn palette_lookup_does_not_depend_on_earlier_lookups() {
        // Two colours in one 15-bit cell, looked up in both orders.
        let (a, b) = ([0x40, 0x81, 0xc2], [0x47, 0x86, 0xc7]);
        let mut p = Palette::ours();
        let (a1, b1) = (p.index_of(a), p.index_of(b));
        let mut q = Palette::ours();
        let (b2, a2) = (q.index_of(b), q.index_of(a));
        assert_eq!((a1, b1), (a2, b2));
    }

    #[test]
    fn no_scenes_is_an_error() {
        let r = Renderer::new(16);
        assert!(matches!(
            encode_gif(&r, &[], Timing::default()),
            Err(GifError::NoFrames)
        ));
    }
}
