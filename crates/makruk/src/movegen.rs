//! Legal move generation.
//!
//! Moves are produced as sets of target squares (per piece, and for all
//! unpinned bias at once), so that perft can count them without listing
//! them (bulk counting). The ruea is the only
//! sliding piece, so only rueas pin and only rueas check from a distance.

use crate::attacks::{
    between, khon_attacks, king_attacks, king_leaps, knight_attacks, line, met_attacks,
    pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square, Variant};

/// Receives legal moves in bulk, as sets of destination squares.
pub(crate) trait MoveSink {
    /// A piece on `from` of `role` may move to every square of `to`.
    fn piece(&mut self, from: Square, role: Role, to: Bitboard);
    /// Unpinned bias may move to every square of `to`, each coming from
    /// the square `delta` below it (in square indices).
    fn pawns(&mut self, to: Bitboard, delta: i8);
    /// The khun's targets the sink wants (the others need not be checked
    /// for safety).
    #[inline(always)]
    fn king_targets(&self) -> Bitboard {
        Bitboard::FULL
    }
}

/// Counts moves without listing them.
struct Counter(usize);

impl MoveSink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, _role: Role, to: Bitboard) {
        self.0 += to.count() as usize;
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _delta: i8) {
        self.0 += to.count() as usize;
    }
}

/// Lists moves, marking promotions.
struct Lister {
    list: MoveList,
    promotion_rank: Bitboard,
}

impl MoveSink for Lister {
    #[inline(always)]
    fn piece(&mut self, from: Square, role: Role, to: Bitboard) {
        let promotes = if role == Role::Pawn {
            self.promotion_rank
        } else {
            Bitboard::EMPTY
        };
        for sq in to {
            self.list.push(Move::new(from, sq, promotes.contains(sq)));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) {
        for sq in to {
            let from = Square::from_index((sq.index() as i32 - delta as i32) as u32);
            self.list
                .push(Move::new(from, sq, self.promotion_rank.contains(sq)));
        }
    }
}

/// Appends moves to a vector, keeping only those landing on `keep` (and,
/// for bias, those landing on `keep_pawn`), in generation order.
struct Appender<'a> {
    out: &'a mut Vec<Move>,
    promotion_rank: Bitboard,
    keep: Bitboard,
    keep_pawn: Bitboard,
}

impl MoveSink for Appender<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, role: Role, to: Bitboard) {
        let (to, promotes) = if role == Role::Pawn {
            (to & self.keep_pawn, self.promotion_rank)
        } else {
            (to & self.keep, Bitboard::EMPTY)
        };
        self.out.reserve(to.count() as usize);
        for sq in to {
            self.out.push(Move::new(from, sq, promotes.contains(sq)));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) {
        let to = to & self.keep_pawn;
        self.out.reserve(to.count() as usize);
        for sq in to {
            let from = Square::from_index((sq.index() as i32 - delta as i32) as u32);
            self.out
                .push(Move::new(from, sq, self.promotion_rank.contains(sq)));
        }
    }
    #[inline(always)]
    fn king_targets(&self) -> Bitboard {
        self.keep
    }
}

/// The rank (0-based, White's view) where `color`'s bias promote.
#[inline]
pub(crate) fn promotion_rank(color: Color) -> u8 {
    color.fold(5, 2)
}

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

impl Position {
    /// Sends every legal move to `sink`.
    #[inline(always)]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours | theirs;
        let ksq = self.king_of(us);

