//! The index of a Makruk or Ouk Chatrang table: which entry holds which placement of
//! the khuns and pieces, with the side to move. Two layouts:
//!
//! - **Full** ([`Layout::Full`], the tables of three and four pieces): every square for
//!   the white khun, the black khun, then each piece of [`Material::placed`]:
//!   `((wk · 64 + bk) · 64 + p₁) … · 2 + turn`, `64ⁿ · 2` entries.
//! - **Folded** ([`Layout::Folded`], the five-piece tables): for a material without
//!   khon or bia, whose pieces (ruea, ma, met) and khuns move alike under the board's
//!   eight symmetries (and the counting rules never look at squares), a position and
//!   its symmetric images have one value, and one of them is stored: the image with
//!   the white khun in the triangle a1–d1–d4 (10 squares, [`triangle`]). A white khun
//!   on the diagonal a1–d4 stays there under the reflection in the a1–h8 diagonal too;
//!   of those two images the one with the smaller entry is stored. The entry is
//!   `((t · 64 + bk) · 64 + p₁) … · 2 + turn` with `t` the khun's place in the
//!   triangle: `10 · 64ⁿ⁻¹ · 2` entries (335 M for five pieces, against 2.1 G).
//!
//! In both, identical pieces are indexed lowest square first, and an entry that is not
//! the stored image of a legal position (pieces on one square, identical pieces out of
//! order, a folded entry whose image is not the one stored, an illegal setup) holds no
//! position. [`TableIndex::encode`] is the one place that brings a placement to its
//! stored entry; the solver's un-moves and every probe go through it.
//!
//! **Counting moves over a folded index.** A position equal to its own reflection (its
//! [`TableIndex::stabilizer`] is 2) makes un-moves and moves count differently: if a
//! position `P` has `a` moves into the class of `J`, and `J` has `b` un-moves into the
//! class of `P`, then counting the edges between the two classes both ways gives
//! `|class P| · a = |class J| · b`, so `a = b · stab(P) / stab(J)` ([`moves_into`]).
//! The solver decrements a predecessor's move counter by that `a`.

use super::material::Material;
use makruk::{Color, Piece, Position, Role, Setup, Variant};

/// The most pieces (khuns included) an index places.
pub const MAX_PIECES: usize = 5;
/// Squares on the board.
const SQUARES: usize = 64;
/// Squares of the triangle a1–d1–d4 the folded index keeps the white khun in.
pub const TRIANGLE: usize = 10;

/// How a table's entries are laid out (see the module).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Every square for every khun and piece.
    Full,
    /// Folded by the board's eight symmetries: the white khun in the triangle a1–d1–d4.
    Folded,
}

/// The image of square `sq` (0 = a1 … 63 = h8) under symmetry `g` (0..8): bit 0
/// swaps file and rank (the reflection in the a1–h8 diagonal), then bit 1 mirrors the
/// files and bit 2 the ranks. `g = 0` is the identity.
pub const fn symmetric(g: u8, sq: usize) -> usize {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if g & 1 != 0 {
        (f, r) = (r, f);
    }
    if g & 2 != 0 {
        f = 7 - f;
    }
    if g & 4 != 0 {
        r = 7 - r;
    }
    r * 8 + f
}

/// The reflection in the a1–h8 diagonal (the symmetry that keeps the triangle's
/// diagonal squares where they are).
const DIAGONAL_REFLECTION: u8 = 1;

/// The place of `sq` in the triangle a1–d1–d4 (`a1 = 0, b1, b2, c1, c2, c3, d1 … d4 =
/// 9`), `None` outside it.
pub const fn triangle(sq: usize) -> Option<usize> {
    let (f, r) = (sq % 8, sq / 8);
    if f <= 3 && r <= f {
        Some(f * (f + 1) / 2 + r)
    } else {
        None
    }
}

/// The square at place `t` of the triangle (the inverse of [`triangle`]).
const fn triangle_square(t: usize) -> usize {
    let mut f = 0;
    while (f + 1) * (f + 2) / 2 <= t {
        f += 1;
    }
    (t - f * (f + 1) / 2) * 8 + f
}

/// Whether every piece of `material` moves alike under the board's eight symmetries:
/// no khon, no bia (their moves have a direction).
pub fn foldable(material: &Material) -> bool {
    material
        .white
        .iter()
        .chain(&material.black)
        .all(|&r| r != Role::Khon && r != Role::Pawn)
}

