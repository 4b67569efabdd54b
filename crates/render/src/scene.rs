//! What one picture shows: the board kind, a piece image on each square,
//! the highlighted squares and the orientation. Built from a Makruk or a
//! Mak-hot position, or by hand.

/// One of our piece images (the files in `web/pieces/`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sprite {
    /// A Makruk / Ouk Chatrang piece.
    Makruk {
        /// White's piece?
        white: bool,
        /// The role.
        role: makruk::Role,
        /// A met that was a bia (drawn with a ring).
        promoted: bool,
    },
    /// A Mak-hot piece.
    Makhos {
        /// White's piece?
        white: bool,
        /// A king (hot)?
        king: bool,
    },
}

/// Which board is drawn under the pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Makruk's board: one colour with lines between squares.
    Makruk,
    /// Mak-hot's board: light and dark squares, play on the dark ones.
    Makhos,
}

/// A board square by file (0 = a) and rank (0 = rank 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// 0 (a) to 7 (h).
    pub file: u8,
    /// 0 (rank 1) to 7 (rank 8).
    pub rank: u8,
}

impl Cell {
    /// The square's index, `rank * 8 + file` (a1 = 0, h8 = 63).
    pub fn index(self) -> usize {
        usize::from(self.rank) * 8 + usize::from(self.file)
    }
}

/// Everything one picture of a board shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The board under the pieces.
    pub board: BoardKind,
    /// The piece on each square, indexed by [`Cell::index`].
    pub squares: [Option<Sprite>; 64],
    /// Squares drawn highlighted (the last move's from and to squares, and
    /// for a Mak-hot capture the landing squares between).
    pub highlight: Vec<Cell>,
    /// Black at the bottom?
    pub flipped: bool,
}

impl Scene {
    /// An empty board of the given kind.
    pub fn empty(board: BoardKind) -> Scene {
        Scene {
            board,
            squares: [None; 64],
            highlight: Vec::new(),
            flipped: false,
        }
    }

    /// The pieces of a Makruk or Ouk Chatrang position.
    pub fn makruk(pos: &makruk::Position) -> Scene {
        let mut scene = Scene::empty(BoardKind::Makruk);
        for index in 0..64u8 {
            let Some(sq) = makruk::Square::new(index) else {
                continue;
            };
            if let Some(piece) = pos.piece_at(sq) {
                scene.squares[usize::from(index)] = Some(Sprite::Makruk {
                    white: piece.color == makruk::Color::White,
                    role: piece.role,
                    promoted: pos.promoted().contains(sq),
                });
            }
        }
        scene
    }

    /// The pieces of a position of either game.
    pub fn of(pos: &games::AnyPosition) -> Scene {
        match pos {
            games::AnyPosition::Makruk(p) => Scene::makruk(p),
            games::AnyPosition::Makhos { position, .. } => Scene::makhos(position),
        }
    }

    /// The pieces of a Mak-hot position.
    pub fn makhos(pos: &makhos::Position) -> Scene {
        let mut scene = Scene::empty(BoardKind::Makhos);
        for (sq, piece) in pos.to_setup().pieces {
            let cell = Cell {
                file: sq.file(),
                rank: sq.rank(),
            };
            scene.squares[cell.index()] = Some(Sprite::Makhos {
                white: piece.color == makhos::Color::White,
                king: piece.role == makhos::Role::King,
            });
        }
        scene
    }

    /// The same scene with these squares highlighted.
    pub fn with_highlight(mut self, cells: impl IntoIterator<Item = Cell>) -> Scene {
        self.highlight = cells.into_iter().collect();
        self
    }

    /// The same scene seen from Black's side when `flipped`.
    pub fn with_flipped(mut self, flipped: bool) -> Scene {
        self.flipped = flipped;
        self
    }
}

/// The square of a Makruk move's from or to square.
pub fn makruk_cell(sq: makruk::Square) -> Cell {
    let index = sq.index() as u8;
    Cell {
        file: index % 8,
        rank: index / 8,
    }
}

/// The square of a Mak-hot square.
pub fn makhos_cell(sq: makhos::Square) -> Cell {
    Cell {
        file: sq.file(),
        rank: sq.rank(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makruk_start_has_its_pieces_where_the_fen_says() {
        let scene = Scene::makruk(&makruk::Position::new(makruk::Variant::Makruk));
        let at = |name: &str| {
            let sq: makruk::Square = name.parse().unwrap();
            scene.squares[makruk_cell(sq).index()]
        };
        // rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w
        assert_eq!(
            at("d1"),
            Some(Sprite::Makruk {
                white: true,
                role: makruk::Role::King,
                promoted: false
            })
        );
        assert_eq!(
            at("e8"),
            Some(Sprite::Makruk {
                white: false,
                role: makruk::Role::King,
                promoted: false
            })
        );
        assert_eq!(
            at("a3"),
            Some(Sprite::Makruk {
                white: true,
                role: makruk::Role::Pawn,
                promoted: false
            })
        );
        assert_eq!(at("a2"), None);
        assert_eq!(scene.squares.iter().flatten().count(), 32);
    }

    #[test]
    fn makruk_promoted_met_is_marked() {
        let pos =
            makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/8/8/8/8/8/3M~4/4K3 w - - 0 1")
                .unwrap();
        let scene = Scene::makruk(&pos);
        let d2 = makruk_cell("d2".parse().unwrap());
        assert_eq!(
            scene.squares[d2.index()],
            Some(Sprite::Makruk {
                white: true,
                role: makruk::Role::Met,
                promoted: true
            })
        );
    }

    #[test]
    fn makhos_start_uses_dark_squares_only() {
        let pos = makhos::Position::default();
        let scene = Scene::makhos(&pos);
        assert_eq!(scene.squares.iter().flatten().count(), 16);
        for (i, s) in scene.squares.iter().enumerate() {
            if s.is_some() {
                let (file, rank) = (i % 8, i / 8);
                assert_eq!((file + rank) % 2, 0, "piece on a light square {i}");
            }
        }
        // a1 is White's, b8 is Black's in the start position.
        assert!(matches!(
            scene.squares[0],
            Some(Sprite::Makhos { white: true, .. })
        ));
        assert!(matches!(
            scene.squares[57],
            Some(Sprite::Makhos { white: false, .. })
        ));
    }
}
