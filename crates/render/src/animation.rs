//! Animated GIFs: one frame per scene, on a fixed palette built from the
//! pictures' own colours, each frame after the first stored as just the
//! rectangle that changed.

use crate::canvas::{Renderer, palette};
use crate::scene::Scene;
use resvg::tiny_skia::Pixmap;
use std::borrow::Cow;

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
            let probe = [r | 4, g | 4, b | 4].map(i32::from);
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

/// The smallest rectangle `(left, top, width, height)` holding every pixel
/// where two pictures of `width` pixels a row differ.
fn changed_rect(a: &[u8], b: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let height = a.len() / width;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..height {
        let row_a = &a[y * width..(y + 1) * width];
        let row_b = &b[y * width..(y + 1) * width];
        if row_a == row_b {
            continue;
        }
        let first = row_a.iter().zip(row_b).position(|(p, q)| p != q)?;
        let last = width
            - 1
            - row_a
                .iter()
                .rev()
                .zip(row_b.iter().rev())
                .position(|(p, q)| p != q)?;
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y;
    }
    (x0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
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
    let mut palette = Palette::ours();
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, side, side, &palette.rgb_bytes())
            .map_err(GifError::Encode)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(GifError::Encode)?;
        let mut previous: Option<Vec<u8>> = None;
        for (i, scene) in scenes.iter().enumerate() {
            let indices = palette.index_pixmap(&renderer.draw(scene));
            let last = i + 1 == scenes.len();
            let delay = (if last {
                timing.final_ms
            } else {
                timing.frame_ms
            } / 10)
                .min(u32::from(u16::MAX)) as u16;
            let rect = match &previous {
                None => Some((0, 0, size, size)),
                Some(prev) => changed_rect(prev, &indices, size),
            };
            // An unchanged position still gets a frame (a 1×1 patch) so the timing holds.
            let (left, top, width, height) = rect.unwrap_or((0, 0, 1, 1));
            let mut patch = Vec::with_capacity(width * height);
            for y in top..top + height {
                patch.extend_from_slice(&indices[y * size + left..y * size + left + width]);
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
            previous = Some(indices);
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
    fn changed_rect_bounds_the_differences() {
        let a = vec![0u8; 5 * 4];
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b, 5), None);
        b[5 + 1] = 1; // (1, 1)
        b[2 * 5 + 3] = 1; // (3, 2)
        assert_eq!(changed_rect(&a, &b, 5), Some((1, 1, 3, 2)));
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