        // Khun moves: never onto an attacked square (the khun itself does
        // not block a ruea's ray through it).
        let without_king = occupied.without(ksq);
        let mut king_targets = king_attacks(ksq) & !ours & sink.king_targets();
        if self.variant == Variant::Cambodian
            && self.special_rights.contains(ksq)
            && self.checkers.is_empty()
        {
            king_targets |= king_leaps(us, ksq) & !occupied & sink.king_targets();
        }
        let mut safe = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked(to, them, without_king) {
                safe = safe.with(to);
            }
        }
        if safe.any() {
            sink.piece(ksq, Role::King, safe);
        }

        let target = match self.checkers.single() {
            _ if self.checkers.more_than_one() => return,
            Some(checker) => between(ksq, checker).with(checker),
            None => !ours,
        };
        let pinned = self.pinned(us, ksq, occupied);
        let restrict = |from: Square, to: Bitboard| {
            if pinned.contains(from) {
                to & line(ksq, from)
            } else {
                to
            }
        };

        // Bias: unpinned ones all at once, pinned ones one by one.
        let pawns = self.pieces(us, Role::Pawn);
        let free = (pawns & !pinned).0;
        let empty_target = (!occupied & target).0;
        let capture_target = (theirs & target).0;
        let (push, west, east) = match us {
            Color::White => (
                free << 8,
                (free & NOT_FILE_A) << 7,
                (free & NOT_FILE_H) << 9,
            ),
            Color::Black => (
                free >> 8,
                (free & NOT_FILE_A) >> 9,
                (free & NOT_FILE_H) >> 7,
            ),
        };
        let (d_push, d_west, d_east) = us.fold((8, 7, 9), (-8, -9, -7));
        for (to, delta) in [
            (push & empty_target, d_push),
            (west & capture_target, d_west),
            (east & capture_target, d_east),
        ] {
            if to != 0 {
                sink.pawns(Bitboard(to), delta);
            }
        }
        for from in pawns & pinned {
            let push = from
                .offset(0, us.fold(1, -1))
                .map_or(Bitboard::EMPTY, Bitboard::from_square)
                & !occupied;
            let to = (push | (pawn_attacks(us, from) & theirs)) & target & line(ksq, from);
            if to.any() {
                sink.piece(from, Role::Pawn, to);
            }
        }

        let movable = !ours & target;
        // A pinned ma can never move: every ma move leaves the pin line.
        for from in self.pieces(us, Role::Knight) & !pinned {
            let to = knight_attacks(from) & movable;
            if to.any() {
                sink.piece(from, Role::Knight, to);
            }
        }
        for from in self.pieces(us, Role::Rook) {
            let to = restrict(from, rook_attacks(from, occupied) & movable);
            if to.any() {
                sink.piece(from, Role::Rook, to);
            }
        }
        for from in self.pieces(us, Role::Khon) {
            let to = restrict(from, khon_attacks(us, from) & movable);
            if to.any() {
                sink.piece(from, Role::Khon, to);
            }
        }
        for from in self.pieces(us, Role::Met) {
            let mut to = met_attacks(from);
            // Ouk Chatrang: an unmoved met may step two squares straight
            // forward to an empty square (the square between may be
            // occupied, as in Fairy-Stockfish).
            if self.special_rights.contains(from) {
                if let Some(two) = from.offset(0, us.fold(2, -2)) {
                    if !occupied.contains(two) {
                        to = to.with(two);
                    }
                }
            }
            let to = restrict(from, to & movable);
            if to.any() {
                sink.piece(from, Role::Met, to);
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
        let mut lister = Lister {
            list: MoveList::new(),
            promotion_rank: Bitboard::rank(promotion_rank(self.turn)),
        };
        self.generate(&mut lister);
        lister.list
    }

    /// Appends every legal move to `out`, in the order of
    /// [`Position::legal_moves`].
    pub fn extend_legal_moves(&self, out: &mut Vec<Move>) {
        let mut sink = Appender {
            out,
            promotion_rank: Bitboard::rank(promotion_rank(self.turn)),
            keep: Bitboard::FULL,
            keep_pawn: Bitboard::FULL,
        };
        self.generate(&mut sink);
    }

    /// Appends the legal captures and promotions to `out`: exactly the
    /// moves of [`Position::legal_moves`] that [`Position::is_capture`] or
    /// [`Move::is_promotion`] picks out, in the same order.
    pub fn extend_noisy_moves(&self, out: &mut Vec<Move>) {
        let promotion_rank = Bitboard::rank(promotion_rank(self.turn));
        let theirs = self.by_color(!self.turn);
        let mut sink = Appender {
            out,
            promotion_rank,
            keep: theirs,
            keep_pawn: theirs | promotion_rank,
        };
        self.generate(&mut sink);
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
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