/// The index of one table: its material, layout, and the pieces it places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableIndex {
    material: Material,
    layout: Layout,
    /// The pieces after the two khuns ([`Material::placed`]).
    placed: Vec<Piece>,
    /// Pieces placed, khuns included.
    n: usize,
    /// `same[k]`: piece `k` is identical to piece `k − 1` (their squares are kept sorted).
    same: [bool; MAX_PIECES],
}

impl TableIndex {
    /// The index of `material` in `layout`; `None` when the layout cannot hold it (more
    /// than [`MAX_PIECES`] pieces, or a folded index of a khon or bia).
    pub fn new(material: &Material, layout: Layout) -> Option<TableIndex> {
        let placed = material.placed();
        let n = 2 + placed.len();
        if n > MAX_PIECES || (layout == Layout::Folded && !foldable(material)) {
            return None;
        }
        let mut same = [false; MAX_PIECES];
        for k in 3..n {
            same[k] = placed[k - 2] == placed[k - 3];
        }
        Some(TableIndex {
            material: material.clone(),
            layout,
            placed,
            n,
            same,
        })
    }

    /// The layout the tables on disk use for `material`: folded for five pieces, full
    /// below.
    pub fn layout_of(material: &Material) -> Layout {
        if material.pieces() >= 5 {
            Layout::Folded
        } else {
            Layout::Full
        }
    }

    /// The index the table of `material` is stored with ([`TableIndex::layout_of`]),
    /// `None` for a material no table holds (five pieces with a khon or bia, or more).
    pub fn of(material: &Material) -> Option<TableIndex> {
        TableIndex::new(material, TableIndex::layout_of(material))
    }

    /// The material.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Pieces placed, khuns included.
    pub fn pieces(&self) -> usize {
        self.n
    }

    /// The pieces after the two khuns, in index order.
    pub fn placed(&self) -> &[Piece] {
        &self.placed
    }

    /// Entries in the table.
    pub fn entries(&self) -> usize {
        let first = match self.layout {
            Layout::Full => SQUARES,
            Layout::Folded => TRIANGLE,
        };
        first * SQUARES.pow(self.n as u32 - 1) * 2
    }

    /// The squares of entry `i` (white khun, black khun, then the placed pieces) into
    /// `squares`, and the side to move. The entry may hold no position.
    pub fn decode(&self, i: usize, squares: &mut [usize; MAX_PIECES]) -> Color {
        let turn = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut rest = i / 2;
        for k in (0..self.n).rev() {
            squares[k] = rest % SQUARES;
            rest /= SQUARES;
        }
        if self.layout == Layout::Folded {
            squares[0] = triangle_square(squares[0]);
        }
        turn
    }

