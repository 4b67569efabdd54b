//! Pieces' honour with three pieces: a khun and one piece against a bare khun, as
//! distance to mate (DTM) in plies, compared at probe time with the count
//! ([`super::plies_left`]).
//!
//! The table has every placement of the stronger khun, the bare khun and the piece, with
//! either side to move: `index = ((strong khun · 64 + bare khun) · 64 + piece) · 2 + turn`.
//! The only capture possible is the bare khun taking the piece, which leaves two khuns
//! (a draw), so the table needs no other table.

use super::plies_left;
use makruk::{Color, Piece, Position, Role, Setup, Square, State, Variant};

/// The pieces a bare-khun table can have beside the stronger khun (a promoted bia is a
/// met and is found in the met's table).
pub const BARE_ROLES: [Role; 4] = [Role::Rook, Role::Knight, Role::Khon, Role::Met];

/// Pieces on the board in a bare-khun table: two khuns and one piece.
pub(super) const BARE_PIECES: u32 = 3;
/// Squares on the board.
const SQUARES: usize = 64;
/// Entries in a table: three pieces' squares and the side to move.
const ENTRIES: usize = SQUARES * SQUARES * SQUARES * 2;
/// Byte of a draw.
const DRAW: u8 = 0;
/// Byte of a loss in `d` plies: `LOSS_BASE + d`; a win in `d` is stored as `d` (`1..LOSS_BASE`).
pub(super) const LOSS_BASE: u8 = 128;
/// Byte of an entry that holds no legal position.
pub(super) const INVALID: u8 = 255;
/// Byte of an entry not decided yet (only during generation).
pub(super) const UNDECIDED: u8 = 254;

/// A value without the count: mate (or conversion, see [`super`]) in so many plies, or a
/// draw. Stored in one byte or two ([`super::entry`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dtm {
    /// The side to move mates in this many plies.
    Win(u16),
    /// The side to move is mated in this many plies (0: it is mated now).
    Loss(u16),
    /// No forced mate.
    Draw,
}

impl Dtm {
    /// The value of a table byte (`None`: no legal position, or not decided).
    pub(super) const fn from_byte(b: u8) -> Option<Dtm> {
        match b {
            DRAW => Some(Dtm::Draw),
            1..LOSS_BASE => Some(Dtm::Win(b as u16)),
            LOSS_BASE..UNDECIDED => Some(Dtm::Loss((b - LOSS_BASE) as u16)),
            _ => None,
        }
    }
}

/// One bare-khun table, solved in memory.
#[derive(Clone, Debug)]
pub struct BareTable {
    variant: Variant,
    strong: Color,
    role: Role,
    values: Vec<u8>,
}

fn entry(strong_king: Square, bare_king: Square, piece: Square, turn: Color) -> usize {
    ((strong_king.index() * SQUARES + bare_king.index()) * SQUARES + piece.index()) * 2
        + turn.index()
}

