//! The validated, playable position: board, side to move, counting state.

use crate::attacks::{
    khon_attacks, king_attacks, knight_attacks, met_attacks, pawn_attacks, rook_attacks,
};
use crate::counting::CountingMode;
use crate::{
    Bitboard, Color, CountingRules, Move, MoveError, Piece, Role, Setup, SetupError, Square,
    Variant, zobrist,
};

/// A legal Makruk or Ouk Chatrang position.
///
/// Built from a checked [`Setup`] (or a FEN), changed only by legal moves
/// through [`Position::play`]. Cheap to copy: search and replay use
/// copy-make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Option<Role>; 64],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) promoted: Bitboard,
    pub(crate) special_rights: Bitboard,
    pub(crate) turn: Color,
    pub(crate) variant: Variant,
    pub(crate) checkers: Bitboard,
    pub(crate) counting_limit: u16,
    pub(crate) counting_ply: u16,
    pub(crate) counting_mode: CountingMode,
    pub(crate) board_counter: Option<Color>,
    /// Declared mode: the game ply at which a board's-honour count was
    /// declared (the count is the plies since).
    pub(crate) declared_from: Option<u32>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

impl Position {
    /// The start position of `variant`.
    pub fn new(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).expect("the start FEN is valid")
    }

    /// Checks a setup and makes it a position of `variant`.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, SetupError> {
        setup.validate_material(variant)?;
        let mut pos = Position {
            board: [None; 64],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            promoted: setup.promoted,
            special_rights: setup.special_rights,
            turn: setup.turn,
            variant,
            checkers: Bitboard::EMPTY,
            counting_limit: CountingRules::of(variant)
                .effective_limit(setup.counting_limit)
                .min(u16::MAX as u32) as u16,
            counting_ply: setup.counting_ply.min(u16::MAX as u32) as u16,
            counting_mode: CountingMode::Automatic,
            board_counter: None,
            declared_from: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(p.color, p.role, sq);
            }
        }
        let them = !pos.turn;
        if pos
            .attackers(pos.king_of(them), pos.turn, pos.occupied())
            .any()
        {
            return Err(SetupError::OppositeCheck);
        }
        // A khun in check cannot leap (move generation sees to that); its
        // right is kept as the FEN gives it.
        pos.checkers = pos.attackers(pos.king_of(pos.turn), them, pos.occupied());
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The position as an unchecked setup (for FEN writing or editing).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index()] = self.piece_at(sq);
        }
        setup.promoted = self.promoted;
        setup.turn = self.turn;
        setup.special_rights = self.special_rights;
        let (limit, ply) = self.counting_fields().unwrap_or((0, 0));
        setup.counting_limit = limit;
        setup.counting_ply = ply;
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = self.fullmoves;
        setup
    }

    #[inline]
    fn put(&mut self, color: Color, role: Role, sq: Square) {
        self.board[sq.index()] = Some(role);
        self.by_color[color.index()] ^= Bitboard::from_square(sq);
        self.by_role[role.index()] ^= Bitboard::from_square(sq);
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = zobrist::rights(self.special_rights);
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= zobrist::piece(p.color, p.role, sq);
            }
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }

    /// The rule set.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()].map(|role| Piece {
            color: if self.by_color[0].contains(sq) {
                Color::White
            } else {
                Color::Black
            },
            role,
        })
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board[sq.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Mets that are promoted bias.
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Ouk Chatrang: the squares of khuns and mets that keep their special
    /// first move.
    #[inline]
    pub fn special_rights(&self) -> Bitboard {
        self.special_rights
    }

    /// `color`'s khun. (A legal position always has one; after an illegal
    /// move was forced through [`Position::play`] this answers a1 rather
    /// than panicking.)
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        Square::from_index(self.pieces(color, Role::King).0.trailing_zeros())
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Plies since the last capture or bia move (no rule effect in Makruk).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (1 at the start, incremented after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist key of the position.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// `by`'s pieces that attack `sq`, given the occupied squares.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let mets = self.by_role[Role::Met.index()];
        let attackers = (knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (king_attacks(sq) & self.by_role[Role::King.index()])
            | (met_attacks(sq) & mets)
            | (khon_attacks(!by, sq) & self.by_role[Role::Khon.index()])
            | (pawn_attacks(!by, sq) & self.by_role[Role::Pawn.index()])
            | (rook_attacks(sq, occupied) & self.by_role[Role::Rook.index()]);
        attackers & them
    }

    /// Whether `by` attacks `sq` with the given occupancy.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.attackers(sq, by, occupied).any()
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// Plays `m` if it is legal here; otherwise the position is unchanged and
    /// the error names the move.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal(m.to_uci()));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move the caller knows is legal (one from
    /// [`Position::legal_moves`]), without checking it; the result of playing
    /// any other move is unspecified (but memory-safe).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let Some(role) = self.board[from.index()] else {
            return;
        };
        let captured = self.board[to.index()];
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);

        if self.counting_limit > 0 {
            self.counting_ply = self.counting_ply.saturating_add(1);
        }
        self.halfmoves = if captured.is_some() || role == Role::Pawn {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };

        if let Some(cap) = captured {
            self.board[to.index()] = None;
            self.by_color[them.index()] ^= Bitboard::from_square(to);
            self.by_role[cap.index()] ^= Bitboard::from_square(to);
            self.hash ^= zobrist::piece(them, cap, to);
            self.promoted = self.promoted.without(to);
        }
        let new_role = if m.is_promotion() { Role::Met } else { role };
        self.board[from.index()] = None;
        self.board[to.index()] = Some(new_role);
        self.by_color[us.index()] ^= from_to;
        self.by_role[role.index()] ^= Bitboard::from_square(from);
        self.by_role[new_role.index()] ^= Bitboard::from_square(to);
        self.hash ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, new_role, to);
        if self.promoted.contains(from) {
            self.promoted = self.promoted.without(from).with(to);
        } else if m.is_promotion() {
            self.promoted = self.promoted.with(to);
        }
        if self.special_rights.any() {
            let lost = self.special_rights & from_to;
            self.special_rights ^= lost;
            self.hash ^= zobrist::rights(lost);
        }

        self.turn = them;
        self.hash ^= zobrist::black_to_move();
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        let ksq = self.king_of(them);
        self.checkers = self.attackers(ksq, us, self.occupied());
        if role == Role::Rook && self.special_rights.contains(ksq) && aims_at(to, ksq) {
            self.special_rights = self.special_rights.without(ksq);
            self.hash ^= zobrist::right(ksq);
        }

        self.update_counting(us, captured, m.is_promotion());
    }

    /// Plays the legal move `m` on a copy and returns it (unchecked, as
    /// [`Position::play_unchecked`]).
    pub fn played(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }

    /// The position with the turn passed to the other side (a null move, for
    /// search), or `None` when the side to move is in check (passing would
    /// leave its khun attacked).
    ///
    /// The result is exactly what rebuilding the position from its
    /// [`Setup`] with the other side to move gives: the board, counts and
    /// clocks are kept, the counting mode falls back to
    /// [`CountingMode::Automatic`] with no declared counter, and the key
    /// changes only by the side to move.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = self.clone();
        let us = self.turn;
        next.turn = !us;
        next.hash ^= zobrist::black_to_move();
        let (limit, ply) = self.counting_fields().unwrap_or((0, 0));
        (next.counting_limit, next.counting_ply) = (limit as u16, ply as u16);
        next.counting_mode = CountingMode::Automatic;
        next.board_counter = None;
        next.declared_from = None;
        next.checkers = next.attackers(next.king_of(!us), us, next.occupied());
        Some(next)
    }

    /// Whether only the two khuns are left (an immediate draw).
    pub fn is_insufficient_material(&self) -> bool {
        self.occupied() == self.by_role(Role::King)
    }
}

/// Ouk Chatrang: whether a ruea arriving on `to` is "aimed" at the khun on
/// `ksq` (the same file or rank, whatever stands between), which takes the
/// khun's leap right away (RULES.md, as Fairy-Stockfish). Checks by other
/// pieces only forbid the leap while they last.
#[inline]
fn aims_at(to: Square, ksq: Square) -> bool {
    to.file() == ksq.file() || to.rank() == ksq.rank()
}