    /// Sorts each run of identical pieces' squares.
    fn sort_identical(&self, s: &mut [usize; MAX_PIECES]) {
        for k in 3..self.n {
            let mut j = k;
            while j >= 3 && self.same[j] && s[j - 1] > s[j] {
                s.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The entry of squares already in the stored frame and order.
    fn fold(&self, s: &[usize; MAX_PIECES], turn: Color) -> usize {
        let first = match self.layout {
            Layout::Full => s[0],
            Layout::Folded => triangle(s[0]).expect("the white khun in the triangle"),
        };
        s[1..self.n].iter().fold(first, |acc, &x| acc * SQUARES + x) * 2 + turn.index()
    }

    /// The entry that stores the placement `squares` (white khun, black khun, then the
    /// placed pieces, identical pieces in any order) with `turn` to move: for the folded
    /// layout, the smallest entry among the images with the white khun in the triangle.
    pub fn encode(&self, squares: &[usize], turn: Color) -> usize {
        let mut s = [0usize; MAX_PIECES];
        s[..self.n].copy_from_slice(&squares[..self.n]);
        match self.layout {
            Layout::Full => {
                self.sort_identical(&mut s);
                self.fold(&s, turn)
            }
            Layout::Folded => {
                let mut best = usize::MAX;
                for g in 0..8 {
                    if triangle(symmetric(g, s[0])).is_none() {
                        continue;
                    }
                    let mut image = [0usize; MAX_PIECES];
                    for k in 0..self.n {
                        image[k] = symmetric(g, s[k]);
                    }
                    self.sort_identical(&mut image);
                    best = best.min(self.fold(&image, turn));
                }
                best
            }
        }
    }

    /// The entry of `pos`, or `None` when its material is not this table's (canonical
    /// colours: probe the other colouring through [`super::material::mirrored`]).
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        if Material::of(pos) != self.material {
            return None;
        }
        let mut squares = [0usize; MAX_PIECES];
        squares[0] = pos.king_of(Color::White).index();
        squares[1] = pos.king_of(Color::Black).index();
        let mut k = 2;
        let mut j = 0;
        while j < self.placed.len() {
            let p = self.placed[j];
            for sq in pos.pieces(p.color, p.role) {
                squares[k] = sq.index();
                k += 1;
                j += 1;
            }
        }
        Some(self.encode(&squares, pos.turn()))
    }

    /// The position of entry `i` with the count `(limit, ply)` (see
    /// [`super::solve::phase_count`]), or `None` for an entry that holds no position.
    pub fn position_at(&self, variant: Variant, count: (u32, u32), i: usize) -> Option<Position> {
        let mut squares = [0usize; MAX_PIECES];
        let turn = self.decode(i, &mut squares);
        let s = &squares[..self.n];
        for k in 1..self.n {
            if s[..k].contains(&s[k]) {
                return None;
            }
        }
        if self.encode(s, turn) != i {
            return None;
        }
        place(variant, &self.placed, s, turn, count)
    }

    /// How many of the board's symmetries leave the placement of entry `i` as it is
    /// (1, or 2 for a folded entry equal to its reflection in the a1–h8 diagonal; always
    /// 1 for the full layout, where no image is folded onto another).
    pub fn stabilizer(&self, i: usize) -> u32 {
        if self.layout == Layout::Full {
            return 1;
        }
        let mut s = [0usize; MAX_PIECES];
        self.decode(i, &mut s);
        if s[0] % 8 != s[0] / 8 {
            return 1;
        }
        let mut image = [0usize; MAX_PIECES];
        for k in 0..self.n {
            image[k] = symmetric(DIAGONAL_REFLECTION, s[k]);
        }
        self.sort_identical(&mut image);
        if image[..self.n] == s[..self.n] { 2 } else { 1 }
    }

    /// The positions entry `i` stands for: 8 divided by its [`TableIndex::stabilizer`]
    /// for the folded layout, 1 for the full one.
    pub fn class_size(&self, i: usize) -> u64 {
        match self.layout {
            Layout::Full => 1,
            Layout::Folded => 8 / u64::from(self.stabilizer(i)),
        }
    }
}

/// The moves from the position of entry `p` into the class of entry `j`, given `unmoves`,
/// the un-moves from `j`'s position that lead to `p`'s class (see the module):
/// `unmoves · stab(p) / stab(j)`.
pub fn moves_into(index: &TableIndex, p: usize, j: usize, unmoves: u32) -> u32 {
    if index.layout == Layout::Full {
        return unmoves;
    }
    let scaled = unmoves * index.stabilizer(p);
    let stab_j = index.stabilizer(j);
    debug_assert_eq!(scaled % stab_j, 0, "entries {p} and {j}");
    scaled / stab_j
}

/// The entry of `pos` in the full-layout table of `material` (its own material,
/// canonical colours), or `None` when its material differs; see [`TableIndex`].
pub fn index_of(material: &Material, pos: &Position) -> Option<usize> {
    TableIndex::new(material, Layout::Full)?.index_of(pos)
}

/// The position of an entry of the full-layout table of `material` with the count its
/// material runs (see [`super::solve::phase_count`]), or `None` for an entry that holds
/// no legal position; see [`TableIndex`].
pub fn position_at(
    variant: Variant,
    material: &Material,
    count: (u32, u32),
    index: usize,
) -> Option<Position> {
    TableIndex::new(material, Layout::Full)?.position_at(variant, count, index)
}

/// The position with the khuns on `squares[0]` (White's) and `squares[1]`, the pieces
/// `placed` on the rest (distinct squares), `turn` to move and the count `(limit, ply)`;
/// `None` when the rules refuse the setup. Every met after a side's first (lowest
/// square) is a promoted bia.
pub(super) fn place(
    variant: Variant,
    placed: &[Piece],
    squares: &[usize],
    turn: Color,
    count: (u32, u32),
) -> Option<Position> {
    let mut setup = Setup::empty();
    for (k, &sq) in squares.iter().enumerate() {
        let piece = match k {
            0 => Piece {
                color: Color::White,
                role: Role::King,
            },
            1 => Piece {
                color: Color::Black,
                role: Role::King,
            },
            _ => placed[k - 2],
        };
        setup.board[sq] = Some(piece);
    }
    for color in [Color::White, Color::Black] {
        let met = Piece {
            color,
            role: Role::Met,
        };
        for promoted in setup.squares_of(met).into_iter().skip(1) {
            setup.promoted = setup.promoted.with(promoted);
        }
    }
    setup.turn = turn;
    (setup.counting_limit, setup.counting_ply) = count;
    Position::from_setup(variant, &setup).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::Makruk, fen).unwrap()
    }

