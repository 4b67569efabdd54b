//! Legal move generation.
//!
//! Moves are produced per piece as a set of target squares, so that perft
//! can count them without listing them (bulk counting). The ruea is the only
//! sliding piece, so only rueas pin and only rueas check from a distance.

use crate::attacks::{
    between, khon_attacks, king_attacks, king_leaps, knight_attacks, line, met_attacks,
    pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square, Variant};

/// The legal moves of one piece: every square in `to` is a destination.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PieceMoves {
    pub from: Square,
    pub role: Role,
    pub to: Bitboard,
}

/// The rank (0-based, White's view) where `color`'s bias promote.
#[inline]
pub(crate) fn promotion_rank(color: Color) -> u8 {
    color.fold(5, 2)
}

impl Position {
    /// Calls `visit` with the legal moves of each piece that has some.
    #[inline]
    pub(crate) fn for_each_piece_moves(&self, mut visit: impl FnMut(PieceMoves)) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color(us);
        let occupied = self.occupied();
        let ksq = self.king_of(us);

        // Khun moves: never onto an attacked square (the khun itself does
        // not block a ruea's ray through it).
        let without_king = occupied.without(ksq);
        let mut king_targets = king_attacks(ksq) & !ours;
        if self.variant == Variant::Cambodian
            && self.special_rights.contains(ksq)
            && self.checkers.is_empty()
        {
            king_targets |= king_leaps(us, ksq) & !occupied;
        }
        let mut safe = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked(to, them, without_king) {
                safe = safe.with(to);
            }
        }
        if safe.any() {
            visit(PieceMoves {
                from: ksq,
                role: Role::King,
                to: safe,
            });
        }

        let target = match self.checkers.single() {
            _ if self.checkers.more_than_one() => return,
            Some(checker) => between(ksq, checker).with(checker),
            None => !ours,
        };

        let pinned = self.pinned(us, ksq, occupied);
        let theirs = self.by_color(them);
        let forward = |sq: Square| sq.offset(0, us.fold(1, -1));
        for from in ours.without(ksq) {
            let role = self.board[from.index()].expect("our squares hold pieces");
            let mut to = match role {
                Role::Pawn => {
                    let push =
                        forward(from).map_or(Bitboard::EMPTY, Bitboard::from_square) & !occupied;
                    push | (pawn_attacks(us, from) & theirs)
                }
                Role::Met => {
                    let mut t = met_attacks(from);
                    // Ouk Chatrang: an unmoved met may step two squares
                    // straight forward to an empty square (the square between
                    // may be occupied, as in Fairy-Stockfish).
                    if self.special_rights.contains(from) {
                        if let Some(two) = from.offset(0, us.fold(2, -2)) {
                            if !occupied.contains(two) {
                                t = t.with(two);
                            }
                        }
                    }
                    t
                }
                Role::Khon => khon_attacks(us, from),
                Role::Knight => knight_attacks(from),
                Role::Rook => rook_attacks(from, occupied),
                Role::King => Bitboard::EMPTY,
            };
            to &= target & !ours;
            if pinned.contains(from) {
                to &= line(ksq, from);
            }
            if to.any() {
                visit(PieceMoves { from, role, to });
            }
        }
    }

    /// `us`'s pieces pinned to the khun on `ksq` by enemy rueas.
    #[inline]
    fn pinned(&self, us: Color, ksq: Square, occupied: Bitboard) -> Bitboard {
        let snipers = rook_attacks(ksq, Bitboard::EMPTY) & self.pieces(!us, Role::Rook);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(ksq, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let promo_rank = Bitboard::rank(promotion_rank(self.turn));
        self.for_each_piece_moves(|pm| {
            let promotes = if pm.role == Role::Pawn {
                promo_rank
            } else {
                Bitboard::EMPTY
            };
            for to in pm.to {
                list.push(Move::new(pm.from, to, promotes.contains(to)));
            }
        });
        list
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_piece_moves(|pm| n += pm.to.count() as usize);
        n
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }
}
