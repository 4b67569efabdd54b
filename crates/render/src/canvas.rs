//! Drawing scenes into pixmaps: the board and the piece images are
//! rasterised once per [`Renderer`], then each picture is a copy of the board,
//! the highlights and the pieces blitted on top — cheap enough for one frame
//! per move of a long game.

use crate::scene::{BoardKind, Cell, Scene, Sprite};
use crate::sprites::{all_sprites, rasterise};
use resvg::tiny_skia::{Color, IntRect, Paint, Pixmap, PixmapPaint, Rect, Transform};
use std::collections::HashMap;

/// The colours of the pictures (those of the web board's stylesheet).
pub mod palette {
    /// Makruk's board colour.
    pub const MAKRUK_BOARD: [u8; 3] = [0xd9, 0xb7, 0x79];
    /// The lines between Makruk's squares.
    pub const MAKRUK_LINE: [u8; 3] = [0x5c, 0x45, 0x2c];
    /// Mak-hot's light squares.
    pub const MAKHOS_LIGHT: [u8; 3] = [0xea, 0xd9, 0xb6];
    /// Mak-hot's dark squares (where the game is played).
    pub const MAKHOS_DARK: [u8; 3] = [0x7a, 0x52, 0x30];
    /// The last-move highlight, drawn over the square at [`HIGHLIGHT_ALPHA`].
    pub const HIGHLIGHT: [u8; 3] = [0x9b, 0xc7, 0x00];
    /// Opacity of the highlight.
    pub const HIGHLIGHT_ALPHA: f32 = 0.5;
    /// White pieces' body.
    pub const WHITE_FILL: [u8; 3] = [0xf7, 0xf1, 0xe3];
    /// White pieces' outline.
    pub const WHITE_STROKE: [u8; 3] = [0x3a, 0x2a, 0x1a];
    /// Black pieces' body.
    pub const BLACK_FILL: [u8; 3] = [0x2b, 0x22, 0x20];
    /// Black pieces' outline.
    pub const BLACK_STROKE: [u8; 3] = [0xe9, 0xdc, 0xc0];
}

/// Draws scenes at one size. Build one per export and reuse it for every
/// frame.
pub struct Renderer {
    square: u32,
    boards: HashMap<BoardKind, Pixmap>,
    sprites: HashMap<Sprite, Pixmap>,
}

/// Smallest and largest square size in pixels.
pub const SQUARE_SIZES: std::ops::RangeInclusive<u32> = 16..=160;

impl Renderer {
    /// A renderer drawing squares of `square` pixels (clamped to
    /// [`SQUARE_SIZES`]); the picture is 8 squares wide and high.
    pub fn new(square: u32) -> Renderer {
        let square = square.clamp(*SQUARE_SIZES.start(), *SQUARE_SIZES.end());
        let sprites = all_sprites()
            .into_iter()
            .map(|s| (s, rasterise(s, square)))
            .collect();
        let boards = [BoardKind::Makruk, BoardKind::Makhos]
            .into_iter()
            .map(|k| (k, draw_board(k, square)))
            .collect();
        Renderer {
            square,
            boards,
            sprites,
        }
    }

    /// Width (= height) of a picture in pixels.
    pub fn size(&self) -> u32 {
        self.square * 8
    }

    /// Size of one square in pixels.
    pub fn square(&self) -> u32 {
        self.square
    }

    /// Draws a scene.
    pub fn draw(&self, scene: &Scene) -> Pixmap {
        let mut pixmap = self.boards[&scene.board].clone();
        for &cell in &scene.highlight {
            if cell.file < 8 && cell.rank < 8 {
                let (x, y) = self.origin(cell, scene.flipped);
                self.highlight(&mut pixmap, x, y);
            }
        }
        for (index, sprite) in scene.squares.iter().enumerate() {
            if let Some(sprite) = sprite {
                let cell = Cell {
                    file: (index % 8) as u8,
                    rank: (index / 8) as u8,
                };
                let (x, y) = self.origin(cell, scene.flipped);
                self.piece(&mut pixmap, x, y, *sprite);
            }
        }
        pixmap
    }

    /// Draws one square of a picture: the board under it, its highlight and
    /// its piece — exactly the pixels [`Renderer::draw`] puts there. `col`
    /// and `row` count squares from the picture's top-left corner.
    pub fn draw_square(
        &self,
        board: BoardKind,
        (col, row): (u32, u32),
        highlighted: bool,
        sprite: Option<Sprite>,
    ) -> Pixmap {
        let s = self.square;
        let rect = IntRect::from_xywh((col.min(7) * s) as i32, (row.min(7) * s) as i32, s, s)
            .expect("a square is a valid rectangle");
        let mut pixmap = self.boards[&board]
            .clone_rect(rect)
            .expect("a square lies inside the board");
        if highlighted {
            self.highlight(&mut pixmap, 0, 0);
        }
        if let Some(sprite) = sprite {
            self.piece(&mut pixmap, 0, 0, sprite);
        }
        pixmap
    }

    /// The square (column, row from the top-left) where a cell is drawn.
    pub fn screen_square(cell: Cell, flipped: bool) -> (u32, u32) {
        if flipped {
            (7 - u32::from(cell.file), u32::from(cell.rank))
        } else {
            (u32::from(cell.file), 7 - u32::from(cell.rank))
        }
    }

