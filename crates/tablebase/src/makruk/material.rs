//! Makruk materials (which pieces besides the two khuns), their names and canonical
//! colours, and the colour mirror that maps a position to its canonical material; the
//! index of a table and the placing of its pieces on the board are in [`super::index`].

use makruk::{Bitboard, Color, Piece, Position, Role, Setup, Square};
use std::fmt;

/// Roles a table's pieces can have beside the khuns, strongest first (a promoted bia is
/// a met).
pub const TABLE_ROLES: [Role; 5] = [Role::Rook, Role::Knight, Role::Khon, Role::Met, Role::Pawn];

/// Squares on the board.
const SQUARES: usize = 64;

/// The pieces besides the khuns: White's and Black's, each strongest first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's pieces besides its khun, in [`TABLE_ROLES`] order.
    pub white: Vec<Role>,
    /// Black's pieces besides its khun, in [`TABLE_ROLES`] order.
    pub black: Vec<Role>,
}

fn rank(role: Role) -> usize {
    TABLE_ROLES.iter().position(|&r| r == role).unwrap_or(0)
}

fn sorted(mut roles: Vec<Role>) -> Vec<Role> {
    roles.sort_by_key(|&r| rank(r));
    roles
}

impl Material {
    /// The material of `white` against `black` (any order).
    pub fn new(white: Vec<Role>, black: Vec<Role>) -> Material {
        Material {
            white: sorted(white),
            black: sorted(black),
        }
    }

    /// The material on `pos`'s board (khuns left out).
    pub fn of(pos: &Position) -> Material {
        let side = |c: Color| {
            let mut roles = Vec::new();
            for role in TABLE_ROLES {
                for _ in 0..pos.pieces(c, role).count() {
                    roles.push(role);
                }
            }
            roles
        };
        Material::new(side(Color::White), side(Color::Black))
    }

    /// Pieces on the board, khuns included.
    pub fn pieces(&self) -> u32 {
        2 + (self.white.len() + self.black.len()) as u32
    }