impl BareTable {
    /// Solves the table of `strong`'s khun and `role` against a bare khun under `variant`.
    pub fn generate(variant: Variant, strong: Color, role: Role) -> BareTable {
        let mut table = BareTable {
            variant,
            strong,
            role,
            values: vec![INVALID; ENTRIES],
        };
        // Children of each position (entries), and whether some move draws at once.
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); ENTRIES];
        let mut draws_at_once = vec![false; ENTRIES];
        for i in 0..ENTRIES {
            let Some(pos) = table.position_at(i) else {
                continue;
            };
            let moves = pos.legal_moves();
            if moves.is_empty() {
                table.values[i] = if pos.is_check() { LOSS_BASE } else { DRAW };
                continue;
            }
            table.values[i] = UNDECIDED;
            for &m in moves.iter() {
                match table.index_of(&pos.played(m)) {
                    Some(child) => children[i].push(child as u32),
                    None => draws_at_once[i] = true,
                }
            }
        }
        let mut n: u8 = 1;
        loop {
            let mut decided = Vec::new();
            for i in 0..ENTRIES {
                if table.values[i] != UNDECIDED {
                    continue;
                }
                let kids = &children[i];
                let value = |c: &u32| table.values[*c as usize];
                if kids.iter().any(|c| value(c) == LOSS_BASE + n - 1) {
                    decided.push((i, n));
                } else if !draws_at_once[i]
                    && kids
                        .iter()
                        .all(|c| matches!(Dtm::from_byte(value(c)), Some(Dtm::Win(_))))
                {
                    decided.push((i, LOSS_BASE + n));
                }
            }
            if decided.is_empty() || n == LOSS_BASE - 1 {
                break;
            }
            for (i, b) in decided {
                table.values[i] = b;
            }
            n += 1;
        }
        for v in &mut table.values {
            if *v == UNDECIDED {
                *v = DRAW;
            }
        }
        table
    }

    /// A table read back from its bytes (as [`BareTable::bytes`] gave them), or `None` when
    /// they are not a whole table of valid entries.
    pub fn from_bytes(
        variant: Variant,
        strong: Color,
        role: Role,
        values: Vec<u8>,
    ) -> Option<BareTable> {
        let valid = values.len() == ENTRIES
            && values
                .iter()
                .all(|&b| b == INVALID || Dtm::from_byte(b).is_some());
        valid.then_some(BareTable {
            variant,
            strong,
            role,
            values,
        })
    }

    /// The table's entries, one byte each, in index order.
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// The variant, the stronger side and its piece.
    pub fn key(&self) -> (Variant, Color, Role) {
        (self.variant, self.strong, self.role)
    }

    /// The position of an entry, or `None` for an entry that holds no legal position.
    pub fn position_at(&self, i: usize) -> Option<Position> {
        let turn = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let piece = i / 2 % SQUARES;
        let bare = i / 2 / SQUARES % SQUARES;
        let strong = i / 2 / SQUARES / SQUARES;
        if strong == bare || strong == piece || bare == piece {
            return None;
        }
        let mut setup = Setup::empty();
        let put = |setup: &mut Setup, x: usize, color, role| {
            setup.board[x] = Some(Piece { color, role });
        };
        put(&mut setup, strong, self.strong, Role::King);
        put(&mut setup, bare, !self.strong, Role::King);
        put(&mut setup, piece, self.strong, self.role);
        setup.turn = turn;
        Position::from_setup(self.variant, &setup).ok()
    }

    /// The entry of `pos` if it has this table's material.
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        let own = pos.by_color(self.strong);
        let bare = pos.by_color(!self.strong);
        if own.count() != 2 || bare.count() != 1 || pos.variant() != self.variant {
            return None;
        }
        let piece = pos.pieces(self.strong, self.role).single()?;
        Some(entry(
            pos.king_of(self.strong),
            pos.king_of(!self.strong),
            piece,
            pos.turn(),
        ))
    }

    /// The value of `pos` without the count, if it has this table's material.
    pub fn dtm(&self, pos: &Position) -> Option<Dtm> {
        Dtm::from_byte(self.values[self.index_of(pos)?])
    }

    /// The result under the count of `pos`'s counting fields, for the side to move: `Some(1)`
    /// win, `Some(0)` draw, `Some(-1)` loss; `None` if `pos` is not this table's material.
    /// A position with no count running (a FEN without counting fields) is valued through
    /// its moves: the rules start the count within two plies.
    pub fn value(&self, pos: &Position) -> Option<i8> {
        self.index_of(pos)?;
        Some(self.value_in_table(pos))
    }

    fn value_in_table(&self, pos: &Position) -> i8 {
        match pos.state() {
            State::Checkmate => return -1,
            State::Ongoing => {}
            _ => return 0,
        }
        let Some(left) = plies_left(pos) else {
            let mut best = -1;
            for &m in pos.legal_moves().iter() {
                let child = pos.played(m);
                let v = match self.index_of(&child) {
                    Some(_) => -self.value_in_table(&child),
                    None => 0,
                };
                best = best.max(v);
            }
            return best;
        };
        match self.dtm(pos) {
            Some(Dtm::Win(d)) if d as u32 <= left => 1,
            Some(Dtm::Loss(d)) if d as u32 <= left => -1,
            _ => 0,
        }
    }

    /// The pieces'-honour facts of this ending: positions with the stronger side to move,
    /// how many it mates within the count, and the longest mate in plies. The count is
    /// the one the rules start when the khun becomes bare: `2 · 3` plies on it with the
    /// bare khun to move, so the stronger side moves at ply 7 and has
    /// `limit − 7 + 1` plies ([`super::plies_left`]) to land the mate.
    pub fn honour_report(&self) -> HonourReport {
        let limit = (0..ENTRIES)
            .find_map(|i| self.position_at(i))
            .map_or(0, |pos| 2 * pos.counting_limit_for(!self.strong));
        let left = (limit + 1).saturating_sub(COUNT_START_PLY + 1);
        let mut report = HonourReport {
            limit,
            positions: 0,
            won: 0,
            won_without_count: 0,
            longest: 0,
        };
        for (i, &b) in self.values.iter().enumerate() {
            let turn = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if turn != self.strong || b == INVALID {
                continue;
            }
            report.positions += 1;
            if let Some(Dtm::Win(d)) = Dtm::from_byte(b) {
                report.won_without_count += 1;
                report.longest = report.longest.max(d);
                report.won += (d as u32 <= left) as u64;
            }
        }
        report
    }
}

/// Count ply when a three-piece pieces'-honour count starts (twice the pieces).
const COUNT_START_PLY: u32 = 2 * BARE_PIECES;

/// See [`BareTable::honour_report`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HonourReport {
    /// The count's limit in plies.
    pub limit: u32,
    /// Legal positions with the stronger side to move.
    pub positions: u64,
    /// Of those, mated within the count.
    pub won: u64,
    /// Of those, mated with no count at all.
    pub won_without_count: u64,
    /// The longest mate, in plies.
    pub longest: u16,
}