    /// The position of `pos` under symmetry `g` (same side to move and count).
    fn image(pos: &Position, g: u8) -> Position {
        let setup = pos.to_setup();
        let mut m = setup.clone();
        m.board = [None; 64];
        for sq in 0..64 {
            m.board[symmetric(g, sq)] = setup.board[sq];
        }
        m.promoted = makruk::Bitboard::EMPTY;
        for sq in setup.promoted {
            m.promoted = m
                .promoted
                .with(makruk::Square::new(symmetric(g, sq.index()) as u8).expect("a square"));
        }
        Position::from_setup(Variant::Makruk, &m).expect("a symmetric image is legal")
    }

    #[test]
    fn the_triangle_and_the_symmetries_are_what_they_say() {
        let squares: Vec<usize> = (0..64).filter(|&s| triangle(s).is_some()).collect();
        assert_eq!(squares.len(), TRIANGLE);
        for t in 0..TRIANGLE {
            assert_eq!(triangle(triangle_square(t)), Some(t));
        }
        for g in 0..8 {
            let mut seen = [false; 64];
            for sq in 0..64 {
                seen[symmetric(g, sq)] = true;
            }
            assert!(seen.iter().all(|&x| x), "symmetry {g} is a permutation");
        }
        // Every square has an image in the triangle.
        for sq in 0..64 {
            assert!((0..8).any(|g| triangle(symmetric(g, sq)).is_some()));
        }
    }

    /// Every symmetric image of a position has the same entry, and the entry's position
    /// is one of those images; the diagonal's tie is broken the same way from both sides.
    #[test]
    fn every_symmetric_image_has_one_entry_and_it_round_trips() {
        let krrn = Material::from_name("KRRNvK").unwrap();
        let index = TableIndex::new(&krrn, Layout::Folded).unwrap();
        assert_eq!(index.entries(), 10 * 64usize.pow(4) * 2);
        let count = (16, 10);
        for fen in [
            "4k3/8/8/8/8/8/8/RR1K2N1 b - 16 10 1",
            "3k4/8/8/8/8/1N6/R7/K6R w - 16 11 1",
            // The white khun on the diagonal, the rest symmetric to it: stabilizer 2.
            "R7/8/5k2/8/3N4/8/8/K6R b - 16 10 1",
            "k7/8/8/8/8/2N5/8/1R1K2R1 w - 16 11 1",
        ] {
            let p = pos(fen);
            let i = index.index_of(&p).unwrap();
            let back = index.position_at(Variant::Makruk, count, i).unwrap();
            // Placement and side to move (the entry's count is the table's, not the FEN's).
            let board = |p: &Position| p.fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
            let images: Vec<String> = (0..8).map(|g| board(&image(&p, g))).collect();
            assert!(
                images.contains(&board(&back)),
                "{fen} came back as {}",
                back.fen()
            );
            for g in 0..8 {
                assert_eq!(index.index_of(&image(&p, g)), Some(i), "{fen} image {g}");
            }
            let distinct = {
                let mut v = images.clone();
                v.sort();
                v.dedup();
                v.len() as u64
            };
            assert_eq!(index.class_size(i), distinct, "{fen}");
        }
        let symmetric_one = index
            .index_of(&pos("R7/8/5k2/8/3N4/8/8/K6R b - 16 10 1"))
            .unwrap();
        assert_eq!(index.stabilizer(symmetric_one), 2);
    }

    /// Over a sample of entries: an entry holds a position iff it is that position's
    /// stored image, and the class sizes add up to every legal placement.
    #[test]
    fn folded_entries_cover_every_placement_once() {
        let krk = Material::from_name("KRvK").unwrap();
        let full = TableIndex::new(&krk, Layout::Full).unwrap();
        let folded = TableIndex::new(&krk, Layout::Folded).unwrap();
        let count = (32, 6);
        let all = (0..full.entries())
            .filter(|&i| full.position_at(Variant::Makruk, count, i).is_some())
            .count() as u64;
        let mut covered = 0;
        for i in 0..folded.entries() {
            if let Some(p) = folded.position_at(Variant::Makruk, count, i) {
                assert_eq!(folded.index_of(&p), Some(i));
                covered += folded.class_size(i);
            }
        }
        assert_eq!(covered, all);
    }
}