    /// Unpromoted bias on the board.
    pub fn bias(&self) -> usize {
        self.white
            .iter()
            .chain(&self.black)
            .filter(|&&r| r == Role::Pawn)
            .count()
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            white: self.black.clone(),
            black: self.white.clone(),
        }
    }

    fn strength_key(roles: &[Role]) -> (usize, Vec<usize>) {
        // More pieces first, then stronger pieces (smaller rank) first.
        (roles.len(), roles.iter().map(|&r| 4 - rank(r)).collect())
    }

    /// Whether this is the colouring tables are stored under: White's pieces at least as
    /// strong as Black's (the other colouring is probed through the colour mirror).
    pub fn is_canonical(&self) -> bool {
        Material::strength_key(&self.white) >= Material::strength_key(&self.black)
    }

    /// The canonical colouring of this material.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            self.clone()
        } else {
            self.flipped()
        }
    }

    /// Every canonical material with 3 to `pieces` pieces (khuns included), in an order
    /// where each table comes after every table its captures and promotions lead to.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let extra = pieces.saturating_sub(2) as usize;
        for n in 1..=extra {
            for white_n in 0..=n {
                for w in multisets(white_n) {
                    for b in multisets(n - white_n) {
                        let m = Material::new(w.clone(), b);
                        if m.is_canonical() && !all.contains(&m) {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.bias(), m.name()));
        all
    }

    /// The name, White first, Fairy-Stockfish letters: `KRSvK`, `KRvKN`.
    pub fn name(&self) -> String {
        let letters = |roles: &[Role]| -> String {
            roles
                .iter()
                .map(|r| r.char().to_ascii_uppercase())
                .collect()
        };
        format!("K{}vK{}", letters(&self.white), letters(&self.black))
    }

    /// The material of a name as [`Material::name`] writes it.
    pub fn from_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let side = |s: &str| -> Option<Vec<Role>> {
            let rest = s.strip_prefix('K')?;
            rest.chars()
                .map(|c| Role::from_char(c.to_ascii_lowercase()).filter(|&r| r != Role::King))
                .collect()
        };
        Some(Material::new(side(w)?, side(b)?))
    }

    /// The pieces of the table's index after the two khuns, White's then Black's.
    pub fn placed(&self) -> Vec<Piece> {
        let white = self.white.iter().map(|&role| Piece {
            color: Color::White,
            role,
        });
        let black = self.black.iter().map(|&role| Piece {
            color: Color::Black,
            role,
        });
        white.chain(black).collect()
    }

    /// Entries in a table of the full layout: every square for each piece and khun, and
    /// the side to move ([`super::index::TableIndex::entries`] gives any layout's).
    pub fn entries(&self) -> usize {
        SQUARES.pow(self.pieces()) * 2
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Every multiset of `n` table roles.
fn multisets(n: usize) -> Vec<Vec<Role>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for smaller in multisets(n - 1) {
        let start = smaller.last().map_or(0, |&r| rank(r));
        for &role in &TABLE_ROLES[start..] {
            let mut m = smaller.clone();
            m.push(role);
            out.push(m);
        }
    }
    out
}

/// `pos` with the colours swapped and the board turned over (rank 1 becomes rank 8):
/// the same game seen from the other side, with its counting fields.
pub fn mirrored(pos: &Position) -> Position {
    let setup = pos.to_setup();
    let mut m = Setup::empty();
    let flip_bb = |bb: Bitboard| bb.fold(Bitboard::EMPTY, |acc, sq| acc.with(flip_square(sq)));
    for sq in Square::all() {
        m.board[flip_square(sq).index()] = setup.board[sq.index()].map(|p| Piece {
            color: !p.color,
            role: p.role,
        });
    }
    m.promoted = flip_bb(setup.promoted);
    m.special_rights = flip_bb(setup.special_rights);
    m.turn = !setup.turn;
    m.counting_limit = setup.counting_limit;
    m.counting_ply = setup.counting_ply;
    m.halfmoves = setup.halfmoves;
    m.fullmoves = setup.fullmoves;
    Position::from_setup(pos.variant(), &m).expect("the mirror of a legal position is legal")
}

/// The square seen from the other side (same file, rank 1 ↔ rank 8).
pub fn flip_square(sq: Square) -> Square {
    Square::new(sq.index() as u8 ^ 56).expect("a square")
}

/// The table a position belongs to and whether it is seen through the colour mirror.
pub fn table_of(pos: &Position) -> (Material, bool) {
    let m = Material::of(pos);
    if m.is_canonical() {
        (m, false)
    } else {
        (m.flipped(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::index::{index_of, position_at};
    use super::*;
    use makruk::Variant;

    #[test]
    fn four_piece_materials_are_thirty_and_come_after_what_they_lead_to() {
        let all = Material::all_up_to(4);
        let four: Vec<_> = all.iter().filter(|m| m.pieces() == 4).collect();
        assert_eq!(four.len(), 30);
        assert_eq!(all.iter().filter(|m| m.pieces() == 3).count(), 5);
        let at = |name: &str| {
            all.iter()
                .position(|m| m.name() == name)
                .unwrap_or_else(|| panic!("{name}"))
        };
        assert!(at("KMPvK") < at("KPPvK"));
        assert!(at("KMvKP") < at("KPvKP"));
        assert!(at("KRvK") < at("KRPvK"));
        assert_eq!(Material::from_name("KRvKN"), Some(all[at("KRvKN")].clone()));
        assert!(!Material::new(vec![Role::Knight], vec![Role::Rook]).is_canonical());
    }

    #[test]
    fn an_entry_and_its_position_agree() {
        let m = Material::new(vec![Role::Rook, Role::Rook], vec![]);
        let count = (16, 8);
        let mut found = 0;
        for i in (0..m.entries()).step_by(9973) {
            if let Some(pos) = position_at(Variant::Makruk, &m, count, i) {
                assert_eq!(index_of(&m, &pos), Some(i));
                let back = mirrored(&mirrored(&pos));
                assert_eq!(back.fen(), pos.fen());
                found += 1;
            }
        }
        assert!(found > 1000);
    }
}