    fn highlight(&self, pixmap: &mut Pixmap, x: u32, y: u32) {
        let mut paint = Paint::default();
        let [r, g, b] = palette::HIGHLIGHT;
        paint.set_color(Color::from_rgba8(
            r,
            g,
            b,
            (palette::HIGHLIGHT_ALPHA * 255.0) as u8,
        ));
        let rect = Rect::from_xywh(x as f32, y as f32, self.square as f32, self.square as f32)
            .expect("a square is a valid rectangle");
        pixmap.fill_rect(rect, &paint, Transform::identity(), None);
    }

    fn piece(&self, pixmap: &mut Pixmap, x: u32, y: u32, sprite: Sprite) {
        pixmap.draw_pixmap(
            x as i32,
            y as i32,
            self.sprites[&sprite].as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }

    /// Top-left pixel of a square.
    fn origin(&self, cell: Cell, flipped: bool) -> (u32, u32) {
        let (col, row) = Renderer::screen_square(cell, flipped);
        (col * self.square, row * self.square)
    }
}

fn solid([r, g, b]: [u8; 3]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(r, g, b, 255);
    paint.anti_alias = false;
    paint
}

/// The empty board of a kind.
fn draw_board(kind: BoardKind, square: u32) -> Pixmap {
    let size = square * 8;
    let mut pixmap = Pixmap::new(size, size).expect("a non-zero board size");
    let full = |x: u32, y: u32, w: u32, h: u32| {
        Rect::from_xywh(x as f32, y as f32, w as f32, h as f32).expect("a valid rectangle")
    };
    match kind {
        BoardKind::Makruk => {
            pixmap.fill_rect(
                full(0, 0, size, size),
                &solid(palette::MAKRUK_BOARD),
                Transform::identity(),
                None,
            );
            let line = solid(palette::MAKRUK_LINE);
            for i in 1..8 {
                let at = i * square;
                pixmap.fill_rect(full(at, 0, 1, size), &line, Transform::identity(), None);
                pixmap.fill_rect(full(0, at, size, 1), &line, Transform::identity(), None);
            }
        }
        BoardKind::Makhos => {
            pixmap.fill_rect(
                full(0, 0, size, size),
                &solid(palette::MAKHOS_LIGHT),
                Transform::identity(),
                None,
            );
            let dark = solid(palette::MAKHOS_DARK);
            for row in 0..8 {
                for col in 0..8 {
                    // a1 (column 0, bottom row 7) is dark.
                    if (row + col) % 2 == 1 {
                        pixmap.fill_rect(
                            full(col * square, row * square, square, square),
                            &dark,
                            Transform::identity(),
                            None,
                        );
                    }
                }
            }
        }
    }
    pixmap
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::makruk_cell;

    fn rgb(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
        let c = p.pixel(x, y).unwrap().demultiply();
        [c.red(), c.green(), c.blue()]
    }

    #[test]
    fn pieces_land_on_their_squares_in_both_orientations() {
        let r = Renderer::new(40);
        let scene = Scene::makruk(&makruk::Position::new(makruk::Variant::Makruk));
        let p = r.draw(&scene);
        assert_eq!((p.width(), p.height()), (320, 320));
        // The centre of e3 (a White bia) shows White's body colour; e4 is empty board.
        let centre = |file: u32, rank_from_top: u32| (file * 40 + 20, rank_from_top * 40 + 26);
        let (x, y) = centre(4, 5);
        assert_eq!(rgb(&p, x, y), palette::WHITE_FILL);
        let (x, y) = centre(4, 4);
        assert_eq!(rgb(&p, x, y), palette::MAKRUK_BOARD);
        // Flipped: e3 is now at column 3 (from the left), row 2 (from the top).
        let q = r.draw(&scene.clone().with_flipped(true));
        let (x, y) = centre(3, 2);
        assert_eq!(rgb(&q, x, y), palette::WHITE_FILL);
        let (x, y) = centre(3, 5);
        assert_eq!(rgb(&q, x, y), palette::BLACK_FILL);
    }

    #[test]
    fn highlight_tints_only_its_squares() {
        let r = Renderer::new(32);
        let scene =
            Scene::empty(BoardKind::Makruk).with_highlight([makruk_cell("e4".parse().unwrap())]);
        let p = r.draw(&scene);
        let tinted = rgb(&p, 4 * 32 + 16, 4 * 32 + 16);
        let plain = rgb(&p, 3 * 32 + 16, 4 * 32 + 16);
        assert_eq!(plain, palette::MAKRUK_BOARD);
        assert_ne!(tinted, plain);
        // Half-way between the board colour and the highlight colour.
        for i in 0..3 {
            let want =
                (f32::from(palette::MAKRUK_BOARD[i]) + f32::from(palette::HIGHLIGHT[i])) / 2.0;
            assert!((f32::from(tinted[i]) - want).abs() <= 2.0, "{tinted:?}");
        }
    }

    #[test]
    fn makhos_board_is_dark_on_a1() {
        let r = Renderer::new(20);
        let p = r.draw(&Scene::empty(BoardKind::Makhos));
        assert_eq!(rgb(&p, 10, 7 * 20 + 10), palette::MAKHOS_DARK); // a1
        assert_eq!(rgb(&p, 30, 7 * 20 + 10), palette::MAKHOS_LIGHT); // b1
        assert_eq!(rgb(&p, 30, 10), palette::MAKHOS_DARK); // b8
    }

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(Renderer::new(0).square(), *SQUARE_SIZES.start());
        assert_eq!(Renderer::new(100_000).square(), *SQUARE_SIZES.end());
    }
}
